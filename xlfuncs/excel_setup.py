"""``xlfuncs excel-setup``: xlwings' user config made ready for the xlfuncs functions.

The config is a few lines of ``"KEY","value"``. Two readers see it: xlwings' Excel
add-in (VBA, which reads 8-bit text in Windows' ANSI code page and takes the
*first* line of a key) and xlwings' Python (which reads it in Python's default
encoding on ``import xlwings`` and takes the *last*). The file is edited so that
it stays what it was: its encoding and byte-order mark, each line's own ending
(CR, LF or CRLF; nothing else ends a line), its permissions, and a symbolic link
stays a link. Nothing but a regular file, or a path where none exists yet, is
read or replaced, and the new text reaches the file by an fsync'd rename, so an
interrupted run leaves the old file whole.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import locale
import os
import re
import secrets
import stat
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .workbook.leftovers import remove_stale

MODULE = "xlfuncs.udfs"
#: An xlwings.conf is a few lines; a larger file is not one (a wrong --config).
MAX_BYTES = 1 << 20


class SetupError(Exception):
    """A one-line reason excel-setup cannot go on, naming the file."""


def on_windows() -> bool:
    """Whether this is the one system where xlwings runs Python functions in Excel."""
    return os.name == "nt"


def user_config_path() -> Path:
    """Where xlwings keeps its user settings (``xlwings.USER_CONFIG_FILE``).

    Worked out as xlwings does, without importing it: ``import xlwings`` reads this
    very file, and fails on one it cannot decode.
    """
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        mac = Path(home, "Library", "Containers", "com.microsoft.Excel", "Data")
        return mac / "xlwings.conf"
    return Path(home, ".xlwings", "xlwings.conf")


# ------------------------------------------------------------------ reading


def ansi_code_page() -> str:
    """The code page Excel's VBA reads a text file in: Windows' ANSI code page
    (cp1252 in Western Europe and the Americas); cp1252 on other systems."""
    if on_windows():
        # locale.getencoding (3.11) is the ANSI code page even in UTF-8 mode.
        getencoding: Callable[[], str] | None = getattr(locale, "getencoding", None)
        return getencoding() if getencoding else locale.getpreferredencoding(False)
    return "cp1252"


def default_encoding() -> str:
    """The encoding xlwings' Python reads its config in: ``open()``'s default."""
    return locale.getpreferredencoding(False)


_BOMS = (  # UTF-32 first: its little-endian mark starts with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NEWLINE = re.compile(r"(\r\n|\r|\n)")


@dataclass
class Config:
    """An xlwings.conf as lines, each with its own ending, and how to write it."""

    path: Path  # the regular file read and replaced (a symbolic link's target)
    lines: list[str] = field(default_factory=list)  # without their endings
    ends: list[str] = field(default_factory=list)  # "\r\n", "\n", "\r" or ""
    encoding: str = ""  # the codec the text is written back with
    bom: bytes = b""  # the byte-order mark the file starts with
    mode: int | None = None  # permission bits; None: a new file
    newline: str = os.linesep  # the ending for lines this run adds

    def text(self) -> str:
        return "".join(line + end for line, end in zip(self.lines, self.ends))

    def data(self) -> bytes:
        return self.bom + self.text().encode(self.encoding)


def locate(config: Path) -> Path:
    """The file to edit for ``config``: itself, or the regular file a symbolic link
    leads to; a path where nothing is yet stays as it is (to be created).

    Anything else is refused before it is opened: a folder, a FIFO (reading one
    waits for a writer), a device (replacing /dev/null with a file breaks the
    system), a socket, a dangling link or a loop of links.
    """
    try:
        st = os.lstat(config)
    except FileNotFoundError:
        return config
    if stat.S_ISLNK(st.st_mode):
        try:
            target = Path(os.path.realpath(config, strict=True))
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise SetupError(f"{config} is a loop of symbolic links") from None
            gone = isinstance(err, FileNotFoundError)
            raise SetupError(
                f"{config} is a symbolic link to {os.readlink(config)}, which "
                f"{'does not exist' if gone else 'cannot be read'}: create that "
                "file or remove the link"
            ) from None
        st = os.stat(target)
        config = target
    if not stat.S_ISREG(st.st_mode):
        raise SetupError(f"{config} is {_kind(st.st_mode)}, not an xlwings.conf file")
    return config


def _kind(mode: int) -> str:
    for test, what in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return what
    return "not a regular file"


def read(config: Path) -> Config:
    """The config at ``config`` (see :func:`locate`), or an empty one to create."""
    path = locate(config)
    # O_NONBLOCK: a FIFO put in the file's place since locate() does not block the
    # open; O_NOFOLLOW: nor is a symbolic link put there followed. fstat decides.
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return Config(path, encoding=ansi_code_page())
    except OSError as err:
        if err.errno == errno.ELOOP:  # O_NOFOLLOW met a link swapped in
            raise SetupError(f"{path} changed while being read; run again") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SetupError(f"{path} is {_kind(st.st_mode)}, not an xlwings.conf file")
        if st.st_size > MAX_BYTES:
            raise SetupError(
                f"{path} is {st.st_size:,} bytes, too large for an xlwings.conf: "
                "is it the right file?"
            )
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_BYTES + 1)
    finally:
        os.close(fd)
    return parse(path, data, stat.S_IMODE(st.st_mode))


def parse(path: Path, data: bytes, mode: int | None = None) -> Config:
    """``data`` as a Config: encoding detected, lines split at CR, LF and CRLF."""
    bom, encoding = b"", ""
    for mark, codec in _BOMS:
        if data.startswith(mark):
            bom, encoding = mark, codec
            break
    if encoding.startswith("utf-32"):
        raise SetupError(f"{path} is UTF-32 text, which xlwings cannot read")
    if not encoding:
        ansi = ansi_code_page()
        try:
            data.decode("ascii")
            encoding = ansi  # plain ASCII: new text as xlwings' add-in writes it
        except UnicodeDecodeError:
            encoding = "utf-8"
    try:
        text = data[len(bom) :].decode(encoding)
    except UnicodeDecodeError:
        if bom or encoding != "utf-8":
            raise SetupError(f"{path} is not valid {encoding} text") from None
        encoding = ansi_code_page()  # not UTF-8: the ANSI code page, as VBA writes
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            raise SetupError(
                f"{path} is neither UTF-8 nor {encoding} text; save it as plain "
                "text (ANSI) and run again"
            ) from None
    if "\x00" in text:  # UTF-16 without its mark, or not text at all
        raise SetupError(f"{path} holds NUL characters: it is not a text file")
    parts = _NEWLINE.split(text)
    lines, ends = parts[0::2], [*parts[1::2], ""]
    if lines[-1] == "":  # the text ends with a line ending, or is empty
        lines.pop()
        ends.pop()
    newline = ends[0] if ends and ends[0] else os.linesep
    return Config(path, lines, ends, encoding, bom, mode, newline)


# ------------------------------------------------------------------ editing


def _key(line: str) -> str:
    return line.partition(",")[0].strip().strip("\ufeff").strip().strip('"').lower()


def _value(line: str) -> str:
    return line.partition(",")[2].strip().strip('"')


def _append(conf: Config, line: str) -> None:
    if conf.lines and not conf.ends[-1]:  # the last line had no ending
        conf.ends[-1] = conf.newline
    conf.lines.append(line)
    conf.ends.append(conf.newline)


def edit(
    conf: Config, module: str = MODULE, interpreter: str | None = None
) -> list[str]:
    """Add ``module`` to "UDF Modules" in ``conf``, keeping the rest; with
    ``interpreter``, set "INTERPRETER_WIN" where it is missing or empty.

    Several "UDF Modules" lines become one, in the last one's place, holding
    every module they named: the add-in reads the first such line and xlwings'
    Python the last, so only one line makes them agree. Module names lose the
    spaces around ``;`` (xlwings would try to import " xlfuncs.udfs"). Returns
    what changed, one sentence each (empty: nothing to do).
    """
    changes: list[str] = []
    keys = [_key(line) for line in conf.lines]
    found = [i for i, k in enumerate(keys) if k == "udf modules"]
    modules: list[str] = []
    spaced = False
    for i in found:
        for part in _value(conf.lines[i]).split(";"):
            spaced |= part != part.strip()
            if part.strip() and part.strip() not in modules:
                modules.append(part.strip())
    if len(found) > 1:
        changes.append(
            f"merged the {len(found)} UDF Modules lines into one, in the last one's "
            "place (xlwings' add-in reads the first, its Python the last)"
        )
    if spaced:
        changes.append("removed the spaces around ';' in UDF Modules")
    if module not in modules:
        modules.append(module)
        changes.append(f"added {module} to UDF Modules")
    if changes:
        if found:
            last = found[-1]
            head = conf.lines[last].partition(",")[0]  # the key as it was written
            conf.lines[last] = f'{head},"{";".join(modules)}"'
            for i in reversed(found[:-1]):
                del conf.lines[i], conf.ends[i]
        else:
            _append(conf, f'"UDF Modules","{module}"')
    if interpreter:
        keys = [_key(line) for line in conf.lines]
        where = [i for i, k in enumerate(keys) if k == "interpreter_win"]
        if not where:
            conf.lines.insert(0, f'"INTERPRETER_WIN","{interpreter}"')
            conf.ends.insert(0, conf.newline)
            changes.append(f"set INTERPRETER_WIN to {interpreter}")
        elif not _value(conf.lines[where[0]]):
            head = conf.lines[where[0]].partition(",")[0]
            conf.lines[where[0]] = f'{head},"{interpreter}"'
            changes.append(
                f"INTERPRETER_WIN was empty (Excel would have started the first "
                f"pythonw on its PATH): set it to {interpreter}"
            )
    return changes


def setting(conf: Config, key: str) -> str | None:
    """The value the add-in reads for ``key`` (its first line), or None."""
    for line in conf.lines:
        if _key(line) == key.lower():
            return _value(line)
    return None


def interpreter_note(conf: Config, interpreter: str | None) -> str | None:
    """A warning about the Python Excel will start, or None.

    excel-setup never replaces a user's INTERPRETER_WIN, but Excel will start
    that Python, which may not have xlfuncs ("No module named 'xlfuncs'"); an
    empty one (where excel-setup did not fill it, off Windows) means the first
    pythonw on Excel's PATH.
    """
    current = setting(conf, "interpreter_win")
    if current == "" and not interpreter:
        return (
            f"Note: INTERPRETER_WIN is empty in {conf.path}: Excel will start the "
            "first pythonw on its PATH, which may not have xlfuncs; set Interpreter "
            "on the xlwings ribbon tab to the Python that has it."
        )
    if not current or not interpreter or _same_path(current, interpreter):
        return None
    return (
        f"Note: Interpreter is already set to {current}, not to this "
        f"Python ({interpreter}); it was left as it is. Excel will "
        "start that Python, so it must have xlfuncs installed; "
        "otherwise change Interpreter on the xlwings ribbon tab."
    )


def _same_path(a: str, b: str) -> bool:
    import ntpath  # Windows' rules: %VAR%, case, either slash

    def norm(p: str) -> str:
        return ntpath.normcase(ntpath.normpath(ntpath.expandvars(p)))

    return norm(a) == norm(b)


def portable(path: str) -> str:
    """``path`` as the config should hold it: a path in the user's folder with
    letters beyond ASCII (C:\\Users\\José\\…) starts with %USERPROFILE%, which the
    add-in expands, so that both readers see the same text whatever the encoding.
    """
    profile = os.environ.get("USERPROFILE", "")
    if path.isascii() or not profile:
        return path
    if path.lower().startswith(profile.lower().rstrip("\\") + "\\"):
        return "%USERPROFILE%" + path[len(profile.rstrip("\\")) :]
    return path


def unreadable(conf: Config) -> str | None:
    """Why xlwings itself would fail to read ``conf`` as written, or None.

    ``import xlwings`` decodes the file in Python's default encoding (UTF-8 on
    Linux and macOS, and on Windows in UTF-8 mode, the default from Python 3.15):
    a cp1252 file with an accented letter stops it. A UTF-16 file (Notepad's
    "Unicode") shows neither reader a single setting.
    """
    if conf.encoding.startswith("utf-16"):
        return (
            f"xlwings cannot read {conf.path}: it is UTF-16 text (Notepad's "
            "'Unicode'), and xlwings reads 8-bit text. Open it in Notepad, File > "
            "Save As, Encoding: ANSI, Save; then run excel-setup again"
        )
    default = default_encoding()
    data = conf.data()
    try:
        data.decode(default)
        return None
    except UnicodeDecodeError as err:
        # The line of the first byte it cannot decode, and that line's first
        # letter beyond ASCII (the byte may be the second of a UTF-8 letter).
        before = data[len(conf.bom) : max(err.start, len(conf.bom))]
        number = len(re.findall(rb"\r\n|\r|\n", before)) + 1
        line = conf.lines[min(number, len(conf.lines)) - 1] if conf.lines else ""
        bad = next((c for c in line if not c.isascii()), "?")
        return (
            f"xlwings will fail to read {conf.path}: it is {conf.encoding} text, and "
            f"this Python reads it as {codecs.lookup(default).name} (its default "
            f"encoding), which cannot decode {bad!r} on line {number} "
            f"({err.reason}). Write that line in plain ASCII, e.g. a path in your "
            "user folder starting %USERPROFILE% (xlwings expands it)"
        )


# ------------------------------------------------------------------ writing


def write(conf: Config) -> None:
    """Replace ``conf.path`` with ``conf``'s text: a new file beside it, written
    and fsync'd, then renamed over it; on any failure, Ctrl+C included, the new
    file is removed and the old one left as it was. Errors name ``conf.path``."""
    try:
        data = conf.data()
    except UnicodeEncodeError as err:
        bad = err.object[err.start : err.end]
        msg = f"{conf.path} is {conf.encoding}-encoded and cannot hold {bad!r}"
        raise SetupError(msg) from None
    path = conf.path
    tmp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # What a killed run of this command left (SIGKILL, a power cut).
        remove_stale(
            path.parent,
            re.compile(rf"\.{re.escape(path.name)}\.(\d+)\.[0-9a-f]{{8}}\.tmp"),
        )
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        # A new file gets 0o666 less the umask, as any new file; an edited one
        # keeps its own mode, which the umask must not cut: hence the chmod.
        fd = os.open(tmp, flags, 0o666 if conf.mode is None else 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if conf.mode is None:
            _create(tmp, path)
        else:
            os.chmod(tmp, conf.mode)
            if not _still_a_file(path):  # something else put in its place
                raise SetupError(f"{path} changed while being edited; run again")
            os.replace(tmp, path)
        tmp = None
    except OSError as err:  # name the user's file, not our temporary one
        raise OSError(err.errno, err.strerror, str(path)) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                tmp.unlink()
    _sync_folder(path.parent)


def _still_a_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _create(tmp: Path, path: Path) -> None:
    """Give the written ``tmp`` the name ``path``, which must not exist yet: a
    file that appeared there since it was read is never replaced."""
    try:
        os.link(tmp, path)  # fails if ``path`` exists, even as a dangling link
    except FileExistsError:
        raise SetupError(f"{path} appeared while being written; run again") from None
    except OSError:  # a file system without hard links (FAT, some shares)
        os.replace(tmp, path)
        return
    with contextlib.suppress(OSError):  # written: a leftover name is no failure
        tmp.unlink()


def _sync_folder(folder: Path) -> None:
    """Persist the rename itself (not possible on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def add_udf_module(
    config: Path, module: str = MODULE, interpreter: str | None = None
) -> list[str]:
    """Read ``config``, add ``module`` (see :func:`edit`) and write it back if
    anything changed. Returns the changes."""
    conf = read(config)
    changes = edit(conf, module, interpreter)
    if changes:
        write(conf)
    return changes


# ------------------------------------------------------------------ the command

WINDOWS_STEPS = """\
Remaining steps, in desktop Excel for Windows (steps 5 to 8 of the set-up).
  Once, if not done yet (step 3), install the xlwings add-in:
{addin}
  5. In Excel: File > Options > Trust Center > Trust Center Settings >
     Macro Settings: tick "Trust access to the VBA project object model"
     (Import Functions writes VBA into the workbook and needs it).
  6. Make a workbook for the functions. In this terminal, run
{quickstart}
     It makes the folder {folder} with planning.xlsm in it:
     macro-enabled, and already linked to the xlwings add-in (the link that
     Tools > References > xlwings makes in the VBA editor; without it every
     cell shows "Object required"). Restart Excel, open planning.xlsm and
     click Enable Content if a yellow bar says macros are disabled. Leave its
     sheet _xlwings.conf as it is, or delete it: renamed xlwings.conf, it
     would override these settings for this workbook.
  7. On the xlwings ribbon tab check that UDF Modules reads xlfuncs.udfs and
     that Interpreter is a Python that has xlfuncs, such as this one:
     {python}
  8. Click Import Functions. =FT_EXAMPLES_PER_SEC(8, 2500, 82%, 900) shows 18.22
     (in an Excel whose decimal mark is a comma, separate with ;).
  The functions are in Insert Function (fx) under the category "xlfuncs".
Mac, Excel on the web, or no Python: the workbook xlfuncs-functions.xlsx, in the
workbooks folder of the xlfuncs download, holds the same functions as plain Excel
LAMBDA formulas (Excel for Microsoft 365 or 2024)."""

ELSEWHERE = """\
excel-setup prepares xlwings for the xlfuncs functions in desktop Excel for
Windows, the only Excel in which xlwings runs Python functions; run it there.
This is {system}: {changed}. What works here:
  - The functions on the command line:
      xlfuncs calc FT_EXAMPLES_PER_SEC 8 2,500 82% 900
  - The template workbooks and the LAMBDA library, plain .xlsx files:
      xlfuncs build --out DIR
{where}
  - xlwings Lite, a free add-in running Python in Excel {lite}:
    see "xlwings Lite" in docs/excel.md of the xlfuncs download."""

_WHERE = {
    "macOS": (
        "    The templates work in Excel for Mac and LibreOffice Calc; the LAMBDA\n"
        "    library (xlfuncs-functions.xlsx) in Excel for Microsoft 365 or 2024."
    ),
    "other": (
        "    The templates work in LibreOffice Calc and in Excel on the web. The\n"
        "    LAMBDA library (xlfuncs-functions.xlsx) needs Excel for Microsoft 365\n"
        "    or 2024 (on the web too); LibreOffice has no LAMBDA."
    ),
}


def elsewhere_text(changed: str) -> str:
    """What excel-setup is for, and what works on this system instead."""
    if sys.platform == "darwin":
        system, where, lite = "macOS", _WHERE["macOS"], "for Mac and on the web"
    else:
        system = "Linux" if sys.platform.startswith("linux") else "not Windows"
        where, lite = _WHERE["other"], "on the web"
    return ELSEWHERE.format(system=system, changed=changed, where=where, lite=lite)


def command_lines(program: str, args: str) -> str:
    """``program args`` as a Windows terminal reads it, indented for the steps.

    A path with a space is quoted, and PowerShell runs a quoted path only after
    its call operator ``&``, which Command Prompt does not know: then both forms.
    """
    if " " not in program:
        return f"       {program} {args}"
    return f'       "{program}" {args}\n       (in PowerShell: & "{program}" {args})'


def run(config_arg: str | None, say: Callable[[str], None]) -> None:
    """The command: edit the config, say what changed and the steps that can
    work here; a SetupError if xlwings will not be able to read the file."""
    if config_arg is not None and not config_arg.strip():
        raise SetupError("--config needs a file name, not an empty one")
    windows = on_windows()
    if not windows and config_arg is None:
        # The user config here serves no Excel that runs Python functions.
        say(elsewhere_text("nothing was changed"))
        return
    config = Path(config_arg) if config_arg is not None else user_config_path()
    interpreter = portable(sys.executable) if windows else None
    conf = read(config)
    changes = edit(conf, MODULE, interpreter)
    if changes:
        write(conf)
        say(f"Updated {config}:")
        for change in changes:
            say(f"  - {change}")
    else:
        say(f"Nothing to change in {config}: UDF Modules includes {MODULE}")
    # A problem found after the edit: the error says what was changed too.
    done = f"{config} was updated ({'; '.join(changes)}), but " if changes else ""
    note = interpreter_note(conf, interpreter)
    if note:
        # 80 columns, as the steps; a path is never broken, not even at a hyphen.
        say(textwrap.fill(note, 80, break_long_words=False, break_on_hyphens=False))
    if windows:
        # The xlwings script beside this Python: no activated environment needed.
        xlwings = str(Path(sys.executable).parent / "xlwings")
        say(
            WINDOWS_STEPS.format(
                addin=command_lines(xlwings, "addin install"),
                quickstart=command_lines(xlwings, "quickstart planning"),
                folder=Path.cwd() / "planning",
                python=sys.executable,
            )
        )
    else:
        say(elsewhere_text(f"only {config} was edited, for a Windows machine"))
    problem = unreadable(conf)
    if problem:
        raise SetupError(done + problem)
