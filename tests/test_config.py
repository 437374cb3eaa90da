"""The Streamlit configuration `make run` and the image use: options Streamlit knows,
set as the deployment needs them."""

from __future__ import annotations

import tomllib
from pathlib import Path

from streamlit import config as st_config

CONFIG = Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml"


def _options() -> dict[str, object]:
    raw = tomllib.loads(CONFIG.read_text("utf-8"))
    out: dict[str, object] = {}
    for section, values in raw.items():
        for name, value in values.items():
            if not isinstance(value, dict):
                out[f"{section}.{name}"] = value
    return out


def test_every_option_is_one_streamlit_knows() -> None:
    known = set(st_config._config_options_template)  # the options Streamlit defines
    unknown = [o for o in _options() if o not in known]
    assert unknown == []


def test_the_server_watches_no_files_and_stays_on_this_machine() -> None:
    options = _options()
    # the default watcher follows every file of the checkout: CPU and log noise
    assert options["server.fileWatcherType"] == "none"
    assert options["server.address"] == "localhost"
    assert options["browser.gatherUsageStats"] is False
    assert options["runner.postScriptGC"] is False
