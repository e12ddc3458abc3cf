"""`xlfuncs excel-setup` against real files in a temporary HOME: line endings,
encodings, duplicate settings, FIFOs, devices and symbolic links. It never
reads or writes a system path: HOME and USERPROFILE point into tmp_path."""

from __future__ import annotations

import codecs
import locale
import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from xlfuncs import excel_setup
from xlfuncs.cli import main
from xlfuncs.excel_setup import add_udf_module, portable, user_config_path

ROOT = Path(__file__).resolve().parents[1]
POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX file types")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A HOME of our own, so that the user's config is never the real one."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setattr(sys, "platform", "linux")  # ~/.xlwings, as on Windows
    return home


@pytest.fixture
def utf8_default(monkeypatch):
    """Python's default encoding UTF-8 (Linux; Windows in UTF-8 mode)."""
    monkeypatch.setattr(excel_setup, "default_encoding", lambda: "utf-8")


@pytest.fixture
def windows(monkeypatch):
    monkeypatch.setattr(excel_setup, "on_windows", lambda: True)
    monkeypatch.setattr(excel_setup, "ansi_code_page", lambda: "cp1252")


# ------------------------------------------------------------------ line endings


@pytest.mark.parametrize("newline", ["\r", "\n", "\r\n"])
def test_the_files_own_line_ending_is_kept(tmp_path, newline):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes(f'"A","1"{newline}"B","2"{newline}'.encode())
    add_udf_module(conf)
    want = f'"A","1"{newline}"B","2"{newline}"UDF Modules","xlfuncs.udfs"{newline}'
    assert conf.read_bytes() == want.encode()


def test_lines_break_only_at_cr_and_lf(tmp_path, utf8_default):
    # U+2028 and U+0085 end lines for str.splitlines: a path holding one was cut.
    conf = tmp_path / "xlwings.conf"
    text = '"PYTHONPATH","C:\\a\u2028b;C:\\c\u0085d"\n"UDF Modules","mine"\n'
    conf.write_bytes(text.encode("utf-8"))
    add_udf_module(conf)
    assert conf.read_bytes() == text.replace("mine", "mine;xlfuncs.udfs").encode()


def test_mixed_endings_stay_each_where_it_was(tmp_path):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes(b'"A","1"\r\n"B","2"\r"UDF Modules","m"\n"C","3"')
    add_udf_module(conf)
    # The last line had no ending: the added text starts with the file's first.
    assert (
        conf.read_bytes()
        == b'"A","1"\r\n"B","2"\r"UDF Modules","m;xlfuncs.udfs"\n"C","3"'
    )
    conf.write_bytes(b'"A","1"\r\n"C","3"')
    add_udf_module(conf)
    assert (
        conf.read_bytes() == b'"A","1"\r\n"C","3"\r\n"UDF Modules","xlfuncs.udfs"\r\n'
    )


