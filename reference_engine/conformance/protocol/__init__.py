"""The protocol between the judge and an engine: the Python engine interface, the error codes,
requests and replies as JSON lines, what a request must hold, and the reference's own server.

Imports only :mod:`..suite` from the judge.
"""
