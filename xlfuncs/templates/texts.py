"""Words and number formats the templates share, in English and Spanish.

A template's own texts sit beside the row they belong to (see the template
modules); what several templates say the same way is written once here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..excel.tree import ATOM, Ctx, Env, Expr
from ..excel.values import Value, literal

LANGS = ("en", "es")


@dataclass(frozen=True)
class Text:
    """One text in both editions."""

    en: str
    es: str

    def __call__(self, lang: str) -> str:
        return self.en if lang == "en" else self.es

    def format(self, **values: object) -> Text:
        return Text(self.en.format(**values), self.es.format(**values))

    def __add__(self, other: Text | str) -> Text:
        if isinstance(other, str):
            return Text(self.en + other, self.es + other)
        return Text(self.en + other.en, self.es + other.es)

    def split(self, placeholder: str) -> tuple[Text, Text]:
        """The text before and after ``placeholder``, in both editions."""
        en, es = self.en.split(placeholder, 1), self.es.split(placeholder, 1)
        return Text(en[0], es[0]), Text(en[1], es[1])

    def expr_node(self) -> Expr:
        """In a formula: the words of the edition it is printed for."""
        return Say(self)


@dataclass(frozen=True)
class Say(Expr):
    """A text in the edition's language: a message, a unit, OK."""

    text: Text

    def printed(self, ctx: Ctx) -> tuple[str, int]:
        return literal(self.text(ctx.lang)), ATOM

    def value(self, env: Env) -> Value:
        return self.text(env.lang)


T = Text  # a row's texts read best short: T("GPUs", "GPU")

OK = T("OK", "OK")  # a clean check; both editions, and only a clean one, begin so
# An error's message begins so (a warning's with WARNING_WORD): the model check
# ranks them by it.
ERROR_WORD = T("Error:", "Error:")
WARNING_WORD = T("Warning:", "Aviso:")
NA = T("n/a: see Check", "n/d: ver Control")  # a result whose inputs are not valid
NA_PRICES = T(
    "n/a: see Prices", "n/d: ver Precios"
)  # …because a Prices row is in error

# Column headings of a model sheet.
ITEM = T("Item", "Concepto")
VALUE = T("Value", "Valor")
UNIT = T("Unit", "Unidad")
CHECK = T("Check", "Control")
HOW = T("What it is / how it is calculated", "Qué es / cómo se calcula")
MODEL_CHECK = T("Model check", "Control del modelo")
MODEL_CHECK_HELP = T(
    "OK when every input is valid and in its usual range and every result is "
    "plausible; otherwise the worst problem (an error before a warning) and where. "
    "Results still compute with a warning; with an error they show n/a.",
    "OK si todos los datos son válidos y habituales y los resultados plausibles; "
    "si no, el peor problema (un error antes que un aviso) y dónde. Con un aviso "
    "los resultados se calculan; con un error muestran n/d.",
)
LEGEND = T(
    "Yellow cells with blue figures are inputs: type over them. Everything else "
    "is calculated and protected (Review > Unprotect Sheet, no password, to change "
    "the model).",
    "Las celdas amarillas con cifras azules son datos: escriba en ellas. Todo "
    "lo demás se calcula y está protegido (Revisar > Desproteger hoja, sin "
    "contraseña, para cambiar el modelo).",
)
LEGEND_SHORT = T(
    "Yellow cells with blue figures are inputs; everything else is calculated.",
    "Las celdas amarillas con cifras azules son datos; todo lo demás se calcula.",
)
NONE = T("", "")  # no words: a label without a unit
BASE = T("Base", "Base")
MULTIPLE_FMT = '"×"0.00'  # a scenario's factor: ×0.50
MULTIPLES = T("Multiples of the base", "Múltiplos de la base")
VALUES = T("Values", "Valores")
SEVERITY = T("Severity", "Gravedad")
CHECKS_SHEET = T("Checks", "Controles")
CHECKS_HELP = T(
    "Every check of the workbook and what it says now. Severity: 0 OK, 1 a "
    "warning (results still compute), 2 an error (the results it affects show "
    "n/a). The model check shows the first row of the highest severity.",
    "Todos los controles del libro y lo que dicen ahora. Gravedad: 0 OK, 1 un "
    "aviso (los resultados se calculan), 2 un error (los resultados afectados "
    "muestran n/d). El control del modelo muestra la primera fila de mayor "
    "gravedad.",
)
WORKINGS = T("Workings", "Cálculos intermedios")
KEYS_TITLE = T(
    "Typed names, as the look-ups read them",
    "Nombres escritos, tal como los leen las búsquedas",
)
KEYS_HELP = T(
    "Each name typed above cleaned once (spaces, hyphens and underscores removed; "
    "~, * and ? escaped, so MATCH reads no wildcard): every look-up of it reads "
    "this cell.",
    "Cada nombre escrito arriba, limpiado una vez (sin espacios, guiones ni guiones "
    "bajos; ~, * y ? escapados, para que MATCH no lea comodines): toda búsqueda de "
    "ese nombre lee esta celda.",
)
KEY_OF = T("{name}, as a key", "{name}, como clave")
VALID_TITLE = T("Which results can be computed", "Qué resultados se pueden calcular")
VALID_HELP = T(
    "TRUE when no check a result depends on says Error (the highest severity of "
    "those lines above is under 2); a result that reads FALSE shows n/a.",
    "VERDADERO cuando ningún control del que depende un resultado dice Error (la "
    "mayor gravedad de esas líneas de arriba es menor que 2); un resultado que lee "
    "FALSO muestra n/d.",
)
MESSAGES_TITLE = T("Messages the checks show", "Mensajes de los controles")
MESSAGES_HELP = T(
    "Every check above and beside the inputs picks its message from this list by "
    "number: INDEX(Messages, k), 1 when all is well.",
    "Cada control, arriba y junto a los datos, toma su mensaje de esta lista por su "
    "número: INDEX(Messages, k), 1 cuando todo está bien.",
)
VALID_FOR = T("Inputs valid: {what}", "Datos válidos: {what}")
# Large numbers in messages, as the cells show them (LARGE below).
MILLION = T("M", "M")
BILLION = T("B", "mil M")
TRILLION = T("T", "bill.")

