"""The workbooks' formulas against issue 26's targets, before and after.

Usage: ``python3 tests/bench_formulas.py`` (not collected by pytest). Builds every
template in both editions in memory and prints, per workbook, the count of
formula cells, the longest formula, the 90th percentile of lengths, the deepest
nesting and the total formula text, beside the same figures measured on the
committed workbooks before the change (commit bca97c7, with
../shared/tools/formula-stats.py) and the targets:

- no formula past Excel's limits (8,192 characters, 64 levels, 255 arguments,
  255-character text constants);
- in each planning template the longest formula at most 1,500 characters, 90 %
  of formulas at most 300, nesting at most 24 levels, and the total formula text
  at most a quarter of before; the model-size workbook at most its 20 k.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xlfuncs.templates import TEMPLATES  # noqa: E402
from xlfuncs.templates.build import build_template  # noqa: E402
from xlfuncs.workbook import limits  # noqa: E402

#: (formulas, longest, p90, deepest, total) at commit bca97c7.
BEFORE = {
    ("chinchilla-model-size", "en"): (84, 3561, 430, 41, 19_976),
    ("chinchilla-model-size", "es"): (84, 4007, 452, 41, 21_140),
    ("finetune-throughput", "en"): (270, 7361, 2520, 74, 295_149),
    ("finetune-throughput", "es"): (270, 7712, 2524, 74, 297_667),
    ("llm-compute-budget", "en"): (2097, 5984, 1895, 54, 1_418_607),
    ("llm-compute-budget", "es"): (2097, 5982, 1899, 54, 1_460_805),
    ("llm-training-planner", "en"): (384, 8778, 1521, 87, 197_647),
    ("llm-training-planner", "es"): (384, 9669, 1525, 87, 202_019),
}
LONGEST, P90, NESTING = 1500, 300, 24
MODEL_SIZE_TOTAL = 20_000


def measure(slug_lang: tuple[str, str]) -> tuple[tuple[int, ...], list[str], float]:
    slug, lang = slug_lang
    tpl = next(t for t in TEMPLATES if t.slug == slug)
    start = time.perf_counter()
    built = build_template(tpl, lang)
    seconds = time.perf_counter() - start
    lengths, deepest, past = [], 0, []
    for ws in built.workbook.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f" or not isinstance(c.value, str):
                    continue
                m = limits.measure(c.value)
                lengths.append(m.chars)
                deepest = max(deepest, m.nesting)
                if (m.chars > limits.MAX_CHARS or m.nesting > limits.MAX_NESTING
                        or m.args > limits.MAX_ARGS
                        or m.text > limits.MAX_TEXT_CONSTANT):  # fmt: skip
                    past.append(f"{ws.title}!{c.coordinate}")
    lengths.sort()
    p90 = lengths[int(0.9 * (len(lengths) - 1))]
    figures = (len(lengths), lengths[-1], p90, deepest, sum(lengths))
    return figures, past, seconds


def main() -> int:
    print(f"{'workbook':34} {'':6} {'formulas':>8} {'longest':>8} {'p90':>6} "
          f"{'nesting':>7} {'total':>10}  targets")  # fmt: skip
    failed = 0
    for key, before in BEFORE.items():
        after, past, seconds = measure(key)
        slug, lang = key
        total_target = (
            MODEL_SIZE_TOTAL if slug == "chinchilla-model-size" else before[4] / 4
        )
        met = {
            "no formula past Excel's limits": not past,
            f"longest ≤ {LONGEST:,}": after[1] <= LONGEST,
            f"p90 ≤ {P90}": after[2] <= P90,
            f"nesting ≤ {NESTING}": after[3] <= NESTING,
            f"total ≤ {total_target:,.0f}": after[4] <= total_target,
        }
        failed += not all(met.values())
        name = f"{slug} ({lang})"
        for label, row in (("before", before), ("after", after)):
            n, longest, p90, deep, total = row
            note = ""
            if label == "after":
                ratio = total / before[4]
                note = (
                    f"  total {ratio:.2f}× before; built in {seconds:.2f} s; "
                    + "; ".join(
                        f"{k}: {'yes' if ok else 'NO'}" for k, ok in met.items()
                    )
                )
            print(f"{name if label == 'before' else '':34} {label:6} {n:8,} {longest:8,} "
                  f"{p90:6,} {deep:7} {total:10,}{note}")  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
