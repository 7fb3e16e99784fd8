"""The suite: scripted cases as data, the rule values they exercise, and choosing among them.

The lowest layer of the judge; it imports nothing else from it.
"""
