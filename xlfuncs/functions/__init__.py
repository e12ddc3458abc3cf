"""The math, by topic. Importing a topic module registers its functions.

The order below is the order of ``xlfuncs list``, ``xlfuncs examples`` and
``docs/functions.md``: fine-tuning first, then the 20-tokens rule, clusters,
accelerators and the fitted laws.
"""

from . import finetune, scaling, cluster, hardware, scaling_laws  # noqa: F401  isort: skip
