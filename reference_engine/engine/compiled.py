"""The rules compiled into lookup tables, once per variant and choice of options.

Everything that differs between sources in the deal, the opening, placement
and the turn is read from the :class:`Rules` object here, and only here,
following spec/SPEC.md sections 5 to 8. The hot path of the engine
(:mod:`reference_engine.engine.hand` and :mod:`reference_engine.engine.deal`) then only
indexes tables and tests booleans. The boundary: the hand keeps the rules
object only to check the player count and name the set in an error, to cite a
rule's sources in a refusal (:mod:`reference_engine.engine.hand.refusals`), and to hand it to
:mod:`reference_engine.engine.scoring`, which reads the scoring rules (sections 9
and 10) itself; the match reads the target and the designated opener's
rotation (section 10.5, 6.2). The tables:

* every tile of the set gets an index; hands are bitmasks over those indices;
* the numbers that depend on the player count (hand size, reserve) are looked
  up once per count;
* the opening rules become a search order over the doubles' bits;
* every kind of open end gets an id (:class:`OpenEnd`: its values, its match
  rule, its matador access): the plain ends first, then each end a placement
  on a known kind leaves;
* for each end kind and each tile, the placements it allows on end 0 and on
  end 1, each as a ready :class:`~reference_engine.engine.actions.Play` with the id
  of the end it leaves, built the first time a line reaches the kind (a
  conformance run reaches fewer than half the kinds its rules allow; a long
  simulation, all of them). These Play objects are built once and reused: every
  legal action a hand offers is one of them (or the opening play of a tile,
  or ``DRAW`` or ``PASS``), so the engine can recognise an action it offered
  by identity, without comparing fields;
* for each combination of end kinds a hand reaches, a
  :class:`~reference_engine.engine.ends.Line`: every tile's placements on those
  ends, and (as they are made) where each placement leads;
* the opening rules (section 6) and the turn rules (section 8) become a
  handful of booleans.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..rules.model import MatadorMode, PerPlayers, Rules
from ..rules.parameters import NAMES
from ..rules.vocabulary import (
    AfterSingleDraw,
    DrawsPerTurn,
    DrawWhen,
    EndFilter,
    Fit,
    MatadorAccess,
    NobodyHasDouble,
    Opener,
    OpeningTile,
    OpenValues,
    PassWhen,
    Shape,
)
from .actions import Play, opening_plays
from .ends import Line, OpenEnd, Step, orientations
from .tiles import Tile
from .tiletable import TileTable

_OPTIONAL_DRAW = (DrawWhen.ALWAYS, DrawWhen.ONLY_MATADOR_PLAYS)
_OPTIONAL_PASS = (PassWhen.ALWAYS, PassWhen.ONLY_MATADOR_PLAYS)


#: Per tile of the set, its placements on one end: ((Play, the kind of the end it leaves), ...).
_Row = tuple[tuple[tuple[Play, int], ...], ...]


class Effect(NamedTuple):
    """What putting down one compiled placement does: the end, the tile's bit, the new end.

    ``adds`` is the kind of the end a crosswise matador with ``open: two_ends``
    opens beside it (its higher half), or -1 when the line gains no end.
    """

    end: int
    bit: int
    leaves: int
    adds: int = -1


def _seat_sizes(value: PerPlayers, counts: Iterable[int], tiles: int) -> dict[int, tuple[int, ...]]:
    """Each seat's hand for each player count the rules give (others are left out)."""
    found: dict[int, tuple[int, ...]] = {}
    for players in counts:
        try:
            found[players] = value.seat_sizes(players, tiles)
        except KeyError:
            continue
    return found


def _per_players(value: PerPlayers, counts: Iterable[int]) -> dict[int, int]:
    """``value`` for each player count the rules give it for (others are left out)."""
    found: dict[int, int] = {}
    for players in counts:
        try:
            found[players] = value.for_players(players)
        except KeyError:
            continue
    return found


