"""Legend swatches: small SVG pictures (as data URLs) drawn from the view's own styles.

Only colours (checked against a strict pattern), numbers and shape names from the view's
style tables go into the SVG; a label from the data never does.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

_COLOR = re.compile(r"^(#[0-9A-Fa-f]{3,8}|rgba?\(\s*[\d.]+\s*(,\s*[\d.]+\s*){2,3}\))$")
SIZE = 22
DEFAULT_FILL = "#9E9E9E"


def _color(value: Any, fallback: str) -> str:
    """``value`` if it is a plain CSS colour, else ``fallback``.

    >>> _color("#0072B2", "#000"), _color("red;}</svg><script>", "#000")
    ('#0072B2', '#000')
    """
    return value if isinstance(value, str) and _COLOR.match(value.strip()) else fallback


def _num(value: Any, fallback: float, lo: float = 0, hi: float = 12) -> float:
    return min(hi, max(lo, float(value))) if isinstance(value, int | float) else fallback


def _url(body: str) -> str:
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
           f'viewBox="0 0 {SIZE} {SIZE}">{body}</svg>')
    return "data:image/svg+xml," + quote(svg)


def _shape(shape: str, paint: str) -> str:
    c, r = SIZE / 2, SIZE / 2 - 4
    if shape in ("square", "box"):
        return f'<rect x="{c - r}" y="{c - r}" width="{2 * r}" height="{2 * r}" {paint}/>'
    if shape == "diamond":
        return f'<polygon points="{c},{c - r} {c + r},{c} {c},{c + r} {c - r},{c}" {paint}/>'
    if shape == "hexagon":
        pts = " ".join(f"{c + r * x:.1f},{c + r * y:.1f}" for x, y in (
            (1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87)))
        return f'<polygon points="{pts}" {paint}/>'
    return f'<circle cx="{c}" cy="{c}" r="{r}" {paint}/>'


def node_swatch(style: dict[str, Any], fill: str = DEFAULT_FILL,
                border: str = "#616161") -> str:
    """A node drawn with vis-network ``style`` (shape, background, border, borderWidth,
    borderDashes, opacity) as a data URL.

    >>> node_swatch({"shape": "square"}, "#0072B2").startswith("data:image/svg+xml,")
    True
    """
    fill = _color(style.get("background"), _color(fill, DEFAULT_FILL))
    stroke = _color(style.get("border"), _color(border, "#616161"))
    width = _num(style.get("borderWidth"), 1.5, 0.5, 4)
    dashes = style.get("borderDashes")
    dash = ""
    if isinstance(dashes, list) and dashes:
        dash = f' stroke-dasharray="{",".join(str(_num(d, 2, 1, 8)) for d in dashes)}"'
    opacity = _num(style.get("opacity"), 1.0, 0.1, 1.0)
    paint = (f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dash} '
             f'opacity="{opacity}"')
    glow = ""
    shadow = style.get("shadow")
    if isinstance(shadow, dict) and shadow.get("enabled"):
        glow = (f'<circle cx="{SIZE / 2}" cy="{SIZE / 2}" r="{SIZE / 2 - 1}" fill="none" '
                f'stroke="{_color(shadow.get("color"), stroke)}" stroke-width="2"/>')
    return _url(glow + _shape(str(style.get("shape", "dot")), paint))


def edge_swatch(style: dict[str, Any]) -> str:
    """An edge kind's line (colour, width, dashes, arrow) as a data URL."""
    color = style.get("color")
    stroke = _color(color.get("color") if isinstance(color, dict) else color, "#777777")
    width = _num(style.get("width"), 1.5, 0.5, 4)
    dashes = style.get("dashes")
    dash = ""
    if isinstance(dashes, list) and dashes:
        dash = f' stroke-dasharray="{",".join(str(_num(d, 2, 1, 8)) for d in dashes)}"'
    y = SIZE / 2
    body = (f'<line x1="2" y1="{y}" x2="{SIZE - 4}" y2="{y}" stroke="{stroke}" '
            f'stroke-width="{width}"{dash}/>')
    if style.get("arrows"):
        body += (f'<polygon points="{SIZE - 2},{y} {SIZE - 8},{y - 4} {SIZE - 8},{y + 4}" '
                 f'fill="{stroke}"/>')
    return _url(body)
