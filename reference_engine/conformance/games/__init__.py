"""Random games: whole matches played on the engine beside the reference, diverging or not.

Imports the layers below it (suite, protocol, transport, judging); a runner it is given
is reached through :class:`.differential.Session`, never imported.
"""
