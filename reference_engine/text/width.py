"""How wide text is laid out: the terminal's columns, or 80 off a terminal.

Asked of the operating system directly: :func:`shutil.get_terminal_size`'s
module loads two compression libraries, which would cost ``matador list`` 4 ms.
"""

from __future__ import annotations

import os
import sys

#: The width of text off a terminal (a file, a pipe), and when a terminal says none.
DEFAULT_WIDTH = 80

#: The narrowest width a table may be asked for (``--width``).
NARROWEST = 40


def terminal_columns(columns_variable: str) -> int:
    """``COLUMNS`` when it is a positive number, else the columns of the terminal standard
    output is on, else :data:`DEFAULT_WIDTH` (as :func:`shutil.get_terminal_size` does)."""
    if columns_variable.isdigit() and int(columns_variable) > 0:
        return int(columns_variable)
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return DEFAULT_WIDTH
    return columns if columns > 0 else DEFAULT_WIDTH
