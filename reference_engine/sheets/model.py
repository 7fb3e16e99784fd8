"""The sheet model: what a rule sheet says, built from the resolved rules.

Nothing here states a rule. Every sentence is a catalogue entry keyed by the
rule and its value (``rule.<name>.<value>``, see :func:`value_key`), filled with
the variant's numbers; the tables are computed from the engine's compiled
placement tables (:mod:`reference_engine.engine.compiled`) and the worked example from
:func:`reference_engine.engine.scoring.score`. The templates only lay the model out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..engine.compiled import Compiled, OpenEnd, compiled
from ..engine.scoring import Termination, score, sides
from ..engine.tiles import Tile
from ..rules import Catalog, Citation, Gap, MatadorMode, Rules, RulesError, registry
from ..rules.present import SECTIONS
from ..rules.vocabulary import (
    DifferenceAmongSeveral,
    DrawWhen,
    EndFilter,
    Fit,
    MatchRule,
    NobodyHasDouble,
    Opener,
    OpenValues,
    Partnership,
    Points,
    Shape,
)
from . import svg
from .catalogue import Translator

#: The seats' names in the worked examples.
SEAT_NAMES = "ABCD"

#: Pips left in each hand in the worked examples, by number of players (the
#: two-player hand is the survey's 8 against 19).
EXAMPLE_PIPS: dict[int, tuple[int, ...]] = {2: (8, 19), 3: (8, 19, 14), 4: (8, 19, 14, 11)}

#: Rules whose sentence is ``rule.<name>.<value>`` for an enum or boolean value.
VALUE_RULES: tuple[str, ...] = (
    "partnership",
    "turn_direction",
    "opener",
    "designated_opener",
    "opening_tile",
    "double_blank_opens",
    "opener_lacks_double",
    "nobody_has_double",
    "opener_plays_again",
    "draw_when",
    "draws_per_turn",
    "after_single_draw",
    "pass_when",
    "points",
    "difference_among_several",
    "tie",
)


def value_key(rule: str, value: object) -> str:
    """The catalogue key of the sentence for ``rule`` having ``value``."""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return f"rule.{rule}.{text}"


def tile_text(low: int, high: int) -> str:
    """A tile in the project's notation, lower half first: ``[2-5]``."""
    return f"[{min(low, high)}-{max(low, high)}]"


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class Diagram:
    """A drawing: SVG for HTML and PDF, a line of text for Markdown, and its caption."""

    svg: str
    text: str
    caption: str


@dataclass(frozen=True)
class DealRow:
    """One player count of the deal table."""

    players: int
    hand: int
    boneyard: int
    reserve: int


@dataclass(frozen=True)
class SumRow:
    """One end value of the sum-rule table: what it needs and which tiles answer it."""

    end: int
    need: str
    count: str
    ordinary: str
    matadors: str


@dataclass(frozen=True)
class ModeCard:
    """One way of playing a matador: labelled lines and a diagram."""

    title: str
    lines: tuple[tuple[str, str], ...]
    diagram: Diagram | None


@dataclass(frozen=True)
class OptionRow:
    """An option: the value in force with what it means, and the other values."""

    name: str
    value: str
    marker: str
    text: str
    others: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class GapItem:
    """A point the source does not settle, as the "agree before you play" box shows it."""

    label: str
    kind: str
    about: str | None
    plays: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class SourceItem:
    """A publication cited, with the passages (text and sections) the sheet relies on."""

    title: str
    passages: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """Everything one rule sheet shows, already in its language."""

    lang: str
    variant: str
    tile_count: int
    title: str
    publication: str
    command: str
    extends: str | None
    equipment: tuple[str, ...]
    matadors_intro: str
    matadors: tuple[Diagram, ...]
    deal: tuple[str, ...]
    deal_rows: tuple[DealRow, ...]
    show_reserve: bool
    deal_notes: tuple[str, ...]
    opening: tuple[str, ...]
    sum_rule: tuple[str, ...]
    sum_example: Diagram | None
    sum_rows: tuple[SumRow, ...]
    sum_notes: tuple[str, ...]
    modes_intro: str
    modes: tuple[ModeCard, ...]
    drawing: tuple[str, ...]
    end: tuple[str, ...]
    scoring: tuple[str, ...]
    examples: tuple[str, ...]
    target: tuple[str, ...]
    options: tuple[OptionRow, ...]
    gaps: tuple[GapItem, ...]
    sources: tuple[SourceItem, ...]


