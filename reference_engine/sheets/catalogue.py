"""Translation catalogues: every sentence of a rule sheet, in each language.

A catalogue is a YAML file, ``catalogues/LANG.yaml``, read with the project's
strict YAML reader (no duplicate keys, no tags). Its nested mappings are
flattened into dotted keys (``rule.opener.highest_double``). A leaf is either a
string or a **plural entry**: a mapping whose keys are plural categories
(``one``, ``few``, ``many``, ``other``; ``other`` always present) giving the
forms of a sentence that counts something; which form a number takes is the
language's plural rule (:data:`PLURAL_RULES`).

Strings are Python format strings with named fields (``{n}``, ``{sum}``); the
sheet model fills them with the variant's numbers. English is the reference
catalogue: every other catalogue has exactly its keys and, for each key, the
same fields (a test checks both).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..errors import InputProblem
from ..rules.errors import RulesError
from ..rules.yamldoc import parse_yaml
from . import LANGUAGES
from .translations import lookup, normalize

CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogues"

#: The plural categories a plural entry may give.
PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


def _plural_en(n: int) -> str:
    return "one" if n == 1 else "other"


def _plural_fr(n: int) -> str:
    return "one" if n in (0, 1) else "other"


def _plural_pl(n: int) -> str:
    if n == 1:
        return "one"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return "few"
    return "many"


def _plural_ht(n: int) -> str:
    return "other"


#: Which plural category a whole number takes, per language (the CLDR rules for integers).
PLURAL_RULES: Mapping[str, Callable[[int], str]] = MappingProxyType(
    {"en": _plural_en, "fr": _plural_fr, "pl": _plural_pl, "ht": _plural_ht}
)

#: The categories each language's plural entries must give.
PLURAL_FORMS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "en": frozenset({"one", "other"}),
        "fr": frozenset({"one", "other"}),
        "pl": frozenset({"one", "few", "many", "other"}),
        "ht": frozenset({"other"}),
    }
)

Entry = str | Mapping[str, str]


class CatalogueError(InputProblem):
    """A catalogue that cannot be read, or a key that a catalogue lacks."""


class UnknownLanguageError(CatalogueError):
    """A language with no catalogue."""

    def __init__(self, lang: str) -> None:
        super().__init__(
            f"no rule sheet catalogue for language {lang!r}; choose one of: {', '.join(LANGUAGES)}"
        )
        self.lang = lang


def is_plural(value: Any) -> bool:
    """Whether a catalogue value is a plural entry (rather than a group of keys)."""
    return (
        isinstance(value, dict)
        and "other" in value
        and set(value) <= PLURAL_CATEGORIES
        and all(isinstance(form, str) for form in value.values())
    )


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Entry]:
    """The dotted keys of a nested catalogue mapping, with their strings or plural entries."""
    flat: dict[str, Entry] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, str):
            flat[dotted] = value
        elif is_plural(value):
            flat[dotted] = MappingProxyType(dict(value))
        elif isinstance(value, dict):
            flat.update(flatten(value, dotted + "."))
        else:
            raise CatalogueError(f"{dotted}: expected a string, plural forms or a group of keys")
    return flat


def fields(entry: Entry) -> frozenset[str]:
    """The named format fields an entry uses (over all its plural forms)."""
    texts = [entry] if isinstance(entry, str) else list(entry.values())
    return frozenset(
        name
        for text in texts
        for _, name, _, _ in string.Formatter().parse(text)
        if name is not None and name != ""
    )


@cache
def load_entries(lang: str) -> Mapping[str, Entry]:
    """The flattened catalogue of ``lang``."""
    if lang not in LANGUAGES:
        raise UnknownLanguageError(lang)
    path = CATALOGUE_DIR / f"{lang}.yaml"
    document, problems = parse_yaml(path.read_bytes(), str(path))
    if document is None:
        raise RulesError(problems)
    if not isinstance(document.data, dict):
        raise CatalogueError(f"{path}: a catalogue is a mapping of keys")
    return MappingProxyType(flatten(document.data))


@cache
def english_glosses() -> Mapping[str, str]:
    """The English of the cited section headings written in another language, by place
    (``catalogues/glosses.yaml``)."""
    path = CATALOGUE_DIR / "glosses.yaml"
    document, problems = parse_yaml(path.read_bytes(), str(path))
    if document is None:
        raise RulesError(problems)
    data = document.data
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise CatalogueError(f"{path}: glosses are a mapping of places to English")
    return MappingProxyType({str(key): value for key, value in data.items()})


@dataclass
class Translator:
    """Looks sentences up in one language's catalogue and fills in their fields.

    ``used`` records every key looked up, so tests can check what a sheet needs;
    ``untranslated`` every place of a variant's prose printed in English for
    want of a fresh translation (see :meth:`prose`).
    """

    lang: str
    entries: Mapping[str, Entry]
    used: set[str] = field(default_factory=set)
    untranslated: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def for_language(cls, lang: str) -> Translator:
        """The translator for ``lang`` (raises :class:`UnknownLanguageError`)."""
        return cls(lang, load_entries(lang))

    def _entry(self, key: str) -> Entry:
        self.used.add(key)
        try:
            return self.entries[key]
        except KeyError:
            raise CatalogueError(f"catalogue {self.lang!r} has no key {key!r}") from None

    def t(self, key: str, **params: object) -> str:
        """The sentence ``key``, its fields filled from ``params``."""
        entry = self._entry(key)
        if not isinstance(entry, str):
            raise CatalogueError(f"{self.lang}:{key} has plural forms; look it up with tn()")
        return entry.format(**params)

    def tn(self, key: str, count: int, **params: object) -> str:
        """The form of plural entry ``key`` for ``count`` (also given to it as ``{count}``)."""
        entry = self._entry(key)
        if isinstance(entry, str):
            return entry.format(count=count, **params)
        category = PLURAL_RULES[self.lang](count)
        form = entry.get(category, entry["other"])
        return form.format(count=count, **params)

    def prose(self, variant: str, place: str, english: str) -> str:
        """A variant's own English text at ``place`` of ``variant``, in this language.

        The translation comes from the prose store (:mod:`.translations`); when
        it is missing or stale, the English is printed marked as such
        (``prose.untranslated``) and the place is added to ``untranslated``.
        """
        if self.lang == "en":
            return normalize(english)
        text = lookup(self.lang, variant, place, english)
        if text is not None:
            return text
        self.untranslated.append((variant, place))
        return self.t("prose.untranslated", text=normalize(english))

    def join(self, items: Iterable[str], last: str = "or") -> str:
        """``a, b or c`` (``last`` is ``or`` or ``and``) in this language."""
        words = list(items)
        if len(words) <= 1:
            return "".join(words)
        separator = self.t("list.separator")
        final = self.t(f"list.{last}")
        return separator.join(words[:-1]) + final + words[-1]
