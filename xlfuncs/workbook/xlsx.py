"""Deterministic, atomic .xlsx writing with cached formula values.

openpyxl writes every formula cell without a value, so viewers that do not
calculate (previewers, pandas, ``openpyxl`` with ``data_only=True``) show an
empty cell.  :func:`save_workbook` saves through openpyxl, then edits the
sheet XML so chosen formula cells carry a cached value, pins the timestamps
and zip metadata so equal content gives equal bytes, and replaces the target
file atomically.

The sheet XML is edited as text, not re-serialised with ElementTree:
ElementTree renames namespace prefixes (``ns0:``, ``ns1:``) and drops
declarations that only attribute *values* refer to, e.g. ``mc:Ignorable="x14ac"``,
which would make Excel reject the file.  openpyxl's output is regular enough
for a careful regex over the ``<c>`` elements inside ``<sheetData>``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import math
import numbers
import os
import pathlib
import posixpath
import re
import secrets
import shutil
import stat
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape

import openpyxl
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.workbook.properties import CalcProperties

from .leftovers import remove_stale

__all__ = [
    "existing",
    "save_text",
    "save_workbook",
    "workbook_bytes",
    "writable_folder",
    "write_bytes",
    "write_set",
]

#: Timestamp written to docProps/core.xml when the workbook names none.
FIXED_TIMESTAMP = "2024-01-01T00:00:00Z"
#: Earliest date a zip header can hold; any constant would do.
_ZIP_DATE_TIME = (1980, 1, 1, 0, 0, 0)
#: Regular file, rw-r--r--, in the Unix high 16 bits of external_attr.
_ZIP_EXTERNAL_ATTR = 0o100644 << 16

_NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_NS_DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_WORKSHEET_REL = _NS_DOC_REL + "/worksheet"

# An optional namespace prefix, so that files written by other producers
# (``<x:c>``) are handled as well as openpyxl's default-namespace output.
_P = r"(?:[A-Za-z_][\w.-]*:)?"
_SHEET_DATA_RE = re.compile(
    rf"<{_P}sheetData\b[^>]*?(?:/>|>(?P<body>.*?)</{_P}sheetData>)", re.S
)
# ``\s`` or the end of the tag must follow the name, so ``<col>``/``<cfRule>``
# never match; attribute values never hold a raw ``>`` (serialisers escape it).
_CELL_RE = re.compile(
    rf"<(?P<tag>{_P}c)(?P<attrs>\s[^>]*?)?\s*(?:/>|>(?P<body>.*?)</(?P=tag)>)",
    re.S,
)
_FORMULA_RE = re.compile(rf"<{_P}f\b[^>]*?(?:/>|>.*?</{_P}f>)", re.S)
_VALUE_RE = re.compile(rf"<{_P}v\b[^>]*?(?:/>|>.*?</{_P}v>)", re.S)
# An inline string with no text: <is></is>, <is><t/></is> or <is><t></t></is>.
_EMPTY_TEXT_RE = re.compile(
    rf"\s*<{_P}is\b[^>]*?(?:/>|>\s*(?:<{_P}t\b[^>]*?(?:/>|>\s*</{_P}t>)\s*)?</{_P}is>)\s*"
)
_ATTR_RE = re.compile(r"""([\w:.-]+)\s*=\s*("[^"]*"|'[^']*')""")
_TYPE_ATTR_RE = re.compile(r"""\st\s*=\s*("[^"]*"|'[^']*')""")
_CORE_DATE_RE = re.compile(
    rf"(<(?P<p>{_P})(?P<n>created|modified)\b[^>]*>)[^<]*(</(?P=p)(?P=n)>)"
)
_COORD_RE = re.compile(r"[A-Z]{1,3}[1-9][0-9]*")
Cached = float | str | bool


