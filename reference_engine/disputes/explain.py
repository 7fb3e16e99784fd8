"""`matador explain`: the question asked at the table, answered under every source at once.

A situation is what a player can see: their hand, the values at the open ends,
how many tiles are left to draw, and what has happened this turn. Under every
variant that can be in that situation, the engine gives the legal actions and,
for a proposed action, whether it is legal (and if not, the reason code and the
rule with its citation), what each way of playing it leaves on that end, and
which tiles of the set could follow there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action, AnyAction, Play, end_name, end_number
from ..engine.compiled import compiled
from ..engine.hand import Hand
from ..engine.state import TableState, hand_at, parse_position, position_text
from ..engine.tiles import Tile
from ..errors import DealError, IllegalActionError, NotationError
from ..notation import PARTIAL_PATTERN
from ..rules import Catalog, Citation, Rules
from ..rules.parameters import Decides, deciding
from ..rules.vocabulary import Shape
from .naming import label


@dataclass(frozen=True)
class Situation:
    """What the player to act sees."""

    players: int
    hand: tuple[Tile, ...]
    ends: tuple[int, ...]
    boneyard: int
    drawn: Tile | None = None
    action: str | None = None
    #: The whole table, when the situation was given as a position (spec/notation.md).
    position: TableState | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Situation:
        """A situation from plain data (a YAML file or the command line's flags): what the
        player to act sees, or a ``position`` of the whole table."""
        unknown = set(data) - {"players", "hand", "ends", "boneyard", "drawn", "action", "position"}
        if unknown:
            raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
        if "position" in data:
            return _situation_of(cls, data)
        try:
            hand = tuple(Tile.parse(str(text)) for text in data["hand"])
            ends = tuple(int(value) for value in data["ends"])
        except KeyError as missing:
            raise ValueError(f"the situation needs {missing}") from None
        except (TypeError, ValueError) as error:
            raise ValueError(f"cannot read the situation: {error}") from None
        if len(ends) != 2:
            raise ValueError("give the values of both open ends, left first")
        if len(set(hand)) != len(hand):
            raise ValueError("a tile appears twice in the hand")
        drawn = Tile.parse(str(data["drawn"])) if data.get("drawn") else None
        if drawn is not None and drawn not in hand:
            raise ValueError(f"the drawn tile {drawn} must be in the hand")
        players, boneyard = int(data.get("players", 2)), int(data.get("boneyard", 0))
        if not 2 <= players <= 4 or boneyard < 0 or not hand:
            raise ValueError("players must be 2 to 4, the boneyard at least 0, the hand not empty")
        action = data.get("action")
        return cls(players, hand, (ends[0], ends[1]), boneyard, drawn, action and str(action))


@dataclass
class Answer:
    """The situation under one variant."""

    rules: Rules
    possible: bool
    why_not: str = ""
    legal: list[str] = field(default_factory=list)
    verdict: str = ""
    reason: str | None = None
    #: The rule the refusal names (None when no rule refuses it: a tile not held, an end
    #: that does not exist), or the matador modes that allow a matador.
    rule: str | None = None
    #: What the refusal says, for a refusal that names no rule.
    detail: str = ""
    citations: tuple[Citation, ...] = ()
    placements: list[tuple[str, str, list[str]]] = field(default_factory=list)
    #: The ends a way of playing it opens besides the one it was laid on (a matador
    #: laid across with both of its ends open), by the way: each end's name, what it
    #: shows and the tiles of the set that could follow there.
    opens: dict[str, list[tuple[str, str, list[str]]]] = field(default_factory=dict)


def _position(rules: Rules, situation: Situation) -> Hand | str:
    if situation.players not in rules.players:
        return f"not played by {situation.players} players"
    if max(situation.ends) > rules.max_pip or any(t.high > rules.max_pip for t in situation.hand):
        return f"the double-{rules.max_pip} set has no such tile or value"
    state = situation.position
    if state is not None:
        tiles = [*state.boneyard, *(tile for held in state.hands for tile in held)]
        if any(tile.high > rules.max_pip for tile in tiles):
            return f"the double-{rules.max_pip} set has no such tile or value"
        return hand_at(rules, state)
    try:
        return Hand.at_position(
            rules,
            players=situation.players,
            hand=situation.hand,
            ends=(situation.ends[0], situation.ends[1]),
            boneyard=situation.boneyard,
            drawn=situation.drawn,
        )
    except DealError as error:
        return str(error)


def _situation_of(cls: type[Situation], data: Mapping[str, Any]) -> Situation:
    """A situation given as a ``position`` (and perhaps an ``action``), nothing else."""
    others = set(data) - {"position", "action"}
    if others:
        raise ValueError(
            f"give a position or what the player sees ({', '.join(sorted(others))}), not both"
        )
    try:
        state = parse_position(str(data["position"]))
    except NotationError as error:
        raise ValueError(f"cannot read the position: {error}") from None
    values = tuple(max(end.values) for end in state.ends)
    action = data.get("action")
    return cls(
        len(state.hands),
        state.hands[state.to_act],
        values,
        len(state.boneyard),
        state.drawn,
        action and str(action),
        state,
    )


def _candidates(hand: Hand, text: str) -> list[AnyAction]:
    """The actions a proposal names: one exact action, or every way of playing a tile on an end."""
    partial = PARTIAL_PATTERN.match(text.strip())
    if partial:
        tile, end = Tile.parse(partial["tile"]), end_number(partial["end"])
        table = compiled(hand.rules)
        index = table.index.get(tile)
        if index is None:
            return []
        ways: list[AnyAction] = []
        if end < len(hand.end_kinds):
            ways = [play for play, _ in table.placements_on(end, hand.end_kinds[end])[index]]
        # With no way to play the tile there, ask about one, to learn why not.
        return ways or [Play(tile, end, Shape.INLINE, tile.high)]
    return [Action.parse(text)]


def answer(rules: Rules, situation: Situation) -> Answer:
    """The situation explained under ``rules``."""
    position = _position(rules, situation)
    if isinstance(position, str):
        return Answer(rules=rules, possible=False, why_not=position)
    result = Answer(rules=rules, possible=True, legal=[str(a) for a in position.legal_actions()])
    if situation.action is None:
        return result
    try:
        candidates = _candidates(position, situation.action)
    except NotationError as error:
        raise ValueError(str(error)) from None
    allowed = [a for a in candidates if position.is_legal(a)]
    if not allowed:
        try:
            position.verify(candidates[0])
        except IllegalActionError as error:
            result.verdict = "no"
            result.reason, result.rule, result.citations = (
                error.reason.value,
                error.rule,
                error.citations,
            )
            result.detail = error.detail
            result.placements = []
            return result
    result.verdict = "yes"
    (matador_rule,) = deciding(Decides.MATADOR)
    provenance = rules.provenance.get(matador_rule)
    tile_is_matador = any(isinstance(a, Play) and rules.is_matador(*a.tile) for a in allowed)
    if tile_is_matador and provenance is not None:
        result.rule, result.citations = matador_rule, provenance.cite
    table = compiled(rules)
    for action in allowed:
        if not isinstance(action, Play) or action.end is None:
            result.placements.append((str(action), "", []))
            continue
        after = position.copy()
        after.apply(action)
        end = after.ends[action.end]
        kind = after.end_kinds[action.end]
        followers = [str(tile) for tile in table.tiles_of(table.fit(kind))]
        result.placements.append((str(action), end.notation, followers))
        opened = range(len(position.end_kinds), len(after.end_kinds))
        if opened:
            result.opens[str(action)] = [
                (
                    end_name(index),
                    after.ends[index].notation,
                    [str(tile) for tile in table.tiles_of(table.fit(after.end_kinds[index]))],
                )
                for index in opened
            ]
    return result


def explain_text(situation: Situation, answers: Sequence[Answer]) -> str:
    """The answers side by side, then where the sources disagree."""
    hand = " ".join(map(str, situation.hand))
    if situation.position is not None:
        lines = [f"position: {position_text(situation.position)}"]
    else:
        lines = [
            f"{situation.players} players; to act holds {hand}; ends {situation.ends[0]} (L) "
            f"and {situation.ends[1]} (R); {situation.boneyard} tile(s) to draw"
            + (f"; drew {situation.drawn} this turn" if situation.drawn else "")
        ]
    if situation.action:
        lines.append(f"proposed: {situation.action}")
    verdicts: dict[str, list[str]] = {}
    for item in answers:
        name = label(item.rules)
        lines.append(f"{name}:")
        if not item.possible:
            lines.append(f"  (no such situation: {item.why_not})")
            continue
        lines.append("  legal: " + (" ".join(item.legal) or "(nothing)"))
        if not situation.action:
            continue
        if item.verdict == "no":
            # The rule is the refusal's own; a refusal that names none says why instead.
            why = f"by rule {item.rule}" if item.rule else f"({item.detail})"
            lines.append(f"  {situation.action}: not allowed [{item.reason}] {why}")
            verdicts.setdefault(f"not allowed ({item.reason})", []).append(name)
        else:
            ways = ", ".join(p[0] for p in item.placements)
            lines.append(f"  {situation.action}: allowed, as {ways}")
            verdicts.setdefault("allowed as " + ways, []).append(name)
            for action, end, followers in item.placements:
                if end:
                    lines.append(
                        f"    {action} leaves {end!r}; {len(followers)} tile(s) of the set "
                        f"could follow there: {' '.join(followers) or 'none'}"
                    )
                for name, shows, after in item.opens.get(action, []):
                    lines.append(
                        f"    and opens end {name}, showing {shows!r}; {len(after)} tile(s) "
                        f"could follow there: {' '.join(after) or 'none'}"
                    )
        for citation in item.citations[:2]:
            lines.append(
                f"    per {citation.publication} [text {citation.text}, {citation.section}]: "
                f"{citation.says}"
            )
    if situation.action and len(verdicts) > 1:
        lines.append("the sources disagree:")
        for verdict, names in verdicts.items():
            lines.append(f"  {verdict}: {', '.join(names)}")
    return "\n".join(lines) + "\n"


def explain_data(situation: Situation, answers: Sequence[Answer]) -> dict[str, Any]:
    """``matador explain --format json``: the situation, then per variant whether it can
    arise, the legal actions and, for a proposed action, whether it is allowed (the ways
    it can be played and what can follow) or refused (the reason code and the rule)."""
    return {
        "situation": {
            "players": situation.players,
            "hand": [str(tile) for tile in situation.hand],
            "ends": list(situation.ends),
            "boneyard": situation.boneyard,
            "drawn": None if situation.drawn is None else str(situation.drawn),
            "action": situation.action,
            "position": None if situation.position is None else position_text(situation.position),
        },
        "variants": [_answer_data(item, situation.action) for item in answers],
    }


def _answer_data(item: Answer, action: str | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": label(item.rules),
        "possible": item.possible,
        "why_not": item.why_not or None,
        "legal": list(item.legal),
        "proposed": None,
    }
    if item.possible and action:
        data["proposed"] = {
            "action": action,
            "allowed": item.verdict == "yes",
            "reason": item.reason,
            "rule": item.rule,
            "detail": item.detail or None,
            "ways": [
                {
                    "action": way,
                    "leaves": end or None,
                    "followers": followers,
                    "opens": [
                        {"end": name, "leaves": shows, "followers": after}
                        for name, shows, after in item.opens.get(way, [])
                    ],
                }
                for way, end, followers in item.placements
            ],
            "citations": [
                {"publication": c.publication, "text": c.text, "section": c.section, "says": c.says}
                for c in item.citations
            ],
        }
    return data


def answers_for(
    catalog: Catalog,
    situation: Situation,
    variants: Sequence[str | tuple[str, Mapping[str, str]]] = (),
) -> list[Answer]:
    """``situation`` answered under every shipped variant, or under ``variants`` (ids, or
    ids with the options chosen)."""
    targets = [(v, {}) if isinstance(v, str) else v for v in variants or catalog.ids()]
    return [answer(catalog.resolve(variant, options), situation) for variant, options in targets]


def nowhere(catalog: Catalog, situation: Situation, answers: Sequence[Answer]) -> str | None:
    """Why no variant answered can hold ``situation``, in one line with a fix; None when
    one can."""
    if not answers or any(item.possible for item in answers):
        return None
    largest = max(item.rules.max_pip for item in answers)
    needed = max([*situation.ends, *(tile.high for tile in situation.hand)])
    if needed > largest:
        tiles = [str(tile) for tile in situation.hand if tile.high > largest]
        what = f"the tile {tiles[0]}" if tiles else f"the value {needed}"
        return f"{what} is in no selected variant's set (the largest is double-{largest})" + (
            _larger_set(catalog, answers, needed)
        )
    if all(situation.players not in item.rules.players for item in answers):
        return f"no selected variant is played by {situation.players} players"
    reasons = dict.fromkeys(item.why_not for item in answers)
    return "no selected variant can be in this situation: " + "; ".join(reasons)


def _larger_set(catalog: Catalog, answers: Sequence[Answer], needed: int) -> str:
    """``; give -O NAME=VALUE`` for the first option of an answered variant whose value
    plays a set with ``needed`` pips, or nothing when none does."""
    for item in answers:
        for option in item.rules.options:
            for value in option.values:
                chosen = {**item.rules.chosen, option.name: value.name}
                if catalog.resolve(item.rules.variant, chosen).max_pip >= needed:
                    return f"; give -O {option.name}={value.name}"
    return ""


def explain(
    catalog: Catalog,
    situation: Situation,
    variants: Sequence[str | tuple[str, Mapping[str, str]]] = (),
) -> str:
    """Explain ``situation`` under every (or the given) variant."""
    return explain_text(situation, answers_for(catalog, situation, variants))
