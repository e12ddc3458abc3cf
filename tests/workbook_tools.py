"""Test helpers for built workbooks: set inputs, drop cached values, read names.

These edit and read files the way a test needs; the package only writes them
(:func:`xlfuncs.workbook.xlsx.save_workbook`).
"""

from __future__ import annotations

import functools
import math
import os
import pathlib
import random
import re
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Mapping

import openpyxl

from xlfuncs.workbook.xlsx import (
    _FORMULA_RE,
    _TYPE_ATTR_RE,
    _VALUE_RE,
    _atomic_write,
    _edit_cells,
    _iter_cells,
    _sheet_parts,
    _zip_bytes,
    save_workbook,
)

# A defined name that is exactly one cell: Sheet1!$B$1 or 'My sheet'!B1.
_SINGLE_CELL_NAME_RE = re.compile(
    r"(?:'(?P<quoted>(?:[^']|'')+)'|(?P<plain>[^'!\s]+))!"
    r"\$?(?P<col>[A-Za-z]{1,3})\$?(?P<row>[1-9][0-9]*)"
)


def random_inputs(tpl, rng: random.Random) -> dict[str, object]:
    """Random valid inputs for a template, each number drawn from its argument's
    typical range (log-uniform over a wide one), whole where it must be; names
    and codes keep their defaults, a blank-able input is sometimes blank."""
    from xlfuncs.templates.checks import domain, typical

    out: dict[str, object] = {}
    for inp in tpl.inputs:
        if inp.kind != "number":
            continue
        if inp.blank and rng.random() < 0.3:
            out[inp.name] = None
            continue
        span = typical(inp)
        d = domain(inp)
        if span is None:
            default = float(inp.default) if inp.default is not None else 1.0
            span = (default / 4, default * 4)
        lo, hi = span
        if d is not None:  # inside the domain, whatever the typical range says
            lo = max(lo, d.least_whole if d.whole else d.lo)
            hi = min(hi, d.hi)
        if d is not None and d.whole:
            value: float = rng.randint(int(math.ceil(lo)), int(min(hi, 10**7)))
        elif lo > 0 and hi / lo > 100:
            value = math.exp(rng.uniform(math.log(lo), math.log(hi)))
        else:
            value = rng.uniform(lo, hi)
        if d is not None and not d.contains(value):
            if inp.default is None:  # a blank-able input with no default: blank
                out[inp.name] = None
                continue
            value = float(inp.default)
        out[inp.name] = value
    if "TensorParallel" in out and "GPUs" in out:  # the GPUs a multiple of it
        tp = int(out["TensorParallel"])  # type: ignore[call-overload]
        out["GPUs"] = tp * max(1, int(out["GPUs"]) // tp)  # type: ignore[call-overload]
    return out


def strip_cached_values(
    src: str | os.PathLike[str], dst: str | os.PathLike[str]
) -> None:
    """Copy `src` to `dst` without the cached value of any formula cell.

    Every ``<v>`` of a cell that has an ``<f>`` is removed, with the cell's
    ``t`` attribute that described it, so a recalculating reader must compute
    the value itself.  `dst` is overwritten (atomically); it may equal `src`.
    """
    with zipfile.ZipFile(src) as zf:
        parts = {info.filename: zf.read(info) for info in zf.infolist()}
    for name in set(_sheet_parts(parts).values()):
        parts[name] = _strip_sheet(parts[name])
    _atomic_write(pathlib.Path(dst), _zip_bytes(parts))


def set_inputs(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    values: Mapping[str, float | str | None],
) -> None:
    """Set the cells behind workbook-scoped defined names and save to `dst`.

    Parameters
    ----------
    src, dst
        Source and target workbooks; `dst` is overwritten (atomically).
        Saving through openpyxl drops every cached formula value.
    values
        ``{defined name: value}``; each name must refer to a single cell.
        ``None`` empties the cell.

    Raises
    ------
    KeyError
        If a name is not a workbook-scoped defined name of `src`.
    ValueError
        If a name does not refer to exactly one cell.
    """
    wb = openpyxl.load_workbook(src)
    for name, value in values.items():
        title, coord = _name_cell(wb, name)
        cell = wb[title][coord]
        cell.value = value
        # An input is data: a string that starts with "=" must not turn
        # into a formula, which openpyxl would infer from the value.
        if isinstance(value, str) and cell.data_type == "f":
            cell.data_type = "s"
    save_workbook(wb, dst, {}, force=True)


def opened(path: str | os.PathLike[str], values: bool = False) -> openpyxl.Workbook:
    """The workbook at ``path`` as openpyxl reads it, its formulas or (``values``)
    its cached values: loaded once while the file stays the same, for tests that
    only read it (a change to the file, a rewrite included, loads it anew)."""
    st = os.stat(path)
    return _opened(os.fspath(path), values, st.st_ino, st.st_mtime_ns, st.st_size)


def forget_opened() -> None:
    """Let go of every workbook :func:`opened` holds."""
    _opened.cache_clear()


@functools.lru_cache(maxsize=32)
def _opened(path: str, values: bool, *stamp: int) -> openpyxl.Workbook:
    return openpyxl.load_workbook(path, data_only=values)


def read_names(path: str | os.PathLike[str]) -> dict[str, object]:
    """Read the value behind every single-cell workbook-scoped defined name.

    The workbook is loaded with ``data_only=True``, so formula cells give
    their cached value (``None`` if there is none).  Names that are not a
    reference to exactly one cell (ranges, constants, formulas) are skipped.
    """
    wb = opened(path, values=True)
    result: dict[str, object] = {}
    for name, dn in wb.defined_names.items():
        ref = _single_cell(dn.attr_text)
        if ref is None:
            continue
        title, coord = ref
        if title not in wb.sheetnames:
            raise ValueError(f"defined name {name!r} refers to missing sheet {title!r}")
        result[name] = wb[title][coord].value
    return result


def _strip_sheet(xml_bytes: bytes) -> bytes:
    xml = xml_bytes.decode("utf-8")
    edits: dict[tuple[int, int], str] = {}
    for cell, _coord in _iter_cells(xml):
        body = cell.group("body") or ""
        if _FORMULA_RE.search(body) is None:
            continue
        tag = cell.group("tag")
        attrs = _TYPE_ATTR_RE.sub("", cell.group("attrs") or "")
        edits[cell.span()] = f"<{tag}{attrs}>{_VALUE_RE.sub('', body)}</{tag}>"
    out = _edit_cells(xml, edits)
    ET.fromstring(out)
    return out.encode("utf-8")


def _single_cell(attr_text: str | None) -> tuple[str, str] | None:
    """Return (sheet title, "B1") if `attr_text` is one cell reference."""
    m = _SINGLE_CELL_NAME_RE.fullmatch((attr_text or "").strip().lstrip("="))
    if m is None:
        return None
    title = m.group("plain") or m.group("quoted").replace("''", "'")
    return title, m.group("col").upper() + m.group("row")


def _name_cell(wb: openpyxl.Workbook, name: str) -> tuple[str, str]:
    dn = wb.defined_names.get(name)
    if dn is None:
        # Excel names are case-insensitive.
        matches = [v for k, v in wb.defined_names.items() if k.lower() == name.lower()]
        dn = matches[0] if len(matches) == 1 else None
    if dn is None:
        raise KeyError(f"no workbook-scoped defined name {name!r}")
    ref = _single_cell(dn.attr_text)
    if ref is None or ref[0] not in wb.sheetnames:
        raise ValueError(f"defined name {name!r} = {dn.attr_text!r} is not one cell")
    return ref


def _style(cell) -> tuple:
    f, a, p = cell.font, cell.alignment, cell.protection
    return (
        cell.number_format,
        (f.name, f.sz, f.b, f.i, f.color.rgb if f.color is not None else None),
        cell.fill.fgColor.rgb if cell.fill.fill_type else None,
        (a.horizontal, a.vertical, a.wrap_text, a.indent),
        (p.locked, p.hidden),
        tuple(
            getattr(cell.border, side).style
            for side in ("left", "right", "top", "bottom")
        ),
    )


def _chart(chart) -> tuple:
    def title(t) -> str | None:
        if t is None or t.tx is None or t.tx.rich is None:
            return None
        return "".join(
            run.t for p in t.tx.rich.p for run in (p.r or []) if run.t is not None
        )

    series = []
    for s in chart.series:
        refs = (
            s.xVal.numRef.f if s.xVal is not None and s.xVal.numRef else None,
            s.yVal.numRef.f if s.yVal is not None and s.yVal.numRef else None,
        )
        series.append(refs)
    axes = tuple(
        (title(ax.title), ax.scaling.logBase, ax.scaling.min, ax.scaling.max,
         ax.numFmt.formatCode if ax.numFmt is not None else None)
        for ax in (chart.x_axis, chart.y_axis)
    )  # fmt: skip
    return (type(chart).__name__, title(chart.title), tuple(series), axes)


def summary(path: str | os.PathLike[str]) -> dict[str, object]:
    """What matters in a workbook, for comparing two files by content not bytes.

    Names, every cell's value or formula and style, cached values, merged cells,
    sizes, validation, protection, print set-up, charts and document properties.
    """
    wb, cached = opened(path), opened(path, values=True)
    out: dict[str, object] = {
        "sheets": wb.sheetnames,
        "names": {k: v.attr_text for k, v in wb.defined_names.items()},
        "properties": {
            k: getattr(wb.properties, k)
            for k in (
                "title",
                "subject",
                "creator",
                "keywords",
                "description",
                "language",
                "version",
                "created",
                "modified",
            )
        },  # fmt: skip
    }
    for ws in wb.worksheets:
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                if c.value is None and not c.has_style:
                    continue
                value = c.value
                if hasattr(value, "text"):  # a dynamic-array formula
                    value = ("array", value.ref, value.text)
                cells[c.coordinate] = (
                    value,
                    cached[ws.title][c.coordinate].value,
                    _style(c),
                )
        ps = ws.page_setup
        out[ws.title] = {
            "cells": cells,
            "merged": sorted(str(r) for r in ws.merged_cells.ranges),
            "widths": {k: d.width for k, d in ws.column_dimensions.items()},
            "heights": {k: d.height for k, d in ws.row_dimensions.items()},
            "validation": sorted(
                (
                    str(dv.sqref),
                    dv.type,
                    dv.operator,
                    dv.formula1,
                    dv.formula2,
                    dv.prompt,
                    dv.error,
                    dv.promptTitle,
                    dv.errorTitle,
                )
                for dv in ws.data_validations.dataValidation
            ),  # fmt: skip
            "protection": (ws.protection.sheet, ws.protection.password),
            "freeze": ws.freeze_panes,
            "print": (
                ws.print_area,
                ws.print_title_rows,
                ps.orientation,
                ps.paperSize,
                ps.fitToWidth,
                ps.fitToHeight,
                ps.scale,
                ws.sheet_properties.pageSetUpPr.fitToPage
                if ws.sheet_properties.pageSetUpPr
                else None,
                ws.oddFooter.left.text,
                ws.oddFooter.center.text,
                ws.oddFooter.right.text,
                str(ws.row_breaks.brk),
            ),  # fmt: skip
            "charts": [_chart(ch) for ch in ws._charts],
        }
    return out


def formula_cells_without_cached_value(
    path: str | os.PathLike[str],
) -> tuple[int, list[str]]:
    """How many formula cells the file has, and those saved without a value.

    A cell without one shows empty in previews and in readers that do not
    recalculate (a mail client, a phone).
    """
    wb, cached = opened(path), opened(path, values=True)
    count, missing = 0, []
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type == "f":
                    count += 1
                    shown = cached[ws.title][c.coordinate]
                    # An empty text is a value: an unused row shows nothing.
                    if shown.value is None and shown.data_type != "str":
                        missing.append(f"{ws.title}!{c.coordinate}")
    return count, missing


def prints_whole_at_full_size(ws: openpyxl.worksheet.worksheet.Worksheet) -> bool:
    """The sheet prints one page wide, pages as tall as they come (a summary:
    one page tall), and its columns fit that width at full size with Calibri
    (so 10-pt text prints at 10 pt, and at 8 pt or more with a face a quarter
    wider; test_print.py measures the summary's shrink). A reference table
    may print n pages across with its first column repeated: the columns,
    laid page by page as a printer lays them, then fill at most n pages."""
    from xlfuncs.workbook.page import WIDTH_PX, width_px

    setup, ps = ws.sheet_properties.pageSetUpPr, ws.page_setup
    across = ps.fitToWidth or 1
    if (
        setup is None
        or not setup.fitToPage
        or ps.fitToHeight not in (0, 1)
        or (across > 1 and (ps.fitToHeight != 0 or ws.print_title_cols != "$A:$A"))
    ):
        return False
    area = str(ws.print_area).split("!")[-1].replace("$", "").split(":")
    last = re.sub(r"\d", "", area[-1])
    letters = [
        openpyxl.utils.get_column_letter(k)
        for k in range(1, openpyxl.utils.column_index_from_string(last) + 1)
    ]
    widths = [width_px([ws.column_dimensions[c].width or 8.43]) for c in letters]
    page = WIDTH_PX[ps.orientation or "portrait"]
    pages, used = 1, 0.0
    for w in widths:
        if used + w > page:  # the next page, the first column repeated on it
            pages, used = pages + 1, widths[0]
        used += w
    return pages <= across and used <= page


def with_rows(tpl, table_title: str, changes: dict[int, dict[str, object]]):
    """The template with some rows of a table block changed: ``{row index from
    0: {field: value}}`` (None clears a cell; a row past the filled ones is added)."""
    from dataclasses import replace

    from xlfuncs.templates.blocks import Table

    def block(b):
        if not isinstance(b, Table) or b.title.en != table_title:
            return b
        rows = [dict(r) for r in b.rows]
        for k, change in changes.items():
            while len(rows) <= k:
                rows.append({})
            rows[k].update(change)
        return replace(b, rows=tuple(rows))

    sheets = tuple(replace(s, blocks=tuple(map(block, s.blocks))) for s in tpl.sheets)
    return replace(tpl, sheets=sheets)


#: The budget's reservations table (issue 34), its title in English.
RESERVED = "Reserved capacity"


def with_reservations(tpl, changes: dict[int, dict[str, object]]):
    """The budget with some rows of its reservations table changed (as
    :func:`with_rows`)."""
    return with_rows(tpl, RESERVED, changes)


def reserve(
    gpu: str | None, gpus: int, start: int, term: int, **more: object
) -> dict[str, object]:
    """A reservations row: ``gpus`` of ``gpu`` from month ``start`` for ``term`` months."""
    return dict(ReservationGPU=gpu, ReservationGPUCount=gpus, ReservationStart=start,
                ReservationTerm=term, **more)  # fmt: skip


def named_values(wb: openpyxl.Workbook, name: str) -> object:
    """A workbook name's value: one cell's, or a range's as a flat list."""
    dest = wb.defined_names[name].attr_text.replace("$", "")
    title, ref = dest.rsplit("!", 1)
    ws = wb[title.strip("'")]
    if ":" not in ref:
        return ws[ref].value
    return [c.value for row in ws[ref] for c in row]


def disagreements(formulas, cached, engine, same) -> tuple[int, list]:
    """Every formula cell of ``formulas`` compared: what the builder cached
    against what ``engine`` (a recalculated copy) holds, by ``same(want, got)``;
    how many were compared, and (sheet, cell, got, want) where they differ."""
    compared, wrong = 0, []
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f":
                    continue
                want = cached[ws.title][c.coordinate].value
                got = engine[ws.title][c.coordinate].value
                if not same(want, got):
                    wrong.append((ws.title, c.coordinate, got, want))
                compared += 1
    return compared, wrong


#: Four equal fine-tunes in the first rows, the fifth row cleared: the
#: assistant first, then the twins tied, in row order (issue 34: the same name
#: showed three times).
TWIN = dict(RunKind="fine-tuning", RunModel="Llama 3.1 8B", RunMethod="LoRA", RunTokens=1e9,
            RunGPU="L40S", RunGPUs=4, RunStart=4, RunTier="on-demand", RunMFU=0.35)  # fmt: skip
CLEARED = dict.fromkeys(("RunName", *TWIN), None)
TIES = {**{k: {**TWIN, "RunName": f"Twin {'ABCD'[k]}"} for k in range(4)}, 4: CLEARED}
