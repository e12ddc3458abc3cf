"""Template workbooks and the LAMBDA library: plain Excel, no Python needed.

:mod:`~xlfuncs.templates.finetune`, :mod:`~xlfuncs.templates.model_size` and
:mod:`~xlfuncs.templates.planner` say what each template holds, block by block
(:mod:`~xlfuncs.templates.blocks`), with each row's texts beside it;
:mod:`~xlfuncs.templates.layout` places the blocks on the sheet (checks from
:mod:`~xlfuncs.templates.checks`, the cover, the data sheet, charts);
:mod:`~xlfuncs.templates.xlsx` writes the files with cached values,
deterministically and atomically. :mod:`~xlfuncs.templates.library` writes the
LAMBDA library (the functions as named LAMBDAs, from
:mod:`~xlfuncs.templates.lambdas`) and its Advanced Formula Environment module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..workbook.limits import typed_problem
from ..workbook.xlsx import existing, workbook_bytes, writable_folder, write_set
from .blocks import Template
from .budget import BUDGET
from .build import build_template, compute, unknown_inputs
from .finetune import FINETUNE
from .library import FILENAME as LIBRARY
from .library import LANG as LIBRARY_LANG
from .library import MODULE_FILENAME as LIBRARY_MODULE
from .library import build_library, definitions, module_text
from .model_size import CHINCHILLA
from .planner import PLANNER
from .texts import LANGS

TEMPLATES: tuple[Template, ...] = (FINETUNE, CHINCHILLA, PLANNER, BUDGET)


def build(
    out_dir: str | Path = "workbooks",
    langs: Iterable[str] = LANGS,
    *,
    force: bool = False,
    templates: Sequence[Template] | None = None,
    values: Mapping[str, Any] | None = None,
) -> list[Path]:
    """Write every template in every language, and the LAMBDA library.

    ``values`` sets the default of the input of each name in every template that
    has it (company defaults: a GPU, a contract price, a currency); a name that
    no template has raises KeyError, and a value no cell can hold as typed
    (NaN, a 16th digit, a control character: :mod:`~xlfuncs.workbook.limits`)
    ValueError, before anything is built.

    The library (``xlfuncs-functions.xlsx`` and its ``.lambda.txt`` module) has
    one edition, English: it is written when ``langs`` includes "en" and no
    ``templates`` are chosen. Every file is built in memory first, so an error
    while building writes nothing; then nothing is written if any target exists
    (a file, or a symbolic link even if dangling): raises FileExistsError
    (listing them) unless ``force``. Each file is written atomically, so an
    interrupted write leaves old files intact, and without ``force`` created
    exclusively: a file that appears while the build writes is never replaced,
    and the build raises FileExistsError naming it. The files are written as a
    set (:func:`~xlfuncs.workbook.xlsx.write_set`): a full disk, an error or an
    interruption leaves the old set, or no file where there was none.
    """
    out = Path(out_dir)
    langs = tuple(langs)
    for lang in langs:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose {' or '.join(LANGS)}")
    chosen = templates or TEMPLATES
    values = dict(values or {})
    unknown = unknown_inputs(values, chosen)
    if unknown:
        raise KeyError(
            f"no template has an input named {', '.join(unknown)}; "
            "docs/templates.md lists the names"
        )
    for name, value in values.items():
        why = typed_problem(value)
        if why:
            raise ValueError(f"{name}={value!r}: {why}")
    library = templates is None and LIBRARY_LANG in langs
    targets = [out / tpl.filename(lang) for tpl in chosen for lang in langs]
    if library:
        targets += [out / LIBRARY, out / LIBRARY_MODULE]
    # Refused before seconds of building, not after.
    there = existing(targets)
    if there and not force:
        raise FileExistsError(
            f"{', '.join(map(str, there))} already exist; pass --force to overwrite"
        )
    writable_folder(out)
    files: dict[Path, bytes] = {}
    for tpl in chosen:
        own = {k: v for k, v in values.items() if tpl.is_input(k)}
        for lang in langs:
            built = build_template(tpl, lang, own)
            files[out / tpl.filename(lang)] = workbook_bytes(
                built.workbook, built.cached
            )
    if library:
        texts = definitions()  # the LAMBDAs, made once for the workbook and module
        built = build_library(texts)
        files[out / LIBRARY] = workbook_bytes(
            built.workbook, built.cached, built.dynamic
        )
        files[out / LIBRARY_MODULE] = module_text(texts).encode("utf-8")
    # Each file is created exclusively unless ``force``: one that appears after
    # the check above (another build) is kept, and this build fails whole.
    return write_set(files, force=force)


__all__ = [
    "BUDGET",
    "CHINCHILLA",
    "FINETUNE",
    "LANGS",
    "PLANNER",
    "TEMPLATES",
    "Template",
    "build",
    "build_library",
    "build_template",
    "compute",
]
