"""The computed parts of a sheet: the tile drawings and the tables.

The matadors, the deal table, the sum-rule table and example, and a worked
placement for each matador mode, all found with the engine's compiled placement
tables (:mod:`reference_engine.engine.compiled`) and drawn with :mod:`.svg`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.compiled import Compiled
from ..engine.ends import OpenEnd
from ..engine.tiles import Tile
from ..rules import MatadorMode, Rules
from ..rules.vocabulary import EndFilter, Fit, MatchRule, Shape
from . import svg
from .catalogue import Translator
from .parts import DealRow, Diagram, SumRow


def tile_text(low: int, high: int) -> str:
    """A tile in the project's notation, lower half first: ``[2-5]``."""
    return f"[{min(low, high)}-{max(low, high)}]"


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
        sizes = rules.seat_sizes(players)
        rows.append(
            DealRow(
                players=players,
                hand="/".join(map(str, sorted(set(sizes), reverse=True))),
                boneyard=rules.tile_count - sum(sizes),
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
        mask = tables.fit(tables.kind_id[OpenEnd.plain(end)])
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
    mask = tables.fit(tables.kind_id[OpenEnd.plain(0)])
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
        (key, new_end, beside)
        for key, (new_end, beside) in tables.placement_effects(end, tile).items()
        if key[0] is mode.shape
        and new_end.match is mode.leaves.match
        and new_end.access is mode.leaves.matadors
    ]
    if not found:
        return None
    # With a free choice of half, show the higher half left open.
    found.sort(key=lambda item: -(item[0][1] or 0))
    (shape, outer), new_end, beside = found[0]
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
            "mode.example" if beside is None else "mode.example_two_ends",
            end=end_value,
            tile=name,
            open=tr.join((str(value) for value in new_end.values), "and"),
            next=tile_text(following.first, following.second),
            **({} if beside is None else {"beside": beside.values[0]}),
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
        answering = list(tables.tiles_of(tables.fit(kind)))
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


__all__ = ["tile_text"]
