"""The optional extras, and what to tell a user who asks for a feature whose extra is missing.

``pyproject.toml`` declares the extras; this module names, for the three a
command may need at run time, the packages they bring and the line that installs
them. The package is installed from a checkout or a wheel, not by its name from
an index, so the hint gives both the extra (``pip install '.[pdf]'`` in a
checkout) and the plain packages (tests/test_packaging.py holds this table to
pyproject.toml).
"""

from __future__ import annotations

from enum import Enum


class Extra(str, Enum):
    """An optional extra a command needs at run time."""

    PDF = "pdf"
    PLOT = "plot"
    DASK = "dask"


#: Each extra's packages, as ``pip install`` takes them.
PACKAGES: dict[Extra, tuple[str, ...]] = {
    Extra.PDF: ("weasyprint", "pypdf"),
    Extra.PLOT: ("matplotlib",),
    Extra.DASK: ("dask[distributed]",),
}


def install_hint(extra: Extra) -> str:
    """How to install ``extra``: from a checkout, or its packages by name."""
    packages = " ".join(
        f"'{package}'" if "[" in package else package for package in PACKAGES[extra]
    )
    return f"pip install '.[{extra.value}]' in a checkout, or pip install {packages}"
