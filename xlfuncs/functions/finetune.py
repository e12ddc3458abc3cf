"""Fine-tuning throughput, duration and cost.

Source: the calculator "Estimador de throughput para fine-tuning" (a published
Spanish calculator page, this project's specification): effective throughput =
G·V·η and examples/s = G·V·η / T, with G GPUs, V tokens/s per GPU, η the efficiency
against ideal scaling and T the mean tokens per example. Its worked example, 8 GPUs
at 2,500 tokens/s and 82 % efficiency with 900-token examples, gives 16,400
tokens/s and 18.22 examples/s. Every function takes numbers or numpy arrays and
broadcasts like a ufunc.
"""

from __future__ import annotations

from ..data.units import SECONDS_PER_HOUR, SECONDS_PER_MINUTE
from ..excel.ops import average, omitted, where
from ..excel.ops import percentile as percentile_of
from ..registry import Floats, Numbers, formula


@formula("FT_THROUGHPUT", unit="tokens/s")
def throughput(
    gpus: Numbers, tokens_per_sec_per_gpu: Numbers, efficiency: Numbers
) -> Floats:
    """Effective cluster throughput G·V·η in tokens/s.

    Formula: ``G * V * eta``.

    Returns
    -------
    float or ndarray
        Effective tokens per second of the whole cluster.

    References
    ----------
    "Estimador de throughput para fine-tuning": "Throughput efectivo = G·V·η".

    Examples
    --------
    >>> throughput(8, 2500, 0.82)
    16400.0
    """
    return gpus * tokens_per_sec_per_gpu * efficiency


@formula("FT_EXAMPLES_PER_SEC", unit="examples/s")
def examples_per_sec(
    gpus: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    efficiency: Numbers,
    tokens_per_example: Numbers,
) -> Floats:
    """Examples the cluster processes per second: G·V·η / T.

    Formula: ``G * V * eta / T``. Longer examples lower it even when the token
    capacity stays the same.

    Returns
    -------
    float or ndarray
        Examples per second.

    References
    ----------
    "Estimador de throughput para fine-tuning": "Ejemplos/s = Throughput
    efectivo / T"; worked example 16,400 / 900 = 18.22.

    Examples
    --------
    >>> examples_per_sec(8, 2500, 0.82, 900)
    18.22222222222222
    >>> round(examples_per_sec(8, 2500, 0.82, 900), 2)
    18.22
    """
    return throughput(gpus, tokens_per_sec_per_gpu, efficiency) / tokens_per_example


@formula("FT_EXAMPLES_PER_MIN", unit="examples/min")
def examples_per_min(
    gpus: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    efficiency: Numbers,
    tokens_per_example: Numbers,
) -> Floats:
    """Examples the cluster processes per minute: 60·G·V·η / T.

    Formula: ``G * V * eta / T * 60``.

    Returns
    -------
    float or ndarray
        Examples per minute.

    References
    ----------
    "Estimador de throughput para fine-tuning": "1.093,33 ejemplos/min".

    Examples
    --------
    >>> round(examples_per_min(8, 2500, 0.82, 900), 2)
    1093.33
    """
    return (
        examples_per_sec(gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example)
        * SECONDS_PER_MINUTE
    )


@formula("FT_TOKENS_PER_MIN", unit="tokens/min")
def tokens_per_min(
    gpus: Numbers, tokens_per_sec_per_gpu: Numbers, efficiency: Numbers
) -> Floats:
    """Effective cluster throughput in tokens per minute: 60·G·V·η.

    Formula: ``G * V * eta * 60``.

    Returns
    -------
    float or ndarray
        Tokens per minute.

    References
    ----------
    "Estimador de throughput para fine-tuning": "Tokens por minuto".

    Examples
    --------
    >>> tokens_per_min(8, 2500, 0.82)
    984000.0
    """
    return throughput(gpus, tokens_per_sec_per_gpu, efficiency) * SECONDS_PER_MINUTE


@formula("FT_TRAINING_HOURS", unit="hours")
def training_hours(
    examples: Numbers,
    epochs: Numbers,
    gpus: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    efficiency: Numbers,
    tokens_per_example: Numbers,
) -> Floats:
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
    tokens = examples * epochs * tokens_per_example
    return (
        tokens / throughput(gpus, tokens_per_sec_per_gpu, efficiency) / SECONDS_PER_HOUR
    )


@formula("FT_GPU_HOURS", unit="GPU-hours")
def gpu_hours(
    examples: Numbers,
    epochs: Numbers,
    gpus: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    efficiency: Numbers,
    tokens_per_example: Numbers,
) -> Floats:
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
    hours = training_hours(
        examples, epochs, gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example
    )
    return hours * gpus


@formula("FT_COST", unit="currency")
def cost(
    examples: Numbers,
    epochs: Numbers,
    gpus: Numbers,
    tokens_per_sec_per_gpu: Numbers,
    efficiency: Numbers,
    tokens_per_example: Numbers,
    price_per_gpu_hour: Numbers,
) -> Floats:
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
    hours = gpu_hours(
        examples, epochs, gpus, tokens_per_sec_per_gpu, efficiency, tokens_per_example
    )
    return hours * price_per_gpu_hour


@formula("FT_TOKENS_PER_EXAMPLE", unit="tokens")
def tokens_per_example(lengths: Numbers, percentile: Numbers | None = None) -> Floats:
    """Mean tokens per example of a range of lengths, or a percentile (0 to 1).

    Formula: the arithmetic mean of ``lengths``; with ``percentile`` k, Excel's
    ``PERCENTILE.INC(lengths, k)`` (linear interpolation, k from 0 to 1, so 90%
    or 0.9 is the 90th percentile).

    Returns
    -------
    float or ndarray
        Tokens per example, to use as T. ``percentile`` may be a range (e.g. 50%,
        90%, 99%) and gives one value for each.

    References
    ----------
    "Estimador de throughput para fine-tuning": for heterogeneous datasets,
    compare scenarios or use percentiles.

    Examples
    --------
    >>> tokens_per_example([600, 800, 900, 1000, 1200])
    900.0
    >>> tokens_per_example([600, 800, 900, 1000, 1200], 0.9)
    1120.0
    """
    return where(
        omitted(percentile), average(lengths), percentile_of(lengths, percentile)
    )
