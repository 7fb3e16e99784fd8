"""The explain page's data: the engine's compiled tables and turn rules, as plain JSON.

For every variant, the options that change what ``matador explain`` answers
(the set, the matador modes, the players, the reserve, drawing and passing) are
offered on the page; each combination of their values maps to a *profile*: the
compiled table of placements (every tile's ways of going on each end value, as
the engine's :meth:`~reference_engine.engine.compiled.Compiled.placements_on` lists
them, and the engine's refusal of each tile that has none), the turn's decisions
(the draw's and the pass's ruling from the predicates of ``engine/turn.py`` for
every turn the page can show, and the engine's refusal of another tile than the
one drawn), the reserve per player count and the citations of the rules they
name. The page's script (``explain.js``) is a small interpreter of this data: it
works out the facts of the position, looks the turn's rulings up and lists the
placements, and names no rule; the site's tests hold it to ``matador explain``
on many positions.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.actions import Play
from ..engine.compiled import compiled, content_key
from ..engine.ends import OpenEnd
from ..engine.hand import Hand
from ..engine.hand.refusals import CITED_AS
from ..engine.tiles import Tile
from ..engine.turn import Facts, Ruling, draw_ruling, pass_ruling
from ..errors import IllegalActionError, Reason
from ..rules import Catalog, Citation, Rules
from ..rules.datafiles import spec_dir
from ..rules.vocabulary import Shape
from ..sheets import svg

#: The facts of a turn the page can show, in the order of the bits of a ``turn`` entry's
#: index (the first is the highest bit): a draw made this turn under a one-draw rule,
#: the tile drawn fitting, a tile to place, only matadors to place, the boneyard open.
FACT_BITS = ("single_drawn", "drawn_fits", "has_play", "only_matadors", "can_draw")

_REASON_ROW = re.compile(r"^\| `([a-z_]+)` \| (.+) \|$")


def reasons() -> dict[str, str]:
    """Each refusal reason and when it is given, read from spec/protocol.md's table."""
    text = (spec_dir() / "protocol.md").read_text(encoding="utf-8")
    codes = {reason.value for reason in Reason}
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _REASON_ROW.match(line.strip())
        if match and match[1] in codes and match[1] not in found:
            found[match[1]] = match[2].replace("`", "")
    return found


def _refusal(rules: Rules, tile: Tile, value: int) -> IllegalActionError:
    """The engine's refusal of ``tile`` on a left end showing ``value`` (it has no way there)."""
    table = compiled(rules)
    players = rules.players[0]
    others = set(table.tiles[: players - 1])
    if tile in others:
        others = set(table.tiles[-(players - 1) :])
    hand = [t for t in table.tiles if t not in others]
    position = Hand.at_position(rules, players=players, hand=hand, ends=(value, value), boneyard=0)
    try:
        position.verify(Play(tile, 0, Shape.INLINE, tile.high))
    except IllegalActionError as error:
        return error
    raise ValueError(f"the engine allows {tile} on {value}, which has no placement there")


def _ruled(ruling: Ruling | None) -> list[str] | None:
    return None if ruling is None else [ruling.reason.value, ruling.rule or ""]


def turn_rulings(rules: Rules) -> list[list[list[str] | None]]:
    """The turn's predicates (engine/turn.py) for every turn the page can show: entry
    ``i`` holds the draw's and the pass's ruling (None: allowed, else reason and rule)
    for the facts whose bits, in the order of :data:`FACT_BITS`, make ``i``."""
    table = compiled(rules)
    found = []
    for index in range(1 << len(FACT_BITS)):
        bits = [bool(index >> (len(FACT_BITS) - 1 - place) & 1) for place in range(len(FACT_BITS))]
        facts = Facts(**dict(zip(FACT_BITS, bits, strict=True)))
        found.append([_ruled(draw_ruling(table, facts)), _ruled(pass_ruling(table, facts))])
    return found


def after_a_draw(rules: Rules) -> list[str] | None:
    """The engine's refusal of another tile than the one drawn this turn (reason and rule),
    where a single draw limits the play to it; None where any tile may be played."""
    table = compiled(rules)
    if not table.one_draw_per_turn:
        return None
    players = rules.players[0]
    for value in range(rules.max_pip + 1):
        placements = table.placements_on(0, table.kind(OpenEnd.plain(value)))
        fitting = [index for index, entries in enumerate(placements) if entries]
        if len(fitting) < 2:
            continue
        drawn, other = (table.tiles[index] for index in fitting[:2])
        position = Hand.at_position(
            rules,
            players=players,
            hand=[drawn, other],
            ends=(value, value),
            boneyard=0,
            drawn=drawn,
        )
        try:
            position.verify(placements[fitting[1]][0][0])
        except IllegalActionError as error:
            return [error.reason.value, error.rule or ""]
        return None
    return None


def _table(rules: Rules) -> dict[str, Any]:
    """:func:`_grid`, built once per distinct set of rule values (the refusals it
    records may depend on any rule, not only on the placements)."""
    key = content_key(rules)
    found = _GRIDS.get(key)
    if found is None:
        found = _GRIDS[key] = _grid(rules)
    return found


#: The grids built so far, by the rule values they were built from.
_GRIDS: dict[tuple[object, ...], dict[str, Any]] = {}