def save_workbook(
    wb: openpyxl.Workbook,
    path: str | os.PathLike[str],
    cached: Mapping[tuple[str, str], Cached],
    *,
    force: bool = False,
    dynamic: Mapping[str, Iterable[str]] | None = None,
) -> pathlib.Path:
    """Save `wb` to `path` with cached values, deterministically and atomically.

    Parameters
    ----------
    wb
        The workbook.  Its ``calcPr`` is written with ``fullCalcOnLoad="1"`` so
        that Excel recalculates on open; the cached values are only for
        viewers that do not calculate.
    path
        Target file.  Its parent directory is created if missing.
    cached
        ``{(sheet title, "C5"): value}`` for formula cells.  Numbers are
        stored as numbers, ``str`` as formula strings (``t="str"``), ``bool``
        as booleans.  Formula cells not listed keep no value.
    force
        Overwrite an existing `path`.
    dynamic
        ``{sheet title: cells}`` whose formulas are dynamic arrays (see
        :func:`workbook_bytes`).

    Returns
    -------
    pathlib.Path
        `path` as a Path.

    Raises
    ------
    FileExistsError
        If `path` exists and `force` is false (checked before any work).
    ValueError
        If a key names a sheet or cell that does not exist, a cell that is
        not a formula cell, or a value that cannot be cached.
    """
    path = pathlib.Path(path)
    _check_overwrite(path, force)
    return write_bytes(workbook_bytes(wb, cached, dynamic), path, force=force)


def workbook_bytes(
    wb: openpyxl.Workbook,
    cached: Mapping[tuple[str, str], Cached],
    dynamic: Mapping[str, Iterable[str]] | None = None,
) -> bytes:
    """The bytes :func:`save_workbook` writes for `wb` and `cached` (same errors).

    ``dynamic``: {sheet title: cells} whose formulas are dynamic arrays, as
    Excel 365 writes them (``cm="1"`` and ``xl/metadata.xml``); a plain formula
    is a legacy one, shown with an implicit-intersection ``@`` where it calls a
    function that could return an array (a LAMBDA name).
    """
    wanted = _normalise_cached(wb, cached)

    parts = _workbook_parts(wb)
    parts["xl/styles.xml"] = _order_fonts(parts["xl/styles.xml"])
    created = wb.properties.created
    stamp = created.strftime("%Y-%m-%dT%H:%M:%SZ") if created else FIXED_TIMESTAMP
    parts["docProps/core.xml"] = _pin_core_dates(parts["docProps/core.xml"], stamp)
    sheet_parts = _sheet_parts(parts)
    for name in set(sheet_parts.values()):
        parts[name] = _empty_cells_blank(parts[name])
    for title, cells in wanted.items():
        if title not in sheet_parts:
            raise ValueError(f"{title!r} is not a worksheet; cannot cache values")
        name = sheet_parts[title]
        parts[name] = _set_cached_values(parts[name], cells, title)
    if dynamic and any(dynamic.values()):
        for title, coords in dynamic.items():
            name = sheet_parts[title]
            parts[name] = _make_dynamic(parts[name], set(coords), title)
        _add_metadata(parts)

    return _zip_bytes(parts)


def save_text(
    text: str, path: str | os.PathLike[str], *, force: bool = False
) -> pathlib.Path:
    """Write `text` as UTF-8 with ``\\n`` line ends, atomically, as save_workbook does.

    Raises FileExistsError if `path` exists and `force` is false.
    """
    path = pathlib.Path(path)
    return write_bytes(text.encode("utf-8"), path, force=force)


def write_bytes(
    data: bytes, path: str | os.PathLike[str], *, force: bool = False
) -> pathlib.Path:
    """Write `data` to `path` atomically.

    Without `force` the file is created exclusively: FileExistsError if `path`
    exists, as :func:`existing` says, or appears while `data` is written (another
    build), and that file is left as it is. With `force` an existing file is
    replaced. An OSError names `path`, never the temporary file.
    """
    path = pathlib.Path(path)
    _check_overwrite(path, force)
    _atomic_write(path, data, replace=force)
    return path


