"""The xlwings UDF module: point Excel at it with ``UDF Modules: xlfuncs.udfs``.

Every function registered in :data:`xlfuncs.registry.REGISTRY` becomes an Excel
function of the same name, in the function-wizard category "xlfuncs", with the
docstring's summary line as its help and each argument's doc (units included) as
the argument help. Every argument is read with ``ndim=2``, so a column stays a
column and ranges broadcast against each other; error cells arrive as text
(``err_to_str``) so that an upstream ``#N/A`` is passed on, as Excel does.

The functions are plain Python that never raise: see :mod:`xlfuncs.cells`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import xlwings as xw

from .cells import cell_function
from .registry import REGISTRY, Formula

CATEGORY = "xlfuncs"


def make_udf(spec: Formula) -> Callable[..., Any]:
    """Build and decorate the Excel function for one registered formula."""
    udf = cell_function(spec)
    udf.__name__ = udf.__qualname__ = spec.name  # xlwings registers __name__
    udf.__module__ = __name__
    udf.__doc__ = spec.description  # becomes the function-wizard help
    # The real parameter names, defaults included, for Excel's argument list.
    udf.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(
                a.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=spec.defaults.get(a.name, inspect.Parameter.empty),
            )
            for a in spec.args
        ]
    )
    for a in reversed(spec.args):
        udf = xw.arg(a.name, ndim=2, doc=a.doc, err_to_str=True)(udf)
    return xw.func(category=CATEGORY)(udf)


for _name, _spec in REGISTRY.items():
    globals()[_name] = make_udf(_spec)

__all__ = sorted(REGISTRY)
