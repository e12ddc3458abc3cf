"""The command line's process plumbing: streams any terminal can show, output
that cannot be written noticed, and SIGTERM/SIGHUP unwound as Ctrl+C is."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO


def safe_streams() -> None:
    """Text any terminal can show: characters its encoding lacks become '?'."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure: Callable[..., None] | None = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed stream
                reconfigure(errors="replace")


def stdout_closed() -> bool:
    """True if nothing can be written: fd 1 closed at start (sys.stdout is None),
    or sys.stdout closed in this process."""
    return sys.stdout is None or bool(getattr(sys.stdout, "closed", False))


def say(message: str, kind: str = "error") -> None:
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(f"xlfuncs: {kind}: {message}", file=sys.stderr)


class Watched:
    """stdout, remembering its first failed write: argparse ignores a failure
    to print --help or --version, and unbuffered (PYTHONUNBUFFERED) there is
    nothing left to fail at the final flush."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.error: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as err:
            self.error = self.error or err
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as err:
            self.error = self.error or err
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def output_error() -> OSError | None:
    return sys.stdout.error if isinstance(sys.stdout, Watched) else None


class Terminated(BaseException):
    """SIGTERM or SIGHUP (`kill`, a closed terminal): unwinds as Ctrl+C does, so
    that a write in progress removes its temporary file."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def signals_as_exceptions() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers (main() called from a thread)
        return
    names = ("SIGTERM", "SIGHUP")
    signums = [getattr(signal, n) for n in names if hasattr(signal, n)]

    def handler(signum: int, _: object) -> None:
        raise Terminated(signum)

    previous = {n: signal.signal(n, handler) for n in signums}
    try:
        yield
    finally:
        for n, h in previous.items():
            signal.signal(n, h)


def quiet_stdout() -> None:
    """Point stdout at devnull so that the flush at exit does not fail again."""
    if sys.stdout is None:
        return
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