def write_set(
    files: Mapping[pathlib.Path, bytes], *, force: bool = False
) -> list[pathlib.Path]:
    """Write ``files``, all in one folder, as a set: afterwards the folder holds
    every new file or, if anything fails, the files it held before.

    Every file is first written whole (and fsync'd) in a staging folder beside
    them, ``.xlfuncs-set.PID.RANDOM.tmp``, so that a full disk or a failed
    write stops the set before any file is touched. Then each file is moved
    in: renamed over its target (``force``; the old file kept in the staging
    folder until the set is in) or linked to a target that must not exist,
    which fails if another build made it meanwhile. A failure while moving,
    Ctrl+C and SIGTERM included, puts back what was moved: the old files, or
    no file where there was none. Only what cannot be put back is named, in
    the error. A kill that cannot be caught (SIGKILL, power) between the first
    move and the last, a few microseconds, can leave some new files beside
    old ones. Staging folders of earlier runs whose process is gone (or older
    than an hour) are removed first.
    """
    paths = [pathlib.Path(p) for p in files]
    folders = {p.parent for p in paths}
    if len(folders) != 1:
        raise ValueError("write_set writes into one folder")
    folder = folders.pop()
    for path in paths:
        _check_overwrite(path, force)
        if force:
            _refuse_special(path)
    _make_folder(folder)
    remove_stale(
        folder, re.compile(r"\.xlfuncs-set\.(\d+)\.[0-9a-f]{8}\.tmp"), folders=True
    )
    stage = folder / f".xlfuncs-set.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        stage.mkdir()
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(folder)) from None
    try:
        for path, data in zip(paths, files.values()):
            try:
                _write_new(stage / path.name, data)
            except OSError as err:  # the file being written, not the staged one
                raise OSError(err.errno, err.strerror, str(path)) from None
        _fsync_folder(stage)
        _move_in(paths, stage, force)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    _fsync_folder(folder)
    return paths


def _move_in(paths: list[pathlib.Path], stage: pathlib.Path, force: bool) -> None:
    """Move each staged file onto its path, or put every moved one back."""
    moved: list[tuple[pathlib.Path, pathlib.Path | None]] = []  # (path, its old)
    try:
        for path in paths:
            staged = stage / path.name
            if force:
                kept = stage / f"{path.name}.old"
                old: pathlib.Path | None = kept
                try:
                    os.link(path, kept, follow_symlinks=False)
                except FileNotFoundError:
                    old = None
                except OSError as err:  # no hard links here: the old file moves
                    if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.ENOSYS):
                        raise
                    os.replace(path, kept)
                os.replace(staged, path)
                moved.append((path, old))
                continue
            try:
                try:
                    os.link(staged, path)  # fails if `path` exists, even dangling
                except OSError as err:
                    if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.ENOSYS):
                        raise
                    _write_new(path, staged.read_bytes())
            except FileExistsError:
                raise FileExistsError(
                    f"{path} appeared while the set was being written (another "
                    "build?) and was left as it is; pass --force to overwrite it"
                ) from None
            moved.append((path, None))
    except BaseException as err:
        lost = _put_back(moved)
        if lost and isinstance(err, OSError):
            raise type(err)(f"{err}; {lost}") from None
        if lost:  # Ctrl+C, SIGTERM: the exception stays, the loss is said
            with contextlib.suppress(OSError, ValueError):
                os.write(2, f"xlfuncs: error: {lost}\n".encode())
        raise
    else:
        return


def _put_back(moved: list[tuple[pathlib.Path, pathlib.Path | None]]) -> str:
    """Undo the moves of :func:`_move_in`, last first; what could not be undone."""
    new_left: list[str] = []
    for path, old in reversed(moved):
        try:
            if old is None:
                os.unlink(path)
            else:
                os.replace(old, path)
        except OSError:
            new_left.append(str(path))
    if not new_left:
        return ""
    return "the set is incomplete: these hold the new version: " + ", ".join(
        reversed(new_left)
    )


