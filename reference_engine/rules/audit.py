"""The audit of the variant files: check ``spec/audit.yaml``, render ``docs/audit.md``.

``spec/audit.yaml`` has one row per claim of each audited variant file (every
rule value under ``rules:``, every rule value an option value sets, every
note), naming the source text and section the claim rests on and a verdict:
``exact`` (the cited text says it), ``reading`` (the source is silent or
ambiguous and a gap of the file covers the rule) or ``fixed`` (it was wrong
and has been corrected; ``was`` says how). Every shipped variant file must be
audited. This module's one job is to check those rows against the variant
files, read with the project's own loader, and to render them as a page::

    python -m reference_engine.rules.audit          # rewrite docs/audit.md (atomically)
    python -m reference_engine.rules.audit --check  # exit 1: a row is wrong or the page stale
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from .. import safeio
from ..errors import InputProblem
from . import Catalog, RulesError, registry
from .convert import CONVERTERS
from .datafiles import data_root, spec_dir
from .yamldoc import read_yaml_file

#: The fields of a row, and those it must have (``was`` goes with ``fixed`` only).
ROW_FIELDS = ("claim", "value", "text", "section", "verdict", "was", "note")
REQUIRED_FIELDS = frozenset(ROW_FIELDS) - {"was"}


class Verdict(Enum):
    """What the audit found for one claim."""

    EXACT = "exact"
    READING = "reading"
    FIXED = "fixed"


class AuditError(InputProblem, ValueError):
    """``spec/audit.yaml`` cannot be read, or is not shaped as a row list per variant."""


@dataclass(frozen=True)
class Row:
    """One audited claim of one variant file."""

    variant: str
    claim: str
    value: Any
    text: str
    section: str
    verdict: Verdict
    note: str
    was: str | None = None


@dataclass(frozen=True)
class Audit:
    """The audit: the variants it covers, in order, and their rows."""

    variants: tuple[str, ...]
    rows: tuple[Row, ...]

    def rows_of(self, variant: str) -> tuple[Row, ...]:
        """The rows of ``variant``, in file order."""
        return tuple(row for row in self.rows if row.variant == variant)


@dataclass(frozen=True)
class Claim:
    """A claim as found in a variant file: a rule entry (maybe of an option value) or a note."""

    claim: str
    rule: str | None
    value: Any
    cites: frozenset[tuple[str, str]]
    gap: str | None


def default_audit_path() -> Path:
    """``spec/audit.yaml``."""
    return spec_dir() / "audit.yaml"


def default_page_path() -> Path:
    """``docs/audit.md`` in the checkout."""
    return data_root() / "docs" / "audit.md"


# --------------------------------------------------------------------------- reading


def load_audit(path: Path) -> Audit:
    """Read ``path`` strictly (the project's YAML reader) into an :class:`Audit`."""
    with safeio.size_limit(None):
        document, problems = read_yaml_file(path, trusted=True)
    if document is None:
        raise AuditError("; ".join(str(problem) for problem in problems))
    data = document.data
    if not isinstance(data, dict) or set(data) != {"variants"}:
        raise AuditError(f"{path}: the top level must be a mapping with the one key 'variants'")
    variants = data["variants"]
    if not isinstance(variants, dict) or not variants:
        raise AuditError(f"{path}: 'variants' must map each variant id to its rows")
    rows: list[Row] = []
    for variant, raw_rows in variants.items():
        if not isinstance(raw_rows, list) or not raw_rows:
            raise AuditError(f"{path}: {variant}: the rows must be a non-empty list")
        rows.extend(_row(path, variant, index, raw) for index, raw in enumerate(raw_rows))
    return Audit(variants=tuple(variants), rows=tuple(rows))


def _row(path: Path, variant: str, index: int, raw: object) -> Row:
    where = f"{path}: {variant}[{index}]"
    if not isinstance(raw, dict):
        raise AuditError(f"{where}: a row must be a mapping")
    unknown = set(raw) - set(ROW_FIELDS)
    missing = REQUIRED_FIELDS - set(raw)
    if unknown or missing:
        raise AuditError(f"{where}: unknown fields {sorted(unknown)}, missing {sorted(missing)}")
    for name in ("claim", "text", "section", "verdict", "note", "was"):
        if name in raw and (not isinstance(raw[name], str) or not raw[name].strip()):
            raise AuditError(f"{where}: {name!r} must be a non-empty string")
    try:
        verdict = Verdict(raw["verdict"])
    except ValueError:
        raise AuditError(f"{where}: verdict must be exact, reading or fixed") from None
    if (verdict is Verdict.FIXED) != ("was" in raw):
        raise AuditError(f"{where}: 'was' is required with verdict fixed, and only then")
    return Row(
        variant=variant,
        claim=raw["claim"],
        value=raw["value"],
        text=raw["text"],
        section=raw["section"],
        verdict=verdict,
        note=raw["note"],
        was=raw.get("was"),
    )


def file_claims(data: Mapping[str, Any]) -> dict[str, Claim]:
    """Every claim of one variant file's data, by locator, in file order."""
    claims: dict[str, Claim] = {}
    entries: list[tuple[str, str, Mapping[str, Any]]] = [
        (f"rules.{rule}", rule, entry) for rule, entry in data.get("rules", {}).items()
    ]
    for option, raw in data.get("options", {}).items():
        for value_name, value in raw["values"].items():
            entries.extend(
                (f"options.{option}={value_name}.{rule}", rule, entry)
                for rule, entry in value.get("rules", {}).items()
            )
    for claim, rule, entry in entries:
        claims[claim] = Claim(claim, rule, entry["value"], _cites(entry), entry.get("gap"))
    for number, note in enumerate(data.get("notes", []), start=1):
        claims[f"notes.{number}"] = Claim(f"notes.{number}", None, note["kind"], _cites(note), None)
    return claims


def _cites(entry: Mapping[str, Any]) -> frozenset[tuple[str, str]]:
    return frozenset((cite["text"], cite["section"]) for cite in entry.get("cite", []))


# --------------------------------------------------------------------------- checking


def check(audit: Audit, catalog: Catalog) -> list[str]:
    """Every way the audit disagrees with the variant files; empty when it holds."""
    problems: list[str] = []
    texts = set(registry().texts)
    problems += [f"{v}: shipped but not audited" for v in catalog.files if v not in audit.variants]
    for variant in audit.variants:
        if variant not in catalog.files:
            problems.append(f"{variant}: no such variant")
            continue
        data = catalog.files[variant].data
        claims = file_claims(data)
        rows = audit.rows_of(variant)
        seen: Counter[str] = Counter(row.claim for row in rows)
        problems += [f"{variant}: {claim}: more than one row" for claim, n in seen.items() if n > 1]
        problems += [f"{variant}: {claim}: no row" for claim in claims if claim not in seen]
        gaps = data.get("gaps", [])
        listed = {rule for gap in gaps for rule in gap["rules"]}
        for row in rows:
            where = f"{variant}: {row.claim}"
            if row.text not in texts:
                problems.append(f"{where}: unknown source text {row.text!r}")
            if row.claim not in claims:
                problems.append(f"{where}: the file has no such claim")
                continue
            problems += [f"{where}: {p}" for p in _check_row(row, claims[row.claim], listed)]
        for gap in gaps:
            for rule in gap["rules"]:
                if not any(
                    row.claim in claims
                    and claims[row.claim].rule == rule
                    and row.verdict is not Verdict.EXACT
                    for row in rows
                ):
                    problems.append(
                        f"{variant}: gap {gap['id']} covers {rule}, but no row of {rule} "
                        "is a reading or fixed"
                    )
    return problems


def _check_row(row: Row, claim: Claim, listed: set[str]) -> list[str]:
    problems = []
    if row.value != claim.value:
        problems.append(f"the row says {row.value!r}, the file {claim.value!r}")
    if claim.rule is not None and claim.rule not in CONVERTERS:
        problems.append(f"{claim.rule!r} is not a rule")
    cited = (row.text, row.section) in claim.cites
    covered = claim.gap is not None or (claim.rule is not None and claim.rule in listed)
    if row.verdict is Verdict.EXACT and not cited:
        problems.append(f"exact, but {row.text} / {row.section!r} is not among its citations")
    if row.verdict is Verdict.READING and not covered:
        problems.append("a reading, but no gap of the file covers the rule")
    if claim.gap is not None and row.verdict is Verdict.EXACT:
        problems.append(f"the entry names gap {claim.gap!r}, so it cannot be exact")
    if row.verdict is Verdict.FIXED and not (cited or claim.gap is not None):
        problems.append("fixed, but neither cited from that section nor explained by a gap")
    if claim.rule is None and row.verdict is Verdict.READING:
        problems.append("a note is not a rule value: it cannot be a reading")
    return problems


# --------------------------------------------------------------------------- rendering


def render(audit: Audit) -> str:
    """``docs/audit.md``: a summary of verdicts per variant, then one table per variant."""
    lines = [
        "# Audit of the variant files",
        "",
        "<!-- Generated from spec/audit.yaml by `python -m reference_engine.rules.audit`;",
        "     do not edit by hand. -->",
        "",
        "Every claim of every shipped variant file (each rule value under `rules:`,",
        "each rule value an option value sets, each note) checked against the source",
        "text it cites. **exact**: the cited text, in that section, says it.",
        "**reading**: the source is silent or ambiguous and the file records a gap",
        "for the rule. **fixed**: the claim was wrong and has been corrected (the",
        "note says what it was).",
        "",
        "The source texts (`spec/sources.yaml`):",
        "",
        *(f"- `{key}`: {about}" for key, about in registry().text_about.items()),
        "",
        "| variant | claims | exact | reading | fixed |",
        "|---|---:|---:|---:|---:|",
    ]
    total: Counter[Verdict] = Counter()
    for variant in audit.variants:
        counts = Counter(row.verdict for row in audit.rows_of(variant))
        total.update(counts)
        lines.append(_summary_line(f"[{variant}](#{variant})", counts))
    lines.append(_summary_line("**all**", total))
    for variant in audit.variants:
        lines += [
            "",
            f"## {variant}",
            "",
            "| rule | value | source and section | verdict | note |",
            "|---|---|---|---|---|",
        ]
        for row in audit.rows_of(variant):
            note = row.note if row.was is None else f"{row.note} *Before:* {row.was}"
            cells = (
                _claim_label(row.claim),
                _value_text(row.value),
                f"{row.text}, {row.section}",
                row.verdict.value,
                note,
            )
            lines.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def _summary_line(label: str, counts: Mapping[Verdict, int]) -> str:
    numbers = [counts.get(verdict, 0) for verdict in Verdict]
    return f"| {label} | {sum(numbers)} | " + " | ".join(str(n) for n in numbers) + " |"


def _claim_label(claim: str) -> str:
    kind, _, rest = claim.partition(".")
    if kind == "rules":
        return f"`{rest}`"
    if kind == "options":
        choice, _, rule = rest.rpartition(".")
        return f"`{rule}` (option `{choice}`)"
    return f"note {rest}"


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return "; ".join(_mode_text(mode) for mode in value)
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items())
    return str(value)


