"""``python -m companion`` is the ``companion`` command, for a venv whose scripts are not on PATH."""

from companion.cli import main

raise SystemExit(main())
