"""Which rule values the cases exercise, against what the shipped variants use.

The tokens that name rule values are those of
:mod:`reference_engine.conformance.suite.tokens`. Whether a case's legal-set checks
really depend on the value of a turn rule it exercises is worked out by
:mod:`reference_engine.conformance.analysis.decisive` and shown beside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from ... import sinks
from ...errors import Reason
from ...rules import Catalog
from ...rules.parameters import BY_NAME, NAMES
from ...text.tables import (
    Cell,
    Column,
    Style,
    Table,
    column_blocks,
    key_lines,
    markdown,
    prose,
    render,
    style_for,
    table,
)
from ..suite.casedata import Case
from ..suite.tokens import rules_tokens
from .decisive import VARIED, Decisive, decisive_checks, unchecked


def shipped_tokens(catalog: Catalog) -> dict[str, set[str]]:
    """Token -> the variant labels using it, over every variant and option value."""
    used: dict[str, set[str]] = {}
    for variant in catalog.ids():
        base = catalog.resolve(variant)
        choices: list[dict[str, str]] = [{}]
        choices += [
            {option.name: value.name}
            for option in base.options
            for value in option.values
            if value.name != option.default
        ]
        for chosen in choices:
            rules = catalog.resolve(variant, chosen)
            label = variant + "".join(f"[{k}={v}]" for k, v in chosen.items())
            for token in rules_tokens(rules):
                used.setdefault(token, set()).add(label)
    return used


def case_tokens(case: Case, catalog: Catalog) -> tuple[set[str], list[str]]:
    """The tokens a case exercises, and the declarations that no target of it has."""
    exercised, wrong = set(), []
    in_force = set().union(
        *(rules_tokens(catalog.resolve(t.variant, t.options)) for t in case.applies_to)
    )
    rule_names = {token.split("=", 1)[0] for token in in_force}
    for declared in case.exercises:
        if "=" in declared:
            if declared in in_force:
                exercised.add(declared)
            else:
                wrong.append(declared)
        elif declared in rule_names or declared in BY_NAME:
            exercised.update(t for t in in_force if t.split("=", 1)[0] == declared)
        else:
            wrong.append(declared)
    return exercised, wrong


def reasons_provoked(cases: Iterable[Case]) -> dict[str, list[str]]:
    """Reason code -> ids of the cases whose steps expect it."""
    found: dict[str, list[str]] = {}
    for case in cases:
        for hand in case.hands:
            for step in hand.steps:
                if step.error:
                    found.setdefault(step.error, []).append(case.id)
    return found


def coverage_report(cases: Sequence[Case], catalog: Catalog) -> dict[str, Any]:
    """Everything the coverage matrix and its test need."""
    used = shipped_tokens(catalog)
    by_token: dict[str, list[str]] = {token: [] for token in used}
    wrong: dict[str, list[str]] = {}
    per_variant: dict[str, int] = {variant: 0 for variant in catalog.ids()}
    for case in cases:
        exercised, bad = case_tokens(case, catalog)
        if bad:
            wrong[case.id] = bad
        for token in exercised:
            by_token.setdefault(token, []).append(case.id)
        for variant in {target.variant for target in case.applies_to}:
            per_variant[variant] = per_variant.get(variant, 0) + 1
    reasons = reasons_provoked(cases)
    return {
        "tokens": by_token,
        "uncovered": sorted(token for token, ids in by_token.items() if token in used and not ids),
        "wrong_declarations": wrong,
        "per_variant": per_variant,
        "reasons": {reason.value: reasons.get(reason.value, []) for reason in Reason},
        "unknown_reasons": sorted(set(reasons) - {reason.value for reason in Reason}),
    }


def coverage_matrix(cases: Sequence[Case], catalog: Catalog) -> dict[str, dict[str, int | None]]:
    """Rule -> variant -> how many of the variant's cases exercise a value of the rule
    (None where the rule has no effect under the variant's own rules)."""
    matrix: dict[str, dict[str, int | None]] = {
        rule: {
            variant: 0 if catalog.resolve(variant).applicable(rule) else None
            for variant in catalog.ids()
        }
        for rule in NAMES
    }
    for case in cases:
        exercised, _ = case_tokens(case, catalog)
        rules = {token.split("=", 1)[0] for token in exercised}
        for variant in {target.variant for target in case.applies_to}:
            for rule in rules:
                counts = matrix[rule]
                if variant in counts:
                    counts[variant] = (counts[variant] or 0) + 1
    return matrix


def coverage_data(
    cases: Sequence[Case], catalog: Catalog, decisive: Decisive | None = None
) -> dict[str, Any]:
    """``matador conform --coverage --report json``: the report, the variant-by-rule matrix,
    the decisive checks of each turn rule's value and the values never checked decisively
    (``decisive``: those checks, when already found)."""
    decisive = decisive_checks(cases, catalog) if decisive is None else decisive
    return {
        **coverage_report(cases, catalog),
        "matrix": coverage_matrix(cases, catalog),
        "decisive": decisive.as_data(),
        "unchecked": [
            {"rule_value": u.rule_value, "target": u.target, "cases": list(u.cases)}
            for u in unchecked(cases, catalog, decisive)
        ],
    }


def _decisive_table(tokens: dict[str, list[str]], decisive: Decisive) -> Table:
    """Each turn rule's value: the cases exercising it, those with a decisive legal-set check,
    and the other values no check tells it apart from."""
    rows: list[list[Cell | str]] = []
    for token, ids in sorted(tokens.items()):
        if token.split("=", 1)[0] not in VARIED:
            continue
        found, untold = decisive.cases(token), decisive.untold(token)
        status = "ok" if found and not untold else "PARTIAL" if found else "NONE"
        rows.append(
            [
                Cell(status, marked=status != "ok"),
                token,
                str(len(set(ids))),
                str(len(found)),
                ", ".join(untold) or "-",
            ]
        )
    return table(
        [
            "",
            "RULE=VALUE",
            Column("cases", right=True),
            Column("decisive", right=True),
            "never told from",
        ],
        rows,
    )


def _tables(
    cases: Sequence[Case], catalog: Catalog, short: Sequence[str], decisive: Decisive | None
) -> list[Any]:
    """The headings and tables of the coverage, in order (a heading is a str)."""
    report = coverage_report(cases, catalog)
    matrix = coverage_matrix(cases, catalog)
    decisive = decisive_checks(cases, catalog) if decisive is None else decisive
    status = {True: "ok", False: "MISSING"}
    tokens = table(
        ["", "RULE=VALUE", Column("cases", right=True)],
        [
            [Cell(status[bool(ids)], marked=not ids), token, str(len(set(ids)))]
            for token, ids in sorted(report["tokens"].items())
        ],
    )
    variants = catalog.ids()
    rows = [[Cell("(cases)")] + [Cell(str(report["per_variant"][v])) for v in variants]]
    for rule, counts in matrix.items():
        rows.append(
            [Cell(rule)]
            + [
                Cell("-" if counts[v] is None else str(counts[v]), marked=counts[v] == 0)
                for v in variants
            ]
        )
    grid = Table(
        (Column("rule"), *(Column(name, right=True) for name in short)),
        tuple(tuple(row) for row in rows),
    )
    reasons = table(
        ["", "reason code", Column("cases", right=True)],
        [
            [Cell(status[bool(ids)], marked=not ids), reason, str(len(set(ids)))]
            for reason, ids in report["reasons"].items()
        ],
    )
    wrong = [
        f"WRONG {case_id} declares {', '.join(bad)}, which none of its variants uses"
        for case_id, bad in report["wrong_declarations"].items()
    ] + [f"WRONG reason code {r!r} is not in the vocabulary" for r in report["unknown_reasons"]]
    wrong += [str(u) for u in unchecked(cases, catalog, decisive)]
    return [
        "rule value coverage (RULE=VALUE: cases exercising it)",
        tokens,
        "decisive checks of the turn rules (cases whose legal-set checks fail when the rule"
        " takes another value; the values no check tells it from)",
        _decisive_table(report["tokens"], decisive),
        "cases of each variant exercising each rule (-: no effect)",
        grid,
        "reason codes provoked",
        reasons,
        *wrong,
    ]


def coverage_lines(
    cases: Sequence[Case], catalog: Catalog, style: Style, decisive: Decisive | None = None
) -> list[str]:
    """The coverage as tables that fit ``style.width``: rule values, the variant-by-rule
    matrix in blocks of columns, the reason codes; what is missing marked."""
    from ...disputes.comparison import short_labels

    variants = catalog.ids()
    short = short_labels(variants, longest=9)
    out: list[str] = []
    for part in _tables(cases, catalog, short, decisive):
        if isinstance(part, str):
            out += ["", *(style.strong(line) for line in prose(part, style.width))]
        elif part.columns[0].header == "rule":
            out += key_lines(
                [(s, v) for s, v in zip(short, variants, strict=True) if s != v], style.width
            )
            for block in column_blocks(part, style.width):
                out += ["", *render(block, style)]
        else:
            out += render(part, style)
    return out[1:]


def coverage_markdown(
    cases: Sequence[Case], catalog: Catalog, decisive: Decisive | None = None
) -> list[str]:
    """The coverage in Markdown: the same tables, the matrix whole."""
    out: list[str] = []
    for part in _tables(cases, catalog, catalog.ids(), decisive):
        out += ["", f"## {part}", ""] if isinstance(part, str) else markdown(part)
    return out[1:]


def coverage_text(cases: Sequence[Case], catalog: Catalog) -> str:
    """The coverage as 80-column text."""
    return "\n".join(coverage_lines(cases, catalog, Style())) + "\n"


def coverage_output(
    cases: Sequence[Case],
    catalog: Catalog,
    fmt: str,
    width: int | None,
    stream: TextIO,
    progress: Callable[[int, int], None] | None = None,
) -> str:
    """The coverage in ``fmt``: ``json``, ``markdown``, or tables fitted to ``stream``
    (``width`` when given; any other report format gets the tables). ``progress(done,
    total)`` is told of each replay of the decisive checks, the part that takes time."""
    decisive = decisive_checks(cases, catalog, progress)
    if fmt == "json":
        return sinks.json_text(coverage_data(cases, catalog, decisive), indent=2) + "\n"
    if fmt == "markdown":
        return "\n".join(coverage_markdown(cases, catalog, decisive)) + "\n"
    return "\n".join(coverage_lines(cases, catalog, style_for(stream, width), decisive)) + "\n"
