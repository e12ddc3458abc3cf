"""The ``xlfuncs`` command line: list, calculate, check examples, set up Excel.

Every subcommand reads the function registry, so what it prints is what Excel and
the docs show. Bad input exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import FUNCTIONS
from .spec import PERCENTILE, Formula, InputError


class CliError(Exception):
    """A one-line message for the user; exit status 2."""


def _lookup(name: str) -> Formula:
    spec = FUNCTIONS.get(name.strip().upper())
    if spec is None:
        raise CliError(f"unknown function {name!r}; `xlfuncs list` shows them all")
    return spec


def _parse_value(spec: Formula, i: int, text: str) -> Any:
    """A command-line word as the argument's value: a number, a list or a name."""
    arg = spec.args[i]
    if arg.kind == "choice":
        return text
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    # "82%" is 0.82 as in a spreadsheet cell, except for a percentile (90% is 90).
    scale = 1.0 if arg.domain is PERCENTILE else 0.01
    try:
        numbers = [
            float(p[:-1].replace("_", "")) * scale
            if p.endswith("%")
            else float(p.replace("_", ""))
            for p in parts
        ]
    except ValueError:
        raise CliError(f"{arg.name} must be a number, not {text!r}") from None
    if arg.kind == "sample":
        return numbers
    if len(numbers) != 1:
        raise CliError(f"{arg.name} takes one number, not {text!r}")
    return numbers[0]


def format_number(x: Any) -> str:
    """Full precision, as Python prints a float, without a trailing ``.0``."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    if isinstance(x, float):
        return repr(x)
    try:  # a numpy array from a range of percentiles
        return ", ".join(format_number(float(v)) for v in x)
    except TypeError:
        return str(x)


def calc(spec: Formula, words: Sequence[str]) -> Any:
    err = spec.arity_error(len(words))
    if err:
        raise err
    values = [_parse_value(spec, i, w) for i, w in enumerate(words)]
    return spec.api(*values)


def cmd_list(_: argparse.Namespace) -> None:
    width = max(len(s.signature_text()) for s in FUNCTIONS.values())
    for spec in FUNCTIONS.values():
        print(f"{spec.signature_text():<{width}}  [{spec.unit}]  {spec.description}")


def cmd_calc(ns: argparse.Namespace) -> None:
    spec = _lookup(ns.name)
    print(format_number(calc(spec, ns.args)))


def cmd_examples(_: argparse.Namespace) -> None:
    rows = []
    for spec in FUNCTIONS.values():
        inputs = ", ".join(_show_input(v) for v in spec.example.args)
        result = spec.api(*spec.example.args)
        rows.append((f"{spec.name}({inputs})", format_number(result), spec.unit))
    w = [max(len(r[i]) for r in rows) for i in range(2)]
    for call, result, unit in rows:
        print(f"{call:<{w[0]}}  = {result:>{w[1]}}  {unit}")


def _show_input(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "{" + ", ".join(_show_input(x) for x in v) + "}"
    return format_number(float(v)) if isinstance(v, (int, float)) else repr(v)


def user_config_path() -> Path:
    """Where xlwings reads its user settings (``xlwings.USER_CONFIG_FILE``)."""
    import xlwings

    return Path(xlwings.USER_CONFIG_FILE)


def add_udf_module(
    config: Path, module: str = "xlfuncs.udfs", interpreter: str | None = None
) -> bool:
    """Add ``module`` to "UDF Modules" in an xlwings.conf, keeping the rest.

    With ``interpreter``, also set "INTERPRETER_WIN" unless one is set already, so
    that Excel starts the Python that has xlfuncs. Returns True if the file
    changed. The file is rewritten atomically.
    """
    lines = config.read_text(encoding="utf-8").splitlines() if config.exists() else []
    out, found, changed = [], False, False
    keys = {line.partition(",")[0].strip().strip('"').lower() for line in lines}
    if interpreter and "interpreter_win" not in keys:
        out.append(f'"INTERPRETER_WIN","{interpreter}"')
        changed = True
    for line in lines:
        key, _, value = line.partition(",")
        if key.strip().strip('"').lower() == "udf modules":
            found = True
            modules = [m for m in value.strip().strip('"').split(";") if m]
            if module not in modules:
                modules.append(module)
                changed = True
            line = f'"UDF Modules","{";".join(modules)}"'
        out.append(line)
    if not found:
        out.append(f'"UDF Modules","{module}"')
        changed = True
    if changed:
        config.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=config.parent, prefix=".xlwings-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write("\n".join(out) + "\n")
            os.replace(tmp, config)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return changed


EXCEL_STEPS = """\
Remaining steps in Excel (Windows, desktop Excel with the xlwings add-in):
  1. Install the add-in once:      xlwings addin install
  2. Restart Excel, open the xlwings ribbon tab and check that "UDF Modules"
     reads xlfuncs.udfs (this config sets it for every workbook).
  3. Click "Import Functions". =FT_EXAMPLES_PER_SEC(8,2500,82%,900) gives 18.22.
  The functions are in the Insert Function dialog under the category "xlfuncs".
