"""The reference engine: tiles, deals, hands, scoring and matches, played from compiled rules.

Everything a source decides is read from a :class:`~reference_engine.rules.Rules`
object through :mod:`reference_engine.engine.compiled`; no module here names a
source. :mod:`~reference_engine.engine.record` and
:mod:`~reference_engine.engine.transcript` write and check what was played.
"""
