"""The specification of :mod:`~xlfuncs.templates.semantics`: formulas, the
inputs they read, and what Excel, LibreOffice, Gnumeric and IronCalc compute.

Each :class:`Case` is one formula over named inputs (typed in cells), with the
value every engine gives and ours, the value the builder caches. Our value is
Excel's where Microsoft documents it (``source`` quotes where); where Excel's
behaviour is not documented, ``follows`` names the engines we follow; wherever
an engine differs from ours, ``why`` says why we chose as we did. Where Excel
and LibreOffice differ, we follow Excel.

The engine columns are what LibreOffice 7.4 (Debian 12, an "always recalculate"
profile in the en-US or es-ES locale), Gnumeric 1.12.55 (``ssconvert
--recalc``, C or es_ES.UTF-8 locale) and IronCalc 0.9.1 (PyPI ``ironcalc``,
its "en" or "es" locale) gave on these formulas: ``tests/test_semantics_engines.py``
builds one workbook of the table, recalculates it with each engine and checks
every column, and ``tests/test_semantics_spec.py`` checks that semantics.py gives
ours. docs/semantics.md lists the cases where the engines differ.

Microsoft's documents cited (the Excel column), read 2026-12-04:

- FLOAT: "Floating-point arithmetic may give inaccurate results in Excel",
  learn.microsoft.com/troubleshoot/microsoft-365-apps/excel/floating-point-arithmetic-inaccurate-result
  (also MicrosoftDocs/OfficeDocs-Support, Office/Client/excel/).
- LIMITS: "Excel specifications and limits", support.microsoft.com/office/1672b34d-7043-467e-8e27-269d656771c3,
  "Calculation specifications and limits".
- Function pages: support.microsoft.com/office/<name>-function and the
  WorksheetFunction.<Name> pages on learn.microsoft.com/office/vba/api/, which
  carry the same remarks.
- [MS-OI29500]: "Office Implementation Information for ISO/IEC 29500 Standards
  Support", learn.microsoft.com/openspecs/office_standards/ms-oi29500, the notes
  on Part 1 §18.17.7 (the worksheet functions).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from xlfuncs.excel.values import DIV0, NA, NUM, REF, VALUE, XlError

#: A cell's value in the table: a number, text, TRUE/FALSE, None (blank) or an error.
Result: TypeAlias = "float | str | bool | None | XlError"


@dataclass(frozen=True)
class Column:
    """Input cells down a column, read as one range."""

    values: tuple[Any, ...]


@dataclass(frozen=True)
class Across:
    """Input cells along a row, read as one range."""

    values: tuple[Any, ...]


def col(*values: Any) -> Column:
    return Column(values)


def across(*values: Any) -> Across:
    return Across(values)


class _Same:
    """An engine (or Excel) gives what we give."""

    def __repr__(self) -> str:
        return "SAME"


SAME: Any = _Same()
ENGINES = ("libreoffice", "gnumeric", "ironcalc")
NAMES = {
    "excel": "Excel",
    "libreoffice": "LibreOffice",
    "gnumeric": "Gnumeric",
    "ironcalc": "IronCalc",
}


@dataclass(frozen=True)
class Case:
    """One formula: its text with inputs by name, the inputs as typed (a
    number, a text, TRUE/FALSE, None for a blank cell, an error, or a
    :class:`Column` / :class:`Across` of them), the language of the reader,
    and what each engine gives (``SAME``: ours)."""

    name: str
    formula: str
    ours: Result
    inputs: Mapping[str, Any] = field(default_factory=dict)
    lang: str = "en"
    excel: Any = SAME
    #: where Microsoft documents Excel's result; empty when it does not
    source: str = ""
    #: the engines we follow where Excel's result is not documented ("LibreOffice,
    #: Gnumeric", "all three engines"); empty where none gives ours exactly and
    #: ``why`` says what we do
    follows: str = ""
    libreoffice: Any = SAME
    gnumeric: Any = SAME
    ironcalc: Any = SAME
    #: why ours, where an engine (or Excel) differs
    why: str = ""
    topic: str = ""

    def result(self, engine: str) -> Result:
        """What ``engine`` ("excel", "libreoffice", …) gives."""
        got = getattr(self, engine)
        return self.ours if got is SAME else got

    @property
    def documented(self) -> bool:
        return bool(self.source)

    def differing(self) -> list[str]:
        """The engines (and Excel, when documented) whose result is not ours."""
        out = [e for e in ENGINES if not same(self.result(e), self.ours)]
        if self.documented and not same(self.result("excel"), self.ours):
            out.insert(0, "excel")
        return out


def same(a: Result, b: Result) -> bool:
    """Two results agree: equal, numbers to 1e-9 relative (LibreOffice writes
    15 significant digits to the file), an empty text and a blank alike."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b)) or a == b
    if a in ("", None) and b in ("", None):
        return True
    return a == b


# ------------------------------------------------------------------ sources