def _refuse_special(path: pathlib.Path) -> None:
    """--force replaces a file or a link, never a device or a FIFO (as root,
    rename() would put a file in /dev/null's place)."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(path).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            raise FileExistsError(f"{path} is not a file; left as it is")


def _make_folder(parent: pathlib.Path) -> None:
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file where the folder should be
        raise NotADirectoryError(
            errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(parent)
        ) from None


def _fsync_folder(folder: pathlib.Path) -> None:
    """Persist the names in ``folder``; not possible on every platform."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def existing(paths: Iterable[str | os.PathLike[str]]) -> list[pathlib.Path]:
    """The `paths` a write without ``force`` refuses: files, and symbolic links
    even when dangling (a dangling link does not "exist", but would be replaced)."""
    return [p for p in map(pathlib.Path, paths) if p.exists() or p.is_symlink()]


def writable_folder(folder: str | os.PathLike[str]) -> None:
    """Raise the OSError a write into `folder` would meet, without writing:
    its nearest existing ancestor must be a folder this process may write in
    (a missing folder is made when the first file is written)."""
    path = pathlib.Path(folder).absolute()
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(probe))
    if not os.access(probe, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


# --- helpers ---------------------------------------------------------------


def _check_overwrite(path: pathlib.Path, force: bool) -> None:
    if not force and existing([path]):
        raise FileExistsError(f"{path} already exists; pass --force to overwrite it")


def _normalise_cached(
    wb: openpyxl.Workbook, cached: Mapping[tuple[str, str], Cached]
) -> dict[str, dict[str, tuple[str | None, str]]]:
    """Validate keys and values; return ``{title: {coord: (t, text)}}``."""
    out: dict[str, dict[str, tuple[str | None, str]]] = {}
    for key, value in cached.items():
        title, coord = key
        if title not in wb.sheetnames:
            raise ValueError(f"no sheet {title!r} for cached value at {key!r}")
        norm = coord.replace("$", "").upper()
        if not _COORD_RE.fullmatch(norm):
            raise ValueError(f"bad cell coordinate {coord!r} in {key!r}")
        if norm in out.get(title, {}):
            raise ValueError(f"cell {title}!{norm} given twice in cached")
        out.setdefault(title, {})[norm] = _encode_value(value, key)
    return out


def _encode_value(value: Cached, key: tuple[str, str]) -> tuple[str | None, str]:
    """Return (cell type attribute or None, escaped ``<v>`` text)."""
    # bool before numbers: bool is an int subclass.
    if isinstance(value, bool):
        return "b", "1" if value else "0"
    if isinstance(value, str):
        if ILLEGAL_CHARACTERS_RE.search(value):
            raise ValueError(f"cached text for {key!r} has characters XML forbids")
        return "str", escape(value)
    if isinstance(value, numbers.Integral):
        return None, str(int(value))
    if isinstance(value, numbers.Real):
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(f"cached value for {key!r} is {number}; xlsx needs finite")
        return None, repr(number)
    raise ValueError(f"cached value for {key!r} must be a number, str or bool")


def _workbook_parts(wb: openpyxl.Workbook) -> dict[str, bytes]:
    """Save `wb` with openpyxl into memory and return its zip entries."""
    calc = wb.calculation
    old = None if calc is None else calc.fullCalcOnLoad
    # Ask Excel to recalculate on open: the cached values are only a preview.
    wb.calculation = calc if calc is not None else CalcProperties()
    wb.calculation.fullCalcOnLoad = True
    buf = io.BytesIO()
    try:
        wb.save(buf)
    finally:
        # Leave the caller's workbook as it was.
        if calc is None:
            wb.calculation = None
        else:
            calc.fullCalcOnLoad = old
    with zipfile.ZipFile(buf) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


# The order Excel writes a font's children in; openpyxl writes <name> first.
# ECMA-376 allows any order, but validators ported from Microsoft's SDK (and the
# SDK itself) expect this one, so the files are written the way Excel writes them.
_FONT_ORDER = (
    "b", "i", "strike", "condense", "extend", "outline", "shadow", "u",
    "vertAlign", "sz", "color", "name", "family", "charset", "scheme",
)  # fmt: skip
_FONT_RE = re.compile(r"<font>(.*?)</font>", re.S)
_CHILD_RE = re.compile(r"<(\w+)\b[^>]*?/>", re.S)


def _order_fonts(xml: bytes) -> bytes:
    def order(m: re.Match[str]) -> str:
        children = [c.group(0) for c in _CHILD_RE.finditer(m.group(1))]
        if "".join(children) != re.sub(r">\s+<", "><", m.group(1)).strip():
            return m.group(0)  # children with content: leave as written
        rank = {tag: k for k, tag in enumerate(_FONT_ORDER)}
        children.sort(key=lambda c: rank.get(_CHILD_RE.match(c).group(1), 99))  # type: ignore[union-attr]
        return "<font>" + "".join(children) + "</font>"

    text = xml.decode("utf-8")
    out = _FONT_RE.sub(order, text)
    ET.fromstring(out)  # still well-formed
    return out.encode("utf-8")


def _pin_core_dates(xml: bytes, stamp: str) -> bytes:
    # openpyxl stamps `modified` with the current time on every save
    # (openpyxl/writer/excel.py) and `created` when the workbook is made.
    text = xml.decode("utf-8")
    text = _CORE_DATE_RE.sub(lambda m: m.group(1) + stamp + m.group(4), text)
    return text.encode("utf-8")


def _sheet_parts(parts: Mapping[str, bytes]) -> dict[str, str]:
    """Map each worksheet title to its zip entry, via workbook.xml and its rels."""
    workbook = ET.fromstring(parts["xl/workbook.xml"])
    rels = ET.fromstring(parts["xl/_rels/workbook.xml.rels"])
    targets = {}
    for rel in rels.iter(f"{{{_NS_PKG_REL}}}Relationship"):
        if rel.get("Type") != _WORKSHEET_REL or rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        # Targets are relative to xl/ unless absolute within the package.
        if target.startswith("/"):
            name = target.lstrip("/")
        else:
            name = posixpath.normpath(posixpath.join("xl", target))
        targets[rel.get("Id")] = name
    result = {}
    for sheet in workbook.iter(f"{{{_NS_MAIN}}}sheet"):
        rid = sheet.get(f"{{{_NS_DOC_REL}}}id")
        if rid in targets and targets[rid] in parts:
            result[sheet.get("name", "")] = targets[rid]
    return result


def _iter_cells(xml: str) -> Iterable[tuple[re.Match[str], str]]:
    """Yield (match, coordinate) for each ``<c>`` inside ``<sheetData>``."""
    data = _SHEET_DATA_RE.search(xml)
    if data is None or data.group("body") is None:
        return
    start, end = data.span("body")
    for cell in _CELL_RE.finditer(xml, start, end):
        found = _ATTR_RE.findall(cell.group("attrs") or "")
        attrs = {key: quoted[1:-1] for key, quoted in found}
        yield cell, attrs.get("r", "")


def _edit_cells(xml: str, edits: Mapping[tuple[int, int], str]) -> str:
    """Replace character spans of `xml` (non-overlapping) with new text."""
    pieces, pos = [], 0
    for (start, end), new in sorted(edits.items()):
        pieces += [xml[pos:start], new]
        pos = end
    pieces.append(xml[pos:])
    return "".join(pieces)


def _empty_cells_blank(xml_bytes: bytes) -> bytes:
    """Each cell with no content written as Excel writes a blank styled cell,
    ``<c r="D10" s="23"/>``. openpyxl writes one as ``t="n"`` with no value, or
    an empty text as ``t="inlineStr"`` with none; IronCalc reads the first as
    0, so a blank input's ISBLANK test failed there, and an inline string with
    no text is no value at all (ECMA-376 Part 1, 18.3.1.4: ``t`` describes the
    value)."""
    xml = xml_bytes.decode("utf-8")
    edits: dict[tuple[int, int], str] = {}
    for cell, _coord in _iter_cells(xml):
        body = cell.group("body")
        attrs = cell.group("attrs") or ""
        if body is not None and body.strip() and not _EMPTY_TEXT_RE.fullmatch(body):
            continue
        if body is None and not _TYPE_ATTR_RE.search(attrs):
            continue  # already <c r="…" s="…"/>
        edits[cell.span()] = f"<{cell.group('tag')}{_TYPE_ATTR_RE.sub('', attrs)}/>"
    if not edits:
        return xml_bytes
    return _edit_cells(xml, edits).encode("utf-8")


def _set_cached_values(
    xml_bytes: bytes, cells: Mapping[str, tuple[str | None, str]], title: str
) -> bytes:
    xml = xml_bytes.decode("utf-8")
    edits: dict[tuple[int, int], str] = {}
    found: set[str] = set()
    for cell, coord in _iter_cells(xml):
        if coord not in cells:
            continue
        body = cell.group("body") or ""
        formula = _FORMULA_RE.search(body)
        if formula is None:
            raise ValueError(f"{title}!{coord} is not a formula cell; cannot cache")
        found.add(coord)
        kind, text = cells[coord]
        tag = cell.group("tag")
        prefix = tag[:-1]  # same namespace prefix as the <c> element
        attrs = _TYPE_ATTR_RE.sub("", cell.group("attrs") or "")
        if kind is not None:
            attrs += f' t="{kind}"'
        # CT_Cell order is f, v, is, extLst: the value goes right after <f>.
        body = _VALUE_RE.sub("", body)
        formula = _FORMULA_RE.search(body)
        assert formula is not None  # removing <v> cannot remove <f>
        body = (
            body[: formula.end()]
            + f"<{prefix}v>{text}</{prefix}v>"
            + body[formula.end() :]
        )
        edits[cell.span()] = f"<{tag}{attrs}>{body}</{tag}>"
    missing = sorted(set(cells) - found)
    if missing:
        raise ValueError(f"no cell {', '.join(missing)} on sheet {title!r}")
    out = _edit_cells(xml, edits)
    ET.fromstring(out)  # the edit must leave well-formed XML; raises if not
    return out.encode("utf-8")


# The cell metadata of a dynamic-array formula (ECMA-376 Part 1 §18.9, with
# Microsoft's extension [MS-XLSX] 2.6.35 XLDAPR), as Excel 365 writes it.
_METADATA = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<metadata xmlns="{_NS_MAIN}" '
    'xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">'
    '<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" '
    'copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" '
    'clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/>'
    '</metadataTypes><futureMetadata name="XLDAPR" count="1"><bk><extLst>'
    '<ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">'
    '<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk>'
    '</futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk>'
    "</cellMetadata></metadata>"
)
_METADATA_TYPE = (
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"
)
_METADATA_REL = _NS_DOC_REL + "/sheetMetadata"


