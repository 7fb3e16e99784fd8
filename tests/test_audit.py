"""The audit (spec/audit.yaml) agrees with the variant files, and docs/audit.md is fresh.

The expectations are computed here from the variant files and their resolution
(not from :func:`reference_engine.rules.audit.file_claims`), so that a fault in the
module's own bookkeeping cannot hide a missing row.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from shipped import SHIPPED_VARIANTS

from reference_engine.rules import Catalog, Rules
from reference_engine.rules.audit import (
    Audit,
    AuditError,
    Row,
    Verdict,
    check,
    default_audit_path,
    default_page_path,
    load_audit,
    main,
    render,
)
from reference_engine.rules.convert import CONVERTERS
from reference_engine.rules.vocabulary import GapKind

#: The variant files the audit covers, in its order: every shipped file.
AUDITED = list(SHIPPED_VARIANTS)
#: The files whose only source is the supplement's list of other published rule sets.
SUPPLEMENT_ONLY = AUDITED[-5:]
TEXTS = {"000", "001", "002", "004", "supplement"}

CATALOG = Catalog.shipped()
AUDIT = load_audit(default_audit_path())


def data(variant: str) -> dict[str, Any]:
    return CATALOG.files[variant].data


def rows(variant: str) -> dict[str, Row]:
    return {row.claim: row for row in AUDIT.rows_of(variant)}


def entry(variant: str, claim: str) -> dict[str, Any]:
    """The rule entry (or note) a claim locator points at, found by hand."""
    kind, _, rest = claim.partition(".")
    if kind == "rules":
        return data(variant)["rules"][rest]  # type: ignore[no-any-return]
    if kind == "notes":
        return data(variant)["notes"][int(rest) - 1]  # type: ignore[no-any-return]
    choice, _, rule = rest.rpartition(".")
    option, _, value = choice.partition("=")
    return data(variant)["options"][option]["values"][value]["rules"][rule]  # type: ignore[no-any-return]


def rule_of(claim: str) -> str | None:
    return None if claim.startswith("notes.") else claim.rpartition(".")[2]


def gap_rules(variant: str) -> dict[str, set[str]]:
    return {gap["id"]: set(gap["rules"]) for gap in data(variant).get("gaps", [])}


# --------------------------------------------------------------------------- coverage


def test_the_audit_covers_every_shipped_variant() -> None:
    assert len(AUDITED) == 15
    assert list(AUDIT.variants) == AUDITED
    assert {row.variant for row in AUDIT.rows} == set(AUDITED)
    assert set(CATALOG.files) == set(AUDITED)


@pytest.mark.parametrize("variant", AUDITED)
def test_every_rule_value_and_note_of_the_file_has_a_row(variant: str) -> None:
    expected = {f"rules.{rule}" for rule in data(variant).get("rules", {})}
    for option, raw in data(variant).get("options", {}).items():
        for value, body in raw["values"].items():
            expected |= {f"options.{option}={value}.{rule}" for rule in body.get("rules", {})}
    expected |= {f"notes.{n}" for n in range(1, len(data(variant).get("notes", [])) + 1)}
    claimed = [row.claim for row in AUDIT.rows_of(variant)]
    assert len(claimed) == len(set(claimed)), "a claim has two rows"
    assert set(claimed) == expected


def _choices(variant: str) -> list[dict[str, str]]:
    resolved = CATALOG.resolve(variant)
    return [{}] + [
        {option.name: value.name}
        for option in resolved.options
        for value in option.values
        if value.name != option.default
    ]


@pytest.mark.parametrize("variant", AUDITED)
def test_every_value_the_resolver_takes_from_the_file_has_a_row(variant: str) -> None:
    """Resolved with each option value alone, every rule this file provides is audited."""
    audited = rows(variant)
    for choice in _choices(variant):
        resolved: Rules = CATALOG.resolve(variant, choice)
        for rule, provenance in resolved.provenance.items():
            if provenance.variant != variant:
                continue
            if provenance.option is None:
                claim = f"rules.{rule}"
            else:
                claim = f"options.{provenance.option[0]}={provenance.option[1]}.{rule}"
            assert claim in audited, (choice, claim)
            assert audited[claim].value == entry(variant, claim)["value"]


def test_no_row_names_a_rule_or_variant_that_does_not_exist() -> None:
    for row in AUDIT.rows:
        assert row.variant in CATALOG.files
        rule = rule_of(row.claim)
        if rule is not None:
            assert rule in CONVERTERS, row.claim
        entry(row.variant, row.claim)  # raises KeyError when the file has no such claim


def test_every_row_repeats_the_file_value_and_names_a_known_text() -> None:
    for row in AUDIT.rows:
        found = entry(row.variant, row.claim)
        expected = found["kind"] if row.claim.startswith("notes.") else found["value"]
        assert row.value == expected, (row.variant, row.claim)
        assert row.text in TEXTS, (row.variant, row.claim)
        assert row.note.strip()


# --------------------------------------------------------------------------- verdicts


def test_exact_rows_name_a_source_and_section_the_claim_cites() -> None:
    exact = [row for row in AUDIT.rows if row.verdict is Verdict.EXACT]
    assert len(exact) > 50
    for row in exact:
        cites = {(c["text"], c["section"]) for c in entry(row.variant, row.claim).get("cite", [])}
        assert (row.text, row.section) in cites, (row.variant, row.claim)


def test_reading_rows_are_covered_by_a_gap_of_the_file() -> None:
    readings = [row for row in AUDIT.rows if row.verdict is Verdict.READING]
    assert len(readings) > 50
    for row in readings:
        rule = rule_of(row.claim)
        assert rule is not None, f"{row.variant} {row.claim}: a note cannot be a reading"
        named = entry(row.variant, row.claim).get("gap")
        listed = any(rule in rules for rules in gap_rules(row.variant).values())
        assert named or listed, (row.variant, row.claim)
        if named:
            assert named in gap_rules(row.variant), (row.variant, row.claim)


@pytest.mark.parametrize("variant", AUDITED)
def test_what_the_gaps_cover_is_never_called_exact(variant: str) -> None:
    audited = rows(variant)
    for claim, row in audited.items():
        if not claim.startswith("notes.") and entry(variant, claim).get("gap"):
            assert row.verdict is not Verdict.EXACT, claim
    for gap, rules in gap_rules(variant).items():
        for rule in rules:
            verdicts = {r.verdict for c, r in audited.items() if rule_of(c) == rule}
            assert verdicts - {Verdict.EXACT}, f"gap {gap} covers {rule}, audited only as exact"


def test_fixed_rows_say_what_was_wrong_and_are_now_cited_or_explained() -> None:
    fixed = [row for row in AUDIT.rows if row.verdict is Verdict.FIXED]
    assert fixed
    for row in fixed:
        assert row.was and len(row.was) > 20
        found = entry(row.variant, row.claim)
        cites = {(c["text"], c["section"]) for c in found.get("cite", [])}
        assert (row.text, row.section) in cites or found.get("gap"), (row.variant, row.claim)
    for row in AUDIT.rows:
        assert (row.was is None) == (row.verdict is not Verdict.FIXED)


def test_the_module_check_passes_on_the_shipped_files() -> None:
    assert check(AUDIT, CATALOG) == []


# --------------------------------------------------------------------------- the checker bites


def _with(row_filter: str, **changes: Any) -> Audit:
    variant, claim = row_filter.split(" ")
    return Audit(
        variants=AUDIT.variants,
        rows=tuple(
            dataclasses.replace(row, **changes)
            if (row.variant, row.claim) == (variant, claim)
            else row
            for row in AUDIT.rows
        ),
    )


def test_check_catches_a_reading_called_exact() -> None:
    # polish-base's crosswise matadors name the ambiguity gap.
    problems = check(_with("polish-base rules.matador_modes", verdict=Verdict.EXACT), CATALOG)
    assert any("cannot be exact" in p for p in problems)


def test_check_catches_an_exact_row_with_a_section_not_cited() -> None:
    problems = check(_with("pagat rules.max_pip", section="Comment bien y jouer"), CATALOG)
    assert problems == [
        "pagat: rules.max_pip: exact, but 000 / 'Comment bien y jouer' is not among its citations"
    ]


def test_check_catches_a_wrong_value_a_missing_row_and_an_unknown_claim() -> None:
    assert check(_with("pagat rules.target", value={"unit": "points", "value": 150}), CATALOG)
    dropped = Audit(
        variants=AUDIT.variants,
        rows=tuple(r for r in AUDIT.rows if (r.variant, r.claim) != ("house", "rules.players")),
    )
    assert check(dropped, CATALOG) == ["house: rules.players: no row"]
    invented = _with("house rules.players", claim="rules.spinner")
    assert "house: rules.spinner: the file has no such claim" in check(invented, CATALOG)


def test_check_catches_an_unknown_variant() -> None:
    audit = Audit(variants=(*AUDIT.variants, "no-such-variant"), rows=AUDIT.rows)
    assert "no-such-variant: no such variant" in check(audit, CATALOG)


def test_check_catches_a_shipped_variant_left_unaudited() -> None:
    audit = Audit(
        variants=tuple(v for v in AUDIT.variants if v != "bonaludo-com"),
        rows=tuple(r for r in AUDIT.rows if r.variant != "bonaludo-com"),
    )
    assert check(audit, CATALOG) == ["bonaludo-com: shipped but not audited"]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("{claim: rules.max_pip, value: 6, text: '000', section: s, verdict: exact}", "missing"),
        (
            "{claim: rules.max_pip, value: 6, text: '000', section: s, verdict: exact, "
            "note: why, extra: 1}",
            "unknown fields",
        ),
        (
            "{claim: rules.max_pip, value: 6, text: '000', section: s, verdict: fixed, note: why}",
            "'was' is required",
        ),
        (
            "{claim: rules.max_pip, value: 6, text: '000', section: s, verdict: maybe, note: why}",
            "verdict must be",
        ),
    ],
)
def test_load_audit_is_strict(tmp_path: Path, row: str, message: str) -> None:
    path = tmp_path / "audit.yaml"
    path.write_text(f"variants:\n  pagat:\n    - {row}\n", encoding="utf-8")
    with pytest.raises(AuditError, match=message):
        load_audit(path)


def test_load_audit_refuses_duplicate_keys(tmp_path: Path) -> None:
    path = tmp_path / "audit.yaml"
    path.write_text("variants: {}\nvariants: {}\n", encoding="utf-8")
    with pytest.raises(AuditError):
        load_audit(path)


# --------------------------------------------------------------------------- the findings


def _gap(variant: str, gap_id: str) -> dict[str, Any]:
    return next(gap for gap in data(variant)["gaps"] if gap["id"] == gap_id)


def test_polish_base_crosswise_fit_is_an_ambiguity_with_its_readings_offered() -> None:
    gap = _gap("polish-base", "double-blank-crosswise")
    assert gap["kind"] == GapKind.AMBIGUOUS.value
    offered = {alt["option"] for alt in gap["alternatives"]}
    assert offered == {
        "double_blank=matches_blank",
        "double_blank=seven_rule",
        "double_blank=matadors_only",
    }
    # Under the rule of sevens a crosswise [0-0] leaves a blank end open to matadors only.
    sevens = CATALOG.resolve("polish-base", {"double_blank": "seven_rule"}).matador_modes
    assert {mode.leaves.match.value for mode in sevens} == {"sum"}
    assert rows("polish-base")["rules.matador_modes"].verdict is Verdict.FIXED


@pytest.mark.parametrize("variant", ["wikipedia-brandreth", "gamerules-com"])
def test_one_draw_variants_record_what_the_specification_decides(variant: str) -> None:
    assert "after_single_draw" in _gap(variant, "draw-resets-passes")["rules"]
    assert "opener_plays_again" in _gap(variant, "no-draw-at-the-lead")["rules"]


@pytest.mark.parametrize(
    ("variant", "gap_id"),
    [
        ("pagat", "no-double-dealt"),
        ("wikipedia-brandreth", "no-double-dealt"),
        ("gamerules-com", "no-double-dealt"),
        ("britannica-1911", "no-double-dealt"),
        ("jeux-de-hasard", "no-double-dealt"),
        ("german", "german-no-double"),
        ("cardsdicedominoes-com", "no-double-dealt"),
        ("bonaludo-com", "no-double-dealt"),
    ],
)
def test_no_double_gaps_list_the_heaviest_tile_and_a_playable_alternative(
    variant: str, gap_id: str
) -> None:
    alternatives = _gap(variant, gap_id)["alternatives"]
    heaviest = [alt for alt in alternatives if "heaviest" in alt["description"]]
    assert [alt.get("option") for alt in heaviest] == ["no_double=heaviest_tile"]
    playable = [alt["option"] for alt in alternatives if "option" in alt]
    default = CATALOG.resolve(variant).nobody_has_double
    for choice in playable:
        name, _, value = choice.partition("=")
        resolved = CATALOG.resolve(variant, {name: value})
        assert resolved.nobody_has_double is not default
    chosen = CATALOG.resolve(variant, {"no_double": "heaviest_tile"}).nobody_has_double
    assert chosen.value == "heaviest_tile"
    # The option is a reading of the gap, never credited to the variant's own source.
    row = rows(variant)["options.no_double=heaviest_tile.nobody_has_double"]
    assert row.verdict is Verdict.READING


def test_german_records_which_half_of_a_freely_laid_matador_stays_open() -> None:
    assert _gap("german", "matador-open-half")["rules"] == ["matador_modes"]


def test_readings_of_the_annotated_opening_are_not_credited_to_gamerules_or_the_britannica() -> (
    None
):
    for variant, claim in [
        ("gamerules-com", "rules.opener_plays_again"),
        ("gamerules-com", "rules.doubles"),
        ("britannica-1911", "rules.opener_plays_again"),
    ]:
        found = entry(variant, claim)
        assert found.get("gap"), claim
        for cite in found["cite"]:
            if cite["section"] == "Une ouverture commentée":
                assert cite["publication"] == "matador-survey"


@pytest.mark.parametrize("variant", SUPPLEMENT_ONLY)
def test_supplement_only_variants_are_exact_only_where_their_own_rule_set_says_it(
    variant: str,
) -> None:
    publication = data(variant)["publication"]
    exact = [row for row in AUDIT.rows_of(variant) if row.verdict is Verdict.EXACT]
    assert exact
    for row in exact:
        assert (row.text, row.section) == ("supplement", "Other published rule sets")
        cites = entry(variant, row.claim)["cite"]
        assert any(
            (c["publication"], c["text"], c["section"]) == (publication, row.text, row.section)
            for c in cites
        ), row.claim


def test_what_the_supplement_leaves_unsaid_is_not_credited_to_it() -> None:
    # "play passes left" gives a direction, not what follows the lead.
    assert entry("dominorules-com", "rules.opener_plays_again").get("gap")
    assert rows("dominorules-com")["rules.turn_direction"].verdict is Verdict.EXACT
    # "any tile may open" says which tile, not who opens; the double holder is offered.
    assert entry("dominorules-com", "rules.opener").get("gap")
    assert CATALOG.resolve("dominorules-com", {"opening": "double_holder"}).opener.value == (
        "highest_double_holder"
    )
    # bonaludo.com's 7/6/5 names no player counts.
    for claim in ("rules.players", "rules.hand_size"):
        assert entry("bonaludo-com", claim).get("gap") == "deal-counts"
        assert rows("bonaludo-com")[claim].verdict is Verdict.FIXED
    # The set is named by none of the five.
    for variant in SUPPLEMENT_ONLY:
        assert rows(variant)["rules.max_pip"].verdict is not Verdict.EXACT, variant


# --------------------------------------------------------------------------- the page


def test_docs_audit_md_is_up_to_date() -> None:
    page = default_page_path()
    assert page.read_text(encoding="utf-8") == render(AUDIT), (
        "docs/audit.md is stale: run `python -m reference_engine.rules.audit`"
    )
    assert main(["--check"]) == 0


def test_the_page_counts_every_verdict_of_every_variant() -> None:
    page = render(AUDIT)
    for variant in AUDITED:
        counts = [sum(r.verdict is v for r in AUDIT.rows_of(variant)) for v in Verdict]
        line = f"| [{variant}](#{variant}) | {sum(counts)} | " + " | ".join(map(str, counts))
        assert line + " |" in page
        assert f"\n## {variant}\n" in page
    # one table row per exact claim, plus the summary's header naming the verdict
    exact = sum(r.verdict is Verdict.EXACT for r in AUDIT.rows)
    assert page.count(" | exact | ") == exact + 1


def test_main_writes_the_page_and_check_spots_a_stale_one(tmp_path: Path) -> None:
    target = tmp_path / "audit.md"
    assert main(["--check", "--output", str(target)]) == 1  # missing
    assert main(["--output", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == render(AUDIT)
    assert main(["--check", "--output", str(target)]) == 0
    target.write_text(render(AUDIT) + "\nedited by hand\n", encoding="utf-8")
    assert main(["--check", "--output", str(target)]) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["audit.md"]  # no temporary left behind
