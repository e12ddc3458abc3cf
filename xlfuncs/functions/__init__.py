"""The math, by topic. Importing a topic module registers its functions.

The order below is the order of ``xlfuncs list``, ``xlfuncs examples`` and
``docs/functions.md``: fine-tuning first, then the 20-tokens rule, clusters,
accelerators, published models, memory, serving, energy and the fitted laws.
"""

# isort: off
from . import finetune, scaling, cluster, hardware  # noqa: F401
from . import models, memory, serving, energy, scaling_laws  # noqa: F401
# isort: on
