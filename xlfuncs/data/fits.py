"""Constants of the fitted scaling laws L(N, D) = E + A/N^α + B/D^β.

Hoffmann et al. 2022 (arXiv 2203.15556) fit the final training loss of a dense
transformer with N parameters trained on D tokens by that form. Two fits:

- ``"hoffmann"``: the paper's equation 10, E = 1.69, A = 406.4, B = 410.7,
  α = 0.34, β = 0.28 (rounded as published);
- ``"epoch"``: Besiroglu et al. 2024, "Chinchilla Scaling: A replication attempt"
  (arXiv 2404.10102), refitted on the paper's own data: E = 1.8172, A = 482.01,
  B = 2085.43, α = 0.3478, β = 0.3658.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .names import normalize


@dataclass(frozen=True)
class Fit:
    """Constants of L(N, D) = E + A/N^α + B/D^β, and where they were published."""

    E: float
    A: float
    B: float
    alpha: float
    beta: float
    source: str

    @property
    def a(self) -> float:
        """Exponent of the compute-optimal N ∝ C^a: β / (α + β)."""
        return self.beta / (self.alpha + self.beta)

    @property
    def G(self) -> float:
        """Scale of the compute-optimal N = G·(C/6)^a: (αA / (βB))^(1/(α+β))."""
        return math.pow(
            self.alpha * self.A / (self.beta * self.B), 1 / (self.alpha + self.beta)
        )


FITS: dict[str, Fit] = {
    "hoffmann": Fit(
        1.69, 406.4, 410.7, 0.34, 0.28,
        "Hoffmann et al. 2022, arXiv 2203.15556, eq. 10",
    ),
    "epoch": Fit(
        1.8172, 482.01, 2085.43, 0.3478, 0.3658,
        "Besiroglu et al. 2024, arXiv 2404.10102, eq. 4",
    ),
}  # fmt: skip


def find_fit(name: str) -> str | None:
    """The key of a fit by name, compared as every name is (:mod:`.names`):
    ``"Hoffmann"`` is ``"hoffmann"``."""
    key = normalize(name)
    return key if key in FITS else None
