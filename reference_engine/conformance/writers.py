"""Every report format ``matador conform --report`` writes, by name."""

from __future__ import annotations

from .exports import write_junit, write_markdown
from .report import write_json, write_table

WRITERS = {
    "table": write_table,
    "json": write_json,
    "junit": write_junit,
    "markdown": write_markdown,
}