# --------------------------------------------------------------------------- rule sentences


def _set_name(tr: Translator, max_pip: int) -> str:
    key = f"set.{max_pip}"
    return tr.t(key) if key in tr.entries else tr.t("set.other", n=max_pip)


def _per_players_text(tr: Translator, key: str, rules: Rules, name: str) -> str:
    value = getattr(rules, name)
    return tr.t("list.separator").join(
        tr.tn(key, value.for_players(players), players=players) for players in rules.players
    )


def _reserves(rules: Rules) -> list[int]:
    return [rules.reserve.for_players(players) for players in rules.players]


def _no_draw_notes(rules: Rules, tr: Translator) -> list[str]:
    """For each player count whose deal leaves nothing to draw, a sentence saying so."""
    notes = []
    for row in _deal_rows(rules):
        if row.boneyard == 0:
            notes.append(tr.tn("deal.no_boneyard", row.players))
        elif row.boneyard <= row.reserve:
            notes.append(tr.tn("deal.reserve_only", row.players))
    return notes


def rule_sentences(rules: Rules, name: str, tr: Translator, *, short: bool = False) -> list[str]:
    """The sentences that state rule ``name`` as ``rules`` have it.

    ``short`` gives the compact form used in the options table and the
    "agree before you play" box (per-player numbers inline, one line per
    matador mode).
    """
    if name in VALUE_RULES:
        return [tr.t(value_key(name, getattr(rules, name)))]
    if name == "max_pip":
        return [
            tr.tn(
                "rule.max_pip.set",
                rules.tile_count,
                set=_set_name(tr, rules.max_pip),
                n=rules.max_pip,
            )
        ]
    if name == "players":
        return [tr.t("rule.players", players=tr.join(str(n) for n in rules.players))]
    if name == "hand_size":
        if short:
            return [_per_players_text(tr, "rule.hand_size.by_players", rules, name)]
        return [tr.t("rule.hand_size.dealt")]
    if name == "reserve":
        reserves = _reserves(rules)
        if not any(reserves):
            return [tr.t("rule.reserve.none")] + (_no_draw_notes(rules, tr) if short else [])
        if len(set(reserves)) == 1:
            kept = [tr.tn("rule.reserve.kept", reserves[0])]
        elif short:
            kept = [_per_players_text(tr, "rule.reserve.by_players", rules, name)]
        else:
            kept = [tr.t("rule.reserve.kept_table")]
        return kept + (_no_draw_notes(rules, tr) if short else [])
    if name == "doubles":
        d = min(3, rules.max_pip)
        return [tr.t(value_key(name, rules.doubles), d=d, need=rules.line_sum - d)]
    if name == "hand_pips":
        d = min(4, rules.max_pip)
        return [tr.t(value_key(name, rules.hand_pips), d=d, pips=2 * d)]
    if name == "target":
        suffix = "_sides" if rules.partnership is Partnership.TWO_VS_TWO else ""
        return [tr.tn(f"rule.target.{rules.target.unit}{suffix}", rules.target.value)]
    if name == "matador_modes":
        return [mode_summary(rules, mode, tr) for mode in rules.matador_modes]
    raise KeyError(name)


def mode_title(mode: MatadorMode, tr: Translator) -> str:
    """The heading of a matador mode (by how it lies and whether it must fit)."""
    return tr.t(f"mode.title.{mode.shape}.{mode.fit}")


