"""Issue 32: a primary button's label is readable in light and dark (WCAG contrast of at
least 4.5:1), computed from the colours ``.streamlit/config.toml`` gives Streamlit."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".streamlit" / "config.toml"
ASSETS = ROOT / "components" / "assets"
#: what Streamlit 1.67 paints a primary button's label with (``theme.colors.white``)
BUTTON_TEXT = "#ffffff"
#: Streamlit's default backgrounds, where the theme does not set one
BACKGROUNDS = {"light": "#ffffff", "dark": "#0e1117"}


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a ``#rrggbb`` colour."""
    channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _theme(mode: str) -> dict[str, object]:
    return tomllib.loads(CONFIG.read_text("utf-8"))["theme"][mode]


def test_contrast_formula_matches_known_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#56B4E9", "#ffffff") == pytest.approx(2.31, abs=0.01)  # the old dark


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_primary_button_label_is_readable(mode: str) -> None:
    theme = _theme(mode)
    primary = str(theme["primaryColor"])
    assert contrast(primary, BUTTON_TEXT) >= 4.5, (mode, primary)
    background = str(theme.get("backgroundColor", BACKGROUNDS[mode]))
    # the button itself (a control) stands out from the page: WCAG's 3:1 for components
    assert contrast(primary, background) >= 3, (mode, primary)


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_links_are_readable_on_the_background(mode: str) -> None:
    theme = _theme(mode)
    link = str(theme.get("linkColor", theme["primaryColor"]))
    background = str(theme.get("backgroundColor", BACKGROUNDS[mode]))
    assert contrast(link, background) >= 4.5, (mode, link)


def test_no_stylesheet_recolours_primary_buttons() -> None:
    """The contrast above is what shows: no CSS of ours paints primary buttons."""
    for sheet in ASSETS.glob("*.css"):
        assert not re.search(r"primary", sheet.read_text("utf-8"), re.IGNORECASE), sheet
