"""`xlfuncs build` and `xlfuncs docs` write files that are whole, exclusively,
and never in the wrong place: tested on real files, FIFOs and symbolic links in
temporary folders."""

from __future__ import annotations

import errno
import gc
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

from xlfuncs.cli import main
from xlfuncs.docs import functions_md, write_docs
from xlfuncs.templates import CHINCHILLA, FINETUNE, LANGS, build
from xlfuncs.workbook import xlsx as xlsx_module
from xlfuncs.workbook.xlsx import write_bytes

POSIX = pytest.mark.skipif(os.name == "nt", reason="POSIX file types and signals")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ------------------------------------------------------------- exclusive writes


def test_a_file_that_appears_during_a_build_is_kept(tmp_path, monkeypatch):
    # Another build creates chinchilla-model-size-es.xlsx while this one moves
    # its set in: after every check, once the first file of the set is in.
    intruder = tmp_path / CHINCHILLA.filename("es")
    first = tmp_path / FINETUNE.filename("es")
    real_link = os.link

    def link(src, dst, **kw):
        real_link(src, dst, **kw)
        if Path(dst) == first:
            intruder.write_bytes(b"the other build's file")

    monkeypatch.setattr(xlsx_module.os, "link", link)
    with pytest.raises(FileExistsError) as caught:
        build(tmp_path, ["es"], templates=(FINETUNE, CHINCHILLA))
    assert f"{intruder} appeared while the set was being written" in str(caught.value)
    assert intruder.read_bytes() == b"the other build's file"
    # The set is taken back: the first file, written, is gone again.
    assert sorted(p.name for p in tmp_path.iterdir()) == [intruder.name]


def test_a_file_that_appears_after_the_first_look_is_kept(tmp_path, monkeypatch):
    intruder = tmp_path / CHINCHILLA.filename("es")

    def looked(paths):  # the build's own check finds nothing; then it appears
        intruder.write_bytes(b"the other build's file")
        return []

    monkeypatch.setattr("xlfuncs.templates.existing", looked)
    with pytest.raises(FileExistsError, match="already exists"):
        build(tmp_path, ["es"], templates=(FINETUNE, CHINCHILLA))
    assert intruder.read_bytes() == b"the other build's file"


def test_write_bytes_creates_exclusively_unless_forced(tmp_path):
    target = tmp_path / "a.xlsx"
    write_bytes(b"one", target)
    with pytest.raises(FileExistsError):
        write_bytes(b"two", target)
    assert target.read_bytes() == b"one"
    write_bytes(b"two", target, force=True)
    assert target.read_bytes() == b"two"
    # A dangling link is a name taken: not replaced without --force either.
    link = tmp_path / "b.xlsx"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        write_bytes(b"x", link)
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()
    assert leftovers(tmp_path) == []


@POSIX
def test_force_never_replaces_a_fifo(tmp_path):
    fifo = tmp_path / "pipe.xlsx"
    os.mkfifo(fifo)
    with pytest.raises(FileExistsError, match="not a file"):
        write_bytes(b"x", fifo, force=True)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(tmp_path) == []


def test_two_builds_at_once_cannot_both_succeed(tmp_path):
    # Both builds make their workbooks in memory, then wait for each other, so
    # that both look for existing files before either writes one, and a slow
    # fsync keeps both writing each file at once: only creating each file
    # exclusively can then stop the second.
    out = tmp_path / "out"
    code = textwrap.dedent(
        f"""
        import os, sys, time
        import xlfuncs.templates as t
        real = t.existing
        def existing(paths):
            open(os.path.join({str(tmp_path)!r}, f"ready-{{os.getpid()}}"), "w").close()
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and sum(
                n.startswith("ready-") for n in os.listdir({str(tmp_path)!r})
            ) < 2:
                time.sleep(0.01)
            return real(paths)
        t.existing = existing
        fsync = os.fsync
        def slow_fsync(fd):  # both builds are writing the same file at once
            time.sleep(0.3)
            fsync(fd)
        os.fsync = slow_fsync
        t.TEMPLATES = (t.CHINCHILLA,)  # both editions and the library: four files
        from xlfuncs.cli import main
        sys.exit(main(["build", "--out", {str(out)!r}]))
        """
    )
    # Dated apart (SOURCE_DATE_EPOCH), the two builds' files tell who wrote them.
    days = ["2026-01-01", "2026-01-02"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": epoch},
        )
        for epoch in ("1767225600", "1767312000")
    ]
    codes = [r.wait(timeout=120) for r in runs]
    errors = [r.stderr.read() for r in runs]
    for r in runs:
        r.stderr.close()
    assert sorted(codes) == [0, 2], errors
    assert "--force" in errors[codes.index(2)]
    winner = days[codes.index(0)]
    for name in (*(CHINCHILLA.filename(lang) for lang in ("en", "es")),
                 "xlfuncs-functions.xlsx"):  # fmt: skip
        with zipfile.ZipFile(out / name) as zf:  # whole, and all the winner's
            assert zf.testzip() is None
            assert "<dcterms:created" in zf.read("docProps/core.xml").decode()
            assert winner in zf.read("docProps/core.xml").decode(), name
    assert leftovers(out) == []


