"""Tile diagrams drawn in code as SVG: a tile is two squares with pips.

The drawings are plain SVG 1.1 (no CSS, no scripts, no external references)
so that WeasyPrint and every browser render them alike. Sizes are in user
units; the sheet scales each drawing with its ``width``/``height``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from html import escape

#: The side of one half of a tile, in user units.
UNIT = 20.0

_A, _M, _B = 0.26, 0.5, 0.74
_SIX = [(_A, _A), (_A, _M), (_A, _B), (_B, _A), (_B, _M), (_B, _B)]
_ROWS4 = (0.2, 0.4, 0.6, 0.8)

#: Where the pips of each number sit in a unit square (x, y).
PIPS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(_M, _M)],
    2: [(_A, _A), (_B, _B)],
    3: [(_A, _A), (_M, _M), (_B, _B)],
    4: [(_A, _A), (_B, _A), (_A, _B), (_B, _B)],
    5: [(_A, _A), (_B, _A), (_A, _B), (_B, _B), (_M, _M)],
    6: _SIX,
    7: [*_SIX, (_M, _M)],
    8: [*_SIX, (_M, _A), (_M, _B)],
    9: [*_SIX, (_M, _A), (_M, _M), (_M, _B)],
    10: [(x, y) for x in (_A, _B) for y in _ROWS4] + [(_M, 0.35), (_M, 0.65)],
    11: [(x, y) for x in (_A, _B) for y in _ROWS4] + [(_M, 0.25), (_M, _M), (_M, 0.75)],
    12: [(x, y) for x in (_A, _M, _B) for y in _ROWS4],
}

INK = "#1f2328"
FACE = "#ffffff"
MATADOR_FACE = "#fbecc8"
MATADOR_INK = "#6b4a00"
GHOST = "#7a7f87"
DEAD = "#b3261e"


class Style(str, Enum):
    """How a tile is drawn."""

    PLAIN = "plain"
    MATADOR = "matador"
    NEXT = "next"


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def _half(value: int, x: float, y: float, size: float, color: str) -> list[str]:
    """The pips (or, past twelve, the number) of one half whose corner is (x, y)."""
    if value in PIPS:
        radius = size * (0.085 if value <= 9 else 0.07)
        return [
            f'<circle cx="{_num(x + px * size)}" cy="{_num(y + py * size)}" '
            f'r="{_num(radius)}" fill="{color}"/>'
            for px, py in PIPS[value]
        ]
    return [
        f'<text x="{_num(x + size / 2)}" y="{_num(y + size * 0.68)}" text-anchor="middle" '
        f'font-family="DejaVu Sans" font-size="{_num(size * 0.5)}" fill="{color}">{value}</text>'
    ]


def tile(
    first: int,
    second: int,
    x: float,
    y: float,
    *,
    vertical: bool = False,
    style: Style = Style.PLAIN,
    size: float = UNIT,
) -> str:
    """A tile with ``first`` on its left (or top) half and ``second`` on the other."""
    width, height = (size, 2 * size) if vertical else (2 * size, size)
    if style is Style.MATADOR:
        face, ink, dash = MATADOR_FACE, MATADOR_INK, ""
    elif style is Style.NEXT:
        pattern = f"{_num(size * 0.18)} {_num(size * 0.12)}"
        face, ink, dash = "none", GHOST, f' stroke-dasharray="{pattern}"'
    else:
        face, ink, dash = FACE, INK, ""
    parts = [
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}" '
        f'rx="{_num(size * 0.14)}" fill="{face}" stroke="{ink}" '
        f'stroke-width="{_num(size * 0.06)}"{dash}/>'
    ]
    if vertical:
        parts.append(
            f'<line x1="{_num(x + size * 0.18)}" y1="{_num(y + size)}" '
            f'x2="{_num(x + size * 0.82)}" y2="{_num(y + size)}" stroke="{ink}" '
            f'stroke-width="{_num(size * 0.05)}"/>'
        )
        parts += _half(first, x, y, size, ink)
        parts += _half(second, x, y + size, size, ink)
    else:
        parts.append(
            f'<line x1="{_num(x + size)}" y1="{_num(y + size * 0.18)}" '
            f'x2="{_num(x + size)}" y2="{_num(y + size * 0.82)}" stroke="{ink}" '
            f'stroke-width="{_num(size * 0.05)}"/>'
        )
        parts += _half(first, x, y, size, ink)
        parts += _half(second, x + size, y, size, ink)
    return "".join(parts)


def label(text: str, x: float, y: float, *, size: float = UNIT, color: str = INK) -> str:
    """Small centred text (a tile's name, a sum)."""
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="middle" font-family="DejaVu Sans" '
        f'font-size="{_num(size * 0.5)}" fill="{color}">{escape(text)}</text>'
    )


