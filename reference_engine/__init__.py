"""The reference for the domino game Matador: rules as data, an engine, a conformance suite.

The rule model lives in :mod:`reference_engine.rules`; see ``spec/SPEC.md``.
"""

__version__ = "0.1.0"
