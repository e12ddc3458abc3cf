"""The formula engine: Excel formulas as trees, their text and their values.

It knows Excel, not LLMs, and nothing of workbooks or cells:

- :mod:`~xlfuncs.excel.tree`: the nodes (a name, a literal, an operator, a
  function, a library call) and how they print;
- :mod:`~xlfuncs.excel.values` and :mod:`~xlfuncs.excel.builtins` (with
  :mod:`~xlfuncs.excel.criteria` and :mod:`~xlfuncs.excel.dates`): what Excel
  computes from them, specified by ``tests/semantics_spec.py``;
- :mod:`~xlfuncs.excel.parse`: formula text back into a tree;
- :mod:`~xlfuncs.excel.rewrite`: folding constants, renaming, nesting.
"""
