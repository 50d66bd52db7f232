"""symcute: a symbolic prover for CuTe's layout algebra.

It computes exactly what CuTe (CUTLASS's C++ layout library) computes, and then
says why: closed-form formulas over named sub-axes, recorded derivations, and
proofs of layout identities.  The public API uses CuTe's names::

    from symcute import Layout, right_inverse, upcast
    F = Layout.parse("((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))")
    print(upcast(right_inverse(F).with_shape(32, 16), 1024))
"""

from .errors import LayoutError, LimitError, ParseError, SymcuteError
from .core import *  # noqa: F401,F403  (CuTe's names, re-exported)
from .core import __all__ as _core_all  # noqa: F401

__version__ = "0.1.0"
