"""``python -m reference_engine.cli``: the ``matador`` command."""

from .console import main

if __name__ == "__main__":
    main()
