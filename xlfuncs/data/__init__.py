"""Pure data: unit constants, the accelerator and model tables, the fitted laws.

The bottom layer of xlfuncs: these modules import nothing from the rest of the
package, so every other layer may read them.
"""
