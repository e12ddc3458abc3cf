"""Generate ``docs/functions.md`` from the function registry, and the tables of
names in ``docs/templates.md`` from the templates.

Run ``xlfuncs docs`` after changing a function or a template; a test fails while
the committed files differ from what this module writes.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from datetime import date, timedelta
from pathlib import Path

from . import FUNCTIONS
from .data.accelerators import ACCELERATORS
from .data.models import FIELDS, MODELS, value
from .data.units import DTYPES
from .registry import Formula
from .registry.display import format_number, markdown
from .templates import TEMPLATES, Template, compute
from .templates.blocks import Figures, Inputs, Results
from .templates.lambdas import calls
from .workbook.numfmt import shown

TOPICS = {
    "xlfuncs.functions.finetune": "Fine-tuning throughput, time and cost",
    "xlfuncs.functions.scaling": "Compute-optimal size (Chinchilla 20-tokens rule)",
    "xlfuncs.functions.cluster": "Clusters, utilisation and training time",
    "xlfuncs.functions.hardware": "Accelerators",
    "xlfuncs.functions.models": "Published models",
    "xlfuncs.functions.memory": "GPU memory: model states, LoRA, activations, KV cache",
    "xlfuncs.functions.serving": "Serving speed",
    "xlfuncs.functions.energy": "Energy and emissions",
    "xlfuncs.functions.scaling_laws": "Fitted scaling laws and inference-aware sizing",
}


def sections(doc: str) -> dict[str, str]:
    """Split a numpydoc docstring into {title: body}; the summary is under ''."""
    lines = doc.splitlines()
    out: dict[str, list[str]] = {"": []}
    title = ""
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and line.strip() and set(lines[i + 1].strip()) == {"-"}:
            title = line.strip()
            out[title] = []
        elif not (line.strip() and set(line.strip()) == {"-"} and title):
            out[title].append(line)
    return {k: "\n".join(v).strip() for k, v in out.items()}


def _doc(spec: Formula) -> dict[str, str]:
    return sections(inspect.cleandoc(spec.api.__doc__ or ""))


def formula_line(spec: Formula) -> str:
    """The docstring's ``Formula:`` paragraph, on one line."""
    for para in _doc(spec)[""].split("\n\n"):
        if para.startswith("Formula:"):
            return " ".join(para.split())
    return ""


def references(spec: Formula) -> str:
    """The docstring's References section, on one line."""
    return " ".join(_doc(spec).get("References", "").split())


def _excel_literal(v: object) -> str:
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, (list, tuple)):
        return "{" + ";".join(_excel_literal(x) for x in v) + "}"
    return format_number(float(v)) if isinstance(v, (int, float)) else str(v)


def function_section(spec: Formula) -> str:
    ex = spec.example
    result = format_number(spec.api(*ex.args))
    excel_args = ", ".join(_excel_literal(v) for v in ex.args)
    lines = [
        f"### `{spec.signature_text()}`",
        "",
        spec.description,
        "",
        f"- Returns: {spec.unit}",
    ]
    if formula_line(spec):
        lines.append(f"- {markdown(formula_line(spec))}")
    lines.append(f"- Python: `xlfuncs.{spec.python_name}`")
    if spec.excel is not None and (called := calls(spec)):
        names = ", ".join(f"`{n}`" for n in called)
        lines.append(f"- Its LAMBDA calls {names}: copy them with it.")
    if references(spec):
        lines.append(f"- Source: {markdown(references(spec))}")
    lines += ["", "| argument | unit | description |", "| --- | --- | --- |"]
    for a in spec.args:
        name = f"`{a.name}`"
        if a.name in spec.defaults:
            name += f" (optional, default {spec.defaults[a.name]!r})"
        lines.append(f"| {name} | {a.unit} | {a.doc} |")
    lines += [
        "",
        f"Example: `={spec.name}({excel_args})` → **{result}** {spec.unit}",
        "",
    ]
    return "\n".join(lines)


