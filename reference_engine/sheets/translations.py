"""Translations of the variants' own prose, kept per language and variant, checked for staleness.

A variant file says some things in English prose that no catalogue sentence
can: its title, each option's and option value's ``summary``, each gap's
``about``, ``reading``, ``why`` and alternatives, each note's ``text``; the
publications it cites have English titles (``spec/sources.yaml``). A sheet in
another language prints them from the **prose store**:

``catalogues/prose/LANG/VARIANT.yaml`` (and ``catalogues/prose/LANG/_publications.yaml``)
    a mapping from the **place** of a text in the variant file (see
    :func:`english_prose`: ``title``, ``options.<name>.summary``,
    ``options.<name>.values.<value>.summary``, ``gaps.<id>.about`` / ``reading``
    / ``why`` / ``alternatives.<index>``, ``notes.<index>``; a publication's id)
    to ``{en: the English translated, LANG: the translation}``.

``catalogues/prose/LANG/_sections.yaml``
    the passages the sheets' list of sources names: for each text and section
    a citation of a shipped variant gives, the place ``TEXT: SECTION`` (and,
    for a text whose id is a word, such as ``supplement``, the place ``TEXT``).
    A section is either the cited text's own heading, a locator quoted on
    purpose (its translation keeps it, and may add a gloss in brackets), or a
    phrase of ours such as ``opening paragraphs`` (translated like any prose).

Keeping the English it translates makes an entry **stale** as soon as the
variant's English changes (whitespace aside): a stale or missing entry is never
printed. A sheet then prints the English, marked by the catalogue's
``prose.untranslated`` (:meth:`.catalogue.Translator.prose`), and lists the
place in ``Translator.untranslated``; the tests fail for every shipped
variant with a missing or stale entry. To find and fill them::

    python -m reference_engine.sheets.translations --missing fr   # list them, with the English
    python -m reference_engine.sheets.translations --template fr  # add skeletons to the files
    python -m reference_engine.sheets.translations --check        # exit 1 if any is missing

A skeleton has an empty translation (still missing) and the current English;
for a stale entry, ``--template`` puts the new English beside the old
translation as ``en_new`` and leaves it stale until a translator updates the
text and replaces ``en`` with ``en_new``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputProblem
from ..rules.errors import RulesError
from ..rules.yamldoc import parse_yaml
from . import LANGUAGES

PROSE_DIR = Path(__file__).resolve().parent / "catalogues" / "prose"

#: The store file of the publications' titles (no variant id starts with ``_``).
PUBLICATIONS = "_publications"

#: The store file of the cited texts' sections (and of the texts named by a word).
SECTIONS = "_sections"

#: The languages that have a prose store (English is the variants' own).
PROSE_LANGUAGES: tuple[str, ...] = tuple(lang for lang in LANGUAGES if lang != "en")


#: The white space :func:`normalize` collapses: not the no-break spaces French puts
#: before a colon or inside guillemets, which are typography, kept as written.
_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def normalize(text: str) -> str:
    """``text`` with every run of white space one space (how English copies are compared).

    No-break spaces (U+00A0, U+202F) are kept: they are part of the text.
    """
    return _SPACES.sub(" ", text).strip(" ")


def english_prose(data: Mapping[str, Any]) -> dict[str, str]:
    """The places and English texts of a variant file's prose (its parsed ``data``)."""
    found = {"title": normalize(data["title"])}
    for name, option in (data.get("options") or {}).items():
        found[f"options.{name}.summary"] = normalize(option["summary"])
        for value, raw in option["values"].items():
            found[f"options.{name}.values.{value}.summary"] = normalize(raw["summary"])
    for gap in data.get("gaps") or ():
        for part in ("about", "reading", "why"):
            found[f"gaps.{gap['id']}.{part}"] = normalize(gap[part])
        for index, alternative in enumerate(gap["alternatives"]):
            found[f"gaps.{gap['id']}.alternatives.{index}"] = normalize(alternative["description"])
    for index, note in enumerate(data.get("notes") or ()):
        found[f"notes.{index}"] = normalize(note["text"])
    return found


