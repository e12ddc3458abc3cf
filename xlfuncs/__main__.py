"""``python -m xlfuncs``: the xlfuncs command, where its script is not on PATH."""

from .cli import main

raise SystemExit(main())