def mode_lines(rules: Rules, mode: MatadorMode, tr: Translator) -> list[tuple[str, str]]:
    """A matador mode as labelled lines: which, where, how, what stays open, what follows."""
    lines = [
        (tr.t("mode.label.tiles"), tr.t(f"mode.tiles.{mode.tiles}")),
        (tr.t("mode.label.ends"), tr.t(f"mode.ends.{mode.ends}")),
        (tr.t("mode.label.how"), tr.t(f"mode.how.{mode.shape}.{mode.fit}", sum=rules.line_sum)),
    ]
    dead = mode.leaves.match is MatchRule.NONE
    if mode.leaves.match in (MatchRule.SUM, MatchRule.IDENTICAL):  # the values matter only then
        lines.append((tr.t("mode.label.open"), tr.t(_open_key(mode))))
    following = tr.t(f"mode.next.{mode.leaves.match}", sum=rules.line_sum)
    lines.append((tr.t("mode.label.next"), following))
    if not dead:
        lines.append((tr.t("mode.label.after"), tr.t(f"mode.after.{mode.leaves.matadors}")))
    return lines


def _open_key(mode: MatadorMode) -> str:
    if mode.open is OpenValues.OUTER_HALF:
        return f"mode.open.outer_half_{mode.fit}"
    return f"mode.open.{mode.open}"


def mode_summary(rules: Rules, mode: MatadorMode, tr: Translator) -> str:
    """A matador mode in one sentence (for the options and the agree box)."""
    matters = mode.leaves.match in (MatchRule.SUM, MatchRule.IDENTICAL)
    key = "mode.summary" if matters else "mode.summary_short"
    return tr.t(
        key,
        title=mode_title(mode, tr),
        tiles=tr.t(f"mode.tiles.{mode.tiles}"),
        ends=tr.t(f"mode.ends.{mode.ends}"),
        open=tr.t(_open_key(mode)),
        next=tr.t(f"mode.next.{mode.leaves.match}", sum=rules.line_sum),
    )


# --------------------------------------------------------------------------- computed parts


def _ordinary_tile_with(rules: Rules, value: int, avoid: Iterable[Tile] = ()) -> Tile:
    """An ordinary non-double tile showing ``value``, for the drawings."""
    avoided = set(avoid)
    for other in (3, 4, 2, 5, 1, 6, 0, *range(7, rules.max_pip + 1)):
        if other > rules.max_pip or other == value:
            continue
        tile = Tile.of(value, other)
        if not rules.is_matador(*tile) and tile not in avoided:
            return tile
    return Tile.of(value, value)


def _matador_tiles(rules: Rules) -> tuple[Diagram, ...]:
    """Each matador of the set, drawn, with its name as the caption."""
    return tuple(
        Diagram(svg.single_tile(low, high, tile_text(low, high)), tile_text(low, high), "")
        for low, high in rules.matadors()
    )


def _deal_rows(rules: Rules) -> tuple[DealRow, ...]:
    rows = []
    for players in rules.players:
        hand = rules.hand_size.for_players(players)
        rows.append(
            DealRow(
                players=players,
                hand=hand,
                boneyard=rules.tile_count - hand * players,
                reserve=rules.reserve.for_players(players),
            )
        )
    return tuple(rows)


def _sum_example(rules: Rules, tr: Translator) -> Diagram | None:
    """An ordinary tile joined by the sum rule, found from the set's numbers."""
    for end in range(rules.max_pip - 1, 0, -1):
        low = rules.line_sum - end
        for high in range(rules.max_pip, -1, -1):
            if high == low or rules.is_matador(low, high) or rules.line_sum - high > rules.max_pip:
                continue
            previous = _ordinary_tile_with(rules, end, [Tile.of(low, high)])
            caption = tr.t(
                "sum.example",
                end=end,
                low=low,
                high=high,
                sum=rules.line_sum,
                need=rules.line_sum - high,
            )
            picture = svg.sum_example(
                svg.Placed(previous.other(end), end),
                svg.Placed(low, high),
                f"{end} + {low} = {rules.line_sum}",
                caption,
            )
            text = f"[{previous.other(end)}|{end}][{low}|{high}]"
            return Diagram(picture, text, caption)
    return None


