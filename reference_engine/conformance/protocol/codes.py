"""The error codes of the engine protocol (spec/protocol.md, "Error codes"): a closed vocabulary.

An error reply says why a request was not carried out at all. It is not a
refused action: an ``apply`` the rules forbid is answered ``refused`` with a
:class:`~reference_engine.errors.Reason`, and only a request the engine could
not take up gets one of these codes.
"""

from __future__ import annotations

from ...rules.vocabulary import TextEnum


class ErrorCode(TextEnum):
    """Why a request got an error reply; spec/protocol.md lists each with when it is used."""

    BAD_REQUEST = "bad_request"
    LINE_TOO_LONG = "line_too_long"
    TOO_DEEP = "too_deep"
    UNKNOWN_REQUEST = "unknown_request"
    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    UNSUPPORTED = "unsupported"
    NO_MATCH = "no_match"
    NO_HAND = "no_hand"
    HAND_IN_PROGRESS = "hand_in_progress"
    MATCH_OVER = "match_over"
    BAD_DEAL = "bad_deal"
    NO_SUCH_SEAT = "no_such_seat"
    BAD_NOTATION = "bad_notation"
    INTERNAL_ERROR = "internal_error"
