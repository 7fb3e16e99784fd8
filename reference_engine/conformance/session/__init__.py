"""A run's session: the engine's life (started, restarted, given up on), the case loop, and
random games spread over worker processes.

Imports every layer below it (suite, protocol, transport, judging, games).
"""
