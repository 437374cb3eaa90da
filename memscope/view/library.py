"""The vendored vis-network build (no CDN), read once for the HTML export.

The file ships in the graph component's browser files, the ``memscope-graph-frontend``
package (``components/graph_view/frontend/assets/``, installed by ``make install``), whose
folder Streamlit serves to the browser. That package is data only (no code, no Streamlit),
so the core reads the file from it without depending on the UI.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

#: the package that holds the file, and the file's name in its ``assets/`` folder
PACKAGE = "memscope_graph_frontend"
FILE_NAME = "vis-network.min.js"


def asset_file(name: str, what: str) -> Path:
    """Where the graph's browser file ``name`` is (in the package's ``assets/``); one
    sentence naming ``what`` is missing when it is not there."""
    try:
        path = Path(str(resources.files(PACKAGE) / "assets" / name))
    except ModuleNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise FileNotFoundError(f"{what} is missing: the {PACKAGE} package is not "
                                "installed; run `make install`.")
    return path


def vendor_file() -> Path:
    """Where vis-network's standalone UMD build is; one sentence when it is missing."""
    return asset_file(FILE_NAME, "vis-network")


@functools.lru_cache(maxsize=1)
def vis_network_js() -> str:
    """The library's source without its source-map reference (the map is not shipped).

    Split on ``"\\n"`` only: the build has U+2028 and friends inside string literals.

    >>> "vis" in vis_network_js() and "sourceMappingURL" not in vis_network_js()[-200:]
    True
    """
    text = vendor_file().read_text(encoding="utf-8")
    head, _, last = text.rstrip("\n").rpartition("\n")
    return head if last.startswith("//# sourceMappingURL=") else text