def _mode_text(mode: Mapping[str, Any]) -> str:
    leaves = mode.get("leaves", {})
    head = "/".join(str(mode.get(key)) for key in ("tiles", "ends", "fit", "shape", "open"))
    return f"{head} → {leaves.get('match')}/{leaves.get('matadors')}"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


# --------------------------------------------------------------------------- command


def main(argv: Sequence[str] | None = None) -> int:
    """Check the audit; rewrite docs/audit.md, or with ``--check`` only say whether it is fresh."""
    parser = argparse.ArgumentParser(
        prog="python -m reference_engine.rules.audit",
        description="check spec/audit.yaml against the variant files and render docs/audit.md",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if anything is off or stale")
    parser.add_argument("--audit", type=Path, default=None, help="the audit (spec/audit.yaml)")
    parser.add_argument("--output", type=Path, default=None, help="the page (docs/audit.md)")
    args = parser.parse_args(argv)
    audit_path = args.audit or default_audit_path()
    page_path = args.output or default_page_path()
    try:
        audit = load_audit(audit_path)
        problems = check(audit, Catalog.shipped())
    except (AuditError, RulesError) as error:
        print(f"audit: {error}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"audit: {problem}", file=sys.stderr)
    if problems:
        return 1
    page = render(audit)
    if args.check:
        current = page_path.read_text(encoding="utf-8") if page_path.is_file() else None
        if current != page:
            stale = f"audit: {page_path} is stale: run python -m reference_engine.rules.audit"
            print(stale, file=sys.stderr)
            return 1
        return 0
    try:
        safeio.write_atomically(page_path, page)
    except safeio.OutputError as error:
        print(f"audit: {error}", file=sys.stderr)
        return 1
    print(f"audit: wrote {page_path} ({len(audit.rows)} claims)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
