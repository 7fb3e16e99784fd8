"""Free text a command prints (an answer of ``explain``) is broken to the width like its
tables: 80 columns in a pipe. (conform's failure texts are not yet: their one-line
messages are what engine authors and their tests read.)"""

from __future__ import annotations

import io

from reference_engine.cli import run
from reference_engine.text.fit import Fitted, fit_line, visible_length


def _out(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    run(list(argv), out, err)
    assert "Traceback" not in err.getvalue()
    return out.getvalue()


def test_a_long_line_breaks_at_spaces_under_its_indent() -> None:
    line = "    " + " ".join(["word"] * 30)
    fitted = fit_line(line, 40)
    assert all(len(piece) <= 40 for piece in fitted)
    assert fitted[0].startswith("    word") and all(p.startswith("      word") for p in fitted[1:])
    assert " ".join(" ".join(fitted).split()) == " ".join(line.split())


def test_a_line_that_fits_or_only_looks_long_passes_untouched() -> None:
    coloured = "\x1b[31m" + "x" * 70 + "\x1b[0m"
    assert visible_length(coloured) == 70 and fit_line(coloured, 80) == [coloured]
    stream = io.StringIO()
    fitted = Fitted(stream, 20)
    fitted.write("short\n" + "a b c d e f g h i j k l m n o p\n")
    fitted.write("no newline yet")
    fitted.flush()
    assert stream.getvalue().splitlines() == [
        "short",
        "a b c d e f g h i j",
        "  k l m n o p",
        "no newline yet",
    ]


def test_explain_fits_eighty_columns_in_a_pipe() -> None:
    text = _out("explain", "--hand", "3-4,2-6", "--ends", "0,5", "--action", "3-4@L")
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "0-0 0-3 0-4 1-3" in text  # (the tiles that may follow, now wrapped, all there)
