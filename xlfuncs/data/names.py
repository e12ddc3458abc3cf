"""How a typed name is compared with the tables' names: one rule, written once.

The Python look-ups (accelerators, models, fields, precisions, recomputation
modes, fits) compare :func:`normalize` of a name with the same of their keys; the
Excel expressions remove the same :data:`IGNORED` characters from a typed name
(``xlfuncs.registry.excel.key``) and look the result up, ignoring case as MATCH
does, in key tables written with :func:`normalize`. So Python and Excel accept the
same spellings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

#: Characters a typed name may hold anywhere without changing which name it is:
#: "H100 SXM", "h100-sxm" and "H100_SXM" are one accelerator, and so is "H100 SXM"
#: with a tab or a non-breaking space (U+00A0, common in text pasted from a web
#: page) in it.
IGNORED = (" ", "-", "_", "\t", "\u00a0")


def normalize(text: str) -> str:
    """``text`` in lower case without the :data:`IGNORED` characters.

    >>> normalize("NVIDIA H100-SXM\\t")
    'nvidiah100sxm'
    """
    return "".join(ch for ch in text.lower() if ch not in IGNORED)


def finder(
    keys: Iterable[str], aliases: Mapping[str, str]
) -> Callable[[str], str | None]:
    """The look-up of a short list of names: a typed name's key among ``keys``,
    through ``aliases`` (written as :func:`normalize` writes them), or None.

    >>> finder(("fp8",), {"float8": "fp8"})("Float-8")
    'fp8'
    """
    known = frozenset(keys)

    def find(name: str) -> str | None:
        key = normalize(name)
        key = aliases.get(key, key)
        return key if key in known else None

    return find


def spelled(
    keys: Iterable[str], aliases: Mapping[str, str]
) -> tuple[tuple[str, str], ...]:
    """Every spelling :func:`finder` accepts, as normalize() writes it, with its
    key: the key tables the Excel expressions look a typed name up in."""
    find = finder(keys, aliases)
    return tuple((normalize(s), find(s) or "") for s in (*keys, *aliases))


__all__ = ["IGNORED", "finder", "normalize", "spelled"]