def accelerator_table() -> list[str]:
    """The names GPU_PEAK_TFLOPS knows, with their dense peaks and sources."""
    dtypes = DTYPES
    lines = [
        "Known accelerators (dense TFLOP/s per chip; int8 in TOP/s; – where the "
        "chip has no such mode or no published figure). Names ignore case, spaces "
        "and hyphens; a bare family name is the flagship part (H100 is the SXM).",
        "",
        "| name | also accepted | " + " | ".join(dtypes) + " | source |",
        "| --- | --- | " + " | ".join("---:" for _ in dtypes) + " | --- |",
    ]
    for a in ACCELERATORS:
        peaks = " | ".join(
            format_number(a.peak_tflops[d]) if d in a.peak_tflops else "–"
            for d in dtypes
        )
        also = ", ".join(a.aliases[:4])
        lines.append(f"| {a.name} | {also} | {peaks} | {a.source} |")
    lines += [
        "",
        "Memory, memory bandwidth and board power (GPU_MEMORY_GB, GPU_BANDWIDTH_TBS, "
        "GPU_POWER_W): GB of 10^9 bytes, TB/s, and the maximum TDP or total board "
        "power in W; – where the vendor publishes no figure.",
        "",
        "| name | memory GB | bandwidth TB/s | power W | source | note |",
        "| --- | ---: | ---: | ---: | --- | --- |",
    ]
    for a in ACCELERATORS:
        figures = " | ".join(
            "–" if v is None else format_number(float(v))
            for v in (a.memory_gb, a.bandwidth_tbs, a.power_w)
        )
        lines.append(f"| {a.name} | {figures} | {a.specs_source} | {a.specs_note} |")
    lines += [
        "",
        "GPU-to-GPU bandwidth (GPU_INTERCONNECT_GBS, read by TP_COMM_MS, "
        "ZERO3_COMM_MS and the serving estimate): GB/s, both directions together "
        "as vendors print them; – where the vendor prints no GPU-to-GPU figure.",
        "",
        "| name | interconnect GB/s | source |",
        "| --- | ---: | --- |",
    ]
    for a in ACCELERATORS:
        link = "–" if a.interconnect_gbs is None else format_number(a.interconnect_gbs)
        lines.append(f"| {a.name} | {link} | {a.interconnect_source} |")
    return [*lines, ""]


def model_table() -> list[str]:
    """The models MODEL_SPEC knows, with their shapes and sources."""
    lines = [
        "Known models. Names ignore case, spaces, hyphens and underscores; a "
        "Hugging Face id works with or without its organisation "
        "(`meta-llama/Llama-3.1-8B`, `Llama-3.1-8B-Instruct`). `params` is the "
        "published count (an exact checkpoint count where the publisher prints "
        "only a size label); `ffn_dim` is per matrix of a gated MLP and per expert.",
        "",
        "| name | " + " | ".join(FIELDS) + " | shape source | count source |",
        "| --- | " + " | ".join("---:" for _ in FIELDS) + " | --- | --- |",
    ]
    for m in MODELS:
        figures = " | ".join(f"{value(m, f):,}" for f in FIELDS)
        lines.append(f"| {m.name} | {figures} | {m.source} | {m.params_source} |")
    return [*lines, ""]


def functions_md() -> str:
    out = [
        "# Function reference",
        "",
        "<!-- Generated by `xlfuncs docs` from the function registry; do not edit. -->",
        "",
        "Counts are plain numbers (65.7 billion parameters is `6.57E+10`); an",
        "efficiency or MFU is a fraction (a cell showing 82% holds 0.82). Every",
        "argument accepts a single cell or a range; ranges broadcast against each",
        "other and the result spills. Bad input gives an Excel error code with a",
        "reason, e.g. `#NUM! efficiency must be a fraction in (0, 1]: enter 82% or",
        "0.82` (see [excel.md](excel.md#errors)).",
        "",
        "| function | returns | description |",
        "| --- | --- | --- |",
    ]
    for spec in FUNCTIONS.values():
        anchor = spec.signature_text().lower()
        anchor = "".join(c for c in anchor if c.isalnum() or c in " _-").replace(
            " ", "-"
        )
        out.append(f"| [`{spec.name}`](#{anchor}) | {spec.unit} | {spec.description} |")
    out.append("")
    for module, title in TOPICS.items():
        specs = [s for s in FUNCTIONS.values() if s.topic == module]
        if not specs:
            continue
        out += [f"## {title}", "", f"Module `{module}`.", ""]
        if module == "xlfuncs.functions.memory":
            out += [
                "What each term covers, what the estimates leave out, how much "
                "headroom to keep and where published tools disagree: "
                "[memory.md](memory.md).",
                "",
            ]
        out += [function_section(s) for s in specs]
        if module == "xlfuncs.functions.hardware":
            out += accelerator_table()
        if module == "xlfuncs.functions.models":
            out += model_table()
    others = [s for s in FUNCTIONS.values() if s.topic not in TOPICS]
    if others:
        raise ValueError(f"docs: no topic for {sorted({s.topic for s in others})}")
    return "\n".join(out).rstrip() + "\n"


NAMES = re.compile(r"(<!-- names: (?P<slug>[\w-]+) -->\n).*?(<!-- /names -->)", re.S)


