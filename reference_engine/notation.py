"""The one grammar of the notation (spec/notation.md, "Grammar"): tiles, ends, actions, positions.

Every reader of the notation (:meth:`Tile.parse <reference_engine.engine.tiles.Tile.parse>`,
:meth:`Action.parse <reference_engine.engine.actions.Action.parse>`, the partial
placements that ``matador explain`` accepts) matches with the regular
expressions built here from the grammar's rules, so no two of them can accept
different spellings. Each rule below is one production of the EBNF in
spec/notation.md; a test checks that the two agree.
"""

from __future__ import annotations

import re

# Each "#: " comment below is one production of the EBNF in spec/notation.md,
# word for word (tests/test_notation.py checks it); the pattern under it is
# that production. Words are read in any case; space is allowed around an
# action or a tile, never inside one.

#: digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" ;
DIGIT = r"[0-9]"  # ASCII only: "\d" would take any script's digits
#: number = digit, [ digit ] ;
NUMBER = rf"{DIGIT}{{1,2}}"
#: tile = number, "-", number | "[", number, ( "-" | "|" ), number, "]" ;
TILE = rf"(?:{NUMBER}-{NUMBER}|\[{NUMBER}[-|]{NUMBER}\])"
#: end = "L" | "R" | "E", number ;
END = rf"(?:[LR]|E{NUMBER})"
#: placement = "@", end, ( ":", number | "x" | "^", number ) ;
PLACEMENT = rf"@(?P<end>{END})(?::(?P<inline>{NUMBER})|(?P<cross>x)|\^(?P<offset>{NUMBER}))"
#: play = tile, [ placement ] ;
PLAY = rf"(?P<tile>{TILE})(?:{PLACEMENT})?"
#: draw = "draw" ;
#: pass = "pass" | "knock" ;
WORDS = {"draw": "draw", "pass": "pass", "knock": "pass"}
#: action = play | draw | pass ;
#: partial = tile, "@", end ;
PARTIAL = rf"(?P<tile>{TILE})@(?P<end>{END})"

#: position = section, { ";", section } ;
#: section = ends | seat | boneyard | to_act | passes | drawn | opener ;
#: ends = "ends", ":", open_end, { ",", open_end } ;
#: open_end = number, { "/", number }, [ match, access ] ;
#: match = "sum" | "identical" | "blank" | "any" | "none" ;
MATCH = r"(?:sum|identical|blank|any|none)"
#: access = "free" | "match_only" | "never" ;
ACCESS = r"(?:free|match_only|never)"
OPEN_END = rf"{NUMBER}(?:/{NUMBER})*(?:\s+{MATCH}\s+{ACCESS})?"
#: seat = "seat", number, ":", { tile } ;
#: boneyard = "boneyard", ":", { tile } ;
#: to_act = "to act", ":", number ;
#: passes = "passes", ":", number ;
#: drawn = "drawn", ":", tile ;
#: opener = "opener", ":", number ;
SECTION = rf"(?P<key>ends|seat\s+(?P<seat>{NUMBER})|boneyard|to\s+act|passes|drawn|opener)"

#: A whole tile, its two halves captured.
TILE_PATTERN = re.compile(
    rf"^(?:(?P<a>{NUMBER})-(?P<b>{NUMBER})|\[(?P<c>{NUMBER})[-|](?P<d>{NUMBER})\])$"
)
#: A play: the opening tile, or a tile placed on an end (``action`` less the words).
PLAY_PATTERN = re.compile(rf"^{PLAY}$")
#: A placement without its shape and open value (``3-4@L``: every way of playing
#: the tile on that end), as ``matador explain`` takes it.
PARTIAL_PATTERN = re.compile(rf"^{PARTIAL}$")
#: One section of a position (what follows its key and colon is read by the key).
SECTION_PATTERN = re.compile(rf"^\s*{SECTION}\s*:\s*(?P<body>.*?)\s*$", re.IGNORECASE)
#: One open end of a position's ``ends``, as the protocol writes it.
OPEN_END_PATTERN = re.compile(rf"^{OPEN_END}$")


def halves(text: str) -> tuple[int, int] | None:
    """The two numbers of a tile written in the notation, in the order written; else None."""
    found = TILE_PATTERN.match(text)
    if found is None:
        return None
    first, second = (found["a"], found["b"]) if found["a"] is not None else (found["c"], found["d"])
    return int(first), int(second)
