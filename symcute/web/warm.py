"""Imported by the web pool's fork server only (``pool.PRELOAD``): one small request of each kind, so
that what they load on first use (SymPy, the atom catalog, the prover's back-ends) is loaded once, before
any worker is forked from it, and a fresh worker answers its first cheap request as fast as its hundredth.
"""

from __future__ import annotations

from . import compute

compute.evaluate("right_inverse((4,8):(8,1))")
compute.evaluate("make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{})")
compute.prove("injective(L)", ["L=(4,8):(8,2)"])
compute.bank("(32,64):(64,1)")