def _make_dynamic(xml_bytes: bytes, coords: set[str], title: str) -> bytes:
    """Mark the formula cells ``coords`` as dynamic arrays (one cell each)."""
    xml = xml_bytes.decode("utf-8")
    edits: dict[tuple[int, int], str] = {}
    for cell, coord in _iter_cells(xml):
        if coord not in coords:
            continue
        body = cell.group("body") or ""
        formula = _FORMULA_RE.search(body)
        if formula is None:
            raise ValueError(f"{title}!{coord} is not a formula cell")
        f = formula.group(0)
        tag = f[: f.index(">") + 1]
        if tag.endswith("/>"):
            raise ValueError(f"{title}!{coord} has an empty formula")
        opened = tag[:-1] + f' t="array" ref="{coord}">'
        body = body[: formula.start()] + opened + f[len(tag) :] + body[formula.end() :]
        attrs = (cell.group("attrs") or "") + ' cm="1"'
        edits[cell.span()] = f"<{cell.group('tag')}{attrs}>{body}</{cell.group('tag')}>"
    missing = coords - {c for _, c in _iter_cells(xml)}
    if missing:
        raise ValueError(f"no cell {', '.join(sorted(missing))} on sheet {title!r}")
    out = _edit_cells(xml, edits)
    ET.fromstring(out)
    return out.encode("utf-8")


