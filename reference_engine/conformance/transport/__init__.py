"""Reaching an engine: a program over pipes, a Python engine in a process of its own or in
this one, with deadlines, latency kept, and signals that stop a run cleanly.

Imports only :mod:`..suite` and :mod:`..protocol` from the judge.
"""
