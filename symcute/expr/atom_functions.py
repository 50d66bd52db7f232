"""The atoms layer in the expression language (``symcute calc``, ``derive expr``).

C++ spellings work as written in a kernel::

    make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}).get_layoutA_TV()
    make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma).get_layoutS_TV()
    mma.get_slice(0).partition_fragment_A(make_tensor<half_t>(Shape<_32,_16>{}))

Atom names are values through the ``Name{}`` entries of the registry (one entry
per catalogued name), bare identifiers (``TypeName``) are accepted wherever an
atom is expected, and tensors are represented by their layouts.
"""

from __future__ import annotations

import functools

from ..atoms.copy_atom import CopyAtom
from ..atoms.copy_catalog import copy_atom, copy_operation_names
from ..atoms.lint import lint_copy_atom, lint_mma_atom
from ..atoms.mma_atom import MMAAtom
from ..atoms.mma_lookup import mma_atom
from ..atoms.smem_layouts import ALIASES, SMEM_LAYOUT_ATOMS, smem_layout_atom, smem_layout_atom_bits, smem_layout_atom_names
from ..atoms.names import tile_names, tv_names
from ..atoms.spelling import last_component, strip_namespace
from ..atoms.builders import (
    make_cotiled_copy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
    make_tiled_copy_C_atom, make_tiled_copy_D, make_tiled_copy_S, make_tmem_copy,
)
from ..atoms.tiled_copy import ThrCopy, TiledCopy
from ..atoms.tiled_mma import ThrMMA, TiledMMA, make_tiled_mma
from ..core import Layout, Underscore, _
from ..core.composed import ComposedLayout
from ..core.pointer import Pointer
from ..core.tensor import make_tensor
from ..errors import LayoutError
from .language import TypeName
from .registry import REGISTRY, register_function, register_method


def _spelling(x) -> str:
    """C++ text of a TypeName tree (template arguments included)."""
    if isinstance(x, TypeName):
        if x.targs:
            return f"{x.name}<{','.join(_spelling(a) for a in x.targs)}>"
        return x.name
    if isinstance(x, Underscore):
        return "_"
    return str(x)


def _as_mma_atom(x) -> MMAAtom:
    if isinstance(x, MMAAtom):
        return x
    if isinstance(x, TypeName):
        return mma_atom(_spelling(x))
    raise LayoutError(f"expected an MMA atom (e.g. SM80_16x8x16_F16F16F16F16_TN{{}}), got {x}")


def _as_copy_atom(x, value_type=None) -> CopyAtom:
    if isinstance(x, CopyAtom):
        return x if value_type is None else x.with_value_type(_spelling(value_type))
    if isinstance(x, TypeName):
        return copy_atom(_spelling(x), None if value_type is None else _spelling(value_type))
    raise LayoutError(f"expected a copy atom (e.g. Copy_Atom<SM75_U32x2_LDSM_N, half_t>{{}}), got {x}")


def _perm(p):
    if isinstance(p, TypeName) and p.name in ("Underscore", "_") and not p.targs:
        return _
    if isinstance(p, tuple):
        return tuple(_perm(q) for q in p)
    return p


def _layout_arg(x):
    if isinstance(x, TypeName):
        raise LayoutError(f"expected a layout or a shape, got the type {_spelling(x)}")
    return x


def _atom_operation(template: str, targs: tuple, count: int):
    """The operation of ``MMA_Atom<Op>{}`` / ``Copy_Atom<Op, T>{}``, refused as CuTe refuses it: another
    count of template arguments has no specialization (mma_atom.hpp, copy_atom.hpp), and an atom as
    the operation asks for ``MMA_Traits<MMA_Atom<...>>``, which does not exist."""
    shown = f"{template}<{', '.join(_spelling(t) for t in targs)}>{{}}"
    if len(targs) != count:
        what = "an MMA operation (or MMA_Traits<Op>)" if count == 1 else "a copy operation and a value type"
        raise LayoutError(f"{shown}: {template} takes {what}, got {len(targs)} template arguments")
    op = targs[0]
    if isinstance(op, (MMAAtom, CopyAtom)) or (isinstance(op, TypeName) and
                                               strip_namespace(op.name) in ("MMA_Atom", "Copy_Atom")):
        traits = "MMA_Traits" if count == 1 else "Copy_Traits"
        raise LayoutError(f"{shown}: the operation must be an instruction, not an atom "
                          f"(CuTe has no {traits}<{template}<...>>)")
    return op


def _make_tiled_mma(atom, atom_layout=(1, 1, 1), permutations=None):
    return make_tiled_mma(_as_mma_atom(atom), _layout_arg(atom_layout),
                          None if permutations is None else _perm(permutations))


