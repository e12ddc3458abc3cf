"""The docs are current: generated ones committed, and every formula they show works."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from xlfuncs import cells, udfs
from xlfuncs.docs import functions_md, names_table, templates_md
from xlfuncs.registry import REGISTRY
from xlfuncs.templates import TEMPLATES

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_functions_md_is_current():
    committed = (DOCS / "functions.md").read_text(encoding="utf-8")
    assert committed == functions_md(), "docs/functions.md is stale: run `xlfuncs docs`"


def test_templates_md_names_are_current():
    committed = (DOCS / "templates.md").read_text(encoding="utf-8")
    assert committed == templates_md(committed), (
        "docs/templates.md's tables of names are stale: run `xlfuncs docs`"
    )
    for tpl in TEMPLATES:  # each template has its table, each input and result a name
        assert f"<!-- names: {tpl.slug} -->" in committed, tpl.slug
        table = names_table(tpl)
        for row in (*tpl.inputs, *tpl.results):
            assert f"`{row.name}` " in table, (tpl.slug, row.name)


def test_names_tables_show_values_as_the_sheet_does():
    fine = names_table(next(t for t in TEMPLATES if t.slug == "finetune-throughput"))
    # The worked example, by hand: 16,400 tokens/s, 18.22 examples/s, 82.0 %;
    # 8 GPUs × 4.573 hours at 3.99 USD = 145.98 USD.
    for shown in ("`EffectiveThroughput` 16,400", "`ExamplesPerSec` 18.22",
                  "`Efficiency` 82.0%", "`TrainingCost` 145.98 USD"):  # fmt: skip
        assert shown in fine, shown
    # A money figure shows its unit as the sheet's unit cell does: a price per
    # GPU-hour, and the scenarios' figures in thousands (346 thousand USD is
    # the budget's training cost: 304,934.22 + 41,387.78 USD, rounded).
    assert "`PricePerGPUHour` 3.99 USD/GPU-h" in fine
    budget = names_table(next(t for t in TEMPLATES if t.slug == "llm-compute-budget"))
    assert "`BudgetTraining` 346 thousands of USD" in budget


def test_functions_md_documents_every_function_and_argument():
    text = functions_md()
    for spec in REGISTRY.values():
        assert f"### `{spec.signature_text()}`" in text
        for a in spec.args:
            assert a.doc in text


def test_docstring_cross_references_resolve():
    # :mod:`xlfuncs.spec.REGISTRY` and friends must name something that exists.
    import importlib
    import re

    package = Path(__file__).resolve().parents[1] / "xlfuncs"
    role = re.compile(r":(?:mod|data|func|class|attr|meth):`~?(xlfuncs[\w.]*)`")
    stale = []
    # templates/ is being rewritten on main; its layout.py names xlfuncs.arguments.
    paths = [p for p in package.rglob("*.py") if "templates" not in p.parts]
    for path in sorted(paths):
        for target in role.findall(path.read_text(encoding="utf-8")):
            parts = target.split(".")
            for i in range(len(parts), 0, -1):
                try:
                    obj = importlib.import_module(".".join(parts[:i]))
                except ImportError:
                    continue
                try:
                    for attr in parts[i:]:
                        obj = getattr(obj, attr)
                except AttributeError:
                    stale.append(f"{path.name}: {target}")
                break
            else:
                stale.append(f"{path.name}: {target}")
    assert not stale, stale


# ------------------------------------------------- formulas the docs show users

ROOT = DOCS.parent
DOC_FILES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
_FENCE = re.compile(r"^ *```.*?^ *```", re.M | re.S)  # in a list item too
_SPAN = re.compile(r"`([^`]+)`")
_CALL = re.compile(r"(?<![\w.])([A-Z][A-Z0-9_]*)\(")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?%?")
_RANGE = re.compile(r"([A-Z]{1,3})(\d+)(?::([A-Z]{1,3})(\d+))?")
_RESULT = re.compile(r"\s*→\s*\**(-?[\d.]+(?:e[-+]?\d+)?)")


def _split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside quotes, parentheses and braces."""
    parts, depth, quoted, current = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "({[":
            depth += 1
        elif not quoted and ch in ")}]":
            depth -= 1
        if ch == sep and depth == 0 and not quoted:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return [*parts, current.strip()] if (parts or current.strip()) else []


def doc_calls():
    """(file, call text, function name, arguments as written, result shown)."""
    for path in DOC_FILES:
        text = _FENCE.sub("", path.read_text(encoding="utf-8"))
        for span in _SPAN.finditer(text):
            code_ = span.group(1).replace("\n", " ")
            for m in _CALL.finditer(code_):
                name = m.group(1)
                if name not in REGISTRY:
                    continue
                depth, end = 0, None
                for j in range(m.end() - 1, len(code_)):
                    depth += {"(": 1, ")": -1}.get(code_[j], 0)
                    if depth == 0:
                        end = j
                        break
                assert end is not None, f"{path.name}: unbalanced {code_!r}"
                inner = code_[m.end() : end]
                # A call as an Excel with a decimal comma takes it: (8; 0,82).
                local = len(_split(inner, ";")) > 1
                words = _split(inner, ";" if local else ",")
                if local:
                    words = [w.replace(",", ".") for w in words]
                args = []  # [a, b] marks optional arguments: read them in order
                for a in words:
                    if a.startswith("[") and a.endswith("]"):
                        args += _split(a[1:-1], ",")
                    else:
                        args.append(a)
                shown = None
                if end == len(code_) - 1:  # the call ends the span: a result after?
                    r = _RESULT.match(text, span.end())
                    shown = r.group(1) if r else None
                yield path.name, code_[m.start() : end + 1], name, args, shown


