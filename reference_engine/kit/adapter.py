"""The adapter kit's base: an existing Matador engine before the suite in a few dozen lines.

An engine author subclasses :class:`Adapter` and fills in what the engine has:

==========================  ==================================================
``start(table)``            deal a hand: put ``table``'s hands and boneyard in
                            the engine (or rig its shuffle: :mod:`.rigging`)
``seat()``                  the seat to act, None once the hand is over
``moves()``                 the legal actions, as :class:`Move` values; *or*
``allows(move)``            whether one action is legal (the kit tries every
                            action the seat could take)
``play(move, seat)``        carry it out: True (or None) when done, False when
                            the engine refuses it, a :class:`Move` when it did
                            another one instead
``open_ends()``             the open ends: a number for a plain end
``tiles(seat)``             a seat's tiles, as pairs of numbers
``winner()``                the winning seat or side once the hand is over
``points()``                optional: what each side scored in the hand
``termination()``           optional: ``domino``, ``blocked`` or ``redeal``
``match_winner()``          optional: the side that won the match, if any
==========================  ==================================================

The kit does the rest: the protocol (:func:`serve`, or in process as it is),
the notation, the match (its hands, totals and errors), and the declaration of
what the engine does not do: no ``points()`` is ``scoring: false``, no
``match_winner()`` is ``matches: false``, refusals without reasons are
``reasons: false``. Asked (``reasons = "derived"``), it works out reason codes
from the reference rules, following the engine's line, and says so in the
handshake (``extra``), so no report takes them for the engine's own.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from ..conformance.protocol.codes import ErrorCode
from ..conformance.protocol.declarations import Declaration, read_plays
from ..conformance.protocol.interface import PROTOCOL_VERSION, REFUSED, EngineInfo, EngineRefusal
from ..engine.actions import Action, AnyAction, Draw, Pass, Play
from ..errors import NotationError
from .checks import (
    GUIDE,
    KitError,
    end_of,
    missing_hooks,
    move_of,
    moves_of,
    pair_of,
    played,
    seat_of,
    winner_of,
)
from .moves import Move, Pair, candidates
from .reasons import DERIVED, DerivedReasons
from .table import Table, shape_of, table_of

__all__ = ["Adapter", "Move", "Table", "serve"]


class Adapter:
    """The base of an adapter: the :class:`~reference_engine.conformance.protocol.interface.Engine`
    methods, made from the hooks an engine author fills in (see the module's table)."""

    #: What the engine calls itself.
    name: ClassVar[str] = "an engine behind the adapter kit"
    version: ClassVar[str] = "0"
    #: The variants and option values played, as ``hello`` declares them (None: all).
    variants: ClassVar[Mapping[str, Mapping[str, list[str]]] | None] = None
    #: What the engine plays beyond that, per variant or ``"*"`` (protocol.md): the
    #: kit adds ``scoring``, ``matches`` and ``reasons`` from the hooks given.
    plays: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: Whether ``start`` lays the opening tile (it then returns ``(move, seat)``).
    opens_itself: ClassVar[bool] = False
    #: ``"engine"``: :meth:`play` returns reason codes (a string) when it refuses;
    #: ``"none"``: it does not; ``"derived"``: the kit works them out from the
    #: reference rules, labelled as such.
    reasons: ClassVar[str] = "none"

    def __init__(self) -> None:
        self._kit_variant: str | None = None
        self._kit_options: Mapping[str, str] = {}
        self._kit_players = 0
        self._kit_hands = 0
        self._kit_in_hand = False
        self._kit_scores: list[int] = []
        self._kit_won: list[int] = []
        self._kit_reasons = DerivedReasons() if type(self).reasons == "derived" else None
        self._kit_partners = False
        self._kit_max_pip = 6

    # ------------------------------------------------------------------ hooks

    def new_game(self, variant: str, options: Mapping[str, str], players: int) -> None:
        """A match begins (optional): set the engine up for ``players`` players."""

    def start(self, table: Table) -> Any:
        """Deal ``table`` in the engine: False refuses the deal (``bad_deal``); an engine
        that opens itself returns ``(move, seat)``."""
        raise NotImplementedError("an adapter deals a hand in start()")

    def seat(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        raise NotImplementedError("an adapter says whose turn it is in seat()")

    def moves(self) -> Iterable[AnyAction]:
        """The legal actions of the seat to act (or give :meth:`allows` instead)."""
        return [move for move in candidates(self) if self.allows(move)]

    def allows(self, move: AnyAction) -> bool:
        """Whether ``move`` is legal now (only needed without :meth:`moves`)."""
        raise NotImplementedError("an adapter gives moves() or allows()")

    def play(self, move: AnyAction, seat: int) -> bool | str | AnyAction | None:
        """Carry ``move`` out for ``seat``: True or None when done, False (or a reason
        code) when refused, the action done when it is another one."""
        raise NotImplementedError("an adapter carries actions out in play()")

    def open_ends(self) -> Sequence[int | str]:
        """The open ends, L first: a number for a plain end, else as protocol.md writes it."""
        raise NotImplementedError("an adapter gives the open ends in open_ends()")

    def tiles(self, seat: int) -> Iterable[Pair]:
        """The tiles ``seat`` holds, as pairs of numbers."""
        raise NotImplementedError("an adapter gives each seat's tiles in tiles()")

    def winner(self) -> int | None:
        """The winning seat (side, in sides) once the hand is over; None for a tie."""
        raise NotImplementedError("an adapter names the winner in winner()")

    def points(self) -> Sequence[int] | None:
        """What each side scored in the hand just over (leave it out if the engine has no score)."""
        return None

    def termination(self) -> str:
        """``domino``, ``blocked`` or ``redeal``; by default ``domino`` when a seat holds
        no tile, else ``blocked``."""
        out = any(not list(self.tiles(seat)) for seat in range(self._kit_players))
        return "domino" if out else "blocked"

    def match_winner(self) -> int | None:
        """The side that has won the match, or None (leave it out if the engine has no match)."""
        return None

    # ------------------------------------------------------------------ declared

    @classmethod
    def _overrides(cls, name: str) -> bool:
        return getattr(cls, name) is not getattr(Adapter, name)

    @classmethod
    def declaration(cls) -> dict[str, Declaration]:
        """What ``hello`` declares in ``plays``: the class's own, with what the hooks show."""
        found = read_plays(cls.plays, cls.variants)
        general = found.get("*", Declaration())
        flags = {
            "scoring": general.scoring and cls._overrides("points"),
            "matches": general.matches and cls._overrides("match_winner"),
            "reasons": general.reasons and cls.reasons in ("engine", "derived"),
            "opens_itself": general.opens_itself or cls.opens_itself,
        }
        found["*"] = Declaration(
            players=general.players,
            hand_sizes=general.hand_sizes,
            options=general.options,
            **flags,
        )
        return found

    # ------------------------------------------------------------------ the Engine methods

    def hello(self) -> EngineInfo:
        missing = missing_hooks(self._overrides)
        if missing:
            raise KitError(
                f"{type(self).__name__} gives no {', '.join(missing)}: every adapter gives "
                f"start, seat, play, open_ends, tiles, winner and moves or allows ({GUIDE})"
            )
        extra = {}
        if type(self).reasons == "derived":
            extra["reasons"] = DERIVED
        return EngineInfo(
            name=self.name,
            version=self.version,
            protocol=PROTOCOL_VERSION,
            variants=self.variants,
            extra=extra,
            plays=self.declaration(),
        )

    def new_match(self, variant: str, options: Mapping[str, str], players: int) -> None:
        declared = self.variants
        if declared is not None and variant not in declared:
            raise EngineRefusal(ErrorCode.UNSUPPORTED, f"{variant} is not played here")
        self._kit_variant, self._kit_options, self._kit_players = variant, dict(options), players
        in_sides, self._kit_max_pip = shape_of(variant, options)
        self._kit_partners = players == 4 and in_sides
        self._kit_hands, self._kit_in_hand = 0, False
        self._kit_scores, self._kit_won = [], []
        self.new_game(variant, dict(options), players)

    def new_hand(self, deal: Mapping[str, Any]) -> Any:
        if self._kit_variant is None:
            raise EngineRefusal(ErrorCode.NO_MATCH, "no match yet: start one with new_match")
        if self._kit_in_hand:
            if self._seat() is not None:
                raise EngineRefusal(ErrorCode.HAND_IN_PROGRESS, "the current hand is not over")
            self._close_hand()
        if self._overrides("match_winner") and self.match_winner() is not None:
            raise EngineRefusal(ErrorCode.MATCH_OVER, "the match has been won")
        assert self._kit_variant is not None
        table = table_of(
            deal,
            self._kit_variant,
            self._kit_options,
            self._kit_players,
            self._kit_hands,
            self._kit_max_pip,
        )
        opened = self.start(table)
        if opened is False:
            raise EngineRefusal(ErrorCode.BAD_DEAL, "the engine does not deal this hand")
        self._kit_in_hand, self._kit_hands = True, self._kit_hands + 1
        if self._kit_reasons is not None:
            self._kit_reasons.deal(table.variant, table.options, table.data)
        if not type(self).opens_itself:
            return None
        if opened is None or opened is True:
            return {"opened": None, "opened_by": None}
        try:
            move, seat = opened
        except (TypeError, ValueError):
            raise KitError(
                f"start() gave {opened!r}: an engine that opens itself gives (move, seat), "
                f"or None when the hand is dealt again ({GUIDE})"
            ) from None
        laid = move_of(move, "start()")
        seat = seat_of(seat, self._kit_players, "start()")
        if seat is None:
            raise KitError(f"start() gave no seat with its opening ({GUIDE})")
        self._follow(laid, seat)
        return {"opened": str(laid), "opened_by": seat}

    def _seat(self) -> int | None:
        """The seat to act, as the adapter says, checked."""
        return seat_of(self.seat(), self._kit_players)

    def _tiles(self, seat: int) -> list[Pair]:
        return [pair_of(tile, f"tiles({seat})") for tile in self.tiles(seat)]

    def _need_hand(self) -> None:
        if self._kit_variant is None:
            raise EngineRefusal(ErrorCode.NO_MATCH, "no match yet: start one with new_match")
        if not self._kit_in_hand:
            raise EngineRefusal(ErrorCode.NO_HAND, "no hand yet: start one with new_hand")

    def legal(self) -> list[str]:
        self._need_hand()
        if self._seat() is None:
            return []
        return list(dict.fromkeys(str(move) for move in moves_of(self.moves())))

    def ends(self) -> list[str]:
        self._need_hand()
        return [end_of(end) for end in self.open_ends()]

    def to_act(self) -> int | None:
        self._need_hand()
        return self._seat()

    def held(self, seat: int) -> list[str]:
        self._need_hand()
        if not 0 <= seat < self._kit_players:
            raise EngineRefusal(ErrorCode.NO_SUCH_SEAT, f"seat {seat} is not in this match")
        return [f"{low}-{high}" for low, high in self._tiles(seat)]

    def apply(self, action: str, player: int | None) -> Any:
        self._need_hand()
        if player is not None and not 0 <= player < self._kit_players:
            raise EngineRefusal(ErrorCode.NO_SUCH_SEAT, f"seat {player} is not in this match")
        try:
            move = Action.parse(action)
        except NotationError as error:
            raise EngineRefusal(ErrorCode.BAD_NOTATION, str(error)) from None
        seat = self._seat()
        if seat is None:
            return self._reason(move, player, "hand_over")
        if player is not None and player != seat:
            return self._reason(move, player, "not_your_turn")
        done = played(self.play(move, seat), type(self).reasons == "engine")
        if done is False or isinstance(done, str):
            return self._reason(move, seat, done if isinstance(done, str) else None)
        laid = done if isinstance(done, (Play, Draw, Pass)) else move
        self._follow(laid, seat)
        return {"laid": str(laid)} if laid != move else None

    def result(self) -> Mapping[str, Any] | None:
        self._need_hand()
        if self._seat() is not None:
            return None
        pips = [sum(a + b for a, b in self._tiles(seat)) for seat in range(self._kit_players)]
        points = self.points() if self._overrides("points") else None
        termination = self.termination()
        if termination not in ("domino", "blocked", "redeal"):
            raise KitError(
                f"termination() gave {termination!r}: domino, blocked or redeal ({GUIDE})"
            )
        winner = None if termination == "redeal" else winner_of(self.winner(), self._sides())
        return {
            "termination": termination,
            "winner": winner,
            "pips": pips,
            "points": list(points) if points is not None else [0] * self._sides(),
        }

    def match_state(self) -> Mapping[str, Any]:
        if self._kit_variant is None:
            raise EngineRefusal(ErrorCode.NO_MATCH, "no match yet: start one with new_match")
        if self._kit_in_hand and self._seat() is None:
            self._close_hand()
        sides = self._sides()
        scores = (self._kit_scores + [0] * sides)[:sides]
        won = (self._kit_won + [0] * sides)[:sides]
        winner = self.match_winner() if self._overrides("match_winner") else None
        return {"scores": scores, "hands_won": won, "winner": winner}

    def close(self) -> None:
        self._kit_variant = None

    # ------------------------------------------------------------------ the match

    def _sides(self) -> int:
        """How many sides score: two in a partnership game, else one per seat."""
        return 2 if self._kit_partners else self._kit_players

    def _close_hand(self) -> None:
        """Add the hand just over to the match totals (once)."""
        if not self._kit_in_hand:
            return
        result = self.result()
        self._kit_in_hand = False
        if result is None:
            return
        sides = self._sides()
        self._kit_scores = (self._kit_scores + [0] * sides)[:sides]
        self._kit_won = (self._kit_won + [0] * sides)[:sides]
        for side, points in enumerate(result["points"][:sides]):
            self._kit_scores[side] += points
        if result["winner"] is not None and 0 <= result["winner"] < sides:
            self._kit_won[result["winner"]] += 1

    # ------------------------------------------------------------------ reasons

    def _follow(self, move: AnyAction, seat: int) -> None:
        if self._kit_reasons is not None:
            self._kit_reasons.follow(move, seat)

    def _reason(self, move: AnyAction, seat: int | None, given: str | None) -> str:
        """The reason a refusal is answered with: the engine's own, the reference's when
        they are derived, else ``refused``."""
        if given is not None and type(self).reasons == "engine":
            return given
        if self._kit_reasons is not None:
            return self._kit_reasons.why(move, seat)
        return given or REFUSED


def serve(factory: type[Adapter] | Any, *, stdin: Any = None, stdout: Any = None) -> int:
    """Answer the protocol on standard input and output with the adapter ``factory`` makes.

    What the engine prints while it is asked goes to standard error: standard
    output carries the replies alone.
    """
    from ..conformance.protocol.server import serve as answer_lines

    replies = stdout or sys.stdout
    printed, sys.stdout = sys.stdout, sys.stderr
    try:
        return answer_lines(stdin or sys.stdin, replies, factory())
    finally:
        sys.stdout = printed
