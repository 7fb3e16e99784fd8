"""Source-level mutation testing: hand-written mutants of the engine, judged by the real suite."""
