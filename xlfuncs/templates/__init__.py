"""Template workbooks: planning models in plain Excel formulas, no Python needed.

:mod:`~xlfuncs.templates.finetune`, :mod:`~xlfuncs.templates.model_size` and
:mod:`~xlfuncs.templates.planner` say what each template holds, block by block
(:mod:`~xlfuncs.templates.blocks`), with each row's texts beside it;
:mod:`~xlfuncs.templates.layout` places the blocks on the sheet (checks from
:mod:`~xlfuncs.templates.checks`, the cover, the data sheet, charts);
:mod:`~xlfuncs.templates.xlsx` writes the files with cached values,
deterministically and atomically.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from .blocks import Template
from .finetune import FINETUNE
from .layout import LANGS, build_template
from .model_size import CHINCHILLA
from .planner import PLANNER
from .xlsx import save_workbook

TEMPLATES: tuple[Template, ...] = (FINETUNE, CHINCHILLA, PLANNER)


def build(
    out_dir: str | Path = "workbooks",
    langs: Iterable[str] = LANGS,
    *,
    force: bool = False,
    templates: Sequence[Template] | None = None,
) -> list[Path]:
    """Write every template in every language; nothing is written if any exists.

    Raises FileExistsError (listing the files) unless ``force``; each file is
    written atomically, so an interrupted build leaves old files intact.
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
    existing = [str(p) for _, _, p in jobs if p.exists()]
    if existing and not force:
        raise FileExistsError(
            f"{', '.join(existing)} already exist; pass --force to overwrite"
        )
    written = []
    for tpl, lang, path in jobs:
        built = build_template(tpl, lang)
        written.append(save_workbook(built.workbook, path, built.cached, force=force))
    return written


__all__ = [
    "CHINCHILLA",
    "FINETUNE",
    "LANGS",
    "PLANNER",
    "TEMPLATES",
    "Template",
    "build",
    "build_template",
]
