"""Benchmark: the cost of the UDF layer over bare arithmetic (not a pytest test).

Run ``python tests/bench_udfs.py``. Each figure is measured side by side in one
run, best of several repeats, so the ratios hold on a noisy machine:

(a) ``FT_EXAMPLES_PER_SEC(8, 2500, 0.82, 900)``, a scalar call;
(b) the same call as xlwings delivers it with ``ndim=2``: every argument ``[[x]]``;
(c) the UDF on 1,000,000-element numpy arrays against the raw numpy expression.
"""

from __future__ import annotations

import timeit

import numpy as np

from xlfuncs.udfs import FT_EXAMPLES_PER_SEC

TARGETS = {"a": 10.0, "b": 15.0, "c": 2.0}
ROUNDS = 5  # interleaved rounds; each figure is the best over all of them


def bare(gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example):
    return gpus * tokens_per_sec_per_gpu * efficiency / tokens_per_example


def best(stmt, number: int, repeat: int = 7) -> float:
    """Best per-call time in seconds."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> int:
    scalars = (8.0, 2500.0, 0.82, 900.0)
    cells = tuple([[x]] for x in scalars)
    rng = np.random.default_rng(0)
    n = 1_000_000
    arrays = (
        rng.integers(1, 65, n).astype(float),
        rng.uniform(500, 5000, n),
        rng.uniform(0.3, 1.0, n),
        rng.uniform(128, 8192, n),
    )
    assert FT_EXAMPLES_PER_SEC(*scalars) == bare(*scalars)
    assert FT_EXAMPLES_PER_SEC(*cells) == bare(*scalars)
    assert np.array_equal(FT_EXAMPLES_PER_SEC(*arrays), bare(*arrays))

    rows = []
    for key, label, args, bare_args, number in (
        ("a", "scalar call", scalars, scalars, 200_000),
        ("b", "xlwings ndim=2 call, [[x]] args", cells, scalars, 200_000),
        ("c", "1,000,000-element numpy arrays", arrays, arrays, 20),
    ):
        # Interleave the two timings so that drift on the machine hits both.
        t_udf, t_bare = [], []
        for _ in range(ROUNDS):
            t_bare.append(best(lambda a=bare_args: bare(*a), number))
            t_udf.append(best(lambda a=args: FT_EXAMPLES_PER_SEC(*a), number))
        ub, bb = min(t_udf), min(t_bare)
        rows.append((key, label, ub, bb, ub / bb, TARGETS[key]))

    print(
        f"{'case':<4} {'what':<34} {'UDF':>11} {'bare':>11} {'ratio':>6} {'target':>7}"
    )
    ok = True
    for key, label, ub, bb, ratio, target in rows:
        unit, scale = ("µs", 1e6) if ub < 1e-3 else ("ms", 1e3)
        flag = "" if ratio <= target else "  over target"
        ok &= ratio <= target
        print(
            f"({key})  {label:<34} {ub * scale:8.3f} {unit} {bb * scale:8.3f} {unit}"
            f" {ratio:5.2f}x {target:5.0f}x{flag}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