def names_table(tpl: Template) -> str:
    """A template's inputs and results, block by block, each with its default
    value as the English sheet shows it."""
    values = compute(tpl)
    currency = str(values.get("Currency", ""))
    out = [
        "| section | names, with their default values as the sheet shows them |",
        "| --- | --- |",
    ]
    for block in tpl.blocks:
        if not isinstance(block, (Inputs, Results, Figures)):
            continue
        title = block.title.en
        if isinstance(block, Inputs) and "nput" not in title:
            title += " (inputs)"
        cells = []
        # A summary's figures shown again are listed where they are computed.
        own = [r for r in block.rows if not isinstance(r, str)]
        for row in own:
            v = values[row.name]
            fmt = row.fmt if isinstance(row.fmt, str) else row.fmt.en
            if v is None:
                shown_ = "blank"
            elif isinstance(v, str):
                shown_ = v
            elif "yyyy" in fmt:  # a date: its serial number as the month it names
                shown_ = (date(1899, 12, 30) + timedelta(days=int(v))).strftime("%Y-%m")
            else:
                shown_ = shown(float(v), fmt)
                if "{currency}" in row.unit.en and currency:
                    # The unit as the cell's unit column reads: "USD/GPU-h",
                    # "thousands of USD", never a bare currency on a scaled figure.
                    shown_ += " " + row.unit.en.replace("{currency}", currency)
            cells.append(f"`{row.name}` {shown_}")
        if cells:
            out.append(f"| {title} | {', '.join(cells)} |")
    return "\n".join(out) + "\n"


def templates_md(text: str) -> str:
    """``text`` (docs/templates.md) with each ``<!-- names: slug -->`` table
    written anew from its template; ValueError naming a slug no template has."""
    by_slug = {t.slug: t for t in TEMPLATES}
    unknown = sorted({m["slug"] for m in NAMES.finditer(text)} - set(by_slug))
    if unknown:
        raise ValueError(
            f"<!-- names: {unknown[0]} --> names no template; the templates: "
            + ", ".join(by_slug)
        )
    return NAMES.sub(
        lambda m: m.group(1) + names_table(by_slug[m.group("slug")]) + m.group(3), text
    )


def write_docs(out_dir: Path, *, force: bool = False) -> list[Path]:
    """Write ``functions.md`` into ``out_dir``, and ``templates.md`` anew where it
    is there (its names tables), each atomically (an interrupted run leaves the
    old file whole, never an empty one); the files written.

    A file already there is replaced only with ``force``, as ``xlfuncs build``
    replaces one, unless it already reads as it would be written (then it is
    left as it is). Everything is checked before anything is written, each
    refusal a FileExistsError or ValueError in one line: a file that is not a
    regular one (a FIFO is never opened, so never waited on), a
    ``templates.md`` that is not UTF-8 text or names a template that does not
    exist, and a symbolic link leading out of ``out_dir`` (or nowhere):
    regenerating the docs must not overwrite a file elsewhere.
    """
    from .workbook.xlsx import existing, write_bytes

    functions = out_dir / "functions.md"
    templates = out_dir / "templates.md"
    targets = {functions: _inside(functions, out_dir)}
    if existing([templates]):
        targets[templates] = _inside(templates, out_dir)
    texts: dict[Path, str] = {}
    for path, target in targets.items():
        old = _read(path, target) if existing([target]) else None
        text = functions_md() if path == functions else templates_md(old or "")
        if old != text:
            texts[path] = text
    there = [p for p in texts if existing([targets[p]])]
    if there and not force:
        raise FileExistsError(
            f"{', '.join(map(str, there))} already exist"
            f"{'s' if len(there) == 1 else ''} and would change; pass --force "
            "to overwrite"
        )
    for path, text in texts.items():
        write_bytes(text.encode("utf-8"), targets[path], force=True)
    return list(texts)


def _read(path: Path, target: Path) -> str:
    """The text of a docs file, or a one-line refusal: not a regular file (a
    FIFO would block the read forever, a folder fails), not UTF-8."""
    import stat

    try:
        mode = os.stat(target).st_mode
    except OSError as err:
        raise OSError(err.errno, err.strerror, str(path)) from None
    if not stat.S_ISREG(mode):
        raise FileExistsError(f"{path} is not a regular file; left as it is")
    data = target.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path} is not UTF-8 text (byte {data[err.start]:#04x} at offset "
            f"{err.start}); save it as UTF-8, or remove it to leave it out"
        ) from None


def _inside(path: Path, out_dir: Path) -> Path:
    """``path``, or the file its symbolic link leads to inside ``out_dir``."""
    if not path.is_symlink():
        return path
    try:
        target = Path(os.path.realpath(path, strict=True))
        if target.is_relative_to(os.path.realpath(out_dir, strict=True)):
            return target
    except OSError:
        pass
    raise FileExistsError(
        f"{path} is a symbolic link to {os.readlink(path)}, outside {out_dir}; "
        "remove the link to write the file there"
    )


if __name__ == "__main__":
    for p in write_docs(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")):
        print(p)
