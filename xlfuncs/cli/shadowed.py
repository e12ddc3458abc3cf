"""A folder named ``xlfuncs`` (a clone of the repository) in the current folder
hides the installed package.

Python puts the current folder first on ``sys.path`` for ``python -m xlfuncs``
and ``python -c``; a folder named ``xlfuncs`` there without an ``__init__.py``
(the clone's root) becomes an empty namespace package, and the package's own
modules, found through an editable install, cannot import from it. Said in one
line instead of an ImportError's traceback.
"""

from __future__ import annotations

import sys
from types import ModuleType


def shadowing_folder(package: ModuleType | None) -> str | None:
    """The folder that stands in for the xlfuncs package, or None if the
    package is the real one (it has an ``__init__.py``)."""
    if package is None or getattr(package, "__file__", None) is not None:
        return None
    paths = list(getattr(package, "__path__", []))
    return paths[0] if paths else "a folder named xlfuncs"


def explain() -> None:
    """Say what hides the package: one line and exit status 2 where the xlfuncs
    command runs (``python -m xlfuncs``, the console script); an ImportError
    saying so where a program imports it."""
    folder = shadowing_folder(sys.modules.get("xlfuncs"))
    if folder is None:
        return
    message = (
        f"{folder} is a folder named xlfuncs without the package's __init__.py "
        "(a clone of the repository?), and it hides the installed xlfuncs: run "
        "from another folder, or from inside the clone"
    )
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    script = str(getattr(main, "__file__", "") or "")
    command = (
        sys.argv[:1] == ["-m"]  # python -m xlfuncs.cli, while runpy imports it
        or (spec is not None and spec.name.startswith("xlfuncs."))
        or script.replace("\\", "/").rsplit("/", 1)[-1].startswith("xlfuncs")
    )
    if command:
        print(f"xlfuncs: error: {message}", file=sys.stderr)
        raise SystemExit(2)
    raise ImportError(message)
