"""Hostile inputs: the real command line run in subprocesses against broken files and engines."""
