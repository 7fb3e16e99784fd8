"""Where the project's own data files are: the specification, the variants, the examples.

Inside an installed package they are under ``reference_engine/_data``; in a
checkout, at the top of the repository, where people read them.
"""

from __future__ import annotations

from pathlib import Path

#: The version of spec/SPEC.md that the rule model implements.
SPEC_VERSION = "1.0"


def package_folder() -> Path:
    """The folder of the ``reference_engine`` package.

    The package is installed as files (its data is read as files throughout), so
    its folder is found from this module's path, without importlib.resources.
    """
    return Path(__file__).resolve().parents[1]


def data_root() -> Path:
    """Where ``spec/`` and ``variants/`` are: inside the installed package, else the checkout."""
    package = package_folder()
    packaged = package / "_data"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2]


def spec_dir() -> Path:
    """The directory holding the schemas and the source registry."""
    return data_root() / "spec"


def variants_dir() -> Path:
    """The directory holding the shipped variant files."""
    return data_root() / "variants"


#: Each example engine, by the language it is written in: its path under the data root.
EXAMPLES = {
    "node": "conformance/examples/matador-engine.js",
    "python": "docs/examples/python_engine.py",
}

#: How to run the example engines, shipped beside them.
EXAMPLES_README = "conformance/examples/README.md"

#: What else an example is copied with: the Node.js adapter kit, beside the Node example.
EXAMPLE_COMPANIONS = {"node": ("conformance/examples/matador-kit.js",)}


def example_path(language: str) -> Path:
    """The example engine written in ``language`` (a key of :data:`EXAMPLES`)."""
    return data_root() / EXAMPLES[language]
