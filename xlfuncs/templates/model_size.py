"""The compute-optimal model size template: the Chinchilla 20-tokens rule.

Its formulas follow the "Calculadora de tamaño de modelo de cómputo óptimo"
calculator; each output names the library function that is its reference.
"""

from __future__ import annotations

from ..data.units import FLOPS_PER_PARAM_TOKEN, FLOPS_PER_PFDAY
from ..functions.scaling import training_flops
from ..registry import REGISTRY
from .layout import COMMON, Input, Output, Scenario, Template, _num

_CH = ("ComputeBudgetPFDays", "TokensPerParam")

CHINCHILLA = Template(
    slug="chinchilla-model-size",
    inputs=(
        Input("ComputeBudgetPFDays", "budget_pf_days", 6000, "#,##0"),
        Input("TokensPerParam", "tokens_per_param", 20, "#,##0.0"),
    ),
    outputs=(
        Output(
            "OptimalParams",
            f"SQRT(ComputeBudgetPFDays*{_num(FLOPS_PER_PFDAY)}/"
            f"({FLOPS_PER_PARAM_TOKEN}*TokensPerParam))",
            _CH,
            "fmt.billions",
            "CHINCHILLA_PARAMS",
            _CH,
        ),
        Output(
            "OptimalTokens",
            "TokensPerParam*OptimalParams",
            ("TokensPerParam", "OptimalParams"),
            "fmt.trillions",
            "CHINCHILLA_TOKENS",
            _CH,
        ),
        Output(
            "TrainingFLOPs",
            f"{FLOPS_PER_PARAM_TOKEN}*OptimalParams*OptimalTokens",
            ("OptimalParams", "OptimalTokens"),
            "0.00E+00",
            value=lambda v: float(
                training_flops(
                    REGISTRY["CHINCHILLA_PARAMS"].api(*(v[a] for a in _CH)),
                    REGISTRY["CHINCHILLA_TOKENS"].api(*(v[a] for a in _CH)),
                )
            ),
        ),
    ),
    scenarios=(
        Scenario(
            "sc.budget",
            "ComputeBudgetPFDays",
            (1, 10, 100, 1_000, 10_000, 100_000, 1_000_000),
            ("OptimalParams", "OptimalTokens", "TrainingFLOPs"),
            chart=("OptimalParams", "OptimalTokens"),
            log_x=True,
            log_y=True,
        ),
    ),
    notes=(
        "note.rule",
        "note.sqrt",
        "note.inference",
        "note.ratio",
        "note.pfday",
        "note.source",
    ),
    text={
        **COMMON,
        "sheet": {"en": "Model size", "es": "Tamaño del modelo"},
        "title": {
            "en": "Compute-optimal model size (Chinchilla)",
            "es": "Tamaño de modelo de cómputo óptimo (Chinchilla)",
        },
        "subtitle": {
            "en": "For a training compute budget in petaFLOP/s-days, the parameter "
            "count N and training tokens D that use it best by the Chinchilla rule: "
            "C = 6·N·D with D = r·N, so N = √(C·8.64e19 / (6r)). Default: 6,000 "
            "PF/s-days at 20 tokens per parameter → 65.7 B parameters, 1.31 T tokens.",
            "es": "Para un presupuesto de cómputo en petaFLOP/s-días, el número de "
            "parámetros N y de tokens D que mejor lo aprovechan según Chinchilla: "
            "C = 6·N·D con D = r·N, luego N = √(C·8,64e19 / (6r)). Por defecto: 6.000 "
            "PF/s-días con 20 tokens por parámetro → 65,7 mil millones de parámetros, "
            "1,31 billones de tokens.",
        },
        "subject": {
            "en": "Compute-optimal parameters and tokens for a compute budget",
            "es": "Parámetros y tokens de cómputo óptimo para un presupuesto",
        },
        "keywords": {
            "en": "Chinchilla; scaling laws; compute budget; PF/s-days; xlfuncs",
            "es": "Chinchilla; leyes de escalado; presupuesto de cómputo; "
            "PF/s-días; xlfuncs",
        },
        "ComputeBudgetPFDays.help": {
            "en": "Training compute in petaFLOP/s-days: 1 PF/s-day = 8.64e19 FLOPs.",
            "es": "Cómputo de entrenamiento en petaFLOP/s-días: 1 PF/s-día = 8,64e19 "
            "FLOPs.",
        },
        "TokensPerParam.help": {
            "en": "Training tokens per parameter; Chinchilla's compute-optimal ratio "
            "is about 20.",
            "es": "Tokens de entrenamiento por parámetro; la proporción óptima de "
            "Chinchilla es de unos 20.",
        },
        "OptimalParams.label": {
            "en": "Optimal parameters (N)",
            "es": "Parámetros óptimos (N)",
        },
        "OptimalParams.unit": {"en": "parameters", "es": "parámetros"},
        "OptimalParams.how": {
            "en": "√(C × 8.64e19 FLOPs per PF/s-day ÷ (6 × r)): the budget inverted "
            "through C = 6·N·D with D = r·N. Shown in billions (B).",
            "es": "√(C × 8,64e19 FLOPs por PF/s-día ÷ (6 × r)): el presupuesto "
            "invertido con C = 6·N·D y D = r·N. En miles de millones (mil M).",
        },
        "OptimalTokens.label": {"en": "Optimal tokens (D)", "es": "Tokens óptimos (D)"},
        "OptimalTokens.unit": {"en": "tokens", "es": "tokens"},
        "OptimalTokens.how": {
            "en": "r × N. Shown in trillions (T, 10^12).",
            "es": "r × N. En billones (bill., 10^12).",
        },
        "TrainingFLOPs.how": {
            "en": "6 × N × D; equals the budget × 8.64e19 (a check).",
            "es": "6 × N × D; igual al presupuesto × 8,64e19 (comprobación).",
        },
        "sc.budget": {
            "en": "Budgets from 1 to 1,000,000 PF/s-days",
            "es": "Presupuestos de 1 a 1.000.000 PF/s-días",
        },
        "sc.budget.note": {
            "en": "Tokens per parameter as above; edit the yellow budgets freely.",
            "es": "Tokens por parámetro como arriba; cambie los presupuestos "
            "amarillos libremente.",
        },
        "sc.budget.how": {
            "en": "Same formulas with this row's budget. Each 10× budget gives "
            "√10 ≈ 3.16× parameters and tokens.",
            "es": "Mismas fórmulas con el presupuesto de la fila. Cada presupuesto "
            "10× da √10 ≈ 3,16× parámetros y tokens.",
        },
        "sc.budget.chart": {
            "en": "Compute-optimal N and D against budget (log scales)",
            "es": "N y D óptimos según el presupuesto (escalas logarítmicas)",
        },
        "note.rule": {
            "en": "Training compute is about 6·N·D FLOPs (six operations per parameter "
            "and token). Chinchilla (Hoffmann et al. 2022) found that for a fixed "
            "budget loss is lowest when parameters and tokens grow together, at about "
            "20 tokens per parameter.",
            "es": "El cómputo de entrenamiento es de unas 6·N·D operaciones (seis por "
            "parámetro y token). Chinchilla (Hoffmann et al. 2022) mostró que, con un "
            "presupuesto fijo, la pérdida es mínima cuando parámetros y tokens crecen "
            "juntos, con unos 20 tokens por parámetro.",
        },
        "note.sqrt": {
            "en": "Doubling the budget raises the optimal size by about √2, not 2: "
            "compute grows with the square of N once tokens are tied to it.",
            "es": "Duplicar el presupuesto eleva el tamaño óptimo en torno a √2, no "
            "2: el cómputo crece con el cuadrado de N al ligar los tokens a él.",
        },
        "note.inference": {
            "en": "This is compute-optimal training loss and nothing more. It ignores "
            "the cost of serving the model, which often favours a smaller model "
            "trained on more tokens, so deployed models often sit below this size.",
            "es": "Refleja solo la pérdida de entrenamiento de cómputo óptimo. No "
            "pondera el coste de servir el modelo, que a menudo favorece un modelo "
            "más pequeño entrenado con más tokens; los modelos desplegados suelen "
            "quedar por debajo de este tamaño.",
        },
        "note.ratio": {
            "en": "The fixed ratio is itself an estimate that shifts with data and "
            "architecture, and real runs sustain only a fraction of the hardware's "
            "peak: treat the result as a planning estimate.",
            "es": "La proporción fija es una estimación que cambia con los datos y "
            "la arquitectura, y las ejecuciones reales solo sostienen una fracción "
            "del pico del hardware: tome el resultado como estimación de "
            "planificación.",
        },
        "note.pfday": {
            "en": "1 petaFLOP/s-day = 10^15 FLOP/s sustained for 86,400 s = 8.64e19 "
            "FLOPs.",
            "es": "1 petaFLOP/s-día = 10^15 FLOP/s durante 86.400 s = 8,64e19 FLOPs.",
        },
        "note.source": {
            "en": "Method: 'Calculadora de tamaño de modelo de cómputo óptimo'. Built "
            "by xlfuncs; the same math exists as Excel add-in functions "
            "(CHINCHILLA_PARAMS, CHINCHILLA_TOKENS …).",
            "es": "Método: 'Calculadora de tamaño de modelo de cómputo óptimo'. "
            "Generado con xlfuncs; el mismo cálculo existe como funciones de Excel "
            "(CHINCHILLA_PARAMS, CHINCHILLA_TOKENS …).",
        },
    },
)