class Compiled(TileTable):
    """Lookup tables for one resolved variant (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules.max_pip)
        self.rules = rules
        self.line_sum = rules.line_sum
        self.matador_mask = self.mask(t for t in self.tiles if rules.is_matador(*t))
        # ---- the deal (SPEC section 5)
        #: Tiles dealt to each seat, per player count (``all``: the set shared out).
        self.hand_sizes = _seat_sizes(rules.hand_size, rules.players, len(self.tiles))
        self.reserve: dict[int, int] = _per_players(rules.reserve, rules.players)
        self.needs_designated: bool = rules.applicable("designated_opener")
        #: Whether the lot that names the designated opener is made by drawing tiles.
        self.lot_by_drawing = rules.designated_opener is not None and rules.designated_opener.drawn
        # ---- the opening (SPEC section 6)
        opener = rules.opener
        self.opening_doubles: tuple[int, ...] = tuple(
            self.index[tile]
            for tile in self.tiles
            if tile.is_double
            and (rules.double_blank_opens or tile.high > 0)
            and (opener is not Opener.TOP_DOUBLE or tile.high == rules.max_pip)
        )
        self.opening_double_mask = sum(1 << double for double in self.opening_doubles)
        #: None, or whether the highest (True) or lowest (False) double held opens.
        self.highest_double_opens: bool | None = (
            None if opener is Opener.DESIGNATED else opener is not Opener.LOWEST_DOUBLE
        )
        #: Whether that double's holder may open with any tile of their hand.
        self.holder_opens_any_tile = opener is Opener.HIGHEST_DOUBLE_HOLDER
        self.opening_plays: tuple[Play, ...] = opening_plays(self.tiles)
        #: Whether the designated opener may open with any tile (``opening_tile: any_tile``).
        self.opening_any_tile = rules.opening_tile is OpeningTile.ANY_TILE
        #: Whether the right to open passes on from a designated seat without a double
        #: to the next seat that holds one (``opener_lacks_double`` is given).
        self.right_to_open_passes = rules.opener_lacks_double is not None
        nobody = rules.nobody_has_double
        #: Whether a hand nobody can open is dealt again (``nobody_has_double: redeal``),
        #: rather than opened with the heaviest tile or by the designated seat drawing.
        self.redeal_without_double = nobody is NobodyHasDouble.REDEAL
        #: Whether the holder of the heaviest tile dealt opens with it instead.
        self.heaviest_opens = nobody is NobodyHasDouble.HEAVIEST_TILE
        #: Whether the opener also lays the next tile (``opener_plays_again``, SPEC 6.5).
        self.opener_plays_again = bool(rules.opener_plays_again)
        #: The rule that says which tiles may open, named when a wrong opening is refused.
        self.opening_rule = "opening_tile" if rules.opener is Opener.DESIGNATED else "opener"
        # ---- end kinds and placements (SPEC section 7): they depend on the set and the
        # matador modes only, so tables that share those share them (built once).
        shared = _PLACEMENTS.get((rules.max_pip, rules.matador_modes))
        if shared is not None:
            self.__dict__.update(shared)
        else:
            self.kinds: list[OpenEnd] = []
            self.kind_id: dict[OpenEnd, int] = {}
            # moves[end][kind][tile] -> ((Play, new kind id), ...), in canonical order, or
            # None until a line first needs the kind (placements_on); the ends after R
            # (only under ``open: two_ends``) are added by placements_on too.
            self.moves: list[list[_Row | None]] = [[], []]
            #: kind -> tile index -> (shape, open value) -> the kind of the end it adds.
            self._adds: list[list[dict[tuple[Shape, int | None], int]] | None] = []
            #: kind -> the mask of the tiles with a placement on it; -1 until built.
            self._fits: list[int] = []
            for value in range(rules.max_pip + 1):
                self.kind(OpenEnd.plain(value))
            #: The two end kinds each tile leaves when it opens the hand.
            self.opening_kinds: tuple[tuple[int, int], ...] = tuple(
                self.opening_ends(tile) for tile in self.tiles
            )
            #: id() of every Play in ``moves`` -> its :class:`Effect`: a placement is found
            #: here only as the very object this table built (and keeps alive in ``moves``).
            self.effects: dict[int, Effect] = {}
            #: The kinds of the open ends -> their :class:`Line` (built on demand).
            self._lines: dict[tuple[int, ...], Line] = {}
            if len(_PLACEMENTS) > 64:
                _PLACEMENTS.clear()
            _PLACEMENTS[rules.max_pip, rules.matador_modes] = {n: vars(self)[n] for n in _SHARED}
        #: The line before the opening: no ends, and every tile goes down as the
        #: opening tile (not a placement: SPEC 6.3).
        self.opening_line = Line(
            (), self.mask(self.tiles), tuple((p,) for p in self.opening_plays), remember=0
        )
        # ---- the turn (SPEC section 8)
        draw_when, pass_when = rules.draw_when, rules.pass_when
        #: Whether anyone ever draws in play (``draw_when`` is not ``never``).
        self.draws = draw_when is not DrawWhen.NEVER
        #: Whether a player who can draw may do so while holding a playable tile.
        self.draw_always = draw_when is DrawWhen.ALWAYS
        self.draw_if_only_matadors = draw_when is DrawWhen.ONLY_MATADOR_PLAYS
        #: Whether a player who cannot draw may pass while holding a playable tile.
        self.pass_always = pass_when is PassWhen.ALWAYS
        self.pass_if_only_matadors = pass_when is PassWhen.ONLY_MATADOR_PLAYS
        #: Whether a draw or a pass is ever offered beside a placement (see :mod:`.turn`).
        self.optional_turn = draw_when in _OPTIONAL_DRAW or pass_when in _OPTIONAL_PASS
        #: Whether a draw in play ends the drawing for the turn (``draws_per_turn: one``).
        self.one_draw_per_turn = rules.draws_per_turn is DrawsPerTurn.ONE
        after = rules.after_single_draw
        #: After that single draw: whether any tile of the hand may be played (or
        #: else only the drawn one), and, when only the drawn one, whether the
        #: player may pass even though it fits (``may_play_drawn``).
        self.after_draw_any_tile = after is AfterSingleDraw.MAY_PLAY_ANY
        self.after_draw_may_pass = after is AfterSingleDraw.MAY_PLAY_DRAWN

    def reserve_for(self, players: int) -> int:
        """The tiles left in the boneyard with ``players`` (KeyError when the rules give none)."""
        reserve = self.reserve.get(players)
        return self.rules.reserve.for_players(players) if reserve is None else reserve

    def is_matador(self, index: int) -> bool:
        """Whether the tile with this index is a matador."""
        return bool(self.matador_mask >> index & 1)

    # ---- the lines a hand goes through (the hot path)

    def line(self, kinds: tuple[int, ...]) -> Line:
        """The :class:`Line` of open ends of these kinds (end 0 first), built once."""
        found = self._lines.get(kinds)
        if found is None:
            on = [self.placements_on(end, kind) for end, kind in enumerate(kinds)]
            plays = tuple(
                tuple(play for by_tile in on for play, _ in by_tile[index])
                for index in range(len(self.tiles))
            )
            fit = 0
            for kind in kinds:
                fit |= self.fit(kind)
            found = self._lines[kinds] = Line(kinds, fit, plays)
        return found

    def step(self, line: Line, play: Play) -> Step:
        """The tile's bit and the line after ``play``, a placement offered on ``line``.

        Remembered in ``line.after``, so a placement made again costs one look-up.
        """
        end, bit, leaves, adds = self.effects[id(play)]
        kinds = list(line.kinds)
        kinds[end] = leaves
        if adds >= 0:  # a crosswise matador's second half opens an end of its own
            kinds.append(adds)
        found = line.after[id(play)] = (bit, self.line(tuple(kinds)))
        return found

    def placements_of(self, mask: int, ends: tuple[int, ...]) -> tuple[Play, ...]:
        """Every placement of the tiles in ``mask`` on open ends of kinds ``ends``.

        In canonical order: by tile, then end (0, 1, then any later end), then
        shape and open value. Tiles with no placement add nothing.
        """
        return self.line(ends).placements(mask)

    # ---- end kinds and their placements, built as lines first need them

    def placements_on(self, end: int, kind: int) -> _Row:
        """Per tile, the placements on end number ``end`` of kind ``kind``, each with
        the kind of the end it leaves: ``((Play, new kind), ...)`` in canonical order.

        Built the first time a line needs them (most kinds a rule set allows are
        never reached in a conformance run); a later end (a line that a crosswise
        matador gave a third end) gets Play objects of its own then.
        """
        moves = self.moves
        if end < len(moves):
            row = moves[end][kind]
            if row is not None:
                return row
        while len(moves) <= end:
            moves.append([None] * len(self.kinds))
        if moves[0][kind] is None:
            self._build(kind)
        row = moves[end][kind]
        if row is None:  # an end after R: the placements on end 0, numbered ``end``
            row = moves[end][kind] = tuple(
                tuple((Play(p.tile, end, p.shape, p.open), new) for p, new in entries)
                for entries in moves[0][kind]  # type: ignore[union-attr]
            )
            self._register(end, kind)
        return row

    def fit(self, kind: int) -> int:
        """The mask of the tiles with at least one placement on an end of kind ``kind``."""
        found = self._fits[kind]
        if found < 0:
            self._build(kind)
            found = self._fits[kind]
        return found

    def kind(self, end: OpenEnd) -> int:
        """The id of an end kind, registering it if new (its placements are built later)."""
        found = self.kind_id.get(end)
        if found is None:
            found = len(self.kinds)
            self.kinds.append(end)
            self.kind_id[end] = found
            for rows in self.moves:
                rows.append(None)
            self._adds.append(None)
            self._fits.append(-1)
        return found

    def _build(self, kind: int) -> None:
        """Every placement of every tile on an end of kind ``kind``, on end 0 and end 1."""
        end = self.kinds[kind]
        fits = 0
        per_tile: list[tuple[tuple[Play, int], ...]] = []
        per_tile_right: list[tuple[tuple[Play, int], ...]] = []
        adds: list[dict[tuple[Shape, int | None], int]] = []
        for index, tile in enumerate(self.tiles):
            left: list[tuple[Play, int]] = []
            right: list[tuple[Play, int]] = []
            added: dict[tuple[Shape, int | None], int] = {}
            for key, (new_end, extra) in self.placement_effects(end, tile).items():
                shape, open_value = key
                new_kind = self.kind(new_end)
                if extra is not None:
                    added[key] = self.kind(extra)
                left.append((Play(tile, 0, shape, open_value), new_kind))
                right.append((Play(tile, 1, shape, open_value), new_kind))
            adds.append(added)
            if left:
                fits |= 1 << index
            if len(left) > 1:
                order = sorted(range(len(left)), key=lambda i: left[i][0].sort_key())
                left, right = [left[i] for i in order], [right[i] for i in order]
            per_tile.append(tuple(left))
            per_tile_right.append(tuple(right))
        self.moves[0][kind] = tuple(per_tile)
        self.moves[1][kind] = tuple(per_tile_right)
        self._adds[kind] = adds
        self._fits[kind] = fits
        self._register(0, kind)
        self._register(1, kind)

    def _register(self, end: int, kind: int) -> None:
        """Record the :class:`Effect` of every placement on end number ``end`` of kind ``kind``."""
        adds = self._adds[kind]
        assert adds is not None
        for index, entries in enumerate(self.moves[end][kind]):  # type: ignore[arg-type]
            added = adds[index]
            for play, leaves in entries:
                self.effects[id(play)] = Effect(
                    end, 1 << index, leaves, added.get((play.shape, play.open), -1)
                )

    # ---- placement (SPEC section 7.4)

    def placements(self, end: OpenEnd, tile: Tile) -> dict[tuple[Shape, int | None], OpenEnd]:
        """Every placement of ``tile`` on ``end``: (shape, open value) -> the end it leaves."""
        return {key: new_end for key, (new_end, _) in self.placement_effects(end, tile).items()}

    def placement_effects(
        self, end: OpenEnd, tile: Tile
    ) -> dict[tuple[Shape, int | None], tuple[OpenEnd, OpenEnd | None]]:
        """Every placement of ``tile`` on ``end``: its key -> the end it leaves, and
        the end it opens beside it (``open: two_ends``) or None."""
        found: dict[tuple[Shape, int | None], tuple[OpenEnd, OpenEnd | None]] = {}
        if not self.rules.is_matador(*tile) or end.access is MatadorAccess.MATCH_ONLY:
            for half, outer in orientations(tile):
                if end.admits(half, self.line_sum):
                    found[(Shape.INLINE, outer)] = (OpenEnd.plain(outer), None)
            return found
        if end.access is MatadorAccess.NEVER:
            return found
        for mode in self.rules.matador_modes:
            for key, effect in self._by_mode(mode, end, tile):
                found.setdefault(key, effect)
        return found

    def _by_mode(
        self, mode: MatadorMode, end: OpenEnd, tile: Tile
    ) -> list[tuple[tuple[Shape, int | None], tuple[OpenEnd, OpenEnd | None]]]:
        if not mode.applies_to_tile(tile == (0, 0)):
            return []
        if mode.ends is EndFilter.BLANK and not (end.is_plain and end.values == (0,)):
            return []
        if mode.ends is EndFilter.NON_BLANK and not (end.is_plain and end.values != (0,)):
            return []
        eligible = [
            (half, outer)
            for half, outer in orientations(tile)
            if mode.fit is Fit.FREE or end.admits(half, self.line_sum)
        ]
        if not eligible:
            return []
        leaves = mode.leaves
        if mode.shape is Shape.CROSSWISE:
            if mode.open is OpenValues.TWO_ENDS:  # each half an end: the lower here
                here = OpenEnd((tile.low,), leaves.match, leaves.matadors)
                beside = OpenEnd((tile.high,), leaves.match, leaves.matadors)
                return [((Shape.CROSSWISE, None), (here, beside))]
            values = (
                tuple(sorted({tile.low, tile.high}))
                if mode.open is OpenValues.BOTH_HALVES
                else end.values
            )
            new_end = OpenEnd(values, leaves.match, leaves.matadors)
            return [((Shape.CROSSWISE, None), (new_end, None))]
        return [
            ((mode.shape, outer), (OpenEnd((outer,), leaves.match, leaves.matadors), None))
            for _, outer in eligible
        ]

    def opening_ends(self, tile: Tile) -> tuple[int, int]:
        """The two end kinds the opening tile leaves: low half on end 0, high on end 1."""
        return self.kind(OpenEnd.plain(tile.low)), self.kind(OpenEnd.plain(tile.high))


#: What tables of one set and matador modes share, and those parts by (max_pip, modes).
_SHARED = ("kinds", "kind_id", "moves", "_adds", "_fits", "opening_kinds", "effects", "_lines")
_PLACEMENTS: dict[tuple[object, ...], dict[str, object]] = {}
#: The tables by the content of the rules they were built from (every rule value).
_BY_CONTENT: dict[tuple[object, ...], Compiled] = {}
#: The same tables by rules object: the look-up of the hot path, by identity.
_BY_OBJECT: dict[int, tuple[Rules, Compiled]] = {}


def content_key(rules: Rules) -> tuple[object, ...]:
    """What the tables depend on: every rule value, and nothing of where it came from."""
    return tuple(getattr(rules, name) for name in NAMES)


def compiled(rules: Rules) -> Compiled:
    """The tables for ``rules``, built once per distinct set of rule values.

    Rules resolved again (every case of a conformance run resolves its variant)
    share the tables of equal rules resolved before; only the rule values count,
    not the variant's name, citations or gaps.
    """
    entry = _BY_OBJECT.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    if len(_BY_OBJECT) > 1024:
        _BY_OBJECT.clear()
    key = content_key(rules)
    table = _BY_CONTENT.get(key)
    if table is None:
        if len(_BY_CONTENT) > 256:
            # Both, or a rules object would keep tables that equal rules no longer share.
            _BY_CONTENT.clear()
            _BY_OBJECT.clear()
        table = _BY_CONTENT[key] = Compiled(rules)
    _BY_OBJECT[id(rules)] = (rules, table)
    return table
