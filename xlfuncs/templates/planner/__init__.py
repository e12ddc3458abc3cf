"""The LLM training planner: cluster → compute → model → loss → cost → fine-tune
→ serving.

One sheet follows the whole chain (:mod:`.pretrain`, then :mod:`.deploy`): this
cluster, for this long, delivers this training compute; it buys this model and
this many tokens (by the 20-tokens rule and by two fitted scaling laws, side by
side); they reach this loss; the run costs this much and needs this memory per
GPU; a fine-tune of a published model takes this long on some of the GPUs; and
serving it at a peak traffic takes these GPUs a month. The Summary sheet puts
the money first.
"""

from __future__ import annotations

from ..blocks import Cover, Figures, Inputs, Notes, Sheet, Stamp, Template
from ..expr import Ref
from ..shared import (
    CONTINGENCY_INPUT,
    SOURCES_PLANNER,
    STATE_BYTES,
    USABLE,
    glossary,
    with_contingency,
)
from ..texts import T
from .deploy import (
    ENERGY,
    ENERGY_INPUTS,
    FT,
    FT_INPUTS,
    FT_MEMORY,
    FT_SHAPE,
    SERVING,
    SERVING_INPUTS,
)
from .pretrain import (
    BUDGET,
    CLUSTER,
    COST_GRID,
    ISOFLOP,
    LOSS,
    MEMORY,
    MEMORY_INPUTS,
    MODEL,
    SCENARIOS,
    SIZE_GRID,
)

NOTES = Notes(
    T("Notes and caveats", "Notas y advertencias"),
    (
        T("The chain: GPUs × peak × MFU × days gives the training compute; the "
          "compute gives the compute-optimal model and tokens; those give the "
          "predicted loss; GPU-hours give the cost.",
          "La cadena: GPU × pico × MFU × días da el cómputo de entrenamiento; el "
          "cómputo da el modelo y los tokens óptimos; estos, la pérdida prevista; las "
          "GPU-horas, el coste."),
        T("The 20-tokens rule and the fits disagree: Hoffmann's published, rounded "
          "eq.-10 constants favour smaller models trained longer (a = 0.4516); "
          "Epoch's 2024 replication on the same data lands near 20 tokens per "
          "parameter.",
          "La regla de 20 tokens y los ajustes discrepan: las constantes redondeadas "
          "de la ec. 10 de Hoffmann favorecen modelos más pequeños entrenados más "
          "tiempo (a = 0,4516); la réplica de Epoch (2024) con los mismos datos se "
          "acerca a 20 tokens por parámetro."),
        T("MFU counts model FLOPs (6·N per token) against the dense peak; recomputed "
          "activations are hardware FLOPs (HFU) and do not count, so MFU is below "
          "HFU.",
          "La MFU cuenta FLOPs del modelo (6·N por token) frente al pico denso; las "
          "activaciones recalculadas son FLOPs de hardware (HFU) y no cuentan, por lo "
          "que la MFU es menor que la HFU."),
        T("Losses are each fit's predictions for its training data, in nats per "
          "token: compare sizes within one fit, not across fits or with other data.",
          "Las pérdidas son predicciones de cada ajuste para sus datos, en nats por "
          "token: compare tamaños dentro de un ajuste, no entre ajustes ni con otros "
          "datos."),
        T("The fine-tune runs at the cluster's MFU: 6 FLOPs a parameter and token "
          "and the attention's, times the LoRA and QLoRA speed. A serving replica "
          "processes each prompt at the prefill MFU and decodes at the bandwidth "
          "share you expect to reach, its batch bounded by memory and the latency "
          "target.",
          "El ajuste va a la MFU del clúster: 6 FLOPs por parámetro y token y los de "
          "la atención, por la velocidad de LoRA y QLoRA. Una réplica de servicio "
          "procesa cada entrada a la MFU de prellenado y decodifica a la parte del "
          "ancho de banda que espera alcanzar, con el lote acotado por la memoria y "
          "el objetivo de latencia."),
    ),
)  # fmt: skip


#: Inputs on the model sheet, never on the Summary, which only shows them.
KEY_ASSUMPTIONS = Inputs(
    T("Key assumptions", "Supuestos clave"), (CONTINGENCY_INPUT, USABLE)
)

SUMMARY = Sheet(
    T("Summary", "Resumen"),
    (
        with_contingency(
            Ref("PretrainCost") + Ref("FTCost"), ("PretrainCost", "FTCost"),
            T("The runs' cost", "Coste de las ejecuciones"), more=("ServingMonthlyCost",),
        ),
        Figures(
            T("The model and the runs", "El modelo y las ejecuciones"),
            ("RuleParams", "GPUModel", "GPUs", "Days", "PretrainGPUHours", "FTModel",
             "FTMethod", "FTGPUs", "FTTrainingHours", "ServingGPUs", "EnergyMWh",
             "CO2Tonnes"),
        ),
        Figures(T("Key assumptions (Planner sheet)", "Supuestos clave (hoja Planificador)"),
                ("Contingency", "UsableMemory")),
        Notes(
            T("Built-in assumptions", "Supuestos incorporados"),
            (
                T("Training costs 6 FLOPs a parameter and token (Kaplan et al. 2020); "
                  "the compute-optimal ratio is 20 tokens a parameter unless you type "
                  "another.",
                  "Entrenar cuesta 6 FLOPs por parámetro y token (Kaplan et al. 2020); "
                  "la proporción óptima es de 20 tokens por parámetro salvo que "
                  "escriba otra."),
                STATE_BYTES,
                T("Serving is priced at the peak's GPUs all month; the contingency "
                  "covers the runs, not serving.",
                  "El servicio se calcula con las GPU de la punta todo el mes; la "
                  "contingencia cubre las ejecuciones, no el servicio."),
            ),
        ),
        glossary("mfu", "pf_day", "zero", "lora", "gpu_hour"),
        Stamp(),
    ),
    summary=True,
    legend=T("Your figures go in the yellow cells of the Planner sheet; this page shows "
             "what they give.",
             "Sus cifras van en las celdas amarillas de la hoja Planificador; esta página "
             "muestra lo que dan."),
)  # fmt: skip

