"""The vendored vis-network build (no CDN), read once for the component and the HTML export."""

from __future__ import annotations

import functools
from pathlib import Path

#: vis-network's standalone UMD build, shipped as package data of ``memscope.view``
VENDOR_FILE = Path(__file__).resolve().parent / "vendor" / "vis-network.min.js"


@functools.lru_cache(maxsize=1)
def vis_network_js() -> str:
    """The library's source without its source-map reference (the map is not shipped).

    Split on ``"\\n"`` only: the build has U+2028 and friends inside string literals.

    >>> "vis" in vis_network_js() and "sourceMappingURL" not in vis_network_js()[-200:]
    True
    """
    text = VENDOR_FILE.read_text(encoding="utf-8")
    head, _, last = text.rstrip("\n").rpartition("\n")
    return head if last.startswith("//# sourceMappingURL=") else text
