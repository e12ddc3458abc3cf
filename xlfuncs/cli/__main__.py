"""python -m xlfuncs.cli"""

from . import main

raise SystemExit(main())