# ------------------------------------------------------------------ encodings


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_a_utf16_config_stays_utf16_and_is_flagged(tmp_path, codec, capsys):
    bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
    conf = tmp_path / "xlwings.conf"
    original = '"INTERPRETER_WIN","C:\\Users\\José\\python.exe"\r\n'
    conf.write_bytes(bom + original.encode(codec))
    assert main(["excel-setup", "--config", str(conf)]) == 2
    data = conf.read_bytes()
    assert data.startswith(bom)
    # One encoding throughout: no 8-bit line appended to the UTF-16 text.
    assert (
        data[len(bom) :].decode(codec) == original + '"UDF Modules","xlfuncs.udfs"\r\n'
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"xlwings cannot read {conf}" in err
    assert "UTF-16" in err and "Encoding: ANSI" in err


def test_utf8_with_a_byte_order_mark_keeps_it(tmp_path, utf8_default):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes(codecs.BOM_UTF8 + '"A","José"\n'.encode())
    add_udf_module(conf)
    assert conf.read_bytes() == (
        codecs.BOM_UTF8 + '"A","José"\n"UDF Modules","xlfuncs.udfs"\n'.encode()
    )


def test_utf8_without_a_mark_stays_utf8(tmp_path, utf8_default, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes('"A","José"\n'.encode())
    assert main(["excel-setup", "--config", str(conf)]) == 0
    assert conf.read_bytes() == '"A","José"\n"UDF Modules","xlfuncs.udfs"\n'.encode()
    assert capsys.readouterr().err == ""


def test_a_cp1252_config_is_kept_and_flagged_where_python_reads_utf8(
    tmp_path, utf8_default, capsys
):
    conf = tmp_path / "xlwings.conf"
    original = '"A","ok"\r\n"INTERPRETER_WIN","C:\\Users\\José\\python.exe"\r\n'
    conf.write_bytes(original.encode("cp1252"))
    assert main(["excel-setup", "--config", str(conf)]) == 2
    assert conf.read_bytes() == (original + '"UDF Modules","xlfuncs.udfs"\r\n').encode(
        "cp1252"
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    # The one line says what was written as well as what is wrong.
    assert err.startswith(
        f"xlfuncs: error: {conf} was updated (added xlfuncs.udfs to UDF Modules), "
        f"but xlwings will fail to read {conf}: it is cp1252 text"
    )
    assert "'é' on line 2" in err and "%USERPROFILE%" in err
    # Run again, nothing to change: the problem alone.
    assert main(["excel-setup", "--config", str(conf)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"xlfuncs: error: xlwings will fail to read {conf}")


def test_a_cp1252_config_is_fine_where_python_reads_cp1252(tmp_path, monkeypatch):
    monkeypatch.setattr(locale, "getpreferredencoding", lambda *a: "cp1252")
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes('"A","José"\r\n'.encode("cp1252"))
    assert main(["excel-setup", "--config", str(conf)]) == 0
    assert conf.read_bytes() == '"A","José"\r\n"UDF Modules","xlfuncs.udfs"\r\n'.encode(
        "cp1252"
    )


def test_xlwings_itself_fails_on_the_file_we_flag(home, tmp_path):
    # The claim behind the message, checked against xlwings: its import reads
    # the config in the default encoding (UTF-8 here) and stops on cp1252.
    config = home / ".xlwings" / "xlwings.conf"
    config.parent.mkdir()
    config.write_bytes(
        '"INTERPRETER_WIN","C:\\Users\\José\\python.exe"\r\n'.encode("cp1252")
    )
    env = {**os.environ, "HOME": str(home), "PYTHONUTF8": "1"}
    code = "import xlwings"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode != 0 and "UnicodeDecodeError" in out.stderr
    # Written in ASCII, as the message advises, it imports.
    config.write_bytes(b'"INTERPRETER_WIN","%USERPROFILE%\\python.exe"\r\n')
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr


def test_a_file_neither_utf8_nor_ansi_is_refused(tmp_path, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes(b'"A","\x81"\n')  # 0x81: invalid UTF-8, unassigned in cp1252
    assert main(["excel-setup", "--config", str(conf)]) == 2
    assert "neither UTF-8 nor cp1252" in capsys.readouterr().err
    assert conf.read_bytes() == b'"A","\x81"\n'


def test_nul_bytes_are_refused(tmp_path, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes('"UDF Modules","m"\n'.encode("utf-16-le"))  # no mark
    assert main(["excel-setup", "--config", str(conf)]) == 2
    assert "NUL characters" in capsys.readouterr().err


# ------------------------------------------------------------------ settings


def test_duplicate_udf_modules_lines_merge_into_the_last(tmp_path, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"UDF Modules","a; b"\n"X","1"\n"udf modules","c;a"\n"Y","2"\n')
    assert main(["excel-setup", "--config", str(conf)]) == 0
    assert conf.read_text() == '"X","1"\n"udf modules","a;b;c;xlfuncs.udfs"\n"Y","2"\n'
    out = capsys.readouterr().out
    assert "merged the 2 UDF Modules lines into one" in out
    assert main(["excel-setup", "--config", str(conf)]) == 0
    assert "Nothing to change" in capsys.readouterr().out


def test_an_empty_interpreter_is_said_off_windows(tmp_path, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"INTERPRETER_WIN",""\n"UDF Modules","xlfuncs.udfs"\n')
    assert main(["excel-setup", "--config", str(conf)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"INTERPRETER_WIN is empty in {conf}" in out
    assert "first pythonw on its PATH" in out


def test_an_empty_interpreter_is_filled_on_windows(tmp_path, windows, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"INTERPRETER_WIN",""\n"UDF Modules","xlfuncs.udfs"\n')
    assert main(["excel-setup", "--config", str(conf)]) == 0
    assert conf.read_text() == (
        f'"INTERPRETER_WIN","{sys.executable}"\n"UDF Modules","xlfuncs.udfs"\n'
    )
    assert "INTERPRETER_WIN was empty" in capsys.readouterr().out


def test_a_path_beyond_ascii_in_the_profile_is_written_portably(monkeypatch):
    monkeypatch.setenv("USERPROFILE", "C:\\Users\\José")
    python = "C:\\Users\\José\\xlfuncs\\.venv\\Scripts\\python.exe"
    assert portable(python) == "%USERPROFILE%\\xlfuncs\\.venv\\Scripts\\python.exe"
    assert portable("C:\\Python312\\python.exe") == "C:\\Python312\\python.exe"
    assert portable("D:\\Programación\\python.exe") == "D:\\Programación\\python.exe"


# ------------------------------------------------------------------ paths


def test_the_config_is_found_without_importing_xlwings(home):
    code = (
        "import sys; from xlfuncs.excel_setup import user_config_path; "
        "print(user_config_path()); print('xlwings' in sys.modules)"
    )
    env = {**os.environ, "HOME": str(home), "USERPROFILE": str(home)}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.stdout.splitlines() == [str(home / ".xlwings" / "xlwings.conf"), "False"]
    where = subprocess.run(
        [sys.executable, "-c", "import xlwings; print(xlwings.USER_CONFIG_FILE)"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert where.stdout.strip() == out.stdout.splitlines()[0]  # where xlwings looks


def test_an_empty_config_name_is_refused(home, capsys, windows):
    real = home / ".xlwings" / "xlwings.conf"
    real.parent.mkdir()
    real.write_text('"UDF Modules","mine"\n')
    assert main(["excel-setup", "--config", ""]) == 2
    assert "--config needs a file name" in capsys.readouterr().err
    assert real.read_text() == '"UDF Modules","mine"\n'


def test_a_folder_is_refused(tmp_path, capsys):
    assert main(["excel-setup", "--config", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"xlfuncs: error: {tmp_path} is a folder, not an xlwings.conf file\n"
    )


@POSIX
def test_a_fifo_is_refused_without_waiting_for_it(tmp_path):
    fifo = tmp_path / "xlwings.conf"
    os.mkfifo(fifo)
    link = tmp_path / "link.conf"
    link.symlink_to(fifo)
    for given in (fifo, link):
        out = subprocess.run(
            [sys.executable, "-m", "xlfuncs", "excel-setup", "--config", str(given)],
            capture_output=True,
            text=True,
            timeout=60,  # opening the FIFO to read would wait here for ever
        )
        assert out.returncode == 2
        assert out.stderr == (
            f"xlfuncs: error: {fifo} is a named pipe (FIFO), not an xlwings.conf file\n"
        )
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@POSIX
def test_a_device_is_refused_and_stays_a_device(tmp_path, capsys):
    # A device node of our own (the null device's numbers) in tmp_path, never
    # /dev/null itself: a bug here must not be able to replace a system file.
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pytest.skip("cannot make a device node here")
    link = tmp_path / "xlwings.conf"
    link.symlink_to(device)
    for given in (device, link):
        assert main(["excel-setup", "--config", str(given)]) == 2
        assert f"{device} is a device" in capsys.readouterr().err
        assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert link.is_symlink()


def test_symbolic_link_loops_and_dangling_links_are_refused(tmp_path, capsys):
    a, b = tmp_path / "a.conf", tmp_path / "b.conf"
    a.symlink_to(b)
    b.symlink_to(a)
    assert main(["excel-setup", "--config", str(a)]) == 2
    assert capsys.readouterr().err == (
        f"xlfuncs: error: {a} is a loop of symbolic links\n"
    )
    assert a.is_symlink() and b.is_symlink()
    dangling = tmp_path / "xlwings.conf"
    dangling.symlink_to(tmp_path / "elsewhere" / "xlwings.conf")
    assert main(["excel-setup", "--config", str(dangling)]) == 2
    assert "which does not exist" in capsys.readouterr().err
    assert dangling.is_symlink() and not (tmp_path / "elsewhere").exists()


def test_a_chain_of_links_leads_to_the_file_and_stays(tmp_path):
    real = tmp_path / "dotfiles" / "xlwings.conf"
    real.parent.mkdir()
    real.write_text('"UDF Modules","m"\n')
    middle = tmp_path / "middle.conf"
    middle.symlink_to(real)
    first = tmp_path / "xlwings.conf"
    first.symlink_to(middle)
    add_udf_module(first)
    assert first.is_symlink() and middle.is_symlink()
    assert real.read_text() == '"UDF Modules","m;xlfuncs.udfs"\n'


def test_a_huge_file_is_refused(tmp_path, capsys):
    conf = tmp_path / "xlwings.conf"
    conf.write_bytes(b"x" * (excel_setup.MAX_BYTES + 1))
    assert main(["excel-setup", "--config", str(conf)]) == 2
    assert "too large for an xlwings.conf" in capsys.readouterr().err


# ------------------------------------------------------------------ writing


def test_fsync_comes_before_the_rename(tmp_path, monkeypatch):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"A","1"\n')
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(
        os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))
    )
    monkeypatch.setattr(
        os, "replace", lambda a, b: (events.append("rename"), real_replace(a, b))
    )
    add_udf_module(conf)
    assert events[:2] == ["fsync", "rename"]


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError])
def test_a_failed_write_leaves_the_file_and_no_temporary(
    tmp_path, monkeypatch, failure
):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"A","1"\n')

    def fail(fd):
        raise failure(28, "No space left on device") if failure is OSError else failure

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(failure) as caught:
        add_udf_module(conf)
    if failure is OSError:
        assert caught.value.filename == str(conf)  # the user's file, not ours
    assert conf.read_text() == '"A","1"\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "xlwings.conf"]


def test_temporary_files_of_a_killed_run_are_removed(tmp_path):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"UDF Modules","mymod"\n')
    minute_ago = time.time() - 60
    # PID 999999999 is above any pid_max: that run is gone; this one runs.
    gone = tmp_path / ".xlwings.conf.999999999.0123abcd.tmp"
    mine = tmp_path / f".xlwings.conf.{os.getpid()}.89abcdef.tmp"
    other = tmp_path / ".other.conf.999999999.0123abcd.tmp"
    for leftover in (gone, mine, other):
        leftover.write_text("partial")
        os.utime(leftover, (minute_ago, minute_ago))
    add_udf_module(conf)
    assert not gone.exists() and mine.exists() and other.exists()
    assert conf.read_text() == '"UDF Modules","mymod;xlfuncs.udfs"\n'


def test_the_file_mode_is_kept_and_a_new_file_gets_the_usual_one(tmp_path):
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"A","1"\n')
    os.chmod(conf, 0o640)
    add_udf_module(conf)
    assert stat.S_IMODE(conf.stat().st_mode) == 0o640
    new = tmp_path / "new" / "xlwings.conf"
    add_udf_module(new)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~mask


# ------------------------------------------------------------------ per system


def test_off_windows_it_says_what_it_is_for_and_changes_nothing(home, capsys):
    assert main(["excel-setup"]) == 0
    out = capsys.readouterr().out
    said = " ".join(out.split())
    assert "desktop Excel for Windows" in said and "nothing was changed" in said
    assert "xlfuncs build --out DIR" in out and "xlfuncs calc" in out
    # No Windows step, and no `xlwings addin install`, which fails here.
    assert "addin install" not in out and "Trust Center" not in out
    assert not re.search(r"^\s*\d\. ", out, re.M)
    assert list(home.iterdir()) == []  # no ~/.xlwings made
    for system in ("linux", "darwin"):  # 80 columns, as the Windows steps
        with pytest.MonkeyPatch.context() as m:
            m.setattr(sys, "platform", system)
            text = excel_setup.elsewhere_text("nothing was changed")
        assert max(map(len, text.splitlines())) <= 80, system
        assert ("Excel for Mac" in text) == (system == "darwin")
        # The LAMBDA library never reads as if LibreOffice ran it.
        said = " ".join(text.split())
        library = said[said.index("LAMBDA library (xlfuncs-functions.xlsx)") :]
        library = library.split(". ")[0]
        assert "Excel for Microsoft 365 or 2024" in library, system
        assert "LibreOffice" not in library or "no LAMBDA" in library, system


def test_off_windows_a_given_config_is_edited_for_a_windows_machine(tmp_path, capsys):
    conf = tmp_path / "xlwings.conf"
    assert main(["excel-setup", "--config", str(conf)]) == 0
    out = capsys.readouterr().out
    assert f"only {conf} was edited" in " ".join(out.split())
    assert "addin install" not in out
    assert conf.read_text() == '"UDF Modules","xlfuncs.udfs"' + os.linesep


def test_on_windows_the_default_config_is_edited(home, windows, utf8_default, capsys):
    assert main(["excel-setup"]) == 0
    config = home / ".xlwings" / "xlwings.conf"
    assert config == user_config_path()
    assert '"UDF Modules","xlfuncs.udfs"' in config.read_text()
    out = capsys.readouterr().out
    assert f"Updated {config}:" in out and "addin install" in out


def test_the_steps_are_numbered_alike_everywhere(windows, capsys, tmp_path):
    # README's Windows steps, docs/excel.md's and the ones excel-setup prints
    # (5 to 8) say the same thing under the same number.
    key = {
        1: "Python 3.10",
        2: "pip install .",
        3: "addin install",
        4: "excel-setup",
        5: "Trust access to the VBA project object model",
        6: "quickstart",
        7: "UDF Modules",
        8: "Import Functions",
    }

    def steps(text: str) -> dict[int, str]:
        found = re.findall(r"^ *(\d)\. (.*?)(?=^ *\d\. |\Z)", text, re.M | re.S)
        return {int(n): " ".join(body.split()) for n, body in found}

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    readme = readme.split("## The functions through Python (Windows)")[1].split(
        "\n## "
    )[0]
    excel = (ROOT / "docs" / "excel.md").read_text(encoding="utf-8")
    excel = excel.split("### Set-up on Windows (desktop Excel)")[1]
    excel = re.split(r"\n#+ ", excel)[0]  # up to the next heading
    assert main(["excel-setup", "--config", str(tmp_path / "x.conf")]) == 0
    printed = capsys.readouterr().out.split("Remaining steps")[1]
    for where, text, numbers in (
        ("README", readme, range(1, 9)),
        ("docs/excel.md", excel, range(1, 9)),
        ("excel-setup", printed, range(5, 9)),
    ):
        found = steps(text)
        assert sorted(found) == list(numbers), where
        for n in numbers:
            assert key[n] in found[n], f"{where}, step {n}: {found[n]}"
    for other in ("Python 3.10", "pip install", "addin install", "excel-setup"):
        for n in range(5, 9):  # steps 1 to 4 stay where they are
            assert other not in steps(readme)[n], (other, n)


def test_a_program_path_with_a_space_for_quickstart():
    both = excel_setup.command_lines(
        "C:\\Users\\Ana Ruiz\\xlwings", "quickstart planning"
    )
    assert '& "C:\\Users\\Ana Ruiz\\xlwings" quickstart planning' in both


def test_the_quickstart_sheet_is_left_or_deleted_never_renamed(capsys, tmp_path):
    # xlwings' docs ("Config Hierarchy"): a sheet named xlwings.conf overrides the
    # user config excel-setup writes; the quickstart's _xlwings.conf is inactive.
    excel = " ".join((ROOT / "docs" / "excel.md").read_text(encoding="utf-8").split())
    assert "Leave it as it is, or delete it; never rename it to `xlwings.conf`" in excel
    with pytest.MonkeyPatch.context() as m:
        m.setattr(excel_setup, "on_windows", lambda: True)
        assert main(["excel-setup", "--config", str(tmp_path / "x.conf")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "Leave its sheet _xlwings.conf as it is, or delete it" in printed
    assert "rename it" not in printed
