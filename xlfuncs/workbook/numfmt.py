"""A number as a cell in an Excel number format shows it, for text outside cells.

The docs list every input and result with its default as the sheet shows it, and
messages quote bounds the same way (``typical is 1 M to 10 T``, never ``1e+06``).
This renders the formats the workbooks use: sections chosen by conditions
(``[>=1000]#,##0;#,##0.00``), grouping (``#,##0``), decimals, thousands scaling
by trailing commas (``#,##0.0,,," B"``), percentages, scientific notation and
quoted text; with the separators of the reader's language.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

SEPARATORS = {"en": (",", "."), "es": (".", ",")}  # (thousands, decimal)
_CONDITION = re.compile(r"^\[(<=|>=|<|>|=)(-?[\d.]+)\]")


def shown(value: float, fmt: str, lang: str = "en") -> str:
    """``value`` as a cell formatted ``fmt`` shows it in a ``lang`` Excel."""
    section = _section(value, fmt)
    literal = "".join(re.findall(r'"([^"]*)"', section))
    code = re.sub(r'"[^"]*"', "", section).strip()
    if code in ("General", ""):
        text = _group(_trim(repr(float(value))), False, lang)
        return text + literal
    if "E+" in code.upper():
        mantissa = code.upper().split("E")[0]
        digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
        text = f"{value:.{digits}E}"
        head, exp = text.split("E")
        return _group(head, False, lang) + "E" + f"{int(exp):+03d}" + literal
    x = Decimal(repr(float(value)))
    body = code.rstrip(",").rstrip("%")
    decimals = len(body.split(".")[1].rstrip("#")) if "." in body else 0
    # Every digit a float's whole part can have, and the decimals: the default
    # 28 digits fail to round 1e28 to two decimals (InvalidOperation).
    with localcontext() as ctx:
        ctx.prec = 330 + decimals
        if "%" in code:
            x *= 100
        scaling = len(code) - len(code.rstrip(","))
        x /= Decimal(1000) ** scaling
        rounded = x.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    text = f"{abs(rounded):.{decimals}f}"
    text = _group(text, "," in body, lang)
    sign = "-" if rounded < 0 and not fmt.count(";") else ""
    return sign + text + ("%" if "%" in code else "") + literal


def _section(value: float, fmt: str) -> str:
    """The section of ``fmt`` that shows ``value``: conditions first, in order."""
    sections = fmt.split(";")
    for k, section in enumerate(sections):
        m = _CONDITION.match(section)
        if m is None:
            if k == len(sections) - 1 or not any(_CONDITION.match(s) for s in sections):
                return section
            continue
        op, bound = m.group(1), float(m.group(2))
        hit = {
            "<": value < bound,
            "<=": value <= bound,
            ">": value > bound,
            ">=": value >= bound,
            "=": value == bound,
        }[op]
        if hit:
            return section[m.end() :]
    return _CONDITION.sub("", sections[-1])


def _group(text: str, grouped: bool, lang: str) -> str:
    whole, _, frac = text.partition(".")
    if grouped:
        whole = f"{int(whole):,}"
    thousands, decimal = SEPARATORS[lang]
    whole = whole.replace(",", thousands)
    return whole + (decimal + frac if frac else "")


def _trim(text: str) -> str:
    return text[:-2] if text.endswith(".0") else text


__all__ = ["shown"]