def _sum_rows(rules: Rules, tables: Compiled, tr: Translator) -> tuple[SumRow, ...]:
    """For each plain end: the number needed and every tile that may go on it."""
    rows = []
    for end in range(rules.max_pip + 1):
        mask = tables.fits[tables.kind_id[OpenEnd.plain(end)]]
        answering = tables.tiles_of(mask)
        matadors = [tile for tile in answering if rules.is_matador(*tile)]
        ordinary = [tile for tile in answering if not rules.is_matador(*tile)]
        need = rules.line_sum - end
        if ordinary and rules.max_pip > 6:
            ordinary_text = tr.tn("sum.with_half", len(ordinary), need=need)
        else:
            ordinary_text = " ".join(str(tile) for tile in ordinary)
        if matadors and len(matadors) == len(rules.matadors()):
            matadors_text = tr.tn("sum.all_matadors", len(matadors))
        else:
            matadors_text = " ".join(str(tile) for tile in matadors)
        rows.append(
            SumRow(
                end=end,
                need=str(need) if need <= rules.max_pip else tr.t("sum.matador_only"),
                count=str(len(answering)),
                ordinary=ordinary_text,
                matadors=matadors_text,
            )
        )
    return tuple(rows)


def _blank_note(rules: Rules, tables: Compiled, tr: Translator) -> str:
    mask = tables.fits[tables.kind_id[OpenEnd.plain(0)]]
    count = len(tables.tiles_of(mask))
    if count == 0:
        return tr.t("sum.blank_dead", sum=rules.line_sum)
    return tr.tn("sum.blank", count, sum=rules.line_sum)


def _example_tile(rules: Rules, mode: MatadorMode) -> Tile | None:
    candidates = [Tile(*tile) for tile in rules.matadors() if mode.applies_to_tile(tile == (0, 0))]
    if mode.fit is Fit.MATCH:
        candidates = [tile for tile in candidates if tile.low > 0]
    if not candidates:
        return None
    non_blank = [tile for tile in candidates if tile != (0, 0)]
    if not non_blank:
        return candidates[0]
    index = 1 if mode.shape is Shape.CROSSWISE and len(non_blank) > 1 else 0
    return non_blank[index]


def _example_end(rules: Rules, mode: MatadorMode, tile: Tile) -> int | None:
    if mode.ends is EndFilter.BLANK:
        return 0
    if mode.fit is Fit.MATCH:
        end = rules.line_sum - tile.low
        return end if end <= rules.max_pip else None
    if mode.shape is Shape.INLINE and mode.ends is EndFilter.ANY:
        return 0
    preferred: list[int] = [4, 3, 5, 2, 1, 6, *range(7, rules.max_pip + 1)]
    for value in preferred:
        fits = rules.line_sum - value in (tile.low, tile.high)
        if value <= rules.max_pip and not fits and value not in (tile.low, tile.high):
            return value
    return 1