def publication_prose() -> dict[str, str]:
    """The publications' ids and English titles."""
    from ..rules import registry

    return {pub: normalize(title) for pub, title in registry().publications.items()}


def _citations(node: Any) -> Iterable[tuple[str, str]]:
    """The (text, section) of every citation in a variant file's parsed data."""
    if isinstance(node, dict):
        if isinstance(node.get("text"), str) and isinstance(node.get("section"), str):
            yield node["text"], node["section"]
        for value in node.values():
            yield from _citations(value)
    elif isinstance(node, list):
        for value in node:
            yield from _citations(value)


def section_place(text: str, section: str | None = None) -> str:
    """The place of a cited ``section`` of ``text`` (or of the text itself) in :data:`SECTIONS`."""
    return text if section is None else f"{text}: {normalize(section)}"


def section_prose(datas: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """The places and English of the texts and sections cited in variant files (parsed ``datas``).

    A text is a place of its own when its id is a word rather than a number.
    """
    found: dict[str, str] = {}
    for data in datas:
        for text, section in _citations(data):
            if not text.isdigit():
                found[section_place(text)] = text
            found[section_place(text, section)] = normalize(section)
    return found


@dataclass(frozen=True)
class Entry:
    """A stored translation: the English it translates and the text in the store's language."""

    en: str
    text: str


class StoreError(InputProblem):
    """A prose store file that cannot be read."""


def store_path(lang: str, variant: str) -> Path:
    """The store file of ``variant`` (or :data:`PUBLICATIONS`) in ``lang``."""
    return PROSE_DIR / lang / f"{variant}.yaml"


@cache
def load_store(lang: str, variant: str) -> Mapping[str, Entry]:
    """The entries of one store file (none if the file does not exist)."""
    path = store_path(lang, variant)
    if not path.is_file():
        return MappingProxyType({})
    document, problems = parse_yaml(path.read_bytes(), str(path), trusted=True)
    if document is None:
        raise RulesError(problems)
    data = document.data or {}
    if not isinstance(data, dict):
        raise StoreError(f"{path}: a prose store is a mapping of places")
    entries = {}
    for key, raw in data.items():
        if not (isinstance(raw, dict) and isinstance(raw.get("en"), str)):
            raise StoreError(f"{path}: {key}: expected a mapping with 'en' and {lang!r}")
        text = raw.get(lang)
        entries[str(key)] = Entry(normalize(raw["en"]), normalize(text) if text else "")
    return MappingProxyType(entries)


def lookup(lang: str, variant: str, place: str, english: str) -> str | None:
    """The fresh translation of ``english`` at ``place`` of ``variant``, or None."""
    entry = load_store(lang, variant).get(place)
    if entry is None or not entry.text or entry.en != normalize(english):
        return None
    return entry.text


@dataclass(frozen=True)
class Finding:
    """A place whose translation is ``missing``, ``stale`` or ``orphan`` (in no variant)."""

    lang: str
    variant: str
    place: str
    kind: str
    english: str
    stored_en: str = ""

    def __str__(self) -> str:
        where = f"{self.lang}/{self.variant}.yaml: {self.place}"
        if self.kind == "stale":
            return f"{where}: stale\n    was: {self.stored_en}\n    now: {self.english}"
        return f"{where}: {self.kind}\n    en: {self.english or self.stored_en}"


def shipped_prose(variants: Iterable[str] | None = None) -> dict[str, dict[str, str]]:
    """Store name -> place -> English, for the shipped variants (all, or ``variants``)."""
    from ..rules import Catalog

    catalog = Catalog.shipped()
    ids = catalog.ids() if variants is None else list(variants)
    prose = {variant: english_prose(catalog.files[variant].data) for variant in ids}
    if variants is None:
        prose[PUBLICATIONS] = publication_prose()
        prose[SECTIONS] = section_prose(catalog.files[variant].data for variant in ids)
    return prose


def findings(lang: str, prose: Mapping[str, Mapping[str, str]]) -> list[Finding]:
    """The missing, stale and orphan entries of ``lang`` for ``prose`` (:func:`shipped_prose`)."""
    found = []
    for variant, places in prose.items():
        stored = load_store(lang, variant)
        for place, english in places.items():
            entry = stored.get(place)
            if entry is None or not entry.text:
                found.append(Finding(lang, variant, place, "missing", english))
            elif entry.en != english:
                found.append(Finding(lang, variant, place, "stale", english, entry.en))
        for place, entry in stored.items():
            if place not in places:
                found.append(Finding(lang, variant, place, "orphan", "", entry.en))
    return found


def _scalar(text: str) -> str:
    """A YAML double-quoted scalar (JSON's string syntax is a subset of it)."""
    return json.dumps(text, ensure_ascii=False)


def _key(place: str) -> str:
    """A place as a YAML mapping key (quoted unless plain)."""
    return place if re.fullmatch(r"[A-Za-z0-9_.-]+", place) else _scalar(place)


def write_template(lang: str, found: Sequence[Finding]) -> list[Path]:
    """Append a skeleton for each missing place, and the new English of each stale one."""
    written = []
    by_file: dict[str, list[Finding]] = {}
    for finding in found:
        if finding.kind in ("missing", "stale"):
            by_file.setdefault(finding.variant, []).append(finding)
    for variant, items in by_file.items():
        path = store_path(lang, variant)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text("utf-8") if path.is_file() else _header(lang, variant)
        lines = text.rstrip("\n").split("\n")
        for finding in items:
            if finding.kind == "stale":
                lines = _mark_stale(lines, finding)
                continue
            key = f"{_key(finding.place)}:"
            if any(line == key for line in lines):
                continue  # a skeleton already there, still empty
            lines += [key, f"  en: {_scalar(finding.english)}", f'  {lang}: ""']
        path.write_text("\n".join(lines) + "\n", "utf-8")
        written.append(path)
    load_store.cache_clear()
    return written


def _mark_stale(lines: list[str], finding: Finding) -> list[str]:
    """Insert ``en_new`` after the place's ``en`` line (replacing an earlier ``en_new``)."""
    out: list[str] = []
    inside = False
    for line in lines:
        if not line.startswith(" "):
            inside = line == f"{_key(finding.place)}:"
        if inside and line.startswith("  en_new:"):
            continue
        out.append(line)
        if inside and line.startswith("  en:"):
            out.append(f"  en_new: {_scalar(finding.english)}")
    return out


def _header(lang: str, variant: str) -> str:
    what = {
        PUBLICATIONS: "the publications' titles",
        SECTIONS: "the cited texts' sections",
    }.get(variant, f"variants/{variant}.yaml")
    return (
        f"# {lang}: the prose of {what}, translated (reference_engine/sheets/translations.py).\n"
        f"# Each place keeps the English it translates (en); when that English changes,\n"
        f"# the entry is stale and the sheet prints the English, marked, until it is updated.\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m reference_engine.sheets.translations``: list, check or template the store."""
    parser = argparse.ArgumentParser(
        prog="python -m reference_engine.sheets.translations",
        description="Missing and stale translations of the variants' prose.",
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--missing", metavar="LANG", choices=PROSE_LANGUAGES, help="list them")
    group.add_argument(
        "--template", metavar="LANG", choices=PROSE_LANGUAGES, help="add skeletons for them"
    )
    group.add_argument("--check", action="store_true", help="exit 1 if any language lacks one")
    parser.add_argument("--variant", action="append", help="only this variant (repeatable)")
    args = parser.parse_args(argv)
    prose = shipped_prose(args.variant)
    langs = PROSE_LANGUAGES if args.check else (args.missing or args.template,)
    found = [finding for lang in langs for finding in findings(lang, prose)]
    if args.template:
        for path in write_template(args.template, found):
            sys.stdout.write(f"wrote {path}\n")
    else:
        for finding in found:
            sys.stdout.write(f"{finding}\n")
    counts = {kind: sum(f.kind == kind for f in found) for kind in ("missing", "stale", "orphan")}
    sys.stdout.write(", ".join(f"{n} {kind}" for kind, n in counts.items()) + "\n")
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