PLANNER = Template(
    slug="llm-training-planner",
    title=T("LLM training planner", "Planificador de entrenamiento de LLM"),
    subtitle=T(
        "From a GPU cluster to a served model: the training compute it delivers, "
        "the compute-optimal model and tokens for it (20-tokens rule and two fitted "
        "scaling laws), the loss they predict, the cost and memory per GPU; a "
        "fine-tune on some of its GPUs and the GPUs serving it takes. Default: "
        "{GPUs} {GPUModel} at {MFU} MFU for {Days} days → {RuleParams} parameters, "
        "{TotalCost} {Currency} with contingency.",
        "De un clúster de GPU a un modelo en servicio: el cómputo de entrenamiento "
        "que aporta, el modelo y los tokens de cómputo óptimo (regla de 20 tokens y "
        "dos leyes de escalado ajustadas), la pérdida prevista, el coste y la memoria "
        "por GPU; un ajuste fino en parte de sus GPU y las GPU para servirlo. Por "
        "defecto: {GPUs} {GPUModel} al {MFU} de MFU durante {Days} días → "
        "{RuleParams} parámetros, {TotalCost} {Currency} con contingencia.",
    ),
    subject=T("LLM training plan: cluster, compute, model size, loss, cost, serving",
              "Plan de entrenamiento de LLM: clúster, cómputo, tamaño, pérdida, coste, servicio"),
    keywords=T("LLM; training; scaling laws; Chinchilla; MFU; GPU; serving; xlfuncs",
               "LLM; entrenamiento; leyes de escalado; Chinchilla; MFU; GPU; servicio; xlfuncs"),
    cover=Cover(
        answers=T(
            "What a GPU cluster buys: the training compute of a run, the "
            "compute-optimal model and tokens for it by three rules, their predicted "
            "loss, the cost and whether the model fits the GPUs' memory; then how "
            "long and how much a fine-tune of a published model takes, and how many "
            "GPUs serving it takes at your peak traffic. Scenarios and sensitivity "
            "tables show what changes with the cluster size, the MFU, the days and "
            "the price.",
            "Lo que da de sí un clúster de GPU: el cómputo de un entrenamiento, el "
            "modelo y los tokens de cómputo óptimo según tres reglas, su pérdida "
            "prevista, el coste y si el modelo cabe en la memoria de las GPU; "
            "después, cuánto tarda y cuesta un ajuste fino de un modelo publicado y "
            "cuántas GPU hacen falta para servirlo en su tráfico punta. Escenarios y "
            "tablas de sensibilidad muestran qué cambia con el tamaño, la MFU, los "
            "días y el precio.",
        ),
        steps=(
            T("On the Planner sheet, pick the GPU model and precision from the lists, "
              "then type the GPUs, MFU, days, price and currency over the yellow "
              "cells.",
              "En la hoja Planificador, elija el modelo de GPU y la precisión de las "
              "listas, y escriba GPU, MFU, días, precio y moneda en las celdas "
              "amarillas."),
            T("Further down, pick the model to fine-tune and its method, your dataset, "
              "and the traffic to serve.",
              "Más abajo, elija el modelo que ajustará y su método, su conjunto de "
              "datos y el tráfico que servirá."),
            T("Read the model check at the top: OK, or the worst problem and where. "
              "The Summary sheet is the page to print and sign: the money first.",
              "Lea el control del modelo arriba: OK, o el peor problema y dónde. La "
              "hoja Resumen es la página para imprimir y firmar: primero el dinero."),
        ),
        limits=(
            T("Peaks are dense datasheet figures; what a run reaches depends on the "
              "MFU you enter.",
              "Los picos son cifras densas de ficha técnica; lo que alcanza una "
              "ejecución depende de la MFU que introduzca."),
            T("The three sizing rules disagree by design: they are estimates from "
              "different fits, not a single answer.",
              "Las tres reglas de tamaño discrepan por diseño: son estimaciones de "
              "ajustes distintos, no una única respuesta."),
            T("Costs cover GPU time and a contingency: no storage, networking, staff "
              "or data.",
              "Los costes cubren el tiempo de GPU y una contingencia: ni "
              "almacenamiento, ni red, ni personal, ni datos."),
            T("Energy counts the GPUs at their maximum board power (TDP) times the "
              "PUE. Host CPUs, memory and network switches are not counted; GPUs "
              "seldom draw their full TDP throughout, which partly offsets that.",
              "La energía cuenta las GPU a su potencia máxima de placa (TDP) por el "
              "PUE. No cuenta las CPU de los servidores, la memoria ni los "
              "conmutadores de red; las GPU rara vez consumen todo su TDP, lo que lo "
              "compensa en parte."),
        ),
        sources=SOURCES_PLANNER,
    ),
    sheets=(
        SUMMARY,
        Sheet(T("Planner", "Planificador"), (
            CLUSTER, KEY_ASSUMPTIONS, BUDGET, MODEL, LOSS, MEMORY_INPUTS, MEMORY,
            FT_INPUTS, FT_SHAPE, FT, FT_MEMORY, SERVING_INPUTS, SERVING,
            ENERGY_INPUTS, ENERGY, SCENARIOS, SIZE_GRID, COST_GRID, ISOFLOP, NOTES,
        )),
    ),
    data_sheet=True,
)  # fmt: skip

__all__ = ["PLANNER"]
