"""The committed fingerprint of the source texts: current, and able to catch a copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fingerprint import FINGERPRINT, SOURCES, Fingerprint, build, dump


def test_the_fingerprint_matches_the_source_texts() -> None:
    """Where the texts are beside the checkout, the committed fingerprint is theirs."""
    if not SOURCES.is_dir() or not any(SOURCES.glob("*.txt")):
        pytest.skip(f"no source texts at {SOURCES}: the committed fingerprint is used as it is")
    assert FINGERPRINT.read_text(encoding="utf-8") == dump(build(SOURCES)), (
        "the source texts changed: run python -m tests.fingerprint"
    )


def test_the_fingerprint_covers_every_registered_text() -> None:
    from reference_engine.rules import registry

    assert set(registry().texts.values()) <= set(Fingerprint.load().files)


def test_a_copied_run_is_caught_and_own_words_are_not(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(
        "Le joueur qui tient le double six le pose en premier, puis chacun joue [3-4] à son tour.",
        encoding="utf-8",
    )
    (tmp_path / "b.txt").write_text("1 2 3 4 5 6 7 8 9 10", encoding="utf-8")
    fingerprint = Fingerprint(json.loads(dump(build(tmp_path))))
    copied = "Ici, le joueur qui tient le double six le pose en premier."
    assert fingerprint.copied(copied, "words7") == [
        "le joueur qui tient le double six",
        "joueur qui tient le double six le",
        "qui tient le double six le pose",
        "tient le double six le pose en",
        "le double six le pose en premier",
    ]
    assert len(fingerprint.copied(copied, "words8")) == 4
    assert fingerprint.copied(copied, "words7", files=["b.txt"]) == []
    # A copy that only changes the tile is still a copy once tiles are taken out.
    retiled = "en premier, puis chacun joue [5-6] à son tour"
    assert fingerprint.copied(retiled, "words7") == []
    assert fingerprint.copied(retiled, "untiled7") == [
        "en premier puis chacun joue à son",
        "premier puis chacun joue à son tour",
    ]
    # Runs of numbers alone are nobody's sentence; own words are never flagged.
    assert fingerprint.copied("1 2 3 4 5 6 7 8", "words7") == []
    assert fingerprint.copied("The holder of the highest double opens.", "words7") == []
    # The hashes give no words back.
    assert "joueur" not in dump(build(tmp_path))
