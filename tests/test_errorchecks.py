"""An engine that breaks on a deal it must refuse took the deal in: the case fails on the deal
(blamed on the rule the deal breaks), it does not error; an engine that breaks on a deal it
must play errors, as before."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reference_engine.conformance.judging.verdicts import Check, Verdict
from reference_engine.conformance.protocol.interface import FailureKind, ReferenceEngine
from reference_engine.conformance.session.runner import Runner
from reference_engine.conformance.suite.casedata import load_cases
from reference_engine.conformance.suite.selection import select
from reference_engine.rules import Catalog

CATALOG = Catalog.shipped()


class TakesEveryDeal(ReferenceEngine):
    """Deals whatever it is given, with no check, and breaks where the deal makes no sense."""

    def new_hand(self, deal: Mapping[str, Any]) -> None:
        seats = deal["hands"]
        designated = deal.get("designated", 0)
        if not 0 <= designated < len(seats):
            raise IndexError("list index out of range")  # as an unchecked seat list does
        super().new_hand(deal)


class BreaksOnEveryDeal(ReferenceEngine):
    def new_hand(self, deal: Mapping[str, Any]) -> None:
        raise KeyError("nothing is dealt here")


def judged(factory: Any, case_id: str) -> Any:
    cases, problems = load_cases()
    assert not problems
    case, target = select(cases, case_globs=[case_id])[0]
    runner = Runner(factory, timeout=20, known_variants=CATALOG.ids(), catalog=CATALOG)
    try:
        return runner.run_case(case, target)
    finally:
        runner.close()


def test_breaking_on_a_deal_to_refuse_fails_the_case_on_the_deal() -> None:
    run = judged(TakesEveryDeal, "deals-a-designated-seat-that-does-not-exist-is-refused")
    assert run.verdict is Verdict.FAIL
    (deviation,) = run.deviations
    assert deviation.check is Check.DEAL
    assert deviation.expected == "bad_deal"
    assert "IndexError" in str(deviation.actual)
    assert "designated_opener" in deviation.rules


def test_breaking_on_a_deal_to_play_errors() -> None:
    run = judged(
        BreaksOnEveryDeal, "gamerules-double-blank-alone-is-no-double-when-it-does-not-count"
    )
    assert run.verdict is Verdict.ERROR
    assert run.failure is FailureKind.RAISED