def _add_metadata(parts: dict[str, bytes]) -> None:
    """xl/metadata.xml, its content type and the workbook's relationship to it."""
    parts["xl/metadata.xml"] = _METADATA.encode("utf-8")
    types = parts["[Content_Types].xml"].decode("utf-8")
    override = f'<Override PartName="/xl/metadata.xml" ContentType="{_METADATA_TYPE}"/>'
    parts["[Content_Types].xml"] = types.replace(
        "</Types>", override + "</Types>"
    ).encode()
    rels = parts["xl/_rels/workbook.xml.rels"].decode("utf-8")
    ids = {int(n) for n in re.findall(r'Id="rId(\d+)"', rels)}
    rel = (
        f'<Relationship Id="rId{max(ids, default=0) + 1}" Type="{_METADATA_REL}" '
        'Target="metadata.xml"/>'
    )
    parts["xl/_rels/workbook.xml.rels"] = rels.replace(
        "</Relationships>", rel + "</Relationships>"
    ).encode("utf-8")
    for xml in (parts["[Content_Types].xml"], parts["xl/_rels/workbook.xml.rels"]):
        ET.fromstring(xml)


def _zip_bytes(parts: Mapping[str, bytes]) -> bytes:
    """Zip `parts` with fixed order and metadata, so equal parts give equal bytes."""

    # [Content_Types].xml and the package rels first, as Office writes them;
    # the rest sorted (openpyxl's own order depends on set iteration for VBA).
    def order(name: str) -> tuple[int, str]:
        first = {"[Content_Types].xml": 0, "_rels/.rels": 1}
        return first.get(name, 2), name

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(parts, key=order):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix; the default differs on Windows
            info.external_attr = _ZIP_EXTERNAL_ATTR
            zf.writestr(info, parts[name], compresslevel=6)
    return buf.getvalue()


