"""What a run means: rule-by-rule verdicts, what the cases cover and decide, and which
shipped rules an engine really plays (``identify``).

Imports every layer below it, up to :mod:`..session`.
"""