FLOAT_ZERO = (
    'FLOAT, "Example when a value reaches zero": =1.333+1.225-1.333-1.225 is 0 '
    'in Excel 97 and later; "Should an addition or subtraction operation result '
    'in a value at or very close to zero, Excel 97 and later will compensate"'
)
FLOAT_NEGATIVE = (
    'FLOAT, "Example: Adding a negative number": =(43.1-43.2)+1 shows '
    "0.899999999999999, not 0.9"
)
FLOAT_NO_MINUS_ZERO = (
    'FLOAT, "Underflow": "IEEE has a concept of -0, and Excel does not"'
)
FLOAT_OVERFLOW = 'FLOAT, "Overflow": "Excel uses its own special representation for this case (#NUM!)"'
PRECISION = "LIMITS: number precision 15 digits"
FIXED_PAGE = (
    'FIXED function: "Numbers in Microsoft Excel can never have more than 15 '
    'significant digits, but decimals can be as large as 127"'
)
ROUND_PAGE = (
    "ROUND function, examples: ROUND(2.15, 1) = 2.2, ROUND(-1.475, 2) = -1.48, "
    "ROUND(21.5, -1) = 20, ROUND(626.3, -3) = 1000, ROUND(-50.55, -2) = -100"
)
MOD_PAGE = (
    "MOD function: MOD(-3, 2) = 1, MOD(3, -2) = -1; the result has the sign of "
    'the divisor; "If divisor is 0, MOD returns the #DIV/0! error value"'
)
MATCH_PAGE = (
    'MATCH function: "MATCH does not distinguish between uppercase and lowercase '
    'letters when matching text values"; with match_type 0 a text may use the '
    "wildcards ? and *, and ~ before one finds it"
)
ORDER = (
    "WorksheetFunction.Match (learn.microsoft.com/office/vba/api/excel."
    'worksheetfunction.match): ascending order is "...-2, -1, 0, 1, 2, ..., A-Z, '
    'FALSE, TRUE": numbers, then text, then FALSE and TRUE'
)
TRIM_PAGE = (
    'TRIM function / WorksheetFunction.Trim: "designed to trim the 7-bit ASCII '
    'space character (value 32)"; it does not remove the nonbreaking space (160)'
)
COUNTIF_PAGE = (
    'COUNTIF function / WorksheetFunction.CountIf: criteria "such as 32, \\"32\\", '
    '\\">32\\", \\"apples\\", or B4"; ? and * are wildcards, ~ escapes them'
)
INDEX_PAGE = (
    'INDEX function: "If array contains only one row or column, the corresponding '
    'row_num or column_num argument is optional"; [MS-OI29500] 2.1.973: "Office '
    'treats argument row-number as the column number if there is only one row"'
)
INDEX_REF = (
    'INDEX function: "Row_num and column_num must point to a cell within array; '
    'otherwise, INDEX returns a #REF! error"'
)
INDEX_ZERO = (
    'INDEX function: "If you set row_num or column_num to 0 (zero), INDEX returns '
    'the array of values for the entire column or row"'
)
IFERROR_PAGE = (
    'IFERROR function: "If value or value_if_error is an empty cell, IFERROR '
    'treats it as an empty string value (\\"\\")"'
)
SUM_PAGE = (
    'SUM function: "If an argument is an array or reference, only numbers in that '
    "array or reference are counted. Empty cells, logical values, or text in the "
    'array or reference are ignored"'
)
MAX_PAGE = (
    'MAX function: "Logical values and text representations of numbers that you '
    'type directly into the list of arguments are counted"; in a reference "Empty '
    'cells, logical values, or text ... are ignored"'
)
COUNT_PAGE = (
    'COUNT function: "If an argument is an array or reference, only numbers in that '
    "array or reference are counted. Empty cells, logical values, text, or error values "
    'in the array or reference are not counted."'
)
SUMPRODUCT_PAGE = (
    'SUMPRODUCT function: "SUMPRODUCT treats non-numeric array entries as if they '
    'were zeros"'
)
IS_PAGE = (
    'IS functions: "in most other functions where a number is required, the text '
    'value \\"19\\" is converted to the number 19. However, in the formula '
    'ISNUMBER(\\"19\\"), \\"19\\" is not converted"'
)
VALUE_PAGE = (
    'VALUE function: text "can be in any of the constant number, date, or time '
    'formats recognized by Microsoft Excel"; [MS-OI29500] 2.1.1061: otherwise '
    "#VALUE!"
)
POWER_NOTE = '[MS-OI29500] 2.1.1018: "Office returns #NUM! for POWER(0,0)"'
SQRT_PAGE = 'SQRT function: "If number is negative, SQRT returns the #NUM! error value"'
LEFT_PAGE = (
    'LEFT function: "Num_chars must be greater than or equal to zero" (else #VALUE!)'
)
LARGE_PAGE = (
    'LARGE function: "If k ≤ 0 or if k is greater than the number of data points, '
    'LARGE returns the #NUM! error value"'
)
DATE_PAGE = (
    'DATE function: "If year is between 0 (zero) and 1899 (inclusive), Excel adds '
    'that value to 1900"; a month past 12 rolls into the next year; "January 1, '
    '1900 is serial number 1"'
)
LEAP_1900 = (
    '"Excel incorrectly assumes that the year 1900 is a leap year" (learn.microsoft'
    ".com/troubleshoot/microsoft-365-apps/excel/wrongly-assumes-1900-is-leap-year): "
    "serial 60 is 29 February 1900"
)
CHAR_PAGE = (
    'CHAR function: the character "from the character set used by your computer" '
    "(Windows ANSI: 160 is the nonbreaking space; Macintosh character set: it is not)"
)

NBSP, THIN, IDEOGRAPHIC = "\u00a0", "\u2009", "\u3000"
EFFICIENCY = 1.000000000000001  # the issue's --set Efficiency=1.000000000000001