def _grid(rules: Rules) -> dict[str, Any]:
    """The tiles of the set, every tile's placements on each end value (L, then R), and for
    a tile with none, the reason and rule with which the engine refuses it there."""
    table = compiled(rules)
    values = range(rules.max_pip + 1)
    kinds = [table.kind(OpenEnd.plain(value)) for value in values]
    moves = [
        [
            [[str(play) for play, _ in entries] for entries in table.placements_on(end, kind)]
            for kind in kinds
        ]
        for end in (0, 1)
    ]
    refused: list[list[list[str] | None]] = []
    for value, by_tile in zip(values, moves[0], strict=True):
        row: list[list[str] | None] = []
        for tile, ways in zip(table.tiles, by_tile, strict=True):
            error = None if ways else _refusal(rules, tile, value)
            row.append(None if error is None else [error.reason.value, error.rule or ""])
        refused.append(row)
    return {
        "max_pip": rules.max_pip,
        "tiles": [str(tile) for tile in table.tiles],
        "matadors": [i for i in range(len(table.tiles)) if table.is_matador(i)],
        "moves": moves,
        "refused": refused,
    }


def tile_picture(text: str) -> str:
    """A tile of the notation (``3-4``) drawn on its own, as the sheets draw tiles."""
    low, high = (int(half) for half in text.split("-"))
    pad = svg.UNIT * 0.1
    body = [svg.tile(low, high, pad, pad)]
    return svg.document(2 * svg.UNIT + 2 * pad, svg.UNIT + 2 * pad, body, text, scale=0.8)


class _Interner:
    """Keeps one copy of each distinct JSON value and hands out its index."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._seen: dict[str, int] = {}

    def add(self, item: Any) -> int:
        key = json.dumps(item, sort_keys=True)
        if key not in self._seen:
            self._seen[key] = len(self.items)
            self.items.append(item)
        return self._seen[key]


def _cite(citation: Citation) -> dict[str, str]:
    return {
        "publication": citation.publication,
        "text": citation.text,
        "section": citation.section,
        "says": citation.says,
    }


def _profile(rules: Rules, tables: _Interner, cites: _Interner) -> dict[str, Any]:
    table = compiled(rules)
    grid = _table(rules)
    turn = turn_rulings(rules)
    after_draw = after_a_draw(rules)
    profile: dict[str, Any] = {
        "table": tables.add(grid),
        "players": list(rules.players),
        "kept": {str(n): table.reserve_for(n) for n in rules.players},
        "draws": table.draws,
        "single_draw": table.one_draw_per_turn,
        "turn": turn,
        "after_draw": after_draw,
        "cite": {},
    }
    # The citations of the rules the turn's rulings name, as a refusal gives them.
    named = {ruling[1] for pair in turn for ruling in pair if ruling is not None}
    if after_draw is not None:
        named.add(after_draw[1])
    for rule in sorted(named - {""}):
        provenance = rules.provenance.get(CITED_AS.get(rule, rule))
        found = [] if provenance is None else [cites.add(_cite(c)) for c in provenance.cite]
        profile["cite"][rule] = found
    # The citations of the rules that refuse placements, as the engine gives them.
    seen: set[str] = set()
    for value, row in enumerate(grid["refused"]):
        for index, entry in enumerate(row):
            if entry is not None and entry[1] not in seen:
                seen.add(entry[1])
                error = _refusal(rules, table.tiles[index], value)
                profile["cite"][entry[1]] = [cites.add(_cite(c)) for c in error.citations]
    return profile


def _relevant_options(catalog: Catalog, variant: str) -> list[str]:
    """The options of which some value changes the profile (the others fixed at defaults)."""
    base = catalog.resolve(variant)
    scratch = _Interner()
    default = json.dumps(_profile(base, scratch, scratch), sort_keys=True)
    relevant = []
    for option in base.options:
        for value in option.values:
            if value.name == option.default:
                continue
            rules = catalog.resolve(variant, {option.name: value.name})
            if json.dumps(_profile(rules, scratch, scratch), sort_keys=True) != default:
                relevant.append(option.name)
                break
    return relevant


def explain_data(catalog: Catalog, variants: Sequence[str]) -> dict[str, Any]:
    """Everything the explain page needs, for ``variants``, as one JSON-able mapping."""
    tables, cites, profiles = _Interner(), _Interner(), _Interner()
    out_variants = []
    for variant in variants:
        base = catalog.resolve(variant)
        relevant = _relevant_options(catalog, variant)
        options = [option for option in base.options if option.name in relevant]
        by_key: dict[str, int] = {}
        for combo in itertools.product(*(option.values for option in options)):
            chosen: Mapping[str, str] = {
                o.name: v.name for o, v in zip(options, combo, strict=True)
            }
            rules = catalog.resolve(variant, chosen)
            key = ",".join(f"{name}={value}" for name, value in chosen.items())
            by_key[key] = profiles.add(_profile(rules, tables, cites))
        out_variants.append(
            {
                "id": variant,
                "title": base.title,
                "options": [
                    {
                        "name": option.name,
                        "summary": option.summary,
                        "default": option.default,
                        "values": [
                            {"name": value.name, "summary": value.summary}
                            for value in option.values
                        ],
                    }
                    for option in options
                ],
                "profiles": by_key,
            }
        )
    return {
        "variants": out_variants,
        "profiles": profiles.items,
        "tables": tables.items,
        "citations": cites.items,
        "reasons": reasons(),
        "tile_svgs": {
            text: tile_picture(text) for table in tables.items for text in table["tiles"]
        },
    }


def explain_script(data: Mapping[str, Any]) -> str:
    """The data as a script that sets ``window.MATADOR_EXPLAIN`` (a page opened from
    disk cannot fetch a JSON file, but it can load a script)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"window.MATADOR_EXPLAIN = {text};\n"
