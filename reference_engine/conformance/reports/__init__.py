"""Reports of a run, one writer per format: the terminal table, JSON lines (the record of a
run, read back by :mod:`.rundata`), JUnit XML, Markdown and HTML.

The top layer below the commands; it imports every other.
"""
