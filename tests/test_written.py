"""Writing library calls out: once per shape, the same as one at a time.

A budget's rows call the same functions on cells that differ only by row, so
:func:`xlfuncs.templates.written.inline` writes a call out once per shape (its
names as placeholders) and renames the result back. Each case below compares
that with writing the call out by itself (``inline(..., functions=...)``, which
keeps no shapes), on small library functions made up for the case.
"""

from __future__ import annotations

from xlfuncs.registry.excel import ExcelFunction
from xlfuncs.templates import CHINCHILLA
from xlfuncs.templates.expr import Call, Env, F, Lit, Ref
from xlfuncs.templates.model import Model, SheetCtx
from xlfuncs.templates.table import InRow
from xlfuncs.templates.written import PLAIN, _functions, _Shapes, inline, rename

FUNCTIONS = {
    # The library's: CLUSTER_COST calls its sibling CLUSTER_GPU_HOURS, which is
    # gpus*days*24 (a cell may already hold it).
    **_functions(),
    # A comparison that folds when both sides are one name.
    "SAME": ExcelFunction(("a", "b"), {}, "IF(a=b,1,2)"),
    # A body that reads a library name of its own.
    "KEYED": ExcelFunction(("a",), {}, "IF(a=AcceleratorKeys,1,2)"),
}


def written(call: Call, shapes: _Shapes, reuse=None) -> str:
    return shapes.written(call, reuse or {}, FUNCTIONS).excel(PLAIN)


def alone(call: Call, reuse=None) -> str:
    return inline(call, reuse=reuse or {}, functions=FUNCTIONS).excel(PLAIN)


def test_rows_share_a_shape_and_keep_their_own_names():
    shapes = _Shapes()
    for k in (1, 2, 3):
        call = Call("SAME", (Ref(f"A.{k}"), Ref(f"B.{k}")))
        assert written(call, shapes) == alone(call) == f"IF(A.{k}=B.{k},1,2)"
    assert len(shapes.done) == 1  # written out once


def test_one_name_twice_folds_as_written_out_alone():
    shapes = _Shapes()
    written(Call("SAME", (Ref("A.1"), Ref("B.1"))), shapes)
    call = Call("SAME", (Ref("A.2"), Ref("A.2")))  # another shape: a=a
    assert written(call, shapes) == alone(call) == "1"


def test_a_name_the_body_reads_is_not_taken_for_a_placeholder():
    # KEYED(AcceleratorKeys) folds to 1; as a shape, \x000=AcceleratorKeys
    # would not, and renamed back it would read IF(AcceleratorKeys=...,1,2).
    shapes = _Shapes()
    assert (
        written(Call("KEYED", (Ref("GPU.1"),)), shapes)
        == "IF(GPU.1=AcceleratorKeys,1,2)"
    )
    call = Call("KEYED", (Ref("AcceleratorKeys"),))  # the same shape, a hit
    assert written(call, shapes) == alone(call) == "1"
    fresh = _Shapes()  # and the same on a miss
    assert written(call, fresh) == "1"


def test_a_sibling_held_by_a_cell_is_read_from_it_for_that_row_only():
    shapes = _Shapes()
    reuse = {Call("CLUSTER_GPU_HOURS", (Ref("G.2"), Ref("D.2"))): Ref("Hours.2")}
    rows = [Call("CLUSTER_COST", (Ref(f"G.{k}"), Ref(f"D.{k}"), Ref("P")))
            for k in (1, 2, 3)]  # fmt: skip
    got = [written(c, shapes, reuse) for c in rows]
    assert got == [alone(c, reuse) for c in rows]
    assert got == ["G.1*D.1*24*P", "Hours.2*P", "G.3*D.3*24*P"]


def test_a_cell_a_sibling_is_read_from_that_is_also_an_argument():
    # CLUSTER_GPU_HOURS(G, D) held by the cell G itself: G stands for two
    # things in the shape, so the call is written out as it is.
    shapes = _Shapes()
    reuse = {Call("CLUSTER_GPU_HOURS", (Ref("G"), Ref("D"))): Ref("G")}
    call = Call("CLUSTER_COST", (Ref("G"), Ref("D"), Ref("P")))
    assert written(call, shapes, reuse) == alone(call, reuse) == "G*P"


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
