"""Text laid out for people: the tables every part prints, and the width they fit.

Below the command line and the library alike: the rule presentation, the
dispute tools, the coverage report and the commands all draw their tables here
(:mod:`.tables`), at the width :mod:`.width` decides. It imports nothing of the
project but :mod:`reference_engine.sinks`.
"""
