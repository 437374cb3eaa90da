"""The colour groups' palette stays distinguishable, measured (CIEDE2000), not by eye.

Why these minimums: a CIEDE2000 difference of about 1 is just noticeable between two large
patches side by side; the graph shows its colours as small marks (a memory is a 10–20 px
dot at the fitted zoom, a legend swatch 12 px), far apart on the canvas, and for marks
that small the difference people need to tell two categories apart grows several-fold
(Szafir 2018, "Modeling Color Difference for Visualization Design", measured about 5–6
ΔE for reliable discrimination of small marks, more with distance between them). So:

- between any two of the 20 fills, and between a fill and a colour the graph reserves for
  another meaning (warnings, "recent", the greys): at least 15 — three times that bar,
  so two groups never pass for one even as tiny dots across the canvas;
- between a fill and either theme's background: at least 25 — a node must stand out
  from the canvas more than from its neighbours (the edges and labels help less there).

The fills as drawn in dark mode are the fills themselves: the graph component lightens a
fill only when its WCAG contrast on the dark background is under 2.0, and none is.
"""

from __future__ import annotations

import itertools

import pytest

from memscope.view import colors, groups, style
from memscope.view.palette import (
    DARK_BG,
    DARK_CONTRAST,
    LIGHT_BG,
    PALETTE,
    RESERVED,
    contrast,
    delta_e_2000,
    lab,
    min_delta,
)

PAIR_MIN = 15.0
BACKGROUND_MIN = 25.0


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    # Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula", table 1
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),  # hue wrap-around
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
    ((22.7233, 20.0904, -46.694), (23.0331, 14.973, -42.5619), 2.0373),
])
def test_the_measure_matches_the_published_test_data(lab1, lab2, expected) -> None:
    from memscope.view.palette import delta_e_lab
    assert delta_e_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert delta_e_lab(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_srgb_to_lab_known_points() -> None:
    assert lab("#FFFFFF") == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert lab("#000000") == pytest.approx((0.0, 0.0, 0.0), abs=0.01)
    assert lab("#FF0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert delta_e_2000("#777777", "#777777") == 0.0


def test_twenty_fills_apart_from_each_other_and_from_reserved_colours() -> None:
    assert len(PALETTE) == 20 and len(set(PALETTE)) == 20
    worst = min(itertools.combinations(PALETTE, 2), key=lambda p: delta_e_2000(*p))
    assert delta_e_2000(*worst) >= PAIR_MIN, worst
    assert min_delta(PALETTE, [*RESERVED, colors.NEUTRAL, colors.OTHER_COLOR,
                               *colors.STATE_BORDERS.values(), *colors.STATE_FILLS.values()]
                     ) >= PAIR_MIN


@pytest.mark.parametrize("background", [LIGHT_BG, DARK_BG])
def test_every_fill_stands_out_on_both_backgrounds(background: str) -> None:
    assert min(delta_e_2000(c, background) for c in PALETTE) >= BACKGROUND_MIN


def test_the_dark_theme_draws_the_fills_unchanged() -> None:
    # theme.js's readable(): a fill under 2.0 contrast on the dark background is mixed
    # towards white, which could bring two fills together; none is under it
    assert DARK_CONTRAST == 2.0
    assert min(contrast(c, DARK_BG) for c in PALETTE) >= DARK_CONTRAST


def test_the_view_colours_groups_with_this_palette() -> None:
    assert style.PALETTE == PALETTE
    assert groups.palette_of([f"c{i}" for i in range(22)])["c0"] == PALETTE[0]
