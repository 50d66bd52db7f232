"""The symbolic layer in the expression language (``symcute calc``, ``symcute formula``, ``derive``).

``formula(L, (t0,t1))`` names a layout's modes (bare identifiers in the
expression are read as names); CuTe's operations applied to a Formula keep the
names (``right_inverse(formula(F, ...))``, ``with_shape(G, (32,16), (m,k))``,
``upcast<1024>(H)``); applied to plain layouts they are exactly core's.
"""

from __future__ import annotations

from ..core.layout import Layout
from ..errors import SymcuteError
from ..symbolic import checked, ops
from ..symbolic import prover
from ..symbolic.formula import Formula, formula
from ..symbolic.names import check_name
from .language import TypeName
from .registry import REGISTRY, register_function, register_method


def names_value(v):
    """A names tree from an expression value: bare identifiers arrive as TypeNames."""
    if isinstance(v, tuple):
        return tuple(names_value(x) for x in v)
    if isinstance(v, TypeName) and not v.targs:
        return check_name(v.name, "names")
    if isinstance(v, str):
        return check_name(v, "names")
    raise SymcuteError(f"names: {v} is not an identifier or a tuple of identifiers")


def _formula(layout, names=None):
    if isinstance(layout, (int, tuple)) and not isinstance(layout, bool):
        layout = Layout(layout)
    return formula(layout, None if names is None else names_value(names))


def _with_shape(f, shape, names=None):
    if not isinstance(f, Formula) and names is None:
        return f.with_shape(shape)
    return ops.with_shape(f, shape, names=None if names is None else names_value(names))


_OPS = {
    "right_inverse": ops.right_inverse, "left_inverse": ops.left_inverse, "coalesce": ops.coalesce,
    "complement": ops.complement, "upcast": ops.upcast, "downcast": ops.downcast,
    "composition": checked.composition, "logical_divide": ops.logical_divide, "zipped_divide": ops.zipped_divide,
    "logical_product": ops.logical_product,
}


def _dispatch(core_fn, sym_fn):
    def fn(*args):
        if any(isinstance(a, Formula) for a in args):
            return sym_fn(*args)
        return core_fn(*args)
    return fn


for _name, _sym in _OPS.items():
    _core = REGISTRY.function(_name)
    if _core is not None:
        register_function(_name, _dispatch(_core, _sym))

register_function("formula", _formula, identifiers=True)
register_function("with_shape", _with_shape, identifiers=True)
register_method(Formula, "with_shape", lambda f, *shape: ops.with_shape(f, *shape))
register_method(Formula, "compose", lambda f, *o: checked.composition(f, o[0] if len(o) == 1 else tuple(o)))

# the prover: calc prints the Proof (statement, verdict, certificate)
for _name in ("prove", "prove_right_inverse", "prove_left_inverse", "is_injective", "is_surjective",
              "is_bijective", "witness"):
    register_function(_name, getattr(prover, _name))
register_function("Compose", lambda outer, inner: prover.Compose(outer, inner))

# the claim language: claim values, decided by prove(claim) (symcute.symbolic.claim)
from ..symbolic import claim as _claim  # noqa: E402

for _name in ("equal", "injective", "surjective", "bijective", "disjoint", "contains", "contiguous", "aligned",
              "vector"):
    register_function(_name, getattr(_claim, _name))
register_function("forall", _claim.forall, identifiers=True)
register_function("prove_claim", _claim.prove_claim)
