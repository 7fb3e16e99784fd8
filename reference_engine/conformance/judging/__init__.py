"""Judging what an engine answered: each check of a case, the verdict, and the rules to blame.

Imports :mod:`..suite`, :mod:`..protocol` and :mod:`..transport`, nothing above.
"""