def _mode_picture(
    rules: Rules, tables: Compiled, mode: MatadorMode, tr: Translator
) -> Diagram | None:
    """A worked placement for ``mode``, found with the compiled placement tables."""
    tile = _example_tile(rules, mode)
    if tile is None:
        return None
    end_value = _example_end(rules, mode, tile)
    if end_value is None:
        return None
    end = OpenEnd.plain(end_value)
    found = [
        (key, new_end)
        for key, new_end in tables.placements(end, tile).items()
        if key[0] is mode.shape
        and new_end.match is mode.leaves.match
        and new_end.access is mode.leaves.matadors
    ]
    if not found:
        return None
    # With a free choice of half, show the higher half left open.
    found.sort(key=lambda item: -(item[0][1] or 0))
    (shape, outer), new_end = found[0]
    previous_tile = _ordinary_tile_with(rules, end_value, [tile])
    previous = svg.Placed(previous_tile.other(end_value), end_value)
    if shape is Shape.CROSSWISE or outer is None:
        matador = svg.Placed(tile.low, tile.high, svg.Style.MATADOR)
        matador_text = f"[{tile.low}/{tile.high}] T"
    elif shape is Shape.CROSSWISE_OFFSET:
        matador = svg.Placed(outer, tile.other(outer), svg.Style.MATADOR)
        matador_text = f"[{outer}/{tile.other(outer)}] L"
    else:
        matador = svg.Placed(tile.other(outer), outer, svg.Style.MATADOR)
        matador_text = f"[{tile.other(outer)}|{outer}]"
    following = _following(rules, tables, new_end, avoid=(tile, previous_tile))
    name = tile_text(*tile)
    if following is None:
        caption = tr.t("mode.example_dead", end=end_value, tile=name)
        text = f"[{previous.first}|{previous.second}] {matador_text} ×"
    elif new_end.match not in (MatchRule.SUM, MatchRule.IDENTICAL):
        caption = tr.t(
            "mode.example_any",
            end=end_value,
            tile=name,
            next=tile_text(following.first, following.second),
        )
        text = (
            f"[{previous.first}|{previous.second}] {matador_text} → "
            f"[{following.first}|{following.second}]"
        )
    else:
        caption = tr.t(
            "mode.example",
            end=end_value,
            tile=name,
            open=tr.join((str(value) for value in new_end.values), "and"),
            next=tile_text(following.first, following.second),
        )
        text = (
            f"[{previous.first}|{previous.second}] {matador_text} → "
            f"[{following.first}|{following.second}]"
        )
    picture = svg.ModePicture(previous, matador, str(shape), following)
    return Diagram(svg.mode_diagram(picture, caption), text, caption)


def _following(
    rules: Rules, tables: Compiled, end: OpenEnd, avoid: Sequence[Tile]
) -> svg.Placed | None:
    """A tile that may go on ``end`` next (an ordinary one if any), as it would lie."""
    kind = tables.kind_id.get(end)
    if kind is not None:
        answering = list(tables.tiles_of(tables.fits[kind]))
    else:
        answering = [tile for tile in tables.tiles if tables.placements(end, tile)]
    answering = [tile for tile in answering if tile not in avoid]
    if not answering:
        return None
    answering.sort(key=lambda t: (rules.is_matador(*t), t.is_double, t.low == 0 and t.high != 0, t))
    chosen = answering[0]
    keys = sorted(tables.placements(end, chosen), key=lambda key: -(key[1] or 0))
    outer = keys[0][1] if keys and keys[0][1] is not None else chosen.high
    style = svg.Style.MATADOR if rules.is_matador(*chosen) else svg.Style.NEXT
    return svg.Placed(chosen.other(outer), outer, style)


def _calculation(rules: Rules, totals: Sequence[int], winner: int, points: int) -> str:
    """The arithmetic behind ``points``, written out (the points come from scoring.score)."""
    own = totals[winner]
    losers = [total for side, total in enumerate(totals) if side != winner]
    if rules.points is Points.ALL_HANDS:
        expression, value = " + ".join(map(str, totals)), sum(totals)
    elif len(losers) == 1:
        expression, value = f"{losers[0]} − {own}", losers[0] - own
    elif rules.difference_among_several is DifferenceAmongSeveral.EACH_OPPONENT_MINUS_OWN:
        expression = " + ".join(f"({loser} − {own})" for loser in losers)
        value = sum(loser - own for loser in losers)
    else:
        expression = f"({' + '.join(map(str, losers))}) − {own}"
        value = sum(losers) - own
    if value != points:
        return f"max(0, {expression}) = {points}"
    return f"{expression} = {points}"


