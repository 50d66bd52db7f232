"""Linear-layout interop: CuTe layouts as Triton's linear layouts (F2 bases) and back.

Triton represents a layout as a linear map over GF(2) (arXiv 2505.23819,
``triton._C.libtriton.linear_layout.LinearLayout``): for each input dimension,
the output of each of its bits alone (a *basis* vector, one int per output
dimension); the value of any input is the XOR of the bases of its set bits.
That is :mod:`symcute.symbolic.bits` without the names.

    >>> ll = to_linear_layout(parse_layout("Sw<3,4,3> o 0 o (8,64):(64,1)"), names=("r", "c"))
    >>> ll.bases["r"]                         # r_0, r_1, r_2
    [[64], [144], [288]]
    >>> from_linear_layout(ll.bases, ll.out_dims)     # Sw<2,4,3> acts as Sw<3,4,3> below offset 512
    ComposedLayout('Sw<2,4,3> o 0 o ((2,2,2),(2,2,2,2,2,2)):((64,128,256),(1,2,4,8,16,32))')

- ``to_linear_layout(L)``: one input dimension per top-level mode (named by
  ``names``, default ``dim0, dim1, ...``), one output dimension ``offset``.
  With ``tv=True`` (a TV layout ``(thread, value) -> index``) the inputs are
  ``register`` (the value bits), ``lane`` (the low 5 thread bits) and ``warp``
  (the other thread bits); with ``tile=(M, N)`` the output is the tile
  coordinate ``(dim0, dim1)`` of the column-major index.  Every extent must be
  a power of two and the layout F2-linear; a refusal names the mode.
- ``from_linear_layout(bases, out_dims)``: the CuTe layout with these bases:
  a plain layout when every basis is a single offset bit (or 0) and no two
  share a bit, else ``Sw<B,M,S> o 0 o L`` for the smallest swizzle that
  untangles them (the same function on the layout's offsets); otherwise a SymcuteError says why no CuTe layout has these bases.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import int_tuple as it
from ..core.parse import parse_layout  # noqa: F401  (the doctest's reader)
from ..core.composed import ComposedLayout
from ..core.layout import Layout
from ..core.swizzle import Swizzle
from ..errors import LayoutError, SymcuteError
from .bits import NotF2Linear, bit_layout

LANE_BITS = 5   # 32 lanes per warp


@dataclass(frozen=True)
class LinearLayout:
    """Triton's form: ``bases[in_dim]`` lists one basis vector (ints, one per output dimension) per input bit."""
    bases: dict
    out_dims: list = field(default_factory=list)   # [(name, size)], sizes powers of two

    def apply(self, inputs: dict) -> list:
        """The output of ``{in_dim: value}`` (missing dims are 0): the XOR of the bases of the set bits."""
        out = [0] * len(self.out_dims)
        for dim, value in inputs.items():
            for j, basis in enumerate(self.bases[dim]):
                if (value >> j) & 1:
                    out = [a ^ b for a, b in zip(out, basis)]
        return out

    def to_triton(self) -> tuple:
        """``(bases, out_dims)`` as ``LinearLayout.from_bases`` takes them (lists of pairs)."""
        return [(k, [list(b) for b in v]) for k, v in self.bases.items()], [list(d) for d in self.out_dims]


def _pow2_bits(n: int, what: str) -> int:
    if n < 1 or n & (n - 1):
        raise SymcuteError(f"to_linear_layout: {what} has extent {n}, not a power of two (linear layouts "
                           f"have power-of-two dimensions)")
    return n.bit_length() - 1


def to_linear_layout(layout, names=None, tv: bool = False, tile=None) -> LinearLayout:
    """The F2 bases of a power-of-two (optionally swizzled) layout in Triton's form (see the module doc).

    @post from the bases, the XOR over the set bits of an input is the layout's value there
    """
    domain = layout
    while isinstance(domain, ComposedLayout):
        domain = domain.inner
    if not isinstance(domain, Layout):
        raise SymcuteError(f"to_linear_layout: {layout!r} is not a layout or a swizzled layout")
    modes = domain.shape if isinstance(domain.shape, tuple) else (domain.shape,)
    for k, s in enumerate(modes):
        _pow2_bits(it.product(s), f"mode {k}")
        for leaf in it.flatten_to_tuple(s) if isinstance(s, tuple) else (s,):
            _pow2_bits(leaf, f"a sub-mode of mode {k}")
    try:
        b = bit_layout(layout, names)
    except NotF2Linear as e:
        raise SymcuteError(f"to_linear_layout: {e}") from None
    if b.constant:
        raise SymcuteError(f"to_linear_layout: {layout} has the constant offset {b.constant}; a linear layout "
                           f"maps 0 to 0")
    cols = list(b.matrix.columns)
    widths = [_pow2_bits(it.product(s), f"mode {k}") for k, s in enumerate(modes)]
    if tile is not None:
        M, N = tile
        lo = _pow2_bits(M, "tile mode 0")
        _pow2_bits(N, "tile mode 1")
        out_dims = [("dim0", M), ("dim1", N)]
        vec = lambda c: [c & (M - 1), c >> lo]  # noqa: E731  (column-major tile index -> (m, n))
    else:
        out_dims = [("offset", 1 << max(b.n_out, 0))]
        vec = lambda c: [c]  # noqa: E731
    if tv:
        if len(modes) != 2:
            raise SymcuteError(f"to_linear_layout: a TV layout has two modes (thread, value), {layout} has "
                               f"{len(modes)}")
        thr, val = cols[:widths[0]], cols[widths[0]:]
        bases = {"register": [vec(c) for c in val], "lane": [vec(c) for c in thr[:LANE_BITS]],
                 "warp": [vec(c) for c in thr[LANE_BITS:]]}
    else:
        labels = _mode_names(names, len(modes))
        bases, j = {}, 0
        for label, w in zip(labels, widths):
            bases[label] = [vec(c) for c in cols[j:j + w]]
            j += w
    return LinearLayout(bases, out_dims)


