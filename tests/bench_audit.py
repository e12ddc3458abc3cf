"""The planning workbooks against issue 33's audit targets, before and after.

Usage: ``python3 tests/bench_audit.py [folder]`` (not collected by pytest).
Reads the built workbooks in ``folder`` (default ``workbooks/``) and prints,
per workbook and edition, beside the same figures on the committed workbooks
before this round's change (commit 632b6dc):

- the longest formula (target at most 600 characters) and the share of formula
  cells of at most 150 (target 90 %);
- the formulas holding one parenthesised block of 40 or more characters twice
  (target none);
- the share of formula cells with ``IFERROR`` (target at most 1 %);
- the 12-month timeline rows (the Months sheet's months, the year's column
  aside) that are one formula copied across (target at least 95 %).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import openpyxl
from openpyxl.formula.translate import Translator, TranslatorError

ROOT = Path(__file__).resolve().parents[1]
FILES = ("finetune-throughput", "chinchilla-model-size", "llm-training-planner",
         "llm-compute-budget")  # fmt: skip
MONTHS = 12
_TEXT = re.compile(r'"(?:[^"]|"")*"')

#: (longest, share ≤ 150, with a repeated block, IFERROR share, one-formula
#: timeline rows, timeline rows) on the committed workbooks at 632b6dc.
BEFORE = {
    ("finetune-throughput", "en"): (2883, 0.788, 16, 0.382, 0, 0),
    ("finetune-throughput", "es"): (2887, 0.788, 20, 0.382, 0, 0),
    ("chinchilla-model-size", "en"): (287, 0.872, 2, 0.324, 0, 0),
    ("chinchilla-model-size", "es"): (296, 0.872, 3, 0.324, 0, 0),
    ("llm-training-planner", "en"): (6403, 0.767, 19, 0.376, 0, 0),
    ("llm-training-planner", "es"): (6407, 0.766, 23, 0.376, 0, 0),
    ("llm-compute-budget", "en"): (2889, 0.861, 101, 0.736, 13, 74),
    ("llm-compute-budget", "es"): (2889, 0.861, 131, 0.736, 13, 74),
}


def repeated(formula: str) -> bool:
    """Whether one parenthesised block of 40 or more characters appears twice."""
    s = _TEXT.sub(lambda m: '"' + "_" * (len(m.group()) - 2) + '"', formula)
    stack: list[int] = []
    blocks: list[str] = []
    for i, ch in enumerate(s):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            j = stack.pop()
            if i - j - 1 >= 40:
                blocks.append(s[j + 1 : i])
    return any(n > 1 for n in Counter(blocks).values())


def _at_first(formula: str, here: str, first: str) -> str:
    """The formula as the row's first month would hold it, copied from here."""
    try:
        return Translator(formula, origin=here).translate_formula(first)
    except TranslatorError:  # it reads a cell left of where it would land
        return formula


def measure(path: Path) -> tuple[int, float, int, float, int, int]:
    wb = openpyxl.load_workbook(path)
    lengths: list[int] = []
    blocks = iferror = 0
    one = rows = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if isinstance(v, str) and v.startswith("="):
                    lengths.append(len(v) - 1)
                    blocks += repeated(v)
                    iferror += "IFERROR(" in v.upper()
        if ws.title not in ("Months", "Meses"):
            continue
        for r in range(1, ws.max_row + 1):
            cells = [ws.cell(r, k) for k in range(2, 2 + MONTHS)]
            if not all(
                isinstance(c.value, str) and c.value.startswith("=") for c in cells
            ):
                continue
            rows += 1
            one += len({_at_first(c.value, c.coordinate, cells[0].coordinate)
                        for c in cells}) == 1  # fmt: skip
    n = len(lengths)
    short = sum(x <= 150 for x in lengths) / n
    return max(lengths), short, blocks, iferror / n, one, rows


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "workbooks"
    print(f"{'workbook':<28} {'longest':>13} {'<=150':>13} {'repeats':>11} "
          f"{'IFERROR':>13} {'timeline rows':>17}")  # fmt: skip
    for slug in FILES:
        for lang in ("en", "es"):
            name = slug if lang == "en" else f"{slug}-es"
            now = measure(folder / f"{name}.xlsx")
            was = BEFORE[(slug, lang)]
            rows = f"{now[4]}/{now[5]} ({was[4]}/{was[5]})" if now[5] else "-"
            print(f"{name:<28} {now[0]:>6} ({was[0]:>5}) {now[1]:>6.1%} ({was[1]:>4.0%}) "
                  f"{now[2]:>4} ({was[2]:>4}) {now[3]:>6.1%} ({was[3]:>4.0%}) {rows:>17}")  # fmt: skip
    print(
        "targets: longest <= 600, <=150 at least 90 %, no repeats, IFERROR at most 1 %, "
        "timeline rows at least 95 % one formula; (before: commit 632b6dc)"
    )


if __name__ == "__main__":
    main()
