"""The colour groups' palette and the colour-difference measure it was chosen with.

Twenty fills, one per colour group (the largest groups first), that stay apart from each
other and from both themes' backgrounds: chosen by :func:`search` (greedy max–min
CIEDE2000 over an sRGB grid, then swaps that raise the smallest difference), kept as
literals so a view never depends on a search. Every fill has a WCAG contrast of at least
:data:`DARK_CONTRAST` on the dark background, so the graph component, which lightens
fills under 2.0 there (``theme.js``'s ``readable``), draws each one unchanged in both
themes. They also stay apart from the colours the graph reserves for other meanings
(:data:`~memscope.view.colors.RESERVED`: the warning amber and red, the "recent" blue,
the neutral greys).

>>> round(delta_e_2000("#000000", "#FFFFFF"), 1)
100.0
>>> len(PALETTE), len(set(PALETTE))
(20, 20)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from memscope.view.colors import RESERVED, hex_rgb

Lab = tuple[float, float, float]

#: Streamlit's light and dark backgrounds (the graph canvas is transparent over them)
LIGHT_BG = "#FFFFFF"
DARK_BG = "#0E1117"
#: the contrast the graph component needs on the dark background to leave a fill as is
DARK_CONTRAST = 2.0

#: the palette (see the module docstring; :func:`search` gives it again)
PALETTE = ("#3C6900", "#C31EA5", "#5AF078", "#E178FF", "#FF5A78", "#00F0E1", "#96A5F0",
           "#785A0F", "#00695A", "#5AD2FF", "#F0A587", "#694B69", "#1EA578", "#5A4BC3",
           "#A57896", "#E1E13C", "#96964B", "#0096A5", "#B42D4B", "#FFB4D2")


def _linear(c: float) -> float:
    c /= 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


@functools.lru_cache(maxsize=8192)
def lab(color: str) -> Lab:
    """CIELAB (D65) of an sRGB ``#rrggbb`` colour."""
    r, g, b = (_linear(v) for v in hex_rgb(color))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e_lab(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu & Dalal 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6))
         - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dhh / s_h) ** 2
                     + r_t * (dc / s_c) * (dhh / s_h))


def delta_e_2000(color1: str, color2: str) -> float:
    """CIEDE2000 difference of two ``#rrggbb`` colours (0 = the same; ~1 = just noticeable
    on large patches)."""
    return delta_e_lab(lab(color1), lab(color2))


def luminance(color: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    r, g, b = (_linear(v) for v in hex_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(color1: str, color2: str) -> float:
    """WCAG contrast ratio (1–21) of two ``#rrggbb`` colours."""
    hi, lo = sorted((luminance(color1), luminance(color2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def min_delta(colors: Sequence[str], others: Iterable[str] = ()) -> float:
    """The smallest CIEDE2000 difference between two of ``colors``, or between one of
    them and one of ``others``."""
    others = list(others)
    pairs = [delta_e_2000(a, b) for i, a in enumerate(colors) for b in colors[i + 1:]]
    pairs += [delta_e_2000(a, o) for a in colors for o in others]
    return min(pairs, default=math.inf)


#: what :func:`search` keeps of the sRGB grid: ΔE from either background at least
#: BG_DELTA, a contrast of at least SEARCH_CONTRAST on the dark one (a margin over
#: :data:`DARK_CONTRAST`), CIELAB lightness at most L_MAX (no near-white), chroma between
#: C_MIN (no greys: grey means "no group" or "other groups") and C_MAX (no neon)
BG_DELTA, SEARCH_CONTRAST, L_MAX, C_MIN, C_MAX = 25.0, 2.5, 88.0, 20.0, 80.0


def candidates(step: int = 15) -> list[str]:
    """The sRGB grid of ``step`` kept by :func:`search`'s rules (see above)."""
    levels = range(0, 256, step)
    out = []
    for c in (f"#{r:02X}{g:02X}{b:02X}" for r in levels for g in levels for b in levels):
        light, a, b = lab(c)
        if (light <= L_MAX and C_MIN <= math.hypot(a, b) <= C_MAX
                and contrast(c, DARK_BG) >= SEARCH_CONTRAST
                and delta_e_2000(c, LIGHT_BG) >= BG_DELTA
                and delta_e_2000(c, DARK_BG) >= BG_DELTA):
            out.append(c)
    return out


def search(n: int = 20, step: int = 15, rounds: int = 3) -> tuple[str, ...]:
    """A palette of ``n`` fills (deterministic; about 20 s): of :func:`candidates`,
    greedily the fill farthest (largest smallest CIEDE2000) from those chosen, the two
    backgrounds and :data:`RESERVED`; then ``rounds`` passes that swap a fill for the best
    other one whenever that raises its smallest difference."""
    cands = candidates(step)
    labs = {c: lab(c) for c in cands}
    fixed = [lab(c) for c in (LIGHT_BG, DARK_BG, *RESERVED)]
    near = {c: min(delta_e_lab(labs[c], f) for f in fixed) for c in cands}
    chosen: list[str] = []
    best = dict(near)
    for _ in range(n):
        pick = max(cands, key=lambda c: (best[c], c))
        chosen.append(pick)
        for c in cands:
            best[c] = min(best[c], delta_e_lab(labs[c], labs[pick]))
    for _ in range(rounds):
        for i in range(n):
            rest = chosen[:i] + chosen[i + 1:]

            def score(c: str, rest: list[str] = rest) -> float:
                return min([near[c], *(delta_e_lab(labs[c], labs[o]) for o in rest)])

            top = max(cands, key=lambda c: (score(c), c))
            if score(top) > score(chosen[i]):
                chosen[i] = top
    return tuple(chosen)


__all__ = ["DARK_BG", "DARK_CONTRAST", "LIGHT_BG", "PALETTE", "RESERVED", "candidates",
           "contrast", "delta_e_2000", "delta_e_lab", "lab", "min_delta", "search"]