macOS: xlwings does not run Python UDFs there; use the template workbooks
(`xlfuncs build`), or xlwings Lite (see docs/excel.md)."""


def cmd_excel_setup(ns: argparse.Namespace) -> None:
    config = Path(ns.config) if ns.config else user_config_path()
    interpreter = sys.executable if os.name == "nt" else None
    changed = add_udf_module(config, interpreter=interpreter)
    print(
        f"{'Updated' if changed else 'Already set:'} {config}: UDF Modules includes "
        "xlfuncs.udfs"
    )
    print(EXCEL_STEPS)


def cmd_build(ns: argparse.Namespace) -> None:
    from .templates import LANGS, build

    for path in build(ns.out, [ns.lang] if ns.lang else LANGS, force=ns.force):
        print(f"wrote {path}")


def cmd_docs(ns: argparse.Namespace) -> None:
    from .docs import write_docs

    for path in write_docs(Path(ns.out)):
        print(f"wrote {path}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="xlfuncs",
        description="LLM training and fine-tuning planning functions for Excel.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("list", help="the function table").set_defaults(run=cmd_list)
    c = sub.add_parser(
        "calc",
        help="evaluate one function",
        description="Evaluate one function, e.g. `xlfuncs calc FT_EXAMPLES_PER_SEC "
        "8 2500 0.82 900`. A range argument is a comma-separated list.",
    )
    c.add_argument("name", help="function name, e.g. CHINCHILLA_PARAMS")
    c.add_argument("args", nargs="*", help="arguments in order")
    c.set_defaults(run=cmd_calc)
    sub.add_parser("examples", help="evaluate every documented example").set_defaults(
        run=cmd_examples
    )
    e = sub.add_parser(
        "excel-setup", help="add xlfuncs.udfs to xlwings' UDF Modules setting"
    )
    e.add_argument("--config", help="xlwings.conf to edit (default: the user's)")
    e.set_defaults(run=cmd_excel_setup)
    b = sub.add_parser(
        "build",
        help="write the template workbooks",
        description="Write the template workbooks (plain Excel formulas, no "
        "Python needed to use them). Existing files are kept unless --force.",
    )
    b.add_argument("--out", default="workbooks", help="folder (default: workbooks)")
    b.add_argument("--lang", choices=["en", "es"], help="one edition (default: both)")
    b.add_argument("--force", action="store_true", help="overwrite existing files")
    b.set_defaults(run=cmd_build)
    d = sub.add_parser("docs", help="regenerate docs/functions.md")
    d.add_argument("--out", default="docs", help="output folder (default: docs)")
    d.set_defaults(run=cmd_docs)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        ns.run(ns)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except (CliError, InputError, FileExistsError) as err:
        print(f"xlfuncs: error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `xlfuncs examples | head`: the reader has all it wants
        # Point stdout at devnull so that the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as err:  # an unwritable folder, a full disk: one line, no trace
        where = f": {err.filename}" if err.filename else ""
        print(f"xlfuncs: error: {err.strerror or err}{where}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
