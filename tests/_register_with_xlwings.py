"""Run xlwings' real UDF registration on xlfuncs.udfs (used by test_registration).

xlwings' decorators are no-ops off Windows, so this script stands in the three
pywin32 modules that ``xlwings.udfs`` imports, points ``xlwings.func/arg/ret`` at
``xlwings.udfs.xlfunc/xlarg/xlret`` (what they are on Windows), imports our module
and runs ``xlwings.udfs.generate_vba_wrapper`` as Excel's "Import Functions" does.
It prints JSON: the VBA text and each function's ``__xlfunc__`` record.
"""

from __future__ import annotations

import io
import json
import sys
import types


def stand_in_pywin32() -> None:
    pythoncom = types.ModuleType("pythoncom")
    pythoncom.CoInitialize = lambda: None  # used as a thread-pool initializer
    pywintypes = types.ModuleType("pywintypes")
    win32com = types.ModuleType("win32com")
    client = types.ModuleType("win32com.client")
    client.Dispatch = lambda *a, **k: None
    win32com.client = client
    sys.modules.update(
        {
            "pythoncom": pythoncom,
            "pywintypes": pywintypes,
            "win32com": win32com,
            "win32com.client": client,
        }
    )


def main() -> None:
    stand_in_pywin32()
    import xlwings
    import xlwings.udfs

    xlwings.func = xlwings.udfs.xlfunc
    xlwings.arg = xlwings.udfs.xlarg
    xlwings.ret = xlwings.udfs.xlret

    import xlfuncs.udfs as module

    class Book:  # generate_vba_wrapper only reads .Name
        Name = "xlfuncs.xlam"

    vba = io.StringIO()
    xlwings.udfs.generate_vba_wrapper("xlfuncs.udfs", module, vba, Book())
    funcs = {}
    for name in dir(module):
        info = getattr(getattr(module, name), "__xlfunc__", None)
        if info:
            funcs[name] = {
                "category": info["category"],
                "doc": info["ret"]["doc"],
                "args": [
                    {
                        "name": a["name"],
                        "doc": a["doc"],
                        "optional": "optional" in a,
                        "ndim": a["options"].get("ndim"),
                    }
                    for a in info["args"]
                ],
            }
    json.dump({"vba": vba.getvalue(), "funcs": funcs}, sys.stdout)


if __name__ == "__main__":
    main()