def _cases() -> list[Case]:
    c = Case
    return [
        # ---------------------------------------------- bounds to 15 digits
        c("le-literal-16-digits", "1.000000000000001<=1", True,
          topic="Bounds to 15 digits", excel=SAME, source=PRECISION,
          gnumeric=False,
          why="Excel keeps 15 significant digits (typed 1.000000000000001 is 1); "
              "LibreOffice and IronCalc compare to about 15 digits; Gnumeric "
              "compares the doubles exactly"),
        c("efficiency-check", "AND(Efficiency>0,Efficiency<=1)", True,
          {"Efficiency": EFFICIENCY}, topic="Bounds to 15 digits",
          source=PRECISION, gnumeric=False,
          why="the issue's --set Efficiency=1.000000000000001: the input check "
              "passes as in LibreOffice and IronCalc; Gnumeric's exact "
              "comparison would fail it"),
        c("equal-16-digits", "Efficiency=1", True, {"Efficiency": EFFICIENCY},
          topic="Bounds to 15 digits", source=PRECISION, gnumeric=False,
          why="as above: equal to 15 significant digits"),
        c("greater-16-digits", "Efficiency>1", False, {"Efficiency": EFFICIENCY},
          topic="Bounds to 15 digits", source=PRECISION, gnumeric=True,
          why="as above"),
        c("subtract-to-zero", "Efficiency-1", 0.0, {"Efficiency": EFFICIENCY},
          topic="Bounds to 15 digits", source=FLOAT_ZERO,
          gnumeric=9.999596636833807e-16, ironcalc=1.1102230246251565e-15,
          why="Excel's documented compensation near zero (LibreOffice's "
              "approxSub); Gnumeric computes in long double, IronCalc exactly"),
        c("sum-to-zero", "1.333+1.225-1.333-1.225", 0.0,
          topic="Bounds to 15 digits", source=FLOAT_ZERO,
          gnumeric=-1.0842021724855044e-19, ironcalc=-2.220446049250313e-16,
          why="Microsoft's own example: 0 in Excel 97 and later"),
        c("adding-a-negative", "(43.1-43.2)+1", 0.8999999999999986,
          topic="Bounds to 15 digits", source=FLOAT_NEGATIVE, gnumeric=0.9,
          why="Microsoft's own example: the error of -0.1 stays (Gnumeric's long "
              "double hides it)"),
        c("tenths-sum-to-zero", "0.1+0.2-0.3", 0.0, topic="Bounds to 15 digits",
          source=FLOAT_ZERO, ironcalc=5.551115123125783e-17,
          why="Excel's compensation near zero; IronCalc has none"),
        c("tenths-equal", "0.1+0.2=0.3", True, topic="Bounds to 15 digits",
          source=PRECISION),
        c("whole-number-check", "GPUs=INT(GPUs)", True,
          {"GPUs": 2.9999999999999996}, topic="Bounds to 15 digits",
          follows="LibreOffice, Gnumeric, IronCalc",
          why="INT works on the 15-digit value (LibreOffice's approxFloor), so "
              "a count one binary step below 3 passes a whole-number check"),
        c("int-below-one", "INT(x)", 1.0, {"x": 0.99999999999999989},
          topic="Bounds to 15 digits", follows="LibreOffice", gnumeric=0.0,
          ironcalc=0.0,
          why="LibreOffice's approxFloor: to 15 digits this is 1 (Excel shows "
              "1.00000000000000)"),
        c("int-large", "INT(x)", 123456789012345.0, {"x": 123456789012345.7},
          topic="Bounds to 15 digits", follows="all three engines"),
        c("int-huge-check", "GPUs=INT(GPUs)", True, {"GPUs": 1e30},
          topic="Bounds to 15 digits", follows="all three engines"),
        c("tiny-is-not-zero", "x=0", False, {"x": 1e-300},
          topic="Bounds to 15 digits", follows="LibreOffice, Gnumeric",
          ironcalc=True, why="the tolerance is relative: 1E-300 is not 0"),
        c("tiny-above-zero", "x>0", True, {"x": 1e-300},
          topic="Bounds to 15 digits", follows="LibreOffice, Gnumeric",
          ironcalc=False, why="as above"),
        c("overflow", "1E+308*10", NUM, topic="Bounds to 15 digits",
          source=FLOAT_OVERFLOW, gnumeric=float("inf"),
          why="Excel has no infinity (Gnumeric writes inf to the file)"),
        # ---------------------------------------------- case beyond ASCII
        c("equal-e-acute", '"É"="é"', True, topic="Case beyond ASCII",
          source=MATCH_PAGE),
        c("match-e-acute", 'MATCH("É",Keys,0)', 2.0, {"Keys": col("a", "é")},
          topic="Case beyond ASCII", source=MATCH_PAGE),
        c("countif-e-acute", 'COUNTIF(Keys,"É")', 1.0, {"Keys": col("a", "é")},
          topic="Case beyond ASCII", source=COUNTIF_PAGE),
        c("sharp-s", '"STRASSE"="straße"', False, topic="Case beyond ASCII",
          follows="LibreOffice", gnumeric=True, ironcalc=True,
          why="ß has no one-letter capital: not SS"),
        c("match-sharp-s", 'MATCH("STRASSE",Keys,0)', NA, {"Keys": col("straße")},
          topic="Case beyond ASCII", follows="LibreOffice, IronCalc", gnumeric=1.0,
          why="as above"),
        c("dotless-i", '"I"="ı"', True, topic="Case beyond ASCII",
          follows="LibreOffice, IronCalc", gnumeric=False,
          why="the capital of Turkish ı is I"),
        c("dotted-capital-i", '"İ"="i"', False, topic="Case beyond ASCII",
          follows="all three engines"),
        c("match-dotted-capital-i", 'MATCH("İ",Keys,0)', NA, {"Keys": col("i")},
          topic="Case beyond ASCII", follows="all three engines"),
        c("final-sigma", '"Σ"="ς"', True, topic="Case beyond ASCII",
          follows="all three engines"),
        c("accent-is-a-letter", '"e"="é"', False, topic="Case beyond ASCII",
          follows="all three engines"),
        c("decomposed-accent", 'x="é"', False, {"x": "e\u0301"},
          topic="Case beyond ASCII", follows="LibreOffice, IronCalc",
          gnumeric=True, why="no Unicode normalization: e + U+0301 is two "
                             "characters"),
        c("order-case", '"a"<"B"', True, topic="Case beyond ASCII",
          follows="all three engines"),
        c("order-accent", '"ä"<"b"', True, topic="Case beyond ASCII",
          follows="LibreOffice", gnumeric=False, ironcalc=False,
          why="text orders as a collation does, accents after letters (LibreOffice; "
              "Excel sorts so too); no template orders text"),
        c("order-accent-last", '"z"<"é"', False, topic="Case beyond ASCII",
          follows="LibreOffice", gnumeric=True, ironcalc=True, why="as above"),
        c("order-underscore", '"_"<"a"', True, topic="Case beyond ASCII",
          follows="LibreOffice, Gnumeric", ironcalc=False,
          why="as above: punctuation before letters"),
        # ---------------------------------------------- Unicode spaces
        c("trim-nbsp", "LEN(TRIM(Name))", 6.0, {"Name": f"{NBSP}H100{NBSP}"},
          topic="Unicode spaces", source=TRIM_PAGE, gnumeric=4.0,
          why="Excel's TRIM removes U+0020 only; Gnumeric's removes all white "
              "space. The templates remove NBSP with SUBSTITUTE(…,UNICHAR(160),\"\")"),
        c("trim-thin-space", "LEN(TRIM(Name))", 6.0, {"Name": f"{THIN}H100{THIN}"},
          topic="Unicode spaces", source=TRIM_PAGE, gnumeric=4.0, why="as above"),
        c("trim-ideographic-space", "LEN(TRIM(Name))", 6.0,
          {"Name": f"{IDEOGRAPHIC}H100{IDEOGRAPHIC}"}, topic="Unicode spaces",
          source=TRIM_PAGE, gnumeric=4.0, why="as above"),
        c("trim-tab", "LEN(TRIM(Name))", 6.0, {"Name": "\tH100\t"},
          topic="Unicode spaces", source=TRIM_PAGE, gnumeric=4.0, why="as above"),
        c("trim-inner", "TRIM(Name)", "a b", {"Name": "  a   b  "},
          topic="Unicode spaces", source=TRIM_PAGE),
        c("substitute-nbsp", 'LEN(SUBSTITUTE(Name,UNICHAR(160),""))', 4.0,
          {"Name": f"{NBSP}H100"}, topic="Unicode spaces",
          follows="all three engines"),
        c("match-trailing-nbsp", "MATCH(Name,Keys,0)", NA,
          {"Name": f"H100{NBSP}", "Keys": col("H100")}, topic="Unicode spaces",
          follows="all three engines"),
        c("char-160", "CHAR(160)=UNICHAR(160)", True, topic="Unicode spaces",
          source=CHAR_PAGE, libreoffice=False,
          why="Excel on Windows; CHAR reads the system's code page, so the "
              "templates write UNICHAR above 127 (registry.excel.char)"),
        # ---------------------------------------------- numbers as text
        c("text-third", '1/3&""', "0.333333333333333", topic="Numbers as text",
          source=PRECISION, gnumeric="0.33333333333333333334",
          ironcalc="0.3333333333333333",
          why="15 significant digits, as Excel holds numbers"),
        c("text-tenths", '0.1+0.2&""', "0.3", topic="Numbers as text",
          source=PRECISION, ironcalc="0.30000000000000004", why="as above"),
        c("text-1e20", '1E+20&""', "1E+20", topic="Numbers as text",
          libreoffice="1E+020",
          gnumeric="100000000000000000000", ironcalc="100000000000000000000",
          why="LibreOffice's rule for when to write an exponent, with two "
              "exponent digits, as Excel's Scientific format shows them (1.23E+10)"),
        c("text-1e15", '1E+15&""', "1000000000000000", topic="Numbers as text",
          follows="all three engines"),
        c("text-2-to-53", '2^53&""', "9.00719925474099E+15",
          topic="Numbers as text", libreoffice="9.00719925474099E+015",
          gnumeric="9007199254740992",
          ironcalc="9007199254740992",
          why="past 2^53 a whole number is no longer exact: 15 digits, with an "
              "exponent from 1E+15 as LibreOffice (two exponent digits)"),
        c("text-1e-5", '0.00001&""', "0.00001", topic="Numbers as text",
          follows="LibreOffice, IronCalc", gnumeric="1e-05",
          why="decimals down to 1E-14, as LibreOffice writes them"),
        c("text-1e-14", '1E-14&""', "0.00000000000001", topic="Numbers as text",
          follows="LibreOffice, IronCalc", gnumeric="1e-14", why="as above"),
        c("text-1e-20", '1E-20&""', "1E-20", topic="Numbers as text",
          libreoffice="1E-020", gnumeric="1e-20",
          ironcalc="0.00000000000000000001", why="as 1E+20"),
        c("text-long-tiny", '1.23456789012345E-8&""', "0.00000001234567890123",
          topic="Numbers as text", follows="LibreOffice",
          gnumeric="1.23456789012345e-08", ironcalc="0.0000000123456789012345",
          why="LibreOffice writes at most 20 decimal places"),
        c("text-minus-zero", 'x&""', "0", {"x": -0.0}, topic="Numbers as text",
          source=FLOAT_NO_MINUS_ZERO, ironcalc="-0", why="Excel has no -0"),
        c("text-minus-zero-formula", '-0&""', "0", topic="Numbers as text",
          source=FLOAT_NO_MINUS_ZERO, ironcalc="-0", why="as above"),
        c("text-16-digit-input", 'Efficiency&""', "1", {"Efficiency": EFFICIENCY},
          topic="Numbers as text", source=PRECISION,
          gnumeric="1.000000000000001", ironcalc="1.000000000000001",
          why="15 significant digits"),
        c("text-true", 'TRUE&""', "TRUE", topic="Numbers as text",
          follows="Gnumeric, IronCalc", libreoffice="1",
          why="LibreOffice has no logical type (TRUE is 1)"),
        c("text-blank", 'x&""', "", {"x": None}, topic="Numbers as text",
          follows="all three engines"),
        c("length-of-number", "LEN(1/3)", 17.0, topic="Numbers as text",
          source=PRECISION, gnumeric=22.0, ironcalc=18.0,
          why="LEN of the 15-digit text"),
        # ---------------------------------------------- text length
        c("len-emoji", "LEN(Currency)", 2.0, {"Currency": "😀"}, topic="Text length",
          libreoffice=1.0, gnumeric=1.0, ironcalc=1.0,
          why="Excel holds text in UTF-16 and LEN counts its units (not "
              "documented; widely reported), so a character beyond the BMP "
              "counts 2 against a 12-character limit. No engine here does"),
        c("len-unichar-emoji", "LEN(UNICHAR(128512))", 2.0, topic="Text length",
          libreoffice=1.0, gnumeric=1.0, ironcalc=1.0, why="as above"),
        c("left-emoji", "LEN(LEFT(Currency,2))", 2.0, {"Currency": "😀a"},
          topic="Text length", follows="all three engines",
          why="LEFT counts UTF-16 units as LEN does: the 2 units of the emoji"),
        c("len-combining", "LEN(x)", 2.0, {"x": "e\u0301"}, topic="Text length",
          follows="all three engines"),
        c("left-negative", 'LEFT("abc",-1)', VALUE, topic="Text length",
          source=LEFT_PAGE),
        # ---------------------------------------------- text as a number
        c("text-8-plus", "GPUs+1", 9.0, {"GPUs": "8"}, topic="Text as a number",
          source=IS_PAGE),
        c("text-spaced-8", "GPUs+1", 9.0, {"GPUs": " 8 "}, topic="Text as a number",
          follows="all three engines"),
        c("text-nbsp-8", "GPUs+1", 9.0, {"GPUs": f"{NBSP}8"},
          topic="Text as a number", follows="all three engines"),
        c("text-tab-8", "GPUs+1", VALUE, {"GPUs": "\t8"}, topic="Text as a number",
          follows="LibreOffice", gnumeric=9.0, ironcalc=9.0,
          why="only spaces around a number"),
        c("text-exponent", "x+1", 1001.0, {"x": "1e3"}, topic="Text as a number",
          source=VALUE_PAGE),
        c("text-decimal", "x+1", 2.5, {"x": "1.5"}, topic="Text as a number",
          source=VALUE_PAGE),
        c("text-decimal-comma-en", "x+1", VALUE, {"x": "1,5"},
          topic="Text as a number", follows="all three engines"),
        c("text-thousands", "x+1", 1001.0, {"x": "1,000"}, topic="Text as a number",
          source=VALUE_PAGE),
        c("text-percent", "x+1", 1.5, {"x": "50%"}, topic="Text as a number",
          source=VALUE_PAGE),
        c("text-dollars", "x+1", 5.0, {"x": "$4.00"}, topic="Text as a number",
          source=VALUE_PAGE),
        c("text-brackets", "x+1", -4.0, {"x": "(5)"}, topic="Text as a number",
          follows="LibreOffice, Gnumeric", ironcalc=VALUE,
          why="(5) is -5 in an accounting format"),
        c("text-iso-date", "x+1", 46024.0, {"x": "2026-01-01"},
          topic="Text as a number", source=VALUE_PAGE),
        c("text-word", "x+1", VALUE, {"x": "eight"}, topic="Text as a number",
          source=VALUE_PAGE),
        c("text-true-plus", '"TRUE"+1', VALUE, topic="Text as a number",
          follows="IronCalc", libreoffice=2.0, gnumeric=2.0,
          why="TRUE is no number, date or time (VALUE's formats)"),
        c("text-too-big", "x+1", VALUE, {"x": "1e400"}, topic="Text as a number",
          source="LIMITS: largest number 9.99999999999999E+307",
          libreoffice=1.7976931348623157e308, gnumeric=float("inf"),
          why="no cell holds it"),
        c("empty-text-plus", '""+1', VALUE, topic="Text as a number",
          follows="all three engines"),
        c("isnumber-of-text", "ISNUMBER(GPUs)", False, {"GPUs": "8"},
          topic="Text as a number", source=IS_PAGE),
        c("if-text-true", "IF(x,1,2)", 1.0, {"x": "true"}, topic="Text as a number",
          follows="all three engines"),
        c("if-text-one", "IF(x,1,2)", VALUE, {"x": "1"}, topic="Text as a number",
          follows="IronCalc", libreoffice=1.0, gnumeric=2.0,
          why="a condition reads TRUE/FALSE or a number, not a number in text"),
        c("not-text-true", "NOT(x)", False, {"x": "TRUE"}, topic="Text as a number",
          follows="all three engines"),
        # ---------------------------------------------- decimal commas
        c("es-text-quarter", '1/4&""', "0,25", lang="es", topic="Decimal commas",
          follows="LibreOffice, Gnumeric", ironcalc="0.25",
          why="the reader's separators (IronCalc 0.9 writes English ones)"),
        c("es-text-cell", 'x&""', "1,5", {"x": 1.5}, lang="es",
          topic="Decimal commas", follows="LibreOffice, Gnumeric", ironcalc="1.5",
          why="as above"),
        c("es-text-1e20", '1E+20&""', "1E+20", lang="es", topic="Decimal commas",
          libreoffice="1E+020",
          gnumeric="100000000000000000000", ironcalc="100000000000000000000",
          why="as in English"),
        c("es-fixed", "FIXED(1234.5,1)", "1.234,5", lang="es", topic="Decimal commas",
          follows="LibreOffice, Gnumeric", ironcalc="1,234.5",
          why="FIXED writes the reader's separators (Microsoft's page says "
              "\"a period and commas\", the English ones)"),
        c("es-fixed-negative", "FIXED(-1234567.891,2)", "-1.234.567,89", lang="es",
          topic="Decimal commas", follows="LibreOffice, Gnumeric",
          ironcalc="-1,234,567.89", why="as above"),
        c("es-fixed-no-commas", "FIXED(1234.5,1,TRUE)", "1234,5", lang="es",
          topic="Decimal commas", follows="LibreOffice, Gnumeric",
          ironcalc="1234.5", why="as above"),
        c("es-text-decimal-comma", "x+1", 2.5, {"x": "1,5"}, lang="es",
          topic="Decimal commas", source=VALUE_PAGE),
        c("es-text-decimal-point", "x+1", VALUE, {"x": "1.5"}, lang="es",
          topic="Decimal commas", follows="LibreOffice, Gnumeric", ironcalc=2.5,
          why="in Spanish the point groups thousands, in threes"),
        c("es-countif-decimal-comma", 'COUNTIF(Runs,">=1,5")', 2.0,
          {"Runs": col(1.5, 1.4, 2)}, lang="es", topic="Decimal commas",
          follows="LibreOffice, Gnumeric", ironcalc=0.0,
          why="a criterion's number in the reader's language"),
        c("es-countif-decimal-point", 'COUNTIF(Runs,">=1.5")', 0.0,
          {"Runs": col(1.5, 1.4, 2)}, lang="es", topic="Decimal commas",
          follows="LibreOffice, Gnumeric", ironcalc=2.0, why="as above"),
        c("es-substitute-number", 'SUBSTITUTE(1.5,",","x")', "1x5", lang="es",
          topic="Decimal commas", follows="LibreOffice, Gnumeric", ironcalc="1.5",
          why="a number as text has the reader's decimal separator"),
        c("es-text-true", 'TRUE&""', "VERDADERO", lang="es", topic="Decimal commas",
          follows="Gnumeric", libreoffice="1", ironcalc="TRUE",
          why="Excel writes TRUE in the reader's language"),
        # ---------------------------------------------- comparisons
        c("text-8-equals-8", "GPUs=8", False, {"GPUs": "8"},
          topic="Text against numbers", source=ORDER),
        c("text-above-numbers", "x<1", False, {"x": "a"},
          topic="Text against numbers", source=ORDER),
        c("empty-text-above-numbers", '"">1E+300', True,
          topic="Text against numbers", source=ORDER),
        c("true-above-text", 'TRUE>"z"', True, topic="Text against numbers",
          source=ORDER, libreoffice=False,
          why="LibreOffice has no logical type: TRUE is 1"),
        c("true-is-not-1", "TRUE=1", False, topic="Text against numbers",
          source=ORDER, libreoffice=True, why="as above"),
        c("true-is-not-text", 'TRUE="TRUE"', False, topic="Text against numbers",
          source=ORDER),
        # ---------------------------------------------- blanks
        c("blank-plus", "x+1", 1.0, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("blank-equals-0", "x=0", True, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("blank-equals-empty", 'x=""', True, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("blank-equals-false", "x=FALSE", True, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("blank-before-a", 'x<"a"', True, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("blank-shown", "x", 0.0, {"x": None}, topic="Blanks",
          follows="all three engines",
          why="a formula ending in a blank cell shows 0 (semantics.as_cell)"),
        c("blank-through-if", "IF(TRUE,x)", 0.0, {"x": None}, topic="Blanks",
          follows="all three engines", why="as above"),
        c("blank-through-index", "INDEX(Runs,1)", 0.0, {"Runs": col(None, 2)},
          topic="Blanks", follows="all three engines", why="as above"),
        c("blank-through-iferror", 'IFERROR(x,"e")', "", {"x": None},
          topic="Blanks", source=IFERROR_PAGE, libreoffice=0.0, ironcalc=0.0,
          why="Microsoft's IFERROR page; LibreOffice and IronCalc show 0"),
        c("blank-isblank", "ISBLANK(x)", True, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("empty-text-isblank", 'ISBLANK("")', False, topic="Blanks",
          follows="all three engines"),
        c("blank-len", "LEN(x)", 0.0, {"x": None}, topic="Blanks",
          follows="all three engines"),
        c("blank-max-reference", "MAX(x,-5)", -5.0, {"x": None}, topic="Blanks",
          source=MAX_PAGE),
        c("blank-min-reference", "MIN(x,5)", 5.0, {"x": None}, topic="Blanks",
          source=MAX_PAGE),
        c("text-sum-reference", "SUM(x,1)", 1.0, {"x": "3"}, topic="Blanks",
          source=SUM_PAGE),
        c("true-sum-reference", "SUM(x,1)", 1.0, {"x": True}, topic="Blanks",
          source=SUM_PAGE, libreoffice=2.0,
          why="LibreOffice has no logical type: TRUE is the number 1"),
        c("true-sum-typed", "SUM(TRUE,1)", 2.0, topic="Blanks", source=MAX_PAGE,
          gnumeric=1.0, why="typed in the formula, TRUE counts"),
        c("text-max-typed", 'MAX("3",1)', 3.0, topic="Blanks", source=MAX_PAGE,
          libreoffice=VALUE, gnumeric=1.0, why="as above"),
        c("true-max-reference", "MAX(x,0.5)", 0.5, {"x": True}, topic="Blanks",
          source=MAX_PAGE, libreoffice=True,
          why="LibreOffice counts TRUE as 1 (and shows the result as TRUE)"),
        c("sum-range-text", "SUM(Runs)", 2.0, {"Runs": col(None, "a", 2)},
          topic="Blanks", source=SUM_PAGE),
        c("sumproduct-text", "SUMPRODUCT(Runs,Costs)", 1.0,
          {"Runs": col(1, "2", True), "Costs": col(1, 1, 1)}, topic="Blanks",
          source=SUMPRODUCT_PAGE, libreoffice=2.0,
          why="LibreOffice reads the text 2 as a number"),
        c("count-numbers-only", "COUNT(Runs)", 2.0,
          {"Runs": col(1, "2", None, True, "", 3.5)}, topic="Blanks", source=COUNT_PAGE,
          libreoffice=3.0, why="LibreOffice reads the text 2 as a number"),
        # ---------------------------------------------- criteria
        c("countif-error-star", 'COUNTIF(Checks,"Error*")', 2.0,
          {"Checks": col("Error: x", "OK", "error", "Warning")},
          topic="Criteria and wildcards", source=COUNTIF_PAGE),
        c("countif-question-mark", 'COUNTIF(Checks,"?K")', 2.0,
          {"Checks": col("OK", "OKK", "ok")}, topic="Criteria and wildcards",
          source=COUNTIF_PAGE),
        c("countif-tilde", 'COUNTIF(Checks,"~*")', 1.0, {"Checks": col("*", "a")},
          topic="Criteria and wildcards", source=COUNTIF_PAGE),
        c("countif-above-0", 'COUNTIF(Runs,">0")', 1.0,
          {"Runs": col(1, -1, "5", None, True)}, topic="Criteria and wildcards",
          source=COUNTIF_PAGE, libreoffice=2.0,
          why="LibreOffice counts TRUE as 1; numbers only"),
        c("countif-number-text-criterion", 'COUNTIF(Runs,"8")', 2.0,
          {"Runs": col(8, "8")}, topic="Criteria and wildcards",
          source=COUNTIF_PAGE),
        c("countif-number-criterion", "COUNTIF(Runs,8)", 2.0,
          {"Runs": col(8, "8", 8.0)}, topic="Criteria and wildcards",
          follows="LibreOffice", gnumeric=3.0, ironcalc=3.0,
          why="a number criterion counts numbers, not text"),
        c("countif-equal-number", 'COUNTIF(Runs,"=8")', 2.0,
          {"Runs": col(8, "8", "08")}, topic="Criteria and wildcards",
          follows="LibreOffice", gnumeric=3.0, ironcalc=3.0,
          why="the number 8, and the text 8 as text (not 08)"),
        c("countif-not-a", 'COUNTIF(Kinds,"<>a")', 3.0,
          {"Kinds": col("a", "b", None, 1)}, topic="Criteria and wildcards",
          source=COUNTIF_PAGE, ironcalc=1.0,
          why="everything that is not a: blanks and numbers too"),
        c("countif-empty", 'COUNTIF(Kinds,"")', 1.0, {"Kinds": col("a", None, 0)},
          topic="Criteria and wildcards", follows="all three engines"),
        c("countif-equal-nothing", 'COUNTIF(Kinds,"=")', 1.0,
          {"Kinds": col(None, "a", 0)}, topic="Criteria and wildcards",
          follows="all three engines"),
        c("countif-not-nothing", 'COUNTIF(Kinds,"<>")', 2.0,
          {"Kinds": col(None, "a", 0)}, topic="Criteria and wildcards",
          follows="all three engines"),
        c("countif-text-above", 'COUNTIF(Kinds,">b")', 1.0,
          {"Kinds": col("a", "c", "B", 5)}, topic="Criteria and wildcards",
          follows="all three engines"),
        c("countif-text-at-least", 'COUNTIF(Kinds,">=a")', 2.0,
          {"Kinds": col(1, "b", "A")}, topic="Criteria and wildcards",
          follows="LibreOffice, Gnumeric", ironcalc=1.0,
          why="case ignored in text comparisons"),
        c("countif-equal-a", 'COUNTIF(Kinds,"=a")', 2.0,
          {"Kinds": col("a", "A", "ab")}, topic="Criteria and wildcards",
          source=COUNTIF_PAGE),
        c("countif-equal-wildcard", 'COUNTIF(Kinds,"=a*")', 1.0,
          {"Kinds": col("ab", "b")}, topic="Criteria and wildcards",
          follows="LibreOffice, IronCalc", gnumeric=0.0,
          why="the wildcards after an operator too"),
        c("countif-not-wildcard", 'COUNTIF(Kinds,"<>a*")', 2.0,
          {"Kinds": col("ab", "b", None)}, topic="Criteria and wildcards",
          follows="LibreOffice, IronCalc", gnumeric=3.0, why="as above"),
        c("countif-wildcard-number", 'COUNTIF(Kinds,"1*")', 1.0,
          {"Kinds": col(10, "10")}, topic="Criteria and wildcards",
          follows="Gnumeric, IronCalc", libreoffice=2.0,
          why="wildcards match text, not numbers"),
        c("countif-true", "COUNTIF(Kinds,TRUE)", 1.0,
          {"Kinds": col(True, 1, "TRUE")}, topic="Criteria and wildcards",
          follows="Gnumeric, IronCalc", libreoffice=2.0,
          why="LibreOffice has no logical type: TRUE is 1"),
        c("countif-percent", 'COUNTIF(Runs,">50%")', 1.0, {"Runs": col(0.6, 0.4)},
          topic="Criteria and wildcards", follows="LibreOffice, Gnumeric",
          ironcalc=0.0, why="the criterion's number read as VALUE reads it"),
        c("countif-thousands", 'COUNTIF(Runs,">1,000")', 1.0,
          {"Runs": col(2000, 5)}, topic="Criteria and wildcards",
          follows="LibreOffice, Gnumeric", ironcalc=0.0, why="as above"),
        c("countif-16-digits", "COUNTIF(Runs,1)", 1.0, {"Runs": col(EFFICIENCY)},
          topic="Criteria and wildcards", source=PRECISION, gnumeric=0.0,
          ironcalc=0.0, why="equal to 15 digits, as ="),
        c("countif-error-cell", 'COUNTIF(Kinds,"a")', 1.0,
          {"Kinds": col("a", NA)}, topic="Criteria and wildcards",
          follows="all three engines"),
        c("sumif-wildcard", 'SUMIF(Kinds,"r*",Costs)', 101.0,
          {"Kinds": col("reserved", "on demand", "R"), "Costs": col(1, 10, 100)},
          topic="Criteria and wildcards", source=COUNTIF_PAGE),
        c("sumif-not-a", 'SUMIF(Kinds,"<>a",Costs)', 110.0,
          {"Kinds": col("a", "b", None), "Costs": col(1, 10, 100)},
          topic="Criteria and wildcards", source=COUNTIF_PAGE, ironcalc=10.0,
          why="as COUNTIF: a blank is not a"),
        c("sumif-number-criterion", "SUMIF(Codes,2,Costs)", 1.0,
          {"Codes": col(2, "2", 3), "Costs": col(1, 10, 100)},
          topic="Criteria and wildcards", follows="LibreOffice", gnumeric=11.0,
          ironcalc=11.0, why="as COUNTIF(…, 8)"),
        c("sumif-above-0", 'SUMIF(Runs,">1")', 5.0, {"Runs": col(1, 2, 3, "4")},
          topic="Criteria and wildcards", source=COUNTIF_PAGE),
        c("sumif-text-in-sum", 'SUMIF(Kinds,"a",Costs)', 1.0,
          {"Kinds": col("a", "a"), "Costs": col(1, "2")},
          topic="Criteria and wildcards", source=SUM_PAGE),
        c("match-wildcard", 'MATCH("H*",Keys,0)', 2.0, {"Keys": col("A100", "H100")},
          topic="Criteria and wildcards", source=MATCH_PAGE),
        c("match-escaped-wildcard", 'MATCH("H~*",Keys,0)', NA,
          {"Keys": col("H100")}, topic="Criteria and wildcards",
          source=MATCH_PAGE),
        c("match-question-mark-emoji", 'MATCH("?",Keys,0)', 1.0,
          {"Keys": col("😀")}, topic="Criteria and wildcards",
          follows="all three engines", why="? is one character, not one unit"),
        c("match-text-8", 'MATCH("8",Keys,0)', 2.0, {"Keys": col(8, "8")},
          topic="Criteria and wildcards", source=ORDER, libreoffice=1.0,
          why="text is not a number"),
        c("match-true", "MATCH(TRUE,Keys,0)", 2.0, {"Keys": col(1, True)},
          topic="Criteria and wildcards", source=ORDER, libreoffice=1.0,
          why="LibreOffice has no logical type: TRUE is 1"),
        c("match-star-number", 'MATCH("*",Keys,0)', 2.0, {"Keys": col(1, "a")},
          topic="Criteria and wildcards", source=MATCH_PAGE, libreoffice=1.0,
          why="a text and its wildcards match text"),
        c("match-blank", "MATCH(x,Keys,0)", NA, {"x": None, "Keys": col(0, None)},
          topic="Criteria and wildcards", follows="all three engines"),
        c("match-16-digits", "MATCH(Efficiency,Keys,0)", 1.0,
          {"Efficiency": EFFICIENCY, "Keys": col(1)},
          topic="Criteria and wildcards", source=PRECISION, gnumeric=NA,
          ironcalc=NA, why="equal to 15 digits, as ="),
        # ---------------------------------------------- INDEX
        c("index-row-one-index", "INDEX(Row,2)", 20.0, {"Row": across(10, 20, 30)},
          topic="INDEX", source=INDEX_PAGE, gnumeric=REF,
          why="Gnumeric reads the index as a row number: the templates write "
              "INDEX(row,1,k), which all agree on"),
        c("index-row-two-indexes", "INDEX(Row,1,2)", 20.0,
          {"Row": across(10, 20, 30)}, topic="INDEX", source=INDEX_PAGE),
        c("index-column", "INDEX(Runs,2)", 20.0, {"Runs": col(10, 20, 30)},
          topic="INDEX", source=INDEX_PAGE),
        c("index-past-the-end", "INDEX(Runs,4)", REF, {"Runs": col(10, 20, 30)},
          topic="INDEX", source=INDEX_REF, libreoffice=VALUE,
          why="Microsoft's INDEX page"),
        c("index-zero", "INDEX(Runs,0)", 10.0, {"Runs": col(10)}, topic="INDEX",
          source=INDEX_ZERO, gnumeric=REF, why="the whole column: one cell"),
        c("index-fraction", "INDEX(Runs,2.9)", 20.0, {"Runs": col(10, 20, 30)},
          topic="INDEX", follows="all three engines"),
        c("index-text", 'INDEX(Runs,"2")', 20.0, {"Runs": col(10, 20, 30)},
          topic="INDEX", source=IS_PAGE),
        # ---------------------------------------------- ROUND
        c("round-half", "ROUND(2.5,0)", 3.0, topic="Rounding",
          follows="all three engines"),
        c("round-minus-half", "ROUND(-2.5,0)", -3.0, topic="Rounding",
          follows="all three engines"),
        c("round-2.15", "ROUND(2.15,1)", 2.2, topic="Rounding", source=ROUND_PAGE),
        c("round-minus-1.475", "ROUND(-1.475,2)", -1.48, topic="Rounding",
          source=ROUND_PAGE),
        c("round-1.005", "ROUND(1.005,2)", 1.01, topic="Rounding",
          follows="all three engines"),
        c("round-21.5-tens", "ROUND(21.5,-1)", 20.0, topic="Rounding",
          source=ROUND_PAGE),
        c("round-626.3-thousands", "ROUND(626.3,-3)", 1000.0, topic="Rounding",
          source=ROUND_PAGE),
        c("round-minus-50.55", "ROUND(-50.55,-2)", -100.0, topic="Rounding",
          source=ROUND_PAGE),
        c("round-1e30", "ROUND(1E+30,2)", 1e30, topic="Rounding",
          follows="all three engines",
          why="1E+30 (--set GPUs=1e30) was an internal error before"),
        c("round-400-places", "ROUND(1.5,400)", 1.5, topic="Rounding",
          follows="all three engines"),
        c("round-fraction-digits", "ROUND(2.55,1.9)", 2.6, topic="Rounding",
          follows="all three engines"),
        c("roundup-tenths", "ROUNDUP(0.1*3,1)", 0.3, topic="Rounding",
          follows="all three engines",
          why="on the 15-digit value: 0.30000000000000004 is 0.3"),
        c("roundup-negative", "ROUNDUP(-3.2,0)", -4.0, topic="Rounding",
          follows="all three engines"),
        c("rounddown-almost-3", "ROUNDDOWN(x,0)", 3.0, {"x": 2.9999999999999996},
          topic="Rounding", follows="all three engines"),
        c("round-minus-zero", 'ROUND(-0.4,0)&""', "0", topic="Rounding",
          source=FLOAT_NO_MINUS_ZERO, ironcalc="-0", why="Excel has no -0"),
        # ---------------------------------------------- FIXED
        c("fixed", "FIXED(1234.5,1)", "1,234.5", topic="FIXED", source=FIXED_PAGE),
        c("fixed-half", "FIXED(-0.05,1)", "-0.1", topic="FIXED",
          follows="all three engines"),
        c("fixed-minus-zero", "FIXED(-0.004,2)", "0.00", topic="FIXED",
          follows="LibreOffice, Gnumeric", ironcalc="-0.00",
          why="Excel has no -0"),
        c("fixed-tens", "FIXED(1234.567,-1)", "1,230", topic="FIXED",
          source=FIXED_PAGE),
        c("fixed-no-commas", "FIXED(1234.5,1,TRUE)", "1234.5", topic="FIXED",
          source=FIXED_PAGE),
        c("fixed-default", "FIXED(1234.567)", "1,234.57", topic="FIXED",
          source=FIXED_PAGE),
        c("fixed-1e30", "FIXED(1E+30,0)", "1,000,000,000,000,000,000,000,000,000,000",
          topic="FIXED", source=FIXED_PAGE,
          gnumeric="1,000,000,000,000,000,000,024,696,061,952",
          ironcalc="18,446,744,073,709,551,615",
          why="15 significant digits (IronCalc overflows a 64-bit integer)"),
        c("fixed-1e27", "FIXED(1E+27,2)", "1,000,000,000,000,000,000,000,000,000.00",
          topic="FIXED", source=FIXED_PAGE,
          ironcalc="18,446,744,073,709,551,615.00", why="as above"),
        c("fixed-2-to-53", "FIXED(2^53+1,0)", "9,007,199,254,740,990", topic="FIXED",
          source=FIXED_PAGE, gnumeric="9,007,199,254,740,993",
          ironcalc="9,007,199,254,740,992", why="15 significant digits"),
        c("fixed-20-places", "FIXED(1/3,20)", "0.33333333333333300000",
          topic="FIXED", source=FIXED_PAGE, libreoffice=VALUE,
          gnumeric="0.33333333333333333334", ironcalc="0.18446744073709551615",
          why="decimals up to 127, digits past the 15th are 0"),
        c("fixed-128-places", "FIXED(1,128)", VALUE, topic="FIXED",
          source=FIXED_PAGE,
          ironcalc="1." + "0" * 128, why="decimals up to 127"),
        # ---------------------------------------------- MOD, powers, errors
        c("mod-negative-number", "MOD(-3,2)", 1.0, topic="MOD and powers",
          source=MOD_PAGE),
        c("mod-negative-divisor", "MOD(3,-2)", -1.0, topic="MOD and powers",
          source=MOD_PAGE),
        c("mod-both-negative", "MOD(-3,-2)", -1.0, topic="MOD and powers",
          source=MOD_PAGE),
        c("mod-by-zero", "MOD(3,0)", DIV0, topic="MOD and powers", source=MOD_PAGE),
        c("mod-fraction", "MOD(-0.1,1)", 0.9, topic="MOD and powers",
          source=MOD_PAGE),
        c("mod-2-to-53", "MOD(2^53,7)", 4.0, topic="MOD and powers",
          follows="Gnumeric, IronCalc", libreoffice=0.0,
          why="the exact remainder; LibreOffice gives 0"),
        c("power-0-0", "POWER(0,0)", NUM, topic="MOD and powers", source=POWER_NOTE,
          libreoffice=1.0, why="Microsoft's note on the standard"),
        c("power-0-negative", "0^-1", DIV0, topic="MOD and powers",
          follows="IronCalc", libreoffice=NUM, gnumeric=NUM,
          why="1/0: a division by zero"),
        c("sqrt-negative", "SQRT(-1)", NUM, topic="MOD and powers",
          source=SQRT_PAGE, libreoffice=VALUE, why="Microsoft's SQRT page"),
        c("minus-squared", "-2^2", 4.0, topic="MOD and powers",
          follows="all three engines", why="negation binds before ^"),
        c("iferror-division", 'IFERROR(1/0,"x")', "x", topic="Errors",
          source=IFERROR_PAGE),
        c("isnumber-error", "ISNUMBER(1/0)", False, topic="Errors", source=IS_PAGE),
        c("first-error-left", "1/0+NA()", DIV0, topic="Errors",
          follows="all three engines"),
        c("first-error-right", "NA()+1/0", NA, topic="Errors",
          follows="all three engines"),
        c("and-error", "AND(TRUE,1/0)", DIV0, topic="Errors",
          follows="all three engines"),
        c("and-text-reference", "AND(x,TRUE)", True, {"x": "a"}, topic="Errors",
          follows="all three engines"),
        c("or-no-logicals", "OR(Kinds)", VALUE, {"Kinds": col("a", None)},
          topic="Errors", follows="all three engines"),
        c("if-error-condition", "IF(1/0,1,2)", DIV0, topic="Errors",
          follows="all three engines"),
        c("if-text-condition", 'IF("a",1,2)', VALUE, topic="Errors",
          follows="LibreOffice, IronCalc", gnumeric=2.0,
          why="a condition reads TRUE/FALSE or a number"),
        c("iserror-typed", "ISERROR(x)", True, {"x": NA}, topic="Errors",
          follows="all three engines"),
        c("compare-error", "x=1", DIV0, {"x": DIV0}, topic="Errors",
          follows="all three engines"),
        c("choose-fraction", 'CHOOSE(2.7,"a","b","c")', "b", topic="Errors",
          follows="all three engines"),
        c("large-fraction", "LARGE(Runs,1.2)", 3.0, {"Runs": col(1, 3, 2)},
          topic="Errors", follows="LibreOffice, IronCalc", gnumeric=2.0,
          why="k truncated, as LibreOffice"),
        c("large-below-1", "LARGE(Runs,0.5)", NUM, {"Runs": col(1, 3, 2)},
          topic="Errors", source=LARGE_PAGE, libreoffice=VALUE,
          why="Microsoft's LARGE page"),
        c("large-text", "LARGE(Runs,2)", 2.0, {"Runs": col(1, 3, "9", 2)},
          topic="Errors", source=MAX_PAGE),
        # ---------------------------------------------- dates
        c("date-month-13", "DATE(2026,13,1)", 46388.0, topic="Dates",
          source=DATE_PAGE),
        c("date-two-digit-year", "DATE(99,1,1)", 36161.0, topic="Dates",
          source=DATE_PAGE),
        c("date-day-0", "DATE(2026,1,0)", 46022.0, topic="Dates",
          follows="all three engines"),
        c("date-1900", "DATE(1900,1,1)", 1.0, topic="Dates", source=DATE_PAGE,
          libreoffice=2.0, ironcalc=2.0,
          why="LibreOffice and IronCalc count 1900 without its false 29 February"),
        c("month-of-60", "MONTH(60)", 2.0, topic="Dates", source=LEAP_1900,
          gnumeric=NUM, why="29 February 1900"),
        c("year-of-serial", "YEAR(46000)", 2025.0, topic="Dates",
          follows="all three engines"),
    ]  # fmt: skip


CASES: Sequence[Case] = _cases()
BY_NAME: Mapping[str, Case] = {case.name: case for case in CASES}


def shown(v: Result) -> str:
    """A result as the docs show it: ``"0.3"``, ``1001``, ``TRUE``, ``#N/A``."""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, XlError):
        return v.code
    if v is None:
        return "(blank)"
    if isinstance(v, float):
        if v == 0 and math.copysign(1, v) < 0:
            return "-0"
        return str(int(v)) if v.is_integer() and abs(v) < 1e16 else repr(v)
    text = v if len(v) <= 28 else v[:25] + "…"
    return '"' + text.replace("|", "\\|") + '"'


def differences_markdown() -> str:
    """The cases where an engine (or Excel's documented result) differs from
    ours, as the Markdown table docs/semantics.md holds."""
    lines = [
        "| Case | Formula | Inputs | Ours (Excel) | LibreOffice | Gnumeric | IronCalc | Why |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for case in CASES:
        if not case.differing():
            continue
        inputs = ", ".join(f"{k} = {_shown_input(v)}" for k, v in case.inputs.items())
        ours = shown(case.ours) + ("" if case.documented else " (not documented)")
        cells = [shown(case.result(e)) if case.result(e) is not case.ours
                 and not same(case.result(e), case.ours) else "same" for e in ENGINES]  # fmt: skip
        lang = " (es)" if case.lang == "es" else ""
        formula = case.formula.replace("|", "\\|")
        lines.append(
            f"| {case.name}{lang} | `={formula}` | {inputs} | {ours} | "
            + " | ".join(cells)
            + f" | {case.why} |"
        )
    return "\n".join(lines) + "\n"


def _shown_input(v: Any) -> str:
    if isinstance(v, (Column, Across)):
        sep = "; " if isinstance(v, Column) else ", "  # as Excel's array constants
        return "{" + sep.join(_shown_input(x) for x in v.values) + "}"
    if isinstance(v, str):
        return '"' + "".join(map(_visible, v)).replace("|", "\\|") + '"'
    return shown(_float(v))


def _visible(ch: str) -> str:
    """A character as the docs show it: spaces other than U+0020, tabs and
    combining marks as their code point (U+00A0)."""
    hidden = (ch.isspace() and ch != " ") or unicodedata.combining(ch)
    return f"[U+{ord(ch):04X}]" if hidden or not ch.isprintable() else ch


def _float(v: Any) -> Any:
    return float(v) if isinstance(v, int) and not isinstance(v, bool) else v


if __name__ == "__main__":
    print(differences_markdown(), end="")


__all__ = [
    "BY_NAME",
    "CASES",
    "ENGINES",
    "NAMES",
    "SAME",
    "Across",
    "Case",
    "Column",
    "Result",
    "across",
    "col",
    "differences_markdown",
    "same",
    "shown",
]
