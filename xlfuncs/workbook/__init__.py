"""Writing workbooks with openpyxl: cells, styles, print set-up, charts, files.

Nothing here knows about LLM planning: :mod:`~xlfuncs.workbook.writer` places
cells on a sheet (columns by name, a row cursor, heights that fit their text,
page breaks between blocks), :mod:`~xlfuncs.workbook.xlsx` saves a workbook with
cached formula values, deterministically and atomically. The template workbooks
and the LAMBDA library are both written through them.
"""
