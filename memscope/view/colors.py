"""Every colour with a meaning of its own, written once: the states', the change marks',
the recall buckets', the greys; and the one way a border is darkened from a fill.

The warnings and the changes use Okabe–Ito colours (told apart with colour-vision
deficiencies). The colour groups' palette (:mod:`memscope.view.palette`) keeps away from
the colours the graph reserves for these meanings (:data:`RESERVED`).

>>> darker("#FFFFFF"), STATE_BORDERS["expiring"] == CHANGE_COLORS["added"]
('#9E9E9E', False)
"""

from __future__ import annotations

import functools

from memscope.view.payload import NodeColor

#: Okabe–Ito
AMBER = "#E69F00"
VERMILION = "#D55E00"
BLUE = "#0072B2"
GREEN = "#009E73"
PINK = "#CC79A7"
#: an expired memory's border (a darker vermilion)
DARK_RED = "#8A2A00"
#: no group: unlinked nodes, no space, no document
NEUTRAL = "#DDDDDD"
#: the groups past the palette together; the same grey says "never recalled" and "the
#: same on both sides"
GREY = "#9E9E9E"
OTHER_COLOR = GREY
#: a forgotten memory: its fill, border and label
FORGOTTEN_FILL, FORGOTTEN_BORDER, FORGOTTEN_TEXT = "#E4E4E4", "#9A9A9A", "#8C8C8C"
FORGOTTEN_COLOR: NodeColor = {"background": FORGOTTEN_FILL, "border": FORGOTTEN_BORDER}
#: how :func:`memscope.view.paint.highlight` marks a node's border
HIGHLIGHT_BORDER = "#000000"

#: state → the border that replaces the colour group's (an expiring memory keeps its fill
#: inside a thick amber ring; an expired one is filled red with a dark-red border)
STATE_BORDERS = {"expiring": AMBER, "expired": DARK_RED, "recent": BLUE}
#: states whose fill replaces the colour group's
STATE_FILLS = {"expired": VERMILION, "forgotten": FORGOTTEN_FILL}

#: change kind → colour, for "changes since" (:func:`memscope.view.paint.mark_changes`)
CHANGE_COLORS = {"added": GREEN, "updated": BLUE, "forgotten": VERMILION}
#: a difference between two datasets (:mod:`memscope.lenses.compare`) → the change-mark
#: colour of the same meaning
DIFFERENCE_COLORS = {"added": CHANGE_COLORS["added"], "changed": CHANGE_COLORS["updated"],
                     "removed": CHANGE_COLORS["forgotten"]}
#: what is the same on both sides of a comparison
UNCHANGED_FILL = GREY

#: recall count bucket (:data:`memscope.reports.recall.BUCKETS`' keys) → fill: grey for
#: never, then a sequential blue-green that reads on both themes
RECALL_COLORS = {"0": GREY, "1": "#A1DAB4", "2-3": "#41B6C4", "4+": "#225EA8"}

#: colours with a meaning of their own in the graph, which the palette keeps away from:
#: the expiring ring, the expired fill and border, the "recent" glow, the neutral, the
#: "other groups" and the forgotten greys
RESERVED = (AMBER, VERMILION, DARK_RED, BLUE, NEUTRAL, GREY, FORGOTTEN_FILL)


def hex_rgb(color: str) -> tuple[int, int, int]:
    """``#rrggbb`` → (r, g, b) in 0–255."""
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def rgba(color: str, alpha: float) -> str:
    """``#rrggbb`` with an opacity, as a CSS ``rgba()`` value.

    >>> rgba(BLUE, 0.85)
    'rgba(0,114,178,0.85)'
    """
    r, g, b = hex_rgb(color)
    return f"rgba({r},{g},{b},{alpha:g})"


@functools.lru_cache(maxsize=1024)
def darker(color: str, factor: float = 0.62) -> str:
    """``color`` (``#rrggbb``) darkened: the border drawn around a fill (remembered: a
    view asks for a few colours only)."""
    r, g, b = hex_rgb(color)
    return "#{:02X}{:02X}{:02X}".format(*(int(c * factor) for c in (r, g, b)))


__all__ = ["AMBER", "BLUE", "CHANGE_COLORS", "DARK_RED", "DIFFERENCE_COLORS",
           "FORGOTTEN_BORDER", "FORGOTTEN_COLOR", "FORGOTTEN_FILL", "FORGOTTEN_TEXT", "GREEN",
           "GREY", "HIGHLIGHT_BORDER", "NEUTRAL", "OTHER_COLOR", "PINK", "RECALL_COLORS",
           "RESERVED", "STATE_BORDERS", "STATE_FILLS", "UNCHANGED_FILL", "VERMILION", "darker",
           "hex_rgb", "rgba"]