def _example(rules: Rules, players: int, tr: Translator, *, domino: bool) -> str:
    pips = EXAMPLE_PIPS[players]
    if domino:
        pips = (0, *pips[1:])
    outcome = score(
        rules,
        pips,
        Termination.DOMINO if domino else Termination.BLOCKED,
        went_out=0 if domino else None,
    )
    groups = sides(rules, players)
    separator = tr.t("list.separator")
    pips_text = separator.join(f"{SEAT_NAMES[seat]} {pips[seat]}" for seat in range(players))

    def side_name(side: int) -> str:
        seats = " + ".join(SEAT_NAMES[seat] for seat in groups[side])
        return seats if len(groups[side]) == 1 else tr.t("scoring.side", seats=seats)

    teams = rules.partnership is Partnership.TWO_VS_TWO
    if teams:
        sides_text = separator.join(" + ".join(SEAT_NAMES[s] for s in group) for group in groups)
        key = "scoring.sides_domino" if domino else "scoring.sides"
        setting = tr.t(key, sides=sides_text, pips=pips_text, winner=SEAT_NAMES[0])
    else:
        key = "scoring.domino" if domino else "scoring.blocked"
        setting = tr.t(key, players=players, pips=pips_text, winner=SEAT_NAMES[0])
    if outcome.winner is None:  # the example pips never tie
        raise ValueError(f"the worked example ties: {pips}")
    calc = _calculation(rules, outcome.side_pips, outcome.winner, outcome.points[outcome.winner])
    result = tr.t("scoring.wins", winner=side_name(outcome.winner), calc=calc)
    return f"{setting} {result[:1].upper()}{result[1:]}"


def _examples(rules: Rules, tr: Translator) -> tuple[str, ...]:
    fewest = min(rules.players)
    examples = [_example(rules, fewest, tr, domino=False)]
    many = max(rules.players)
    if (
        rules.applicable("difference_among_several")
        and fewest == 2
        and rules.partnership is Partnership.NONE
    ):
        examples.append(_example(rules, many, tr, domino=False))
    examples.append(_example(rules, fewest, tr, domino=True))
    return tuple(examples)


# --------------------------------------------------------------------------- options, gaps, sources


def _changed_rules(option_values: Iterable[tuple[str, ...]]) -> list[str]:
    changed: list[str] = []
    for changes in option_values:
        for name in changes:
            if name not in changed:
                changed.append(name)
    return changed


def _summary(
    rules: Rules,
    names: Iterable[str],
    tr: Translator,
    modes: Sequence[MatadorMode] | None = None,
) -> str:
    """The short sentences of the applicable rules among ``names``.

    ``modes``, when given, are the matador modes to state instead of all of them.
    """
    sentences = []
    for name in names:
        if not _relevant(rules, name):
            continue
        if name == "matador_modes" and modes is not None:
            sentences += [mode_summary(rules, mode, tr) for mode in modes]
        else:
            sentences += rule_sentences(rules, name, tr, short=True)
    return " ".join(sentences)


def _relevant(rules: Rules, name: str) -> bool:
    """Whether rule ``name`` matters to play (the reserve does not when nobody draws)."""
    if name == "reserve" and rules.draw_when is DrawWhen.NEVER:
        return False
    return rules.applicable(name)


def _distinct(
    modes: Sequence[MatadorMode], others: Sequence[Sequence[MatadorMode]]
) -> list[MatadorMode]:
    """The modes of ``modes`` that some of ``others`` lacks (all of them if none)."""
    distinct = [mode for mode in modes if any(mode not in other for other in others)]
    return distinct or list(modes)


def _options(rules: Rules, tr: Translator, catalog: Catalog) -> tuple[OptionRow, ...]:
    """Each option with the value in force and the others, each with what it changes.

    Where an option changes the matador modes, only the modes that differ
    between its values are stated.
    """
    rows = []
    for option in rules.options:
        in_force = rules.chosen[option.name]
        changed = _changed_rules(value.changes for value in option.values)
        alternatives: list[tuple[str, Rules | None]] = []
        for value in option.values:
            if value.name == in_force:
                continue
            try:
                other = catalog.resolve(rules.variant, {**rules.chosen, option.name: value.name})
            except RulesError:
                other = None
            alternatives.append((value.name, other))
        resolved = [other.matador_modes for _, other in alternatives if other is not None]
        others = tuple(
            (
                name,
                ""
                if other is None
                else _summary(
                    other, changed, tr, _distinct(other.matador_modes, [rules.matador_modes])
                ),
            )
            for name, other in alternatives
        )
        rows.append(
            OptionRow(
                name=option.name,
                value=in_force,
                marker=tr.t("options.default" if in_force == option.default else "options.chosen"),
                text=_summary(rules, changed, tr, _distinct(rules.matador_modes, resolved)),
                others=others,
            )
        )
    return tuple(rows)