def _make_tensor(*args):
    """``make_tensor<T>(shape)`` / ``make_tensor(layout)``: a tensor is represented by its layout;
    ``make_tensor(make_smem_ptr<T>(), layout)``: a Tensor over the pointer (CuTe's ``make_tensor(ptr, layout)``)."""
    ptrs = [a for a in args if isinstance(a, Pointer)]
    shapes = [a for a in args if not isinstance(a, (TypeName, Pointer))]
    if ptrs:
        if len(ptrs) != 1 or len(shapes) != 1 or len(args) != 2:
            raise LayoutError("make_tensor: expected make_tensor(pointer, layout)")
        lay = shapes[0]
        return make_tensor(ptrs[0], lay if isinstance(lay, (Layout, ComposedLayout)) else Layout(lay))
    if len(shapes) != 1:
        raise LayoutError("make_tensor: expected a shape or a layout (and optionally a value type)")
    s = shapes[0]
    return s if isinstance(s, Layout) else Layout(s)


def _tile_size(obj, *mode):
    if isinstance(obj, TiledMMA):
        if len(mode) != 1:
            raise LayoutError("tile_size<I>(mma) takes one mode index")
        return obj.tile_size(mode[0])
    if isinstance(obj, TiledCopy):
        return obj.tile_size(*mode)
    raise LayoutError(f"tile_size: expected a TiledMMA or a TiledCopy, got {obj}")


def _wrap_size(previous):
    def size_(x, *path):
        if isinstance(x, (TiledMMA, TiledCopy)):
            if isinstance(x, TiledMMA):
                return _thr_size(x, *path)
            return x.tile_size(*path) if path else x.size()
        return previous(x, *path)
    return size_


def _thr_size(m, *path):
    if not isinstance(m, TiledMMA):
        raise LayoutError(f"thr_size: expected a TiledMMA, got {m}")
    lay = m.get_thr_layout_vmnk()
    return (lay[path] if path else lay).size()


def _operand(x) -> str:
    return _spelling(x) if isinstance(x, TypeName) else str(x)


_TABLE = {
    "mma_atom": lambda name: _as_mma_atom(name),
    "copy_atom": lambda name, t=None: _as_copy_atom(name, t),
    "make_tiled_mma": _make_tiled_mma,
    "make_tiled_copy_A": lambda c, m: make_tiled_copy_A(_as_copy_atom(c), m),
    "make_tiled_copy_B": lambda c, m: make_tiled_copy_B(_as_copy_atom(c), m),
    "make_tiled_copy_C": lambda c, m: make_tiled_copy_C(_as_copy_atom(c), m),
    "make_tiled_copy_S": lambda c, t: make_tiled_copy_S(_as_copy_atom(c), t),
    "make_tiled_copy_C_atom": lambda c, m: make_tiled_copy_C_atom(_as_copy_atom(c), m),
    "make_cotiled_copy": lambda c, tv, data: make_cotiled_copy(_as_copy_atom(c), _layout_arg(tv), _layout_arg(data)),
    "make_tiled_copy_D": lambda c, t: make_tiled_copy_D(_as_copy_atom(c), t),
    "make_tiled_copy": lambda c, thr, val=None: make_tiled_copy(_as_copy_atom(c), _layout_arg(thr),
                                                                None if val is None else _layout_arg(val)),
    "make_tmem_copy": lambda c, tmem, t=None: make_tmem_copy(_as_copy_atom(c, t), _layout_arg(tmem)),
    "make_tensor": _make_tensor,
    "tile_size": _tile_size,
    "tile_shape": lambda m: m.tile_shape(),
    "thr_size": lambda m, *p: _thr_size(m, *p),
    "tv_names": lambda obj, op=None: tv_names(obj, "TV" if op is None else _operand(op)),
    "tile_names": lambda obj, op=None: tile_names(obj, "TV" if op is None else _operand(op)),
    "lint_mma_atom": lambda a: lint_mma_atom(_as_mma_atom(a)),
    "lint_copy_atom": lambda a: lint_copy_atom(_as_copy_atom(a)),
    "MMA_Atom{}": lambda *targs: _as_mma_atom(_atom_operation("MMA_Atom", targs, 1)),
    "Copy_Atom{}": lambda *targs: _as_copy_atom(_atom_operation("Copy_Atom", targs, 2), targs[1]),
}

for _name, _fn in _TABLE.items():
    # every one of them takes type names (atoms, value types, operands) and names an unknown one itself
    register_function(_name, _fn, identifiers=True)
register_function("size", _wrap_size(REGISTRY.function("size")))


def _atom_value(name: str):
    return lambda *targs: mma_atom(_spelling(TypeName(name, tuple(targs))))


def _mma_names() -> list[str]:
    """The MMA operations spelled as values (``SM80_16x8x16_F16F16F16F16_TN{}``, ``SM90_64x64x16_F16F16F16_SS<...>{}``):
    the names only, read from the catalog's data when first needed; no atom is built to list them."""
    from ..atoms import mma_gmma, mma_umma
    from ..atoms.mma_catalog import WARP_ATOM_NAMES
    return (list(WARP_ATOM_NAMES) + [n for n, *_ in mma_gmma.all_base_names()]
            + [f.name for f in mma_umma.FAMILIES if "::" not in f.name] + list(mma_umma.FFMA2) + ["SM120_16x8x32_TN"])