def _mode_names(names, rank: int) -> list:
    if names is None:
        return [f"dim{k}" for k in range(rank)]
    if isinstance(names, str):
        from .names import parse_names
        names = parse_names(names)
    names = names if isinstance(names, tuple) else (names,)
    out = []
    for k, n in enumerate(names):
        out.append(n if isinstance(n, str) else f"dim{k}")
    return out


def from_linear_layout(bases, out_dims=None):
    """A CuTe layout whose input bits have these bases (Triton's form), or a SymcuteError saying why none does.

    ``bases``: ``{in_dim: [basis, ...]}`` or a list of ``(in_dim, [basis, ...])``; a basis is an int or a
    list of ints (one per output dimension); ``out_dims``: ``[(name, size)]`` (a multi-dimensional output is
    flattened column-major, as CuTe indexes a tile).  Input dimension ``k`` becomes mode ``k``.
    A :class:`LinearLayout` (what :func:`to_linear_layout` returns) gives its own bases and output dimensions.
    @post from_linear_layout(to_linear_layout(L)) evaluates equal to L
    """
    if isinstance(bases, LinearLayout):
        bases, out_dims = bases.bases, out_dims if out_dims is not None else bases.out_dims
    items = list(bases.items()) if isinstance(bases, dict) else [tuple(x) for x in bases]
    sizes = [int(s) for _, s in out_dims] if out_dims else None
    offsets = []
    for name, vectors in items:
        offsets.append([_flatten(v, sizes, name, i) for i, v in enumerate(vectors)])
    flat = [o for dim in offsets for o in dim]
    plain = _plain(items, offsets)
    if _single_distinct_bits(flat):
        return plain
    width = max((o.bit_length() for o in flat), default=0)
    for sw in _swizzles(width):
        untangled = [[sw(o) for o in dim] for dim in offsets]
        if _single_distinct_bits([o for dim in untangled for o in dim]):
            return ComposedLayout(sw, 0, _plain(items, untangled))
    shared = next(((i, j) for i in range(len(flat)) for j in range(i) if flat[i] & flat[j]), None)
    why = (f"bases {flat[shared[1]]} and {flat[shared[0]]} share an offset bit, where CuTe's + would carry"
           if shared else "a basis sets several offset bits")
    raise SymcuteError(f"from_linear_layout: no CuTe layout has these bases: {why}, and no single swizzle "
                       f"Sw<B,M,S> untangles them into distinct offset bits")


def _flatten(v, sizes, name, i) -> int:
    vec = [v] if isinstance(v, int) else list(v)
    if any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in vec):
        raise SymcuteError(f"from_linear_layout: basis {i} of {name!r} is {v!r}, not non-negative integers")
    if sizes is None:
        if len(vec) != 1:
            raise SymcuteError(f"from_linear_layout: basis {i} of {name!r} has {len(vec)} components; give "
                               f"out_dims for a multi-dimensional output")
        return vec[0]
    if len(vec) != len(sizes):
        raise SymcuteError(f"from_linear_layout: basis {i} of {name!r} has {len(vec)} components for "
                           f"{len(sizes)} output dimensions")
    off, scale = 0, 1
    for x, s in zip(vec, sizes):
        if x >= s:
            raise SymcuteError(f"from_linear_layout: basis {i} of {name!r} is {v!r}, outside the output sizes "
                               f"{sizes}")
        off += x * scale
        scale *= s
    return off


def _single_distinct_bits(offsets) -> bool:
    seen = 0
    for o in offsets:
        if o & (o - 1) or o & seen:
            return False
        seen |= o
    return True


def _plain(items, offsets) -> Layout:
    modes = []
    for (name, _), dim in zip(items, offsets):
        if not dim:
            modes.append((1, 0))
        elif len(dim) == 1:
            modes.append((2, dim[0]))
        else:
            modes.append(((2,) * len(dim), tuple(dim)))
    return Layout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))  # input dimension k is mode k


def _swizzles(width: int):
    """Every Sw<B,M,S> (B >= 1) whose bits lie below ``width``, smallest first."""
    for total in range(2, width + 1):
        for b in range(1, total):
            for s_abs in range(b, total - b + 1):
                m = total - b - s_abs
                for s in (s_abs, -s_abs):
                    try:
                        yield Swizzle(b, m, s)
                    except LayoutError:
                        continue