def closed(x: float, cy: float, *, size: float = UNIT) -> str:
    """A cross marking an end that nothing may follow."""
    r = size * 0.32
    return (
        f'<g stroke="{DEAD}" stroke-width="{_num(size * 0.11)}" stroke-linecap="round">'
        f'<line x1="{_num(x - r)}" y1="{_num(cy - r)}" x2="{_num(x + r)}" y2="{_num(cy + r)}"/>'
        f'<line x1="{_num(x - r)}" y1="{_num(cy + r)}" x2="{_num(x + r)}" y2="{_num(cy - r)}"/>'
        "</g>"
    )


def document(
    width: float, height: float, body: Sequence[str], title: str, *, scale: float = 0.75
) -> str:
    """A standalone ``<svg>`` element of the given size in user units (``scale`` pt each)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(width * scale)}pt" height="{_num(height * scale)}pt" role="img">'
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


@dataclass(frozen=True)
class Placed:
    """A tile as drawn in a line diagram: its halves in drawing order and its style."""

    first: int
    second: int
    style: Style = Style.PLAIN


def single_tile(low: int, high: int, title: str) -> str:
    """One matador, drawn on its own."""
    pad = UNIT * 0.1
    body = [tile(low, high, pad, pad, style=Style.MATADOR)]
    return document(2 * UNIT + 2 * pad, UNIT + 2 * pad, body, title, scale=0.8)


def sum_example(previous: Placed, played: Placed, sum_text: str, title: str) -> str:
    """An ordinary tile joined to an end by the sum rule, the sum written over the joint."""
    size, pad = UNIT, UNIT * 0.2
    top = pad + size * 0.75
    body = [
        tile(previous.first, previous.second, pad, top, style=previous.style),
        tile(played.first, played.second, pad + 2 * size, top, style=played.style),
        label(sum_text, pad + 2 * size, top - size * 0.22, size=size),
    ]
    return document(pad * 2 + 4 * size, top + size + pad, body, title, scale=0.85)


@dataclass(frozen=True)
class ModePicture:
    """What a matador placement diagram shows, in drawing order."""

    previous: Placed
    matador: Placed
    shape: str  # "inline", "crosswise" or "crosswise_offset"
    following: Placed | None  # None: the end is closed


def mode_diagram(picture: ModePicture, title: str) -> str:
    """The line's last tile, a matador put down as the mode says, and what may follow."""
    size, pad, gap = UNIT, UNIT * 0.2, UNIT * 0.08
    above, below = {"inline": (0.5, 0.5), "crosswise": (1.0, 1.0)}.get(picture.shape, (1.5, 0.5))
    cy = pad + size * above
    height = cy + size * below + pad
    x = pad
    body = [
        tile(
            picture.previous.first,
            picture.previous.second,
            x,
            cy - size / 2,
            style=picture.previous.style,
        )
    ]
    x += 2 * size + gap
    matador = picture.matador
    next_y = cy - size / 2
    if picture.shape == "inline":
        body.append(tile(matador.first, matador.second, x, cy - size / 2, style=matador.style))
        x += 2 * size + gap
    elif picture.shape == "crosswise":
        body.append(
            tile(matador.first, matador.second, x, cy - size, vertical=True, style=matador.style)
        )
        x += size + gap
    else:  # crosswise_offset: the outer half stands out above the line
        body.append(
            tile(
                matador.first,
                matador.second,
                x,
                cy - size * 1.5,
                vertical=True,
                style=matador.style,
            )
        )
        next_y = cy - size * 1.5
        x += size + gap
    if picture.following is None:
        body.append(closed(x + size * 0.55, next_y + size / 2, size=size))
        x += size * 1.1
    else:
        following = picture.following
        body.append(tile(following.first, following.second, x, next_y, style=following.style))
        x += 2 * size
    return document(x + pad, height, body, title, scale=0.85)
