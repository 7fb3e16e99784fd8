"""A module that fails while it is imported, for ``--engine python:hostile_broken_engine:make``."""

raise RuntimeError("this engine module is broken on purpose")