def _literal(text: str):
    """A literal argument's value as xlwings would pass it, or None if it is none."""
    if _NUMBER.fullmatch(text):
        return float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    if text.startswith("{") and text.endswith("}"):
        rows = [[_literal(c) for c in _split(r, ",")] for r in _split(text[1:-1], ";")]
        return rows if all(c is not None for r in rows for c in r) else None
    return None


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _filled(text: str, example):
    """A cell reference as a range of that shape, filled with example values."""
    m = _RANGE.fullmatch(text)
    if not m:
        return None
    c1, r1, c2, r2 = m.groups()
    rows = int(r2 or r1) - int(r1) + 1
    cols = _column(c2 or c1) - _column(c1) + 1
    values = example if isinstance(example, list) else [example]
    return [
        [values[(i * cols + j) % len(values)] for j in range(cols)] for i in range(rows)
    ]


def test_formulas_in_the_docs_compute_without_an_error():
    # Every call in README.md and docs/*.md whose arguments are literals (numbers,
    # 82%, text, array constants) or cell references: the references are filled
    # with the function's worked-example value for that argument, in the same
    # shape (A2:A6 is a column of five). No cell of the result may be an error,
    # and a result the text shows after the call (→ 18.22) must be what it gives.
    checked = 0
    for file, call, name, args, shown in doc_calls():
        spec = REGISTRY[name]
        if not all(_literal(a) is not None or _RANGE.fullmatch(a) for a in args):
            continue
        assert spec.n_required <= len(args) <= len(spec.args), f"{file}: {call}"
        examples = [*spec.example.args, *(None for _ in args)]  # one per argument
        values = [
            _literal(a)
            if _literal(a) is not None
            else _filled(a, ex if ex is not None else cells._safe(arg.domain))
            for a, ex, arg in zip(args, examples, spec.args)
        ]
        out = getattr(udfs, name)(*values)
        cells_ = np.ravel(np.array(out, dtype=object)).tolist()
        errors = [c for c in cells_ if isinstance(c, str)]
        assert not errors, f"{file}: {call} gives {errors[0]}"
        if shown is not None:  # as precise as the digits shown: 18.22, 3.15e+23
            mantissa, _, exponent = shown.partition("e")
            step = 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
            assert abs(out - float(shown)) <= step / 2, f"{file}: {call} → {shown}"
        checked += 1
    assert checked >= 35  # the README's and excel.md's, and functions.md's examples


def test_argument_names_and_literals_in_the_docs_are_the_functions_own():
    # Calls written with placeholders (=MFU(tokens_per_sec_per_gpu, ...)) name
    # the function's own arguments, in order; a literal among them is valid for
    # its argument (a percentile of 90 is not).
    for file, call, name, args, _ in doc_calls():
        spec = REGISTRY[name]
        where = f"{file}: {call}"
        assert spec.n_required <= len(args) <= len(spec.args) or args == ["…"], where
        for a, arg in zip(args, spec.args):
            word = a.partition("=")[0].strip()
            if re.fullmatch(r"[a-z_][a-z0-9_]*", word):
                assert word == arg.name, f"{where}: {word!r} is not {arg.name!r}"
            value = _literal(a)
            if isinstance(value, float) and arg.kind != "sample":
                err = arg.scalar_error(value)
                assert err is None, f"{where}: {a} → {err.cell_text}"


def test_excel_md_lists_the_look_up_functions():
    # The functions that need the data sheets, as the LAMBDA library finds them.
    from xlfuncs.templates import library as lib

    text = " ".join((DOCS / "excel.md").read_text(encoding="utf-8").split())
    m = re.search(
        r"(\w+) functions look names up in tables and also need the Data, Models "
        r"and Keys sheets: (.*?)\.",
        text,
    )
    assert m, "docs/excel.md no longer lists the look-up functions"
    want = lib.look_ups(lib.definitions())
    numbers = (
        "one two three four five six seven eight nine ten eleven twelve thirteen "
        "fourteen fifteen"
    )
    count = int(m[1]) if m[1].isdigit() else numbers.split().index(m[1].lower()) + 1
    assert count == len(want)
    assert re.findall(r"`(\w+)`", m[2]) == want


# ------------------------------------------------------ links into the repository


def _anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped,
    spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def test_anchor_spelling():
    assert _anchor("The functions without Python: the LAMBDA library") == (
        "the-functions-without-python-the-lambda-library"
    )
    assert _anchor("GPU memory: model states, LoRA, activations, KV cache") == (
        "gpu-memory-model-states-lora-activations-kv-cache"
    )


def test_every_link_into_the_repository_resolves():
    root = DOCS.parent
    checked, broken = 0, []
    for page in [root / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            checked += 1
            missing = not path.exists() or (
                anchor and path.suffix == ".md" and anchor not in _anchors(path)
            )
            if missing:
                broken.append(f"{page.name}: {target}")
    assert broken == [] and checked > 20, broken


def test_the_licence_file_is_the_one_the_package_declares():
    # Corporate users need the licence text itself, not only pyproject's field.
    # (A regular expression, not tomllib: that needs Python 3.11, xlfuncs 3.10.)
    root = DOCS.parent
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    text = (root / "LICENSE").read_text(encoding="utf-8")
    assert re.search(r'^license = \{ text = "MIT" \}$', pyproject, re.M)
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert "[MIT licence](LICENSE)" in (root / "README.md").read_text()