def shown_gaps(rules: Rules) -> list[Gap]:
    """The gaps behind a rule value in force: some applicable rule's entry names the gap."""
    shown = []
    for gap in rules.gaps:
        for name in gap.rules:
            provenance = rules.provenance.get(name)
            if provenance is not None and provenance.gap == gap.id and rules.applicable(name):
                shown.append(gap)
                break
    return shown


def _gaps(rules: Rules, tr: Translator) -> tuple[GapItem, ...]:
    items = []
    for gap in shown_gaps(rules):
        names = [name for name in gap.rules if _relevant(rules, name)] or list(gap.rules)
        items.append(
            GapItem(
                label=" · ".join(tr.t(f"label.{name}") for name in names),
                kind=tr.t(f"agree.kind.{gap.kind}"),
                about=" ".join(gap.about.split()) if tr.lang == "en" else None,
                plays=_summary(rules, names, tr),
                options=tuple(
                    f"--option {alt.option}" for alt in gap.alternatives if alt.option is not None
                ),
            )
        )
    return tuple(items)


def _citations(rules: Rules) -> list[Citation]:
    cited: list[Citation] = []
    for names in SECTIONS.values():
        for name in names:
            provenance = rules.provenance.get(name)
            if provenance is not None and rules.applicable(name):
                cited.extend(provenance.cite)
    for gap in shown_gaps(rules):
        cited.extend(gap.cite)
    return cited


def _sources(rules: Rules, tr: Translator) -> tuple[SourceItem, ...]:
    grouped: dict[str, dict[str, list[str]]] = {}
    for citation in _citations(rules):
        sections = grouped.setdefault(citation.publication, {}).setdefault(citation.text, [])
        if citation.section not in sections:
            sections.append(citation.section)
    titles = registry().publications
    return tuple(
        SourceItem(
            title=titles.get(publication, publication),
            passages=tuple(
                tr.t(
                    "sources.passage",
                    text=tr.t("sources.text", id=text),
                    sections="; ".join(sections),
                )
                for text, sections in texts.items()
            ),
        )
        for publication, texts in grouped.items()
    )


# --------------------------------------------------------------------------- the sheet


def command_line(rules: Rules, lang: str) -> str:
    """The ``matador sheet`` command that makes this sheet."""
    defaults = {option.name: option.default for option in rules.options}
    chosen = "".join(
        f" --option {name}={value}"
        for name, value in sorted(rules.chosen.items())
        if defaults.get(name) != value
    )
    language = "" if lang == "en" else f" --lang {lang}"
    return f"matador sheet {rules.variant}{chosen}{language}"


def _opening(rules: Rules, tr: Translator) -> list[str]:
    names = ["opener"]
    designated_first = rules.opener is Opener.DESIGNATED
    if designated_first and rules.applicable("designated_opener"):
        names.append("designated_opener")
    names += ["opening_tile", "opener_lacks_double"]
    if rules.applicable("nobody_has_double"):
        names += ["double_blank_opens", "nobody_has_double"]
        if (
            not designated_first
            and rules.nobody_has_double is NobodyHasDouble.DESIGNATED_DRAWS_UNTIL_DOUBLE
        ):
            names.append("designated_opener")
    names.append("opener_plays_again")
    return [
        sentence
        for name in names
        if rules.applicable(name)
        for sentence in rule_sentences(rules, name, tr)
    ]


