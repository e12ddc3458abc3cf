"""The registry: argument domains, error types and the ``@formula`` record.

Above the pure data (:mod:`xlfuncs.data`) and below the math
(:mod:`xlfuncs.functions`), which registers each function here.
"""

from .arguments import ARGS, Arg
from .domains import Domain
from .errors import (
    ERROR_CODES,
    InputError,
    InvalidTypeError,
    InvalidValueError,
    UnusualValueWarning,
)
from .formula import (
    REGISTRY,
    Floats,
    Formula,
    Numbers,
    OptionalName,
    formula,
)

__all__ = [
    "ARGS",
    "ERROR_CODES",
    "REGISTRY",
    "Arg",
    "Domain",
    "Floats",
    "Formula",
    "Numbers",
    "OptionalName",
    "InputError",
    "InvalidTypeError",
    "InvalidValueError",
    "UnusualValueWarning",
    "formula",
]