def _atomic_write(path: pathlib.Path, data: bytes, *, replace: bool = True) -> None:
    """Write `data` to `path` via a temporary file in the same folder.

    The temporary file, ``.NAME.PID.RANDOM.tmp``, is written and fsync'd, then
    renamed over `path` (`replace`) or linked to it, which fails if `path` exists
    (not `replace`): a file that appeared meanwhile is never replaced, and of two
    builds writing the same file one fails. Any failure, Ctrl+C and SIGTERM
    included, removes the temporary file and leaves `path` as it was. Temporary
    files that earlier runs left (killed, or off when the power went) are removed
    first: those whose process is gone, or older than an hour; a running build's
    own are neither.
    """
    parent = path.parent
    _make_folder(parent)
    # Ours only: this version's .NAME.PID.HEX.tmp, and the 8 random characters
    # tempfile gave earlier versions.
    remove_stale(
        parent,
        re.compile(
            rf"\.{re.escape(path.name)}\.(?:(\d+)\.[0-9a-f]{{8}}|[a-z0-9_]{{8}})\.tmp"
        ),
    )
    tmp = parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    created = False
    try:
        # 0o666 less the umask, as any new file; O_BINARY: no CRLF on Windows.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o666)
        created = True
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            _refuse_special(path)
            os.replace(tmp, path)
            created = False
        else:
            try:
                try:
                    os.link(tmp, path)  # fails if `path` exists, even dangling
                except OSError as err:  # no hard links (FAT, some network shares)
                    if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.ENOSYS):
                        raise
                    _write_new(path, data)
            except FileExistsError:
                raise FileExistsError(
                    f"{path} appeared while it was being written (another build?) "
                    "and was left as it is; pass --force to overwrite it"
                ) from None
    except FileExistsError:
        raise
    except OSError as err:  # name the file being written, not the temporary one
        raise OSError(err.errno, err.strerror, str(path)) from None
    finally:
        # Any failure (even Ctrl-C) leaves no temp file and the old file intact;
        # after a link the temporary name goes too.
        if created:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _fsync_folder(parent)  # the rename itself


def _write_new(path: pathlib.Path, data: bytes) -> None:
    """Create `path`, which must not exist, and write `data` into it: the way to
    create exclusively where a file system has no hard links. A failure removes
    the part written."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
