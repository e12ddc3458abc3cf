"""Energy and emissions of a run: the figures finance and sustainability report.

Energy is GPU-hours × power per GPU × the data centre's PUE; emissions are the
energy × the grid's carbon intensity. That is how Luccioni et al. 2022 count
BLOOM's "dynamic" consumption and how Meta's Llama model cards count theirs
(TDP × GPU-hours, "adjusted for power usage efficiency"). With the TDP it is an
upper bound on the GPUs' own draw; CPUs, networking, idle time and the
hardware's manufacture are left out. Every function broadcasts like a ufunc.
"""

from __future__ import annotations

from ..data.units import WH_PER_MWH
from ..registry import Floats, Numbers, formula


@formula("TRAINING_ENERGY_MWH", unit="MWh")
def training_energy_mwh(
    gpu_hours: Numbers, watts_per_gpu: Numbers, pue: Numbers = 1
) -> Floats:
    """Energy of a run in MWh: GPU-hours × watts per GPU × PUE / 1,000,000.

    Formula: ``gpu_hours * watts * pue / 1e6`` (watt-hours to megawatt-hours).
    PUE, the data centre's power usage effectiveness, adds cooling and power
    conversion; 1 counts the GPUs alone.

    Returns
    -------
    float or ndarray
        Megawatt-hours.

    References
    ----------
    Luccioni, Viguier and Ligozat 2022, "Estimating the Carbon Footprint of
    BLOOM, a 176B Parameter Language Model", arXiv 2211.02001, table 1:
    1,082,990 GPU-hours on A100s at their 400 W TDP, 433,196 kWh.

    Examples
    --------
    BLOOM's training, 433 MWh:

    >>> round(training_energy_mwh(1_082_990, 400), 3)
    433.196

    Llama 2 70B: 1,720,320 GPU-hours at 400 W (Touvron et al. 2023, table 2):

    >>> round(training_energy_mwh(1_720_320, 400), 1)
    688.1
    """
    return gpu_hours * watts_per_gpu * pue / WH_PER_MWH


@formula("TRAINING_CO2_TONNES", unit="t CO2e")
def training_co2_tonnes(energy_mwh: Numbers, kg_co2_per_kwh: Numbers) -> Floats:
    """Tonnes of CO2-equivalent emitted by the energy of a run at a grid's intensity.

    Formula: ``energy_mwh * kg_co2_per_kwh``: MWh × 1,000 kWh/MWh × kg/kWh ÷
    1,000 kg/t, so the two thousands cancel.

    Returns
    -------
    float or ndarray
        Tonnes of CO2-equivalent (location-based: the grid's average intensity;
        market-based figures subtract renewable-energy purchases).

    References
    ----------
    Luccioni et al. 2022, arXiv 2211.02001: BLOOM's 433,196 kWh at 57 g
    CO2eq/kWh (the French grid), 24.69 t. Touvron et al. 2023 (Llama 2),
    arXiv 2307.09288, table 2: 688,128 kWh gives 291.42 t, an intensity of
    0.4235 kg/kWh.

    Examples
    --------
    BLOOM, 24.69 t:

    >>> round(training_co2_tonnes(433.196, 0.057), 2)
    24.69
    """
    return energy_mwh * kg_co2_per_kwh
