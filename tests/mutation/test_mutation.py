"""The suite has teeth, at the source: every mutant of the engine is killed by a scripted case.

Fast tests keep the mutants applicable as the source changes (each ``old`` text
is in its file exactly once, and the mutated file still compiles), check the
list (unique ids, every rule area, at least sixty mutants a case must kill),
the harness's reading of a report, and that docs/mutation.md is exactly what
the matrix renders from the outcomes it records.

The slow tests run the real suite against each mutant (tests/mutation/harness.py):
once against a sanity mutant that only renames the engine, to prove that the
engine under test is the mutated copy and the judge the checkout; then once per
mutant, which must be killed (or, for a mutant the case format cannot show,
must survive) as docs/mutation.md records: by the cases it names, and by at
least as many as it counts. A case added since the matrix was generated may
kill more (the matrix is then merely behind: ``python -m tests.mutation.matrix
--check`` says so); a case removed or weakened fails here, because the matrix
would then claim kills that no longer happen.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from reference_engine.conformance.suite.casedata import load_cases
from reference_engine.conformance.suite.selection import select

from .harness import (
    DATA_DIRS,
    PACKAGE,
    REPO,
    MutantNotApplicable,
    Status,
    apply_mutant,
    copy_package,
    judge,
    parse_report,
    run_mutant,
)
from .matrix import DOC, Record, committed_records, read_records, render
from .mutants import AREAS, MUTANTS, SANITY, Mutant, killable

ALL = (*MUTANTS, SANITY)
REGENERATE = "run python -m tests.mutation.matrix to regenerate docs/mutation.md"


# ---------------------------------------------------------------------------- the list


def test_there_are_at_least_sixty_mutants_a_case_must_kill() -> None:
    assert len(killable()) >= 60


def test_mutant_ids_are_unique_and_kebab_case() -> None:
    ids = [mutant.id for mutant in ALL]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", mutant_id) for mutant_id in ids)


def test_every_rule_area_has_mutants_and_every_mutant_an_area() -> None:
    assert {mutant.area for mutant in ALL} <= set(AREAS)
    assert {mutant.area for mutant in killable()} == set(AREAS)


@pytest.mark.parametrize("mutant", ALL, ids=lambda mutant: mutant.id)
def test_each_mutant_applies_exactly_once_and_compiles(mutant: Mutant) -> None:
    path = REPO / PACKAGE / mutant.file
    text = path.read_text(encoding="utf-8")
    assert text.count(mutant.old) == 1, (
        f"{mutant.id}: its old text occurs {text.count(mutant.old)} times in "
        f"{PACKAGE}/{mutant.file}; update the mutant to the source as it is now"
    )
    assert mutant.new != mutant.old
    compile(text.replace(mutant.old, mutant.new), str(path), "exec")


def test_applying_a_mutant_changes_only_the_copy(tmp_path: Path) -> None:
    copy = copy_package(tmp_path)
    assert all((copy / name).is_dir() for name in (PACKAGE, *DATA_DIRS))
    assert not list(copy.rglob("__pycache__"))
    apply_mutant(SANITY, copy / PACKAGE)
    mutated = (copy / PACKAGE / SANITY.file).read_text(encoding="utf-8")
    assert SANITY.new in mutated and SANITY.old not in mutated
    original = (REPO / PACKAGE / SANITY.file).read_text(encoding="utf-8")
    assert SANITY.old in original
    with pytest.raises(MutantNotApplicable, match="occurs 0 times"):
        apply_mutant(SANITY, copy / PACKAGE)


# ---------------------------------------------------------------------------- reading reports


def _report(*verdicts: str, footer: bool = True) -> str:
    lines: list[dict[str, object]] = [{"type": "header", "engine": {"name": "x", "version": "1"}}]
    lines += [
        {"type": "case", "case": f"case-{n}", "variant": "pagat", "options": {}, "verdict": v}
        for n, v in enumerate(verdicts)
    ]
    lines.append({"type": "rule", "rule": "deal", "value": "", "held": 1, "failed": 0})
    if footer:
        lines.append({"type": "footer", "complete": True})
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def _finished(stdout: str, status: int = 1) -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["conform"], status, stdout, "a traceback, say")


def test_a_failed_case_kills_even_among_errors() -> None:
    outcome = judge("m", _finished(_report("pass", "error", "fail", "fail")), 1.0)
    assert outcome.status is Status.KILLED
    assert outcome.killers == ("case-2", "case-3")
    assert outcome.engine_name == "x"


@pytest.mark.parametrize(
    "verdicts",
    [("pass", "error"), ("not_run", "not_run"), ("error",)],
    ids=["an-error", "not-run", "only-errors"],
)
def test_errors_without_a_failure_are_a_crash(verdicts: tuple[str, ...]) -> None:
    outcome = judge("m", _finished(_report(*verdicts)), 1.0)
    assert outcome.status is Status.CRASHED and outcome.killers == ()


def test_a_judge_that_did_not_finish_is_a_crash() -> None:
    assert judge("m", _finished(_report("pass", footer=False)), 1.0).status is Status.CRASHED
    assert judge("m", _finished("Traceback (most recent", 2), 1.0).status is Status.CRASHED
    assert judge("m", _finished(_report("pass"), 3), 1.0).status is Status.CRASHED


def test_every_case_passing_is_a_survivor() -> None:
    outcome = judge("m", _finished(_report("pass", "skip"), 0), 1.0)
    assert outcome.status is Status.SURVIVED
    assert parse_report(_report("pass", "skip")).counts == {"pass": 1, "skip": 1}


# ---------------------------------------------------------------------------- the matrix


def test_a_record_counts_every_killer_and_names_the_first_by_id() -> None:
    record = Record.of(Status.KILLED, ["e-case", "b-case", "a-case", "d-case", "c-case", "b-case"])
    assert record == Record(Status.KILLED, 5, ("a-case", "b-case", "c-case", "d-case"))


def test_the_matrix_is_rendered_from_what_it_records() -> None:
    """docs/mutation.md is exactly the rendering of its own outcomes, for the mutants as they are.

    So a mutant added, dropped or redescribed without regenerating it fails here,
    fast; whether the outcomes are still true is the slow tests' job.
    """
    assert DOC.is_file(), REGENERATE
    text = DOC.read_text(encoding="utf-8")
    recorded = read_records(text)
    assert set(recorded) == {mutant.id for mutant in MUTANTS}, REGENERATE
    assert render(recorded) == text, REGENERATE


def test_the_matrix_records_exactly_the_unkillable_mutants_as_survivors() -> None:
    recorded = committed_records()
    for mutant in MUTANTS:
        record = recorded[mutant.id]
        expected = Status.SURVIVED if mutant.unkillable_because else Status.KILLED
        assert record.status is expected, f"{mutant.id} is recorded {record.status.value}"
        assert bool(record.shown) == (record.count > 0) == (record.status is Status.KILLED)


# ---------------------------------------------------------------------------- the real suite


@pytest.mark.slow
def test_the_engine_under_test_is_the_mutated_copy_and_the_judge_the_checkout() -> None:
    outcome = run_mutant(SANITY)
    assert outcome.engine_name == "matador mutant copy", outcome.detail
    assert outcome.status is Status.SURVIVED, outcome.detail
    cases, problems = load_cases()
    assert not problems
    runs = sorted((case.id, target.label()) for case, target in select(cases))
    judged = sorted(
        (
            v.case,
            v.variant + (f"[{','.join(f'{k}={w}' for k, w in v.options)}]" if v.options else ""),
        )
        for v in outcome.verdicts
    )
    assert judged == runs
    assert {v.verdict for v in outcome.verdicts} == {"pass"}


@pytest.mark.slow
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.id)
def test_each_mutant_is_killed_as_the_matrix_records(mutant: Mutant) -> None:
    outcome = run_mutant(mutant)
    if mutant.unkillable_because is None:
        assert outcome.status is Status.KILLED, (
            f"no case kills {mutant.id} ({mutant.description}): {outcome.status.value}"
            + (f", {outcome.detail}" if outcome.detail else "")
            + "; the suite has a hole: write a case that tells it from the reference"
        )
    else:
        assert outcome.status is Status.SURVIVED, (
            f"{mutant.id} is now {outcome.status.value} by {', '.join(outcome.killers)}: "
            "drop its unkillable_because"
        )
    recorded = committed_records().get(mutant.id)
    assert recorded is not None and recorded.status is outcome.status, REGENERATE
    # The matrix may lag behind cases added since it was generated (they only add
    # killers), but the killers it names must still kill, and no fewer of them.
    lost = sorted(set(recorded.shown) - set(outcome.killers))
    assert not lost, f"docs/mutation.md says {', '.join(lost)} kill {mutant.id}; " + REGENERATE
    assert len(outcome.killers) >= recorded.count, (
        f"{mutant.id} is killed by {len(outcome.killers)} cases, fewer than the "
        f"{recorded.count} docs/mutation.md counts; " + REGENERATE
    )
