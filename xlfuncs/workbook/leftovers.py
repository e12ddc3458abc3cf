"""What killed runs leave behind: temporary files and staging folders.

A write goes through a temporary name (``.NAME.PID.RANDOM.tmp``) or a staging
folder, removed on any failure that Python sees, Ctrl+C and SIGTERM included. A
run killed outright (SIGKILL, a power cut) leaves them; the next run removes
those of a process that is gone, or older than an hour. No openpyxl here:
``xlfuncs excel-setup`` tidies up with the same rule.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import time


def remove_stale(
    parent: pathlib.Path, name: re.Pattern[str], *, folders: bool = False
) -> None:
    """Remove what earlier runs left under ``name`` (group 1: their PID): files
    (``folders``: staging folders) whose process is gone, or older than an
    hour; a running build's own are neither. Tidying up is never a reason to
    fail."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            m = name.fullmatch(entry.name)
            if not m or entry.is_symlink() or entry.is_dir() != folders:
                continue
            age = time.time() - entry.stat(follow_symlinks=False).st_mtime
            gone = m[1] is not None and age > 10 and not running(int(m[1]))
            if not (gone or age > 3600):
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def running(pid: int) -> bool:
    """Whether process `pid` runs here; on Windows, where os.kill(pid, 0) would
    end it, always True (the age rule alone applies there)."""
    if os.name == "nt":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it runs
        return True
    return True


__all__ = ["remove_stale", "running"]