def _drawing(rules: Rules, tr: Translator) -> tuple[list[str], list[str]]:
    """The drawing and passing sentences, and the deal notes on boneyards nobody draws from."""
    drawing = rule_sentences(rules, "draw_when", tr)
    notes: list[str] = []
    if rules.applicable("draws_per_turn"):
        for name in ("draws_per_turn", "after_single_draw"):
            if rules.applicable(name):
                drawing += rule_sentences(rules, name, tr)
        if any(_reserves(rules)):
            drawing += rule_sentences(rules, "reserve", tr)
        notes = _no_draw_notes(rules, tr)
    drawing += rule_sentences(rules, "pass_when", tr)
    return drawing, notes


def build_sheet(
    rules: Rules,
    lang: str,
    *,
    catalog: Catalog | None = None,
    translator: Translator | None = None,
) -> Sheet:
    """The rule sheet of ``rules`` in ``lang`` (``catalog`` resolves the other option values)."""
    tr = translator if translator is not None else Translator.for_language(lang)
    catalog = catalog if catalog is not None else Catalog.shipped()
    tables = compiled(rules)
    teams = rules.partnership is Partnership.TWO_VS_TWO
    rows = _deal_rows(rules)
    drawing, deal_notes = _drawing(rules, tr)
    matadors = rules.matadors()
    sum_notes = [_blank_note(rules, tables, tr)]
    sum_notes += rule_sentences(rules, "doubles", tr)
    scoring = rule_sentences(rules, "hand_pips", tr) + rule_sentences(rules, "points", tr)
    if rules.applicable("difference_among_several") and not teams:
        scoring += rule_sentences(rules, "difference_among_several", tr)
    parents = [f"{parent}.yaml" for parent in reversed(rules.chain[:-1])]
    return Sheet(
        lang=lang,
        variant=rules.variant,
        tile_count=rules.tile_count,
        title=" ".join(rules.title.split()),
        publication=registry().publications.get(rules.publication, rules.publication),
        command=command_line(rules, lang),
        extends=tr.t("sheet.extends", parents=tr.join(parents, "and")) if parents else None,
        equipment=tuple(rule_sentences(rules, "max_pip", tr)),
        matadors_intro=tr.tn("rule.max_pip.matadors", len(matadors), sum=rules.line_sum),
        matadors=_matador_tiles(rules),
        deal=tuple(
            rule_sentences(rules, "players", tr)
            + rule_sentences(rules, "hand_size", tr)
            + rule_sentences(rules, "partnership", tr)
            + rule_sentences(rules, "turn_direction", tr)
        ),
        deal_rows=rows,
        show_reserve=any(row.reserve for row in rows),
        deal_notes=tuple(deal_notes),
        opening=tuple(_opening(rules, tr)),
        sum_rule=(tr.t("rule.max_pip.line_sum", sum=rules.line_sum),),
        sum_example=_sum_example(rules, tr),
        sum_rows=_sum_rows(rules, tables, tr),
        sum_notes=tuple(sum_notes),
        modes_intro=tr.tn("rule.matador_modes.intro", len(rules.matador_modes)),
        modes=tuple(
            ModeCard(
                title=mode_title(mode, tr),
                lines=tuple(mode_lines(rules, mode, tr)),
                diagram=_mode_picture(rules, tables, mode, tr),
            )
            for mode in rules.matador_modes
        ),
        drawing=tuple(drawing),
        end=(
            tr.t("end.domino_sides" if teams else "end.domino"),
            tr.t("end.block_sides" if teams else "end.block"),
            *rule_sentences(rules, "tie", tr),
        ),
        scoring=tuple(scoring),
        examples=_examples(rules, tr),
        target=tuple(rule_sentences(rules, "target", tr)),
        options=_options(rules, tr, catalog),
        gaps=_gaps(rules, tr),
        sources=_sources(rules, tr),
    )


__all__ = [
    "DealRow",
    "Diagram",
    "GapItem",
    "ModeCard",
    "OptionRow",
    "Sheet",
    "SourceItem",
    "SumRow",
    "build_sheet",
    "command_line",
    "rule_sentences",
    "shown_gaps",
    "value_key",
]
