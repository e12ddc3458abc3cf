"""A table's row: one tree for every row, read through the row's cells.

:class:`xlfuncs.templates.table.InRow` is a field's tree in one row, as a
relative reference reads its own row in Excel; its value, its formula, a walk
and a renaming all see that row's cells.
"""

from __future__ import annotations

from xlfuncs.excel.rewrite import rename
from xlfuncs.templates import CHINCHILLA
from xlfuncs.templates.expr import Call, Env, F, Lit, Ref
from xlfuncs.templates.model import Model, SheetCtx
from xlfuncs.templates.table import InRow
from xlfuncs.templates.written import PLAIN


def test_a_row_reads_its_own_cells_in_value_and_formula():
    # One tree for every row, read through the row's names.
    tree = Ref("Tokens") / Ref("Speed") + Ref("Overhead")
    row = InRow(tree, {"Tokens": "Tokens.3", "Speed": "Speed.3"})
    values = {"Tokens.3": 100.0, "Speed.3": 4.0, "Overhead": 1.0, "Tokens": 9.0}
    assert row.value(Env(values)) == 26.0
    places = {"Tokens.3": ("Runs", "E12"), "Speed.3": ("Runs", "H12")}
    ctx = SheetCtx(Model(CHINCHILLA, "en"), places, {"Overhead"}, "Runs")
    assert F.IF(Lit(True), "", row).excel(ctx) == 'IF(TRUE,"",E12/H12+Overhead)'
    # A walk sees the row's own tree, made once.
    assert row.names() == {"Tokens.3", "Speed.3", "Overhead"}
    assert row.children()[0] is row.children()[0]
    assert rename(F.SUM(row, row), {"Overhead": "Extra"}).excel(PLAIN) == (
        "SUM(Tokens.3/Speed.3+Extra,Tokens.3/Speed.3+Extra)"
    )


def test_a_library_call_in_a_row_is_written_out_with_the_row_s_cells():
    # CLUSTER_COST(gpus, days, price) = gpus × days × 24 × price, written out
    # once for every row by the model, then read through the row's cells.
    model = Model(CHINCHILLA, "en")
    tree = model.written(Call("CLUSTER_COST", (Ref("GPUs"), Ref("Days"), Ref("Price"))))
    row = InRow(tree, {"GPUs": "GPUs.2", "Days": "Days.2"})
    values = {"GPUs.2": 8.0, "Days.2": 10.0, "Price": 2.0}
    assert row.value(Env(values)) == 8 * 10 * 24 * 2.0
    places = {"GPUs.2": ("Runs", "C11"), "Days.2": ("Runs", "D11")}
    ctx = SheetCtx(model, places, {"Price"}, "Runs")
    assert row.excel(ctx) == "C11*D11*24*Price"