# Input checks: what is wrong, in a few words.
ENTER_NUMBER = T("Error: enter a number", "Error: introduzca un número")
ENTER_WHOLE = T(
    "Error: enter a whole number, {lo} or more",
    "Error: introduzca un entero, {lo} o más",
)
ABOVE = T("Error: must be above {lo}", "Error: debe ser mayor que {lo}")
AT_LEAST = T("Error: must be {lo} or more", "Error: debe ser {lo} o más")
DATE_RANGE = T(
    "Error: enter a date from {lo} to {hi}",
    "Error: introduzca una fecha de {lo} a {hi}",
)
PERCENT = T(
    "Error: enter a percentage above 0% and at most 100%",
    "Error: introduzca un porcentaje mayor que 0 % y como máximo 100 %",
)
PERCENT_RANGE = T(
    "Error: enter a percentage from {lo} to {hi}",
    "Error: introduzca un porcentaje de {lo} a {hi}",
)
AT_MOST = T("Error: must be at most {hi}", "Error: debe ser como máximo {hi}")
PICK = T("Error: pick a name from the list", "Error: elija un nombre de la lista")
UNUSUAL = T(
    "Warning: unusual; typical is {lo} to {hi}",
    "Aviso: inusual; lo habitual es de {lo} a {hi}",
)
ENTER_TEXT = T("Error: enter a short text", "Error: introduzca un texto breve")
NO_FIT = T(
    "Error: does not fit: {need} GB per GPU, {have} GB on the GPU",
    "Error: no cabe: {need} GB por GPU, {have} GB en la GPU",
)
FEWEST = T("; fewest GPUs that fit: {n}", "; mínimo de GPU que caben: {n}")
TIGHT = T(
    "Warning: fits, but fills {pct} of the GPU's memory; plans keep {free} free",
    "Aviso: cabe, pero ocupa el {pct} de la memoria de la GPU; los planes dejan "
    "libre un {free}",
)
# The same verdicts where they only compare (the methods not chosen).
FITS = T("Fits", "Cabe")
FITS_TIGHT = T(
    "Fits, but fills {pct} of the GPU's memory",
    "Cabe, pero ocupa el {pct} de la memoria",
)
DOES_NOT_FIT = T("Does not fit: {need} GB per GPU", "No cabe: {need} GB por GPU")
# A count far outside any real value: a unit typed wrong (FLOP/s for TFLOP/s).
UNIT_SLIP = T(
    "Error: over 1,000 times the usual ({lo} to {hi}): check the unit",
    "Error: más de 1.000 veces lo habitual ({lo} a {hi}): revise la unidad",
)
UNIT_SLIP_LOW = T(
    "Error: under a thousandth of the usual ({lo} to {hi}): check the unit",
    "Error: menos de una milésima de lo habitual ({lo} a {hi}): revise la unidad",
)
BUILT = T(
    "Built by xlfuncs {version} on {date}: plain Excel formulas, no macros.",
    "Generado con xlfuncs {version} el {date}: fórmulas de Excel, sin macros.",
)

# Data validation pop-ups.
INVALID_TITLE = T("Invalid input", "Dato no válido")

# Number formats (codes are locale-independent; Excel shows local separators).
COUNT = "#,##0"
DECIMAL = "#,##0.0"
TWO = "#,##0.00"
PERCENT_FMT = "0.0%"
# Every amount of money, in the currency the Currency input names: two
# decimals, the same in every column and table.
MONEY = "#,##0.00"
# A duration: as many decimals as its size needs, so that a few minutes never
# show as 0.0 days.
DURATION = "[<0.1]0.0000;[<10]0.00;#,##0.0"
LOSS = "0.0000"
SCIENTIFIC = "0.00E+00"
# Counts of parameters, tokens and the like: in M, B or T by size, so that 17 B
# tokens never show as 0.02 T nor 1.2 T parameters as 1,200.0 B.
LARGE = T(
    '[>=1000000000000]#,##0.00,,,," T";[>=1000000000]#,##0.0,,," B";#,##0.0,," M"',
    '[>=1000000000000]#,##0.00,,,," bill.";[>=1000000000]#,##0.0,,," mil M";#,##0.0,," M"',
)
# The same on a chart axis, where a decade's label needs no decimals.
LARGE_AXIS = T(
    '[>=1000000000000]#,##0,,,," T";[>=1000000000]#,##0,,," B";#,##0,," M"',
    '[>=1000000000000]#,##0,,,," bill.";[>=1000000000]#,##0,,," mil M";#,##0,," M"',
)

#: A latency target no batch meets: before and after the target's figure.
NO_LATENCY_BATCH = (
    T(
        "Error: no batch meets the latency target of ",
        "Error: ningún lote cumple la latencia objetivo de ",
    ),
    T(
        " ms a token (one request's step takes longer): a longer target, more GPUs a "
        "replica, or a smaller precision",
        " ms por token (el paso de una sola petición tarda más): una latencia mayor, más "
        "GPU por réplica, o menos precisión",
    ),
)
