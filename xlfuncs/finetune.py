"""Fine-tuning throughput, duration and cost.

Source: the seed calculator "Estimador de throughput para fine-tuning"
(``shared/seeds/000_ab3496be922fbfa6.txt``): effective throughput = G·V·η and
examples/s = G·V·η / T, with G GPUs, V tokens/s per GPU, η the efficiency against
ideal scaling and T the mean tokens per example. Its worked example, 8 GPUs at
2,500 tokens/s and 82 % efficiency with 900-token examples, gives 16,400 tokens/s
and 18.22 examples/s. Every function takes scalars or numpy arrays and broadcasts
like a ufunc.
"""

from __future__ import annotations

import numpy as np

from .spec import formula

SECONDS_PER_MINUTE = 60.0
SECONDS_PER_HOUR = 3600.0


@formula("FT_THROUGHPUT", unit="tokens/s")
def throughput(gpus, tokens_per_sec_per_gpu, efficiency):
    """Effective cluster throughput G·V·η in tokens/s.

    Formula: ``G * V * eta``.

    Returns
    -------
    float or ndarray
        Effective tokens per second of the whole cluster.

    References
    ----------
    Seed "Estimador de throughput para fine-tuning": "Throughput efectivo = G·V·η".

    Examples
    --------
    >>> throughput(8, 2500, 0.82)
    16400.0
    """
    return gpus * tokens_per_sec_per_gpu * efficiency


@formula("FT_EXAMPLES_PER_SEC", unit="examples/s")
def examples_per_sec(gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example):
    """Examples the cluster processes per second: G·V·η / T.

    Formula: ``G * V * eta / T``. Longer examples lower it even when the token
    capacity stays the same.

    Returns
    -------
    float or ndarray
        Examples per second.

    References
    ----------
    Seed "Estimador de throughput para fine-tuning": "Ejemplos/s = Throughput
    efectivo / T"; worked example 16,400 / 900 = 18.22.

    Examples
    --------
    >>> examples_per_sec(8, 2500, 0.82, 900)
    18.22222222222222
    >>> round(examples_per_sec(8, 2500, 0.82, 900), 2)
    18.22
    """
    return gpus * tokens_per_sec_per_gpu * efficiency / tokens_per_example


@formula("FT_EXAMPLES_PER_MIN", unit="examples/min")
def examples_per_min(gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example):
    """Examples the cluster processes per minute: 60·G·V·η / T.

    Formula: ``G * V * eta / T * 60``.

    Returns
    -------
    float or ndarray
        Examples per minute.

    References
    ----------
    Seed "Estimador de throughput para fine-tuning": "1.093,33 ejemplos/min".

    Examples
    --------
    >>> round(examples_per_min(8, 2500, 0.82, 900), 2)
    1093.33
    """
    return (
        gpus * tokens_per_sec_per_gpu * efficiency / tokens_per_example
    ) * SECONDS_PER_MINUTE


@formula("FT_TOKENS_PER_MIN", unit="tokens/min")
def tokens_per_min(gpus, tokens_per_sec_per_gpu, efficiency):
    """Effective cluster throughput in tokens per minute: 60·G·V·η.

    Formula: ``G * V * eta * 60``.

    Returns
    -------
    float or ndarray
        Tokens per minute.

    References
    ----------
    Seed "Estimador de throughput para fine-tuning": "Tokens por minuto".

    Examples
    --------
    >>> tokens_per_min(8, 2500, 0.82)
    984000.0
    """
    return gpus * tokens_per_sec_per_gpu * efficiency * SECONDS_PER_MINUTE


@formula("FT_TRAINING_HOURS", unit="hours")
def training_hours(
    examples, epochs, gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example
):
    """Wall-clock hours to train on examples × epochs at the cluster's throughput.

    Formula: ``examples * epochs * T / (G * V * eta) / 3600``.

    Returns
    -------
    float or ndarray
        Hours of wall-clock time (no evaluation or checkpoint pauses beyond what
        the efficiency already covers).

    References
    ----------
    "Estimador de throughput para fine-tuning", which sends users to its companion
    calculator for the total time from dataset size and epochs; built on its
    examples/s.

    Examples
    --------
    100,000 examples for 3 epochs at 18.22 examples/s:

    >>> round(training_hours(100_000, 3, 8, 2500, 0.82, 900), 3)
    4.573
    """
    tokens_total = examples * epochs * tokens_per_example
    return (
        tokens_total / (gpus * tokens_per_sec_per_gpu * efficiency) / SECONDS_PER_HOUR
    )


@formula("FT_GPU_HOURS", unit="GPU-hours")
def gpu_hours(
    examples, epochs, gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example
):
    """GPU-hours the training run consumes: wall-clock hours × GPUs.

    Formula: ``examples * epochs * T / (V * eta) / 3600``.

    Returns
    -------
    float or ndarray
        GPU-hours, the unit clouds bill in.

    References
    ----------
    Training time as in FT_TRAINING_HOURS, times the GPU count.

    Examples
    --------
    >>> round(gpu_hours(100_000, 3, 8, 2500, 0.82, 900), 2)
    36.59
    """
    tokens_total = examples * epochs * tokens_per_example
    return tokens_total / (tokens_per_sec_per_gpu * efficiency) / SECONDS_PER_HOUR


@formula("FT_COST", unit="currency")
def cost(
    examples,
    epochs,
    gpus,
    tokens_per_sec_per_gpu,
    efficiency,
    tokens_per_example,
    price_per_gpu_hour,
):
    """Cost of the training run: GPU-hours × price per GPU-hour.

    Formula: ``examples * epochs * T / (V * eta) / 3600 * price``.

    Returns
    -------
    float or ndarray
        Cost in the currency of ``price_per_gpu_hour``.

    References
    ----------
    GPU-hours as in FT_GPU_HOURS, times the price.

    Examples
    --------
    At 2.50 per GPU-hour:

    >>> round(cost(100_000, 3, 8, 2500, 0.82, 900, 2.5), 2)
    91.46
    """
    return (
        gpu_hours.formula.raw(
            examples,
            epochs,
            gpus,
            tokens_per_sec_per_gpu,
            efficiency,
            tokens_per_example,
        )
        * price_per_gpu_hour
    )


@formula("FT_TOKENS_PER_EXAMPLE", unit="tokens")
def tokens_per_example(lengths, percentile=None):
    """Mean tokens per example of a range of lengths, or the given percentile (0-100).

    Formula: the arithmetic mean of ``lengths``; with ``percentile`` p, the p-th
    percentile with linear interpolation (Excel's ``PERCENTILE.INC(lengths, p/100)``).

    Returns
    -------
    float or ndarray
        Tokens per example, to use as T. ``percentile`` may be a range (e.g. 50, 90,
        99) and gives one value for each.

    References
    ----------
    Seed "Estimador de throughput para fine-tuning": for heterogeneous datasets,
    compare scenarios or use percentiles.

    Examples
    --------
    >>> tokens_per_example([600, 800, 900, 1000, 1200])
    900.0
    >>> tokens_per_example([600, 800, 900, 1000, 1200], 90)
    1120.0
    """
    if percentile is None:
        return float(np.mean(lengths))
    result = np.percentile(lengths, percentile)
    return float(result) if np.ndim(result) == 0 else result
