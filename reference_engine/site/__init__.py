"""The static site (``matador site DIR``): every variant side by side, a page per
variant, the rule sheets in four languages, an explain page and the JSON Schemas.

:mod:`.data` gathers what the pages show from the resolved rules,
:mod:`.explaindata` the explain page's tables from the engine's compiled ones,
:mod:`.pages` renders the files (Jinja2 templates in ``templates/``, style and
scripts in ``static/``) and :mod:`.folder` writes them as one folder, atomically.
Nothing here is imported by the engine or by ``matador --help``: the CLI imports
it when the command runs.
"""

from __future__ import annotations
