"""A collapsed cluster's hexagon: its size and the box it takes with its label under it.
One rule for the overview's hexagons (:mod:`memscope.view.budget`) and the places a long
chain's hexagons get along a line (:mod:`memscope.view.lines`)."""

from __future__ import annotations

import math

#: graph units kept between two hexagons' boxes
HEX_GAP = 14.0
#: a hexagon's label under it, at zoom 1: its height and its width per character (an
#: estimate of the 16 px cluster font's)
HEX_LABEL_H, HEX_LABEL_CHAR = 22.0, 8.5


def hexagon_size(count: int) -> float:
    """The drawn size (radius) of a hexagon of ``count`` members: it grows by 6 with each
    doubling.

    >>> hexagon_size(1), hexagon_size(8)
    (14.0, 32.0)
    """
    return round(14 + 6 * math.log2(max(count, 1)), 1)


def hexagon_box(size: float, label: str) -> tuple[float, float]:
    """The width and height of a hexagon of ``size`` with ``label`` under it, the gap
    around included.

    >>> hexagon_box(20.0, "ab")
    (54.0, 76.0)
    """
    return (max(2 * size, HEX_LABEL_CHAR * len(label)) + HEX_GAP,
            2 * size + HEX_LABEL_H + HEX_GAP)


__all__ = ["HEX_GAP", "HEX_LABEL_CHAR", "HEX_LABEL_H", "hexagon_box", "hexagon_size"]
