"""A fingerprint of the source texts: hashed word shingles, so no test needs the texts.

The tests that check the project copies no sentence from its sources compare the
project's prose with runs of consecutive words (shingles) of each source text. A
clone has no source texts beside it, so the runs are committed as hashes in
``tests/sources-fingerprint.json``: a hash tells whether a run of words is in a
source, and gives none of the words back.

Each source file has three sets of shingles, one per way the tests read it:

- ``words7``: every run of seven words (``\\w+``, lower case) of the text;
- ``words8``: every run of eight words;
- ``untiled7``: every run of seven words once tiles (``[3-4]``, ``[3|4]``) and
  numbers are taken out, so a sentence that differs from a source's only in its
  tiles is still caught.

Rebuild it where the texts are (``../shared/sources`` beside the checkout, or
``MATADOR_SOURCES``) whenever they change::

    python -m tests.fingerprint

The test ``test_the_fingerprint_matches_the_source_texts`` fails when the
committed fingerprint no longer matches texts it can read.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Where the source texts are, when they are: beside the checkout, or MATADOR_SOURCES.
SOURCES = Path(os.environ.get("MATADOR_SOURCES", REPO.parent / "shared" / "sources"))

#: The committed fingerprint.
FINGERPRINT = Path(__file__).resolve().parent / "sources-fingerprint.json"

#: A tile as the texts write it, and any number: taken out for ``untiled7``.
TILE = re.compile(r"\[\d+[-|]\d+\]|\d+")

#: Hex digits kept of each shingle's hash: 48 bits, so a chance collision among
#: the texts' few thousand runs and the project's prose is about one in a billion.
DIGITS = 12

#: The kinds of shingle: (name, words per run, whether tiles and numbers are taken out).
KINDS: tuple[tuple[str, int, bool], ...] = (
    ("words7", 7, False),
    ("words8", 8, False),
    ("untiled7", 7, True),
)


def words(text: str, *, untiled: bool = False) -> list[str]:
    """The words of ``text`` in lower case, as every check reads them."""
    if untiled:
        text = TILE.sub(" ", text)
    return re.findall(r"\w+", text.lower())


def shingle_hash(run: Iterable[str]) -> str:
    """The hash of one run of words (the run joined by single spaces)."""
    return hashlib.blake2b(" ".join(run).encode("utf-8"), digest_size=8).hexdigest()[:DIGITS]


def shingles(text_words: list[str], size: int) -> Iterator[tuple[str, ...]]:
    """Every run of ``size`` consecutive words."""
    for start in range(len(text_words) - size + 1):
        yield tuple(text_words[start : start + size])


def build(folder: Path) -> dict[str, dict[str, list[str]]]:
    """The fingerprint of every text in ``folder``: file name -> kind -> sorted hashes.

    Every file but the folder's README counts: the texts, and the supplement.
    """
    result: dict[str, dict[str, list[str]]] = {}
    for path in sorted(folder.iterdir()):
        if not path.is_file() or path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        kinds = {}
        for name, size, untiled in KINDS:
            runs = shingles(words(text, untiled=untiled), size)
            kinds[name] = sorted({shingle_hash(run) for run in runs})
        result[path.name] = kinds
    return result


class Fingerprint:
    """The committed fingerprint, read once: which runs of words are in which source."""

    def __init__(self, data: Mapping[str, Mapping[str, list[str]]]) -> None:
        self.files = tuple(sorted(data))
        self._sets = {
            (name, kind): frozenset(hashes)
            for name, kinds in data.items()
            for kind, hashes in kinds.items()
        }

    @classmethod
    def load(cls, path: Path = FINGERPRINT) -> Fingerprint:
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def copied(self, text: str, kind: str, files: Iterable[str] | None = None) -> list[str]:
        """The runs of ``text``, read as ``kind`` reads, that a source text has too.

        ``files`` limits the sources looked at (all of them by default). Runs made
        only of numbers are never counted: a list of pips is nobody's sentence.
        """
        size, untiled = next((size, untiled) for name, size, untiled in KINDS if name == kind)
        sets = [self._sets[(name, kind)] for name in (self.files if files is None else files)]
        found = []
        for run in shingles(words(text, untiled=untiled), size):
            if all(word.isdigit() for word in run):
                continue
            digest = shingle_hash(run)
            if any(digest in hashes for hashes in sets):
                found.append(" ".join(run))
        return found


def dump(data: Mapping[str, object]) -> str:
    """The fingerprint as committed: one line per file and kind, so a change diffs small."""
    lines = ["{"]
    files = list(data.items())
    for index, (name, kinds) in enumerate(files):
        assert isinstance(kinds, dict)
        lines.append(f"  {json.dumps(name)}: {{")
        entries = list(kinds.items())
        for kind_index, (kind, hashes) in enumerate(entries):
            comma = "," if kind_index < len(entries) - 1 else ""
            lines.append(f"    {json.dumps(kind)}: {json.dumps(hashes)}{comma}")
        lines.append("  }" + ("," if index < len(files) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the fingerprint of the source texts; exit 1 when they cannot be read."""
    folder = Path(argv[0]) if argv else SOURCES
    if not folder.is_dir() or not any(folder.glob("*.txt")):
        print(f"no source texts in {folder} (set MATADOR_SOURCES)", file=sys.stderr)
        return 1
    text = dump(build(folder))
    temporary = FINGERPRINT.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(FINGERPRINT)
    print(f"wrote {FINGERPRINT.relative_to(REPO)} from {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
