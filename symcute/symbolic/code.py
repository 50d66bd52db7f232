"""A Formula as code: integer C/CUDA, and LaTeX with proper subscripts.

C (:func:`to_c`): one ``__host__ __device__`` function with one integer
parameter per top-level mode of the layout (``tid`` and ``vid`` for a TV
layout), each sub-axis recovered from its mode's index with integer ``/`` and
``%``, and the value as the linear form over the sub-axes.  As in CuTe, the
last digit of each mode takes any overflow (no ``%``), so the function agrees
with ``Layout::operator()(tid, vid)`` for every coordinate CuTe accepts, and
with the layout's 1-D index form within each mode.  Broadcast (stride-0)
sub-axes do not reach the value and are not computed.

LaTeX (:func:`latex_name`): a name made of letters followed by digit groups
gets them as a subscript (``x0_1`` -> ``x_{0,1}``, ``t0`` -> ``t_{0}``), a
multi-letter base is upright (``wm`` -> ``\\mathrm{wm}``, ``wm0`` ->
``\\mathrm{wm}_{0}``); anything else is set upright with ``_`` escaped.
"""

from __future__ import annotations

import re

from ..core import int_tuple as it
from ..errors import SymcuteError

# C and C++ keywords a sub-axis name could spell (names are Python identifiers, so only these can clash)
_C_RESERVED = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if inline int long
    register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
    bool true false class new delete this template typename namespace using operator private public protected
    virtual friend mutable explicit export catch throw try asm constexpr decltype nullptr noexcept static_assert
    thread_local alignas alignof char16_t char32_t concept requires co_await co_return co_yield
    """.split())
_INT32_MAX = (1 << 31) - 1
_NAME = re.compile(r"([A-Za-z]+)((?:_?[0-9]+)*)")


def latex_name(name: str) -> str:
    """LaTeX for one sub-axis name (see the module doc)."""
    m = _NAME.fullmatch(name)
    if m:
        base, digits = m.groups()
        head = base if len(base) == 1 else r"\mathrm{" + base + "}"
        if not digits:
            return head
        return head + "_{" + ",".join(d for d in digits.split("_") if d) + "}"
    return r"\mathrm{" + name.replace("_", r"\_") + "}"


def latex(f, zeros: bool = False) -> str:
    """The linear form of Formula ``f`` in LaTeX, terms in sub-axis order."""
    parts = []
    for a in f.axes:
        if a.stride == 0 and not zeros:
            continue
        n = latex_name(a.name)
        parts.append(n if a.stride == 1 else "-" + n if a.stride == -1 else rf"{a.stride}\,{n}")
    if not parts:
        return "0"
    out = parts[0]
    for p in parts[1:]:
        out += " - " + p[1:] if p.startswith("-") else " + " + p
    return out


def default_parameters(f) -> tuple[str, ...]:
    """Parameter names for the top-level modes: ``tid, vid`` for a TV layout whose thread mode has
    ``t``/``w`` digits and value mode ``v`` digits, ``q`` for a rank-1 layout, else ``i0, i1, ...``."""
    rank = it.rank(f.layout.shape)
    if rank == 1 and not isinstance(f.layout.shape, tuple):
        return ("q",)
    groups = _digits_by_mode(f)
    if rank == 2 and groups[0] and groups[1] \
            and all(a.name[0] in "tw" for a in groups[0]) and all(a.name[0] == "v" for a in groups[1]):
        return ("tid", "vid")
    return tuple(f"i{k}" for k in range(rank))


def to_c(f, name: str = "layout", parameters=None, int_type: str | None = None) -> str:
    """Integer C/CUDA for Formula ``f`` (see the module doc).

    ``name``: the function's name; ``parameters``: one name per top-level mode
    (default :func:`default_parameters`); ``int_type``: the integer type
    (default ``int`` when every value and index fits in 32 bits, else ``long long``).
    @post the function returns f.layout(c0, c1, ...) for each coordinate with 0 <= c_k < size(mode k)
    """
    layout = f.layout
    rank = it.rank(layout.shape)
    params = tuple(parameters) if parameters is not None else default_parameters(f)
    if len(params) != rank:
        raise SymcuteError(f"to_c: {len(params)} parameter names for the {rank} modes of {layout}")
    taken = {a.name for a in f.axes}
    for p in (name, *params):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p) or p in _C_RESERVED:
            raise SymcuteError(f"to_c: {p!r} is not a usable C identifier")
    if len(set(params)) != len(params) or name in params or taken & {name, *params}:
        raise SymcuteError(f"to_c: the names {name!r}, {', '.join(params)} and the sub-axes "
                           f"{', '.join(sorted(taken))} must all differ")
    for a in f.axes:
        if a.name in _C_RESERVED:
            raise SymcuteError(f"to_c: sub-axis {a.name!r} is a C keyword; rename it (formula(..., names=...))")
    if int_type is None:
        span = sum(abs(a.stride) * (a.extent - 1) for a in f.axes)
        int_type = "int" if max(span, layout.size()) <= _INT32_MAX else "long long"
    lines = [f"// {layout}", f"// {f.str_with_zeros()}",
             f"__host__ __device__ inline {int_type} {name}({', '.join(f'{int_type} {p}' for p in params)}) {{"]
    for k, axes in enumerate(_digits_by_mode(f)):
        base = _mode_start(f, k)
        for a in axes:
            if a.stride == 0:
                continue
            w = a.weight // base
            value = params[k] if w == 1 else f"{params[k]} / {w}"
            if a is not axes[-1]:
                value = f"({value}) % {a.extent}" if w != 1 else f"{value} % {a.extent}"
            lines.append(f"  const {int_type} {a.name} = {value};")
    terms = [(a.stride, a.name) for a in f.axes if a.stride != 0]
    body = " + ".join(n if c == 1 else f"{c} * {n}" for c, n in terms).replace("+ -", "- ") if terms else "0"
    lines.append(f"  return {body};")
    lines.append("}")
    return "\n".join(lines)


def _digits_by_mode(f) -> list[list]:
    """The sub-axes of each top-level mode, low digit first."""
    shape = f.layout.shape
    leaf_mode = [k for k, m in enumerate(shape if isinstance(shape, tuple) else (shape,))
                 for _ in it.flatten_to_tuple(m)]
    out = [[] for _ in range(it.rank(shape))]
    for a in f.axes:
        out[leaf_mode[a.leaf]].append(a)
    return out


def _mode_start(f, k: int) -> int:
    """The input weight of the first element of top-level mode ``k`` (the product of the earlier modes)."""
    shape = f.layout.shape
    modes = shape if isinstance(shape, tuple) else (shape,)
    w = 1
    for m in modes[:k]:
        w *= it.product(m)
    return w
