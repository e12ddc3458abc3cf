"""How a typed name is compared with the tables' names: one rule, written once.

The Python look-ups (accelerators, models, fields, precisions, recomputation
modes, fits) compare :func:`normalize` of a name with the same of their keys; the
Excel expressions remove the same :data:`IGNORED` characters from a typed name
(``xlfuncs.registry.excel.key``) and look the result up, ignoring case as MATCH
does, in key tables written with :func:`normalize`. So Python and Excel accept the
same spellings.
"""

from __future__ import annotations

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


__all__ = ["IGNORED", "normalize"]
