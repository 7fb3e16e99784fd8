"""Links from a report to the sections of the specification it names (``SPEC 6.3``).

A report is a file read anywhere (a CI artifact, a browser), so a section links
to the specification in the project's repository, whose address is the
package's ``Source`` URL (pyproject.toml, read from the installed metadata: one
place for it). The fragment is the one the repository's Markdown renderer gives
the section's heading in ``spec/SPEC.md``: the heading in lower case, without
its punctuation, spaces made hyphens. Where the address or the heading is not
known, a section is shown without a link.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import metadata

from ...rules.datafiles import spec_dir

#: The distribution whose metadata names the repository.
DISTRIBUTION = "matador-reference"

#: A numbered heading of the specification: ``### 6.3 `opener`, ...``.
_HEADING = re.compile(r"^#{2,4} (\d+(?:\.\d+)*)\.? (.*)$")

#: The ``SPEC 6.3`` a report writes.
_SECTION = re.compile(r"SPEC (\d+(?:\.\d+)*)")


@cache
def _source_url() -> str | None:
    """The repository's address, from the package metadata (None when not installed)."""
    try:
        urls = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "source" and url.strip().startswith("https://"):
            return str(url.strip().rstrip("/"))
    return None


def anchor(heading: str) -> str:
    """The fragment a Markdown renderer gives ``heading`` (GitHub's rule)."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def _anchors() -> dict[str, str]:
    """Each numbered section of ``spec/SPEC.md`` with its fragment."""
    try:
        text = (spec_dir() / "SPEC.md").read_text(encoding="utf-8")
    except OSError:
        return {}
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _HEADING.match(line)
        if match:
            found.setdefault(match[1], anchor(f"{match[1]} {match[2]}"))
    return found


def section_url(section: str) -> str | None:
    """The address of ``SPEC 6.3`` (or ``6.3``) in the repository, or None."""
    match = _SECTION.search(section) or re.fullmatch(r"(\d+(?:\.\d+)*)", section.strip())
    base = _source_url()
    if match is None or base is None:
        return None
    fragment = _anchors().get(match[1])
    if fragment is None:
        return None
    return f"{base}/blob/main/spec/SPEC.md#{fragment}"
