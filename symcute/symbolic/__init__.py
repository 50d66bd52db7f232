"""symcute.symbolic: formulas over named sub-axes, operations that keep the names, and the prover.

``import symcute.symbolic as sym``::

    F = sym.formula(layout, names=(("t0","t1","wm","wn"), (("v0","v1","v2"), ("_a","_b"))))
    G = sym.right_inverse(F)            # 4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2
    sym.prove_right_inverse(F, G)       # proved by refinement
    sym.prove_left_inverse(F, G)        # refuted: G(F(64)) = 0

SymPy is imported only when a SymPy expression, LaTeX, lambdify or an index
form is asked for; the prover works on Python ints.
"""

from .bits import Bit, BitLayout, NotF2Linear, bit_layout
from .f2 import F2Matrix
from .formula import Formula, SubAxis, formula
from .linear import Compose
from .linear_layout import LinearLayout, from_linear_layout, to_linear_layout
from .names import parse_names
from .checked import composition  # CuTe's composition, named, marked with its contract check
from .ops import (
    coalesce, complement, downcast, left_inverse, logical_divide, logical_product, make_layout,
    right_inverse, upcast, with_shape, zipped_divide,
)
from .proof import Certificate, Proof
from .prover import (
    Witness, broadcast_axes, is_bijective, is_injective, is_surjective, prove, prove_left_inverse,
    prove_right_inverse, witness,
)
from .swizzled import SwizzledFormula
from .table import Table
from .vocabulary import Method, Verdict
from .isl_backend import to_isl
from .z3_backend import to_z3



def __getattr__(name):
    # sym.contract(op, *args): CuTe's result checked against its contract (contracts.py loads the checks of
    # every operation, so it is imported on first use, not with the package)
    if name == "contract":
        from .contracts import contract
        return contract
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Re-exported as symcute.<name>; the operations keep CuTe's names here only
# (symcute.right_inverse is core's, on Layouts).
__all__ = [
    "Formula", "SubAxis", "formula", "Compose", "Proof", "Certificate", "Verdict", "Method", "prove", "prove_right_inverse",
    "prove_left_inverse", "is_injective", "is_surjective", "is_bijective", "broadcast_axes", "witness",
    "Witness", "parse_names", "SwizzledFormula", "F2Matrix", "BitLayout", "Bit", "bit_layout", "NotF2Linear",
    "LinearLayout", "to_linear_layout", "from_linear_layout",
    "to_isl", "to_z3",
]
