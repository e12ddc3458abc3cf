"""Template workbooks and the LAMBDA library: plain Excel, no Python needed.

:mod:`~xlfuncs.templates.finetune`, :mod:`~xlfuncs.templates.model_size` and
:mod:`~xlfuncs.templates.planner` say what each template holds, block by block
(:mod:`~xlfuncs.templates.blocks`), with each row's texts beside it;
:mod:`~xlfuncs.templates.layout` places the blocks on the sheet (checks from
:mod:`~xlfuncs.templates.checks`, the cover, the data sheet, charts);
:mod:`~xlfuncs.templates.xlsx` writes the files with cached values,
deterministically and atomically. :mod:`~xlfuncs.templates.library` writes the
LAMBDA library (every function as a named LAMBDA, from
:mod:`~xlfuncs.templates.lambdas`) and its Advanced Formula Environment module.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from .blocks import Template
from .finetune import FINETUNE
from .layout import LANGS, build_template
from .library import FILENAME as LIBRARY
from .library import LANG as LIBRARY_LANG
from .library import MODULE_FILENAME as LIBRARY_MODULE
from .library import build_library, module_text
from .model_size import CHINCHILLA
from .planner import PLANNER
from .xlsx import save_text, save_workbook

TEMPLATES: tuple[Template, ...] = (FINETUNE, CHINCHILLA, PLANNER)


def build(
    out_dir: str | Path = "workbooks",
    langs: Iterable[str] = LANGS,
    *,
    force: bool = False,
    templates: Sequence[Template] | None = None,
) -> list[Path]:
    """Write every template in every language, and the LAMBDA library.

    The library (``xlfuncs-functions.xlsx`` and its ``.lambda.txt`` module) has
    one edition, English: it is written when ``langs`` includes "en" and no
    ``templates`` are chosen. Nothing is written if any target exists: raises
    FileExistsError (listing the files) unless ``force``; each file is written
    atomically, so an interrupted build leaves old files intact.
    """
    out = Path(out_dir)
    langs = tuple(langs)
    for lang in langs:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose {' or '.join(LANGS)}")
    jobs = [
        (tpl, lang, out / tpl.filename(lang))
        for tpl in (templates or TEMPLATES)
        for lang in langs
    ]
    library = templates is None and LIBRARY_LANG in langs
    extra = [out / LIBRARY, out / LIBRARY_MODULE] if library else []
    existing = [str(p) for p in [*(p for _, _, p in jobs), *extra] if p.exists()]
    if existing and not force:
        raise FileExistsError(
            f"{', '.join(existing)} already exist; pass --force to overwrite"
        )
    written = []
    for tpl, lang, path in jobs:
        built = build_template(tpl, lang)
        written.append(save_workbook(built.workbook, path, built.cached, force=force))
    if library:
        built = build_library()
        written.append(
            save_workbook(built.workbook, out / LIBRARY, built.cached, force=force)
        )
        written.append(save_text(module_text(), out / LIBRARY_MODULE, force=force))
    return written


__all__ = [
    "CHINCHILLA",
    "FINETUNE",
    "LANGS",
    "PLANNER",
    "TEMPLATES",
    "Template",
    "build",
    "build_library",
    "build_template",
]