# ------------------------------------------------------- write errors name the file


class _FullDisk:
    """A file whose writes fail as on a full disk."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.close(self.fd)

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_names_the_file_and_leaves_the_old_one(
    tmp_path, monkeypatch, capsys, one_template
):
    assert main(["build", "--out", str(tmp_path), "--lang", "es"]) == 0
    capsys.readouterr()
    target = tmp_path / one_template.filename("es")
    before = target.read_bytes()
    monkeypatch.setattr(
        xlsx_module.os, "fdopen", lambda fd, *a, **k: _FullDisk(fd), raising=True
    )
    assert main(["build", "--out", str(tmp_path), "--lang", "es", "--force"]) == 2
    err = capsys.readouterr().err
    assert err == f"xlfuncs: error: No space left on device: {target}\n"
    assert target.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_a_failed_fsync_names_the_file(tmp_path, monkeypatch):
    def fail(fd):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(xlsx_module.os, "fsync", fail)
    with pytest.raises(OSError) as caught:
        write_bytes(b"data", tmp_path / "a.xlsx")
    assert caught.value.filename == str(tmp_path / "a.xlsx")
    assert caught.value.errno == errno.EIO
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_writing_leaves_the_old_file_and_no_temporary(
    tmp_path, monkeypatch
):
    target = tmp_path / "functions.md"
    target.write_text("old docs\n")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(xlsx_module.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_docs(tmp_path, force=True)
    assert target.read_text() == "old docs\n"
    assert leftovers(tmp_path) == []


@POSIX
def test_sigterm_while_writing_removes_the_temporary_file(tmp_path):
    # `kill PID` during `xlfuncs docs`: fsync is made slow so that the signal
    # arrives while the temporary file exists.
    (tmp_path / "functions.md").write_text("old docs\n")
    code = textwrap.dedent(
        f"""
        import os, sys, time
        real = os.fsync
        def slow(fd):
            time.sleep(30)
            real(fd)
        os.fsync = slow
        from xlfuncs.cli import main
        sys.exit(main(["docs", "--out", {str(tmp_path)!r}, "--force"]))
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not leftovers(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert leftovers(tmp_path), "the temporary file never appeared"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    assert proc.stderr.read() == b""
    proc.stderr.close()
    assert leftovers(tmp_path) == []
    assert (tmp_path / "functions.md").read_text() == "old docs\n"


# ------------------------------------------------------------------ sets


def two_sets(tmp_path):
    """A folder holding the four workbooks of FINETUNE and CHINCHILLA, and the
    bytes of each; the next build (dated a day later) differs in every file."""
    build(tmp_path, LANGS, templates=(FINETUNE, CHINCHILLA))
    return {p: p.read_bytes() for p in sorted(tmp_path.glob("*.xlsx"))}


def rebuild(tmp_path, monkeypatch, force=True):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767312000")  # 2026-01-02: new bytes
    return build(tmp_path, LANGS, templates=(FINETUNE, CHINCHILLA), force=force)


def test_a_full_disk_midway_leaves_the_whole_old_set(tmp_path, monkeypatch):
    old = two_sets(tmp_path)
    real, calls = os.fdopen, []

    def fdopen(fd, *a, **k):
        calls.append(fd)
        return _FullDisk(fd) if len(calls) == 3 else real(fd, *a, **k)

    monkeypatch.setattr(xlsx_module.os, "fdopen", fdopen)
    with pytest.raises(OSError) as caught:
        rebuild(tmp_path, monkeypatch)
    assert caught.value.errno == errno.ENOSPC
    assert Path(caught.value.filename).parent == tmp_path  # a file of the set
    assert {p: p.read_bytes() for p in old} == old
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("force", [True, False])
def test_ctrl_c_while_moving_the_set_in_puts_the_old_set_back(
    tmp_path, monkeypatch, force
):
    old = two_sets(tmp_path) if force else {}
    name = "replace" if force else "link"
    real, calls = getattr(os, name), []

    def interrupted(*a, **k):
        calls.append(a)
        # The second file: the first is in (and its old one kept aside).
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(xlsx_module.os, name, interrupted)
    with pytest.raises(KeyboardInterrupt):
        rebuild(tmp_path, monkeypatch, force=force)
    assert {p: p.read_bytes() for p in tmp_path.glob("*.xlsx")} == old
    assert leftovers(tmp_path) == []


def test_what_cannot_be_put_back_is_named(tmp_path, monkeypatch):
    intruder = tmp_path / CHINCHILLA.filename("es")
    first = tmp_path / FINETUNE.filename("es")
    real_link = os.link

    def link(src, dst, **kw):
        real_link(src, dst, **kw)
        if Path(dst) == first:
            intruder.write_bytes(b"the other build's file")

    def unlink(path, *a, **k):
        if Path(path) == first:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_unlink(path, *a, **k)

    real_unlink = os.unlink
    monkeypatch.setattr(xlsx_module.os, "link", link)
    monkeypatch.setattr(xlsx_module.os, "unlink", unlink)
    with pytest.raises(FileExistsError) as caught:
        build(tmp_path, ["es"], templates=(FINETUNE, CHINCHILLA))
    assert str(caught.value).endswith(
        f"the set is incomplete: these hold the new version: {first}"
    )


@POSIX
def test_sigterm_while_the_set_is_staged_leaves_the_old_set(tmp_path):
    old = two_sets(tmp_path)
    code = textwrap.dedent(
        f"""
        import os, sys, time
        real = os.fsync
        def slow(fd):
            time.sleep(30)
            real(fd)
        os.fsync = slow
        import xlfuncs.templates as t
        t.TEMPLATES = (t.FINETUNE, t.CHINCHILLA)
        from xlfuncs.cli import main
        sys.exit(main(["build", "--out", {str(tmp_path)!r}, "--force"]))
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "SOURCE_DATE_EPOCH": "1767312000"},
    )
    deadline = time.monotonic() + 120
    while not leftovers(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert leftovers(tmp_path), "the staging folder never appeared"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    assert proc.stderr.read() == b""
    proc.stderr.close()
    assert leftovers(tmp_path) == []
    assert {p: p.read_bytes() for p in old} == old


def test_stale_staging_folders_of_earlier_builds_are_removed(tmp_path):
    minute_ago = time.time() - 60
    gone = tmp_path / ".xlfuncs-set.999999999.0123abcd.tmp"  # no such process
    mine = tmp_path / f".xlfuncs-set.{os.getpid()}.89abcdef.tmp"  # running
    for folder in (gone, mine):
        folder.mkdir()
        (folder / "finetune-throughput.xlsx").write_bytes(b"partial")
        os.utime(folder, (minute_ago, minute_ago))
    build(tmp_path, ["en"], templates=(CHINCHILLA,))
    assert not gone.exists() and mine.is_dir()


# ------------------------------------------------------- stale temporary files


def test_stale_temporary_files_of_earlier_builds_are_removed(tmp_path):
    name = "finetune-throughput-es.xlsx"
    hour_ago = time.time() - 2 * 3600
    minute_ago = time.time() - 60

    def make(filename: str, when: float | None = None) -> Path:
        p = tmp_path / filename
        p.write_bytes(b"partial")
        if when is not None:
            os.utime(p, (when, when))
        return p

    # PID 999999999 is above any pid_max: its process is gone.
    gone = make(f".{name}.999999999.0123abcd.tmp", minute_ago)
    gone_just_now = make(f".{name}.999999999.4567abcd.tmp")  # might be another host's
    old_style = make(f".{name}.k2j9x_0a.tmp", hour_ago)  # tempfile's names, before
    running_fresh = make(f".{name}.{os.getpid()}.89abcdef.tmp", minute_ago)
    running_old = make(f".{name}.{os.getpid()}.deadbeef.tmp", hour_ago)
    not_ours = make(f".{name}.backup.tmp", hour_ago)
    other_file = make(".llm-training-planner-es.xlsx.999999999.0123abcd.tmp", hour_ago)
    link = tmp_path / f".{name}.999999999.feedface.tmp"
    link.symlink_to(not_ours)
    os.utime(link, (hour_ago, hour_ago), follow_symlinks=False)

    write_bytes(b"new", tmp_path / name)

    for removed in (gone, old_style, running_old):
        assert not removed.exists(), removed.name
    for kept in (gone_just_now, running_fresh, not_ours, other_file):
        assert kept.read_bytes() == b"partial", kept.name
    assert link.is_symlink()
    assert (tmp_path / name).read_bytes() == b"new"


# ------------------------------------------------------------------ docs


def test_docs_are_written_atomically(tmp_path, capsys):
    assert main(["docs", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"wrote {tmp_path / 'functions.md'}\n"
    assert (tmp_path / "functions.md").read_text(encoding="utf-8") == functions_md()
    assert leftovers(tmp_path) == []


def test_docs_do_not_follow_a_link_out_of_the_folder(tmp_path, capsys):
    docs = tmp_path / "docs"
    docs.mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("not ours\n")
    (docs / "functions.md").symlink_to(outside)
    assert main(["docs", "--out", str(docs)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "outside" in err and "symbolic link" in err
    assert outside.read_text() == "not ours\n"
    (docs / "functions.md").unlink()
    (docs / "functions.md").symlink_to(tmp_path / "missing.md")  # dangling
    assert main(["docs", "--out", str(docs)]) == 2
    assert not (tmp_path / "missing.md").exists()
    # templates.md, rewritten where it is there, is held to the same rule, and
    # checked before anything is written.
    (docs / "functions.md").unlink()
    (docs / "templates.md").symlink_to(outside)
    assert main(["docs", "--out", str(docs)]) == 2
    assert "templates.md is a symbolic link" in capsys.readouterr().err
    assert outside.read_text() == "not ours\n"
    assert not (docs / "functions.md").exists()


def test_docs_follow_a_link_that_stays_in_the_folder(tmp_path):
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "functions.md").write_text("old\n")
    (tmp_path / "functions.md").symlink_to(Path("generated") / "functions.md")
    assert write_docs(tmp_path, force=True) == [tmp_path / "functions.md"]
    assert (tmp_path / "functions.md").is_symlink()
    assert (tmp_path / "generated" / "functions.md").read_text(
        encoding="utf-8"
    ) == functions_md()


def test_docs_replace_a_file_only_with_force(tmp_path, capsys):
    target = tmp_path / "functions.md"
    target.write_text("my own notes\n")
    assert main(["docs", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"xlfuncs: error: {target} already exists and would change; pass --force "
        "to overwrite\n"
    )
    assert target.read_text() == "my own notes\n"
    assert main(["docs", "--out", str(tmp_path), "--force"]) == 0
    assert capsys.readouterr().out == f"wrote {target}\n"
    # Up to date: nothing to replace, so no --force needed and nothing written.
    before = target.stat().st_mtime_ns
    assert main(["docs", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"{tmp_path}: the docs are up to date\n"
    assert target.stat().st_mtime_ns == before


def test_an_odd_templates_md_is_one_line_and_nothing_is_written(tmp_path, capsys):
    templates = tmp_path / "templates.md"
    templates.write_bytes("Plantillas: año\n".encode("latin-1"))
    assert main(["docs", "--out", str(tmp_path), "--force"]) == 2
    assert capsys.readouterr().err == (
        f"xlfuncs: error: {templates} is not UTF-8 text (byte 0xf1 at offset 13); "
        "save it as UTF-8, or remove it to leave it out\n"
    )
    templates.write_text("<!-- names: nonesuch -->\n<!-- /names -->\n")
    assert main(["docs", "--out", str(tmp_path), "--force"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("xlfuncs: error: <!-- names: nonesuch --> names no template")
    assert err.count("\n") == 1
    templates.unlink()
    templates.mkdir()
    assert main(["docs", "--out", str(tmp_path), "--force"]) == 2
    assert "is not a regular file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["templates.md"]


@POSIX
def test_a_fifo_in_place_of_templates_md_is_refused_not_waited_on(tmp_path):
    os.mkfifo(tmp_path / "templates.md")
    run = subprocess.run(
        [sys.executable, "-m", "xlfuncs", "docs", "--out", str(tmp_path), "--force"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr == (
        f"xlfuncs: error: {tmp_path / 'templates.md'} is not a regular file; left "
        "as it is\n"
    )
    assert stat.S_ISFIFO(os.lstat(tmp_path / "templates.md").st_mode)
    assert not (tmp_path / "functions.md").exists()


def test_styles_stay_right_across_many_workbooks(tmp_path):
    # A style made for one workbook is never reused in another: CPython hands a
    # freed workbook's id to the next one, and indexes into the first
    # workbook's style lists would dress the second's cells wrongly (or fail).
    from openpyxl import Workbook, load_workbook

    from xlfuncs.workbook import writer as wr

    for k in range(12):
        wb = Workbook()
        w = wr.SheetWriter(wb, wb.active, (wr.Column("a", 10), wr.Column("b", 10)))
        # A different number of other styles first, so each workbook's lists
        # of fonts and fills differ.
        for style in (wr.TITLE, wr.SECTION, wr.NOTE, wr.HEADER)[: k % 5]:
            w.next()
            w.put("a", "x", style)
        w.next()
        w.put("b", 1.5, wr.KEY_RESULT)
        out = tmp_path / f"{k}.xlsx"
        wb.save(out)
        del wb, w
        gc.collect()  # a workbook holds cycles: free it now, as a long session would
        cell = load_workbook(out).active[f"B{k % 5 + 1}"]
        assert cell.font.b and cell.fill.fgColor.rgb == wr.KEY_RESULT.fill.fgColor.rgb