# the catalog's names are registered lazily: `import symcute.expr` reads no catalog data and builds no atom
REGISTRY.register_lazy_functions(lambda: [n + "{}" for n in _mma_names()],
                                 lambda key: _atom_value(key.removesuffix("{}")))


def _smem_atom_value(name: str):
    return lambda value_type: smem_layout_atom(name, str(value_type) if isinstance(value_type, TypeName)
                                               else value_type)


def _smem_atom_bits(name: str):
    return lambda: smem_layout_atom_bits(name)


for _name in smem_layout_atom_names():  # GMMA::Layout_K_SW128_Atom<half_t>{}, UMMA::... (aliases too)
    register_function(_name + "{}", _smem_atom_value(_name))
for _name in SMEM_LAYOUT_ATOMS:  # ..._Atom_Bits{}: UMMA declares only its own 32B atom's _Bits
    register_function(_name + "_Bits{}", _smem_atom_bits(_name))


def _no_alias_bits(name: str):
    def refuse():
        raise LayoutError(f"{name}_Bits is not a member of UMMA: cute/atom/mma_traits_sm100.hpp declares only "
                          f"{name.split('::')[1]} (a using-declaration of GMMA's); use {ALIASES[name]}_Bits")
    return refuse


for _name in ALIASES:
    register_function(_name + "_Bits{}", _no_alias_bits(_name))


def _copy_value(name: str):
    return lambda *targs: copy_atom(_spelling(TypeName(name, tuple(targs))))


REGISTRY.register_lazy_functions(lambda: [n + "{}" for n in copy_operation_names()],
                                 lambda key: _copy_value(key.removesuffix("{}")))


@functools.cache
def _atom_types() -> frozenset:
    """The atoms' operation names as bare C++ types (read from the catalog's data on the first bare name)."""
    from ..atoms import mma_gmma
    from ..atoms.mma_catalog import WARP_ATOM_NAMES
    return frozenset(WARP_ATOM_NAMES) | {n for n, *_ in mma_gmma.all_base_names()} | set(copy_operation_names()) | {
        "MMA_Atom", "Copy_Atom", "MMA_Traits", "Copy_Traits"}


_GMMA_ENUMS = frozenset({"K", "MN", "One", "Neg", "Zero"})  # GMMA::Major, GMMA::ScaleIn, GMMA::ScaleOut


def _atom_type(name: str) -> bool:
    """An atom's operation under its namespaces, ``SM90::GMMA::MMA_...``, or a GMMA template argument."""
    bare = strip_namespace(name)
    if bare in _atom_types() or bare.startswith(("SM90::GMMA::MMA_", "GMMA::MMA_")):
        return True
    return "GMMA::" in bare and bare.split("::")[-2] in ("Major", "ScaleIn", "ScaleOut") \
        and last_component(bare) in _GMMA_ENUMS


REGISTRY.register_type_names(test=_atom_type, listed=_atom_types)


def _members(*names, **aliases) -> dict:
    """Methods of the language that are the same-named member functions (``aliases``: language name ->
    member name); a wrong argument count is the member's own TypeError, reported as the user's input."""
    table = {n: n for n in names} | aliases
    return {name: (lambda obj, *args, _member=member: getattr(obj, _member)(*args)) for name, member in table.items()}


_MMA_METHODS = _members("get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV", "get_thr_layout_vmnk", "thrfrg_A",
                        "thrfrg_B", "thrfrg_C", "tile_size", "permutation_mnk", "get_slice", "layoutA_TV_names",
                        "layoutB_TV_names", "layoutC_TV_names", tile_size_mnk="tile_size",
                        get_thread_slice="get_slice")
_THR_MMA_METHODS = _members("partition_A", "partition_B", "partition_C", "partition_fragment_A",
                            "partition_fragment_B", "partition_fragment_C")
_MMA_METHODS |= _members("make_fragment_A", "make_fragment_B", "make_fragment_C")
_COPY_METHODS = _members("get_layoutS_TV", "get_layoutD_TV", "tidfrg_S", "tidfrg_D", "retile", "get_slice",
                         "layoutS_TV_names", "layoutD_TV_names", get_thread_slice="get_slice")
_THR_COPY_METHODS = _members("partition_S", "partition_D", "retile_S", "retile_D")

for _cls, _methods in ((TiledMMA, _MMA_METHODS), (ThrMMA, _THR_MMA_METHODS), (TiledCopy, _COPY_METHODS),
                       (ThrCopy, _THR_COPY_METHODS)):
    for _name, _fn in _methods.items():
        register_method(_cls, _name, _fn)
