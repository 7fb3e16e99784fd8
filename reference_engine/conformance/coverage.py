"""Which rule values the cases exercise, against what the shipped variants use.

The tokens that name rule values are those of
:mod:`reference_engine.conformance.tokens`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import Reason
from ..rules import Catalog
from ..rules.parameters import BY_NAME
from .cases import Case
from .tokens import rules_tokens


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


def coverage_text(cases: Sequence[Case], catalog: Catalog) -> str:
    """The rule-by-case coverage matrix as text."""
    report = coverage_report(cases, catalog)
    lines = ["rule value coverage (RULE=VALUE: cases exercising it)"]
    for token in sorted(report["tokens"]):
        ids = report["tokens"][token]
        lines.append(f"  {'MISSING' if not ids else 'ok':7} {token}: {', '.join(sorted(ids))}")
    lines.append("cases per variant")
    for variant, count in report["per_variant"].items():
        lines.append(f"  {variant}: {count}")
    lines.append("reason codes provoked")
    for reason, ids in report["reasons"].items():
        lines.append(
            f"  {'MISSING' if not ids else 'ok':7} {reason}: {', '.join(sorted(set(ids)))}"
        )
    for case_id, bad in report["wrong_declarations"].items():
        lines.append(
            f"  WRONG   {case_id} declares {', '.join(bad)}, which none of its variants uses"
        )
    for reason in report["unknown_reasons"]:
        lines.append(f"  WRONG   reason code {reason!r} is not in the vocabulary")
    return "\n".join(lines) + "\n"
