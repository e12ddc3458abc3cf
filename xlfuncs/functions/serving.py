"""Serving: how fast a model can generate, bounded by memory bandwidth.

At small batch sizes each decoded token reads every weight once from memory,
so decoding speed is bounded by bandwidth ÷ model bytes, not by FLOP/s (kipply
2022; Databricks' "model bandwidth utilisation", MBU, is achieved over that
bound). Every function broadcasts like a ufunc.
"""

from __future__ import annotations

from ..data.units import BYTES_PER_TB, HALF_PRECISION_BYTES
from ..registry import Floats, Numbers, formula
from ..registry.excel import xl


@formula(
    "DECODE_TOKENS_PER_SEC",
    unit="tokens/s",
    excel=f"batch*gpus*bandwidth_tb_per_s*{xl(BYTES_PER_TB)}/(params*bytes_per_param)",
)
def decode_tokens_per_sec(
    params: Numbers,
    bandwidth_tb_per_s: Numbers,
    bytes_per_param: Numbers = HALF_PRECISION_BYTES,
    gpus: Numbers = 1,
    batch: Numbers = 1,
) -> Floats:
    """Memory-bandwidth bound of decoding: batch × GPUs × bandwidth ÷ (params × bytes).

    Formula: ``batch * gpus * bandwidth * 1e12 / (params * bytes_per_param)``.
    Each step reads all the weights once (split over the GPUs of a
    tensor-parallel group) and yields one token per sequence of the batch. An
    upper bound: reading the KV cache, communication between GPUs and
    compute (which binds at large batches) only lower it; the fraction a
    server reaches is Databricks' model bandwidth utilisation (MBU). For a
    mixture of experts, give the active parameters.

    Returns
    -------
    float or ndarray
        Tokens per second, summed over the batch (one sequence gets
        1 / batch of it).

    References
    ----------
    Databricks, "LLM Inference Performance Engineering: Best Practices", 2023:
    a 7 B model in 16 bits "is moving 14GB of parameters in 14ms translating to
    1TB/sec bandwidth usage". kipply (C. Chen), "Transformer Inference
    Arithmetic", 2022: a 260 B model on 16 GPUs of 1.5 TB/s takes 2·260e9 /
    (16·1.5e12) ≈ 22 ms per token at small batch.

    Examples
    --------
    Databricks' example, a 7 B model in 16 bits at 1 TB/s: 14 ms a token.

    >>> round(decode_tokens_per_sec(7e9, 1), 2)
    71.43

    kipply's 260 B model on 16 A100s (1.5 TB/s each): 22 ms a token.

    >>> round(1000 / decode_tokens_per_sec(260e9, 1.5, 2, 16), 2)
    21.67
    """
    bytes_per_step = params * bytes_per_param
    return batch * gpus * bandwidth_tb_per_s * BYTES_PER_TB / bytes_per_step
