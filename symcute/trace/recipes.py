"""Recipes: configurations derived end to end under a :class:`Derivation`, ready for a report.

A recipe builds a configuration with the atoms layer, runs CuTe's chain of
operations while a derivation records them, and adds the steps a reader needs
next to them: the named formulas (symbolic layer), the prover's checks, worked
examples and tables.  Every number a report prints is computed here (or by the
operations recorded here); the report only formats.

- :func:`derive_retile`: the seed's analysis of ``TiledCopy::retile`` (inside
  ``retile_S``/``retile_D``) for one MMA operand: ``get_layoutX_TV``,
  ``right_inverse``, ``with_shape``, ``upcast<TiledNumThr*V>``, ``retile``.
- :func:`derive_tv`: the TV layouts of a TiledMMA with their right_inverse facts
  (for atoms without an LDSM-style tiled copy, such as SM90 GMMA).
- :func:`derive_expr`: any expression of the expression language, each step
  with its formula and the identities it guarantees proved.
- :func:`derive_catalog`: right_inverse / left_inverse facts of every
  catalogued MMA atom's A/B/C TV layouts.

Step details are JSON-native (ints, strings, lists, dicts), so a derivation
re-imported with ``Derivation.from_json`` renders the same report.
"""

from __future__ import annotations

from .. import symbolic as sym
from ..core import Layout, ceil_div, right_inverse, upcast
from ..core import int_tuple as it
from ..errors import LayoutError, SymcuteError
from .derivation import Derivation

# The seed document's configuration (seeds/000_28a9c404e15f3261.txt); its aside
# contrasts upcast<128*8> with upcast<128*4>.
SEED = {"mma": "SM80_16x8x16_F16F16F16F16_TN", "atom_layout": (2, 2, 1), "operand": "A",
        "copy_atom": "SM75_U32x2_LDSM_N", "value_type": "half_t", "frg_values": None, "contrast": 512}

# operand -> (tile modes of the MMA tile (M,N,K), the tile's axis names, the broadcast mode of thr_layout_vmnk)
OPERANDS = {"A": ((0, 2), ("m", "k"), 2), "B": ((1, 2), ("n", "k"), 1), "C": ((0, 1), ("m", "n"), None)}
ATOM_AXES = ("wm", "wn", "wk")
ENUMERATE_LIMIT = 1 << 20   # distinct-value counts and per-value ranges enumerate up to this many inputs


# --- small helpers ------------------------------------------------------------------------------

def cute(x) -> str:
    """CuTe notation of an int tuple, a layout or an int (``(8,1,1)``)."""
    if isinstance(x, (list, tuple)):
        return "(" + ",".join(cute(y) for y in x) + ")"
    return str(x)


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


def _operand(op) -> str:
    o = op.upper() if isinstance(op, str) else op
    if o not in OPERANDS:
        raise SymcuteError(f"operand must be A, B or C, got {op!r}")
    return o


def _atom_layout(x) -> tuple:
    if isinstance(x, str):
        parts = [p.strip() for p in x.strip().strip("()").split(",") if p.strip()]
        if not parts or not all(p.isdigit() for p in parts):
            raise SymcuteError(f"atom layout must be a shape of positive integers such as 2,2,1; got {x!r}")
        x = tuple(int(p) for p in parts)
    if isinstance(x, list):
        x = tuple(x)
    if not isinstance(x, tuple) or not 1 <= len(x) <= 3 or any(
            isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in x):
        raise SymcuteError(f"atom layout must be 1 to 3 positive integers (M,N,K), got {x!r}")
    return x + (1,) * (3 - len(x))


def _atom_layout_names(mma) -> frozenset:
    """The names of the atom layout's thread digits (``wm, wn, wk``), as opposed to the atom's own ``t*``."""
    from ..atoms.names import atom_thread_digits, mma_thread_table
    return frozenset(d.name for d in mma_thread_table(mma)) - {d.name for d in atom_thread_digits(mma.atom)}


def _names_tree(mma, op):
    """The semantic names of the operand's TV layout (atoms layer), as a tuple tree."""
    return mma.layout_TV_names(op)


def _formula_row(f) -> list:
    """Sub-axes of a Formula as JSON rows: name, extent, stride, weight."""
    return [[a.name, a.extent, a.stride, a.weight] for a in f.axes]


def mode_terms(f, mode: int, size_before: int) -> list:
    """``[(weight within the mode, name, extent)]`` of the sub-axes of top-level mode ``mode``.

    A TV layout's thread index is ``t = sum(weight * digit)`` over the digits of
    mode 0; its value index over mode 1 (weights divided by the size of mode 0).
    """
    modes = _leaf_modes(f.layout.shape)
    return [[a.weight // size_before, a.name, a.extent] for a in f.axes if modes[a.leaf] == mode]


def _leaf_modes(shape) -> list:
    """The top-level mode of each flat leaf."""
    if not isinstance(shape, tuple):
        return [0]
    out = []
    for i, s in enumerate(shape):
        out += [i] * len(it.flatten_to_tuple(s))
    return out


def coordinate_terms(f, shape: tuple, outer=frozenset()):
    """The output of ``f`` read as a column-major coordinate of ``shape``: per mode ``[(coef, name)]``.

    ``q = m + M*k``: a sub-axis of stride ``d`` adds ``d // P_j`` to mode ``j``
    (``P`` the prefix products of ``shape``) when ``d`` is a multiple of ``P_j``
    and the mode cannot carry into the next one (the largest sum of its terms
    stays below its extent).  ``None`` when the output does not split this way.
    Terms are listed in sub-axis order, those named in ``outer`` (the atom
    layout's ``wm, wn, wk``) last: the atom's own coordinate first, as the seed.
    """
    prefix, p = [], 1
    for s in shape:
        prefix.append(p)
        p *= s
    modes = [[] for _ in shape]
    for a in f.axes:
        if a.stride == 0:
            continue
        j = max(i for i, pj in enumerate(prefix) if a.stride >= pj)
        if a.stride % prefix[j]:
            return None
        modes[j].append([a.stride // prefix[j], a.name, a.extent])
    order = {a.name: (a.name in outer, k) for k, a in enumerate(f.axes)}
    for terms in modes:
        terms.sort(key=lambda x: order[x[1]])
    for j, terms in enumerate(modes):
        if sum(c * (e - 1) for c, _, e in terms) >= shape[j]:
            return None
    return modes


def image(layout) -> list | None:
    """Every value of ``layout`` in input order, from its sub-axes (``sum(stride * digit)``); None past the limit.

    Pure Python on the digits (no per-point evaluation, no numpy): the value
    list grows one sub-axis at a time, lowest weight first.
    """
    f = layout if isinstance(layout, sym.Formula) else sym.formula(layout)
    if f.size() > ENUMERATE_LIMIT:
        return None
    values = [0]
    for a in f.axes:
        values = [v + a.stride * k for k in range(a.extent) for v in values]
    return values


def distinct_values(layout) -> int | None:
    """The number of distinct values of ``layout`` on its domain (enumerated; None past the limit)."""
    values = image(layout)
    return None if values is None else len(set(values))


def _largest_value(f) -> tuple[int, list]:
    """The largest value of a layout with nonnegative strides: every digit at its top (and the terms)."""
    terms = [[a.extent - 1, a.stride] for a in f.axes if a.stride > 0]
    coord = sum((a.extent - 1) * a.weight for a in f.axes if a.stride > 0)
    return coord, terms


def add_proof(d: Derivation, rule: str, proof, inputs: dict, labels: list, claim: str, domain: int,
              target: int | None = None) -> None:
    """Record a prover result as a step (``claim`` keys the statement template in reports).

    ``domain``: the inputs the claim is about (``[0, domain)``); ``target``: the
    range ``[0, target)`` of a surjectivity claim.
    """
    details = {"claim": claim, "labels": labels, "verdict": proof.verdict, "method": proof.method,
               "domain": domain}
    if target is not None:
        details["target"] = target
    d.add_step(rule, inputs, proof, details)


def _last_node(d: Derivation) -> str:
    """The step node recorded last."""
    return max((n for n, x in d.graph.nodes(data=True) if x.get("role") == "step"), key=lambda n: int(n[1:]))


def add_formula(d: Derivation, layout, f, label: str, **extra) -> None:
    d.add_step("formula", {"layout": layout}, f, {"label": label, "axes": _formula_row(f),
                                                  "text": str(f), "text_zeros": f.str_with_zeros(),
                                                  **_jsonable(extra)})


def add_table(d: Derivation, kind: str, **data) -> None:
    d.add_step("table", {}, None, {"kind": kind, **_jsonable(data)})


def add_evaluation(d: Derivation, layout, f, label: str, x, kind: str) -> int:
    """Record ``label(x)`` with the digits of ``x`` (a worked example); returns the value."""
    w = sym.witness(f, x)
    d.add_step("evaluate", {"layout": layout}, w.value,
               {"label": label, "kind": kind, "at": _jsonable(x), "index": w.index,
                "digits": {k: v for k, v in w.digits.items() if v}, "value": w.value})
    return w.value


# --- the retile recipe ---------------------------------------------------------------------------

def derive_retile(mma="SM80_16x8x16_F16F16F16F16_TN", atom_layout=(2, 2, 1), operand="A",
                  copy_atom="SM75_U32x2_LDSM_N", value_type="half_t", frg_values=None,
                  contrast=None) -> Derivation:
    """The seed's derivation of ``retile_D`` for one operand of a TiledMMA, recorded step by step.

    Builds ``make_tiled_mma(mma, atom_layout)``, the operand's TV layout F,
    ``make_tiled_copy_X(Copy_Atom<copy_atom, value_type>, mma)``, the thread-0
    register fragment (its first mode gives ``V``; ``frg_values`` overrides it),
    and records ``G = right_inverse(F)``, ``H = G.with_shape(Tiler_MN)``,
    ``upcast<TiledNumThr*V>(H)`` (and ``upcast<contrast>(H)`` when asked),
    ``retile(fragment)``, with the named formulas, the prover's checks, worked
    examples and tables.
    @post the labels F, G, H, frg_layout_mn, retile name the CuTe values
    """
    from ..atoms import copy_atom as lookup_copy, make_tiled_mma
    from ..atoms import make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C
    op = _operand(operand)
    shape_layout = _atom_layout(atom_layout)
    if frg_values is not None and (isinstance(frg_values, bool) or not isinstance(frg_values, int)
                                   or frg_values < 1):
        raise SymcuteError(f"the fragment's value count must be a positive integer, got {frg_values!r}")
    if contrast is not None and (isinstance(contrast, bool) or not isinstance(contrast, int) or contrast < 1):
        raise SymcuteError(f"the contrast upcast must be a positive integer, got {contrast!r}")
    (i, j), axes, bmode = OPERANDS[op]
    config = {"recipe": "retile-d", "mma": str(mma), "atom_layout": list(shape_layout), "operand": op,
              "copy_atom": str(copy_atom), "value_type": str(value_type), "frg_values": frg_values,
              "contrast": contrast}
    d = Derivation(f"retile_D: operand {op} of {mma} tiled {cute(shape_layout)}", **config)
    with d:
        tiled = make_tiled_mma(mma, shape_layout)
        d.label(tiled, "mma")
        _configuration(d, tiled, op)
        F = tiled.get_layout_TV(op)
        d.label(F, "F")
        with d.paused():
            Ff = sym.formula(F, _names_tree(tiled, op))
        _thread_domain(d, tiled, op, F)
        _formula_F(d, tiled, op, F, Ff)
        with d.paused():
            atom = lookup_copy(copy_atom, value_type)
        maker = {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}[op]
        tc = maker(atom, tiled)
        d.label(tc, "tiled_copy")
        thr = tiled.get_slice(0)
        tile = (tiled.tile_size(i), tiled.tile_size(j))
        frag = {"A": thr.partition_fragment_A, "B": thr.partition_fragment_B,
                "C": thr.partition_fragment_C}[op](tile)
        d.label(frag, "fragment")
        if frg_values is not None and frg_values != it.product(it.wrap(frag.shape)[0]):
            with d.paused():
                frag = Layout((frg_values,) + tuple(it.wrap(frag.shape)[1:]))
            d.label(frag, "fragment")
        V = it.product(it.wrap(frag.shape)[0])
        with d.paused():   # CuTe's member types of the TiledCopy (recasts of the atom's layouts)
            members = {"tiled_num_thr": tc.tiled_num_thr, "tiled_num_val": tc.tiled_num_val,
                       "atom_num_thr": tc.atom_num_thr, "atom_num_val": tc.atom_num_val}
        N = members["tiled_num_thr"] * V
        add_table(d, "retile_config", V=V, N=N, tiler=cute(tc.tiler_mn), tile=list(tile),
                  elements=tile[0] * tile[1], fragment=str(frag), fragment_given=frg_values is not None,
                  copy_atom=atom.name, value_type=str(atom.value_type), ptx=atom.ptx, copy_header=atom.header,
                  layout_tv=str(tc.layout_tv), **members)
        G = right_inverse(F)
        d.label(G, "G")
        Gf = _right_inverse_steps(d, F, Ff, G, op)
        H = G.with_shape(*tile)
        d.label(H, "H")
        Hf = _with_shape_steps(d, G, Gf, H, tile, axes, members["tiled_num_thr"], N)
        U = upcast(H, N)
        d.label(U, "frg_layout_mn")
        _upcast_steps(d, H, Hf, U, N, "frg_layout_mn")
        if contrast is not None:
            C = upcast(H, contrast)
            d.label(C, "contrast")
            _upcast_steps(d, H, Hf, C, contrast, "contrast")
        result = tc.retile(frag)
        d.label(result, "retile")
        with d.paused():
            steps = tc.retile_steps(frag)
        _retile_steps(d, members["atom_num_val"], frag, steps, H, Hf, U)
    return d


def _configuration(d, tiled, op) -> None:
    """The tile sizes, the thread organisation and the symbols of the configuration."""
    atom = tiled.atom
    vmnk = tiled.thr_layout_vmnk
    (i, j), axes, bmode = OPERANDS[op]
    modes = []
    for k, name in enumerate(ATOM_AXES):
        ext = vmnk[k + 1].size()
        stride = it.flatten_to_tuple(vmnk[k + 1].stride)[0] if ext > 1 else 0
        modes.append([name, ext, stride])
    add_table(d, "configuration", mma=atom.name, arch=atom.arch, header=atom.header, ptx=atom.ptx,
              atom_shape=list(atom.shape_mnk), atom_layout=str(tiled.atom_layout_mnk),
              atom_layout_shape=[vmnk[k].size() for k in (1, 2, 3)],
              tile=[tiled.tile_size(k) for k in range(3)], operand=op, operand_axes=list(axes),
              operand_tile=[tiled.tile_size(i), tiled.tile_size(j)], atom_threads=atom.thr_id.size(),
              threads=tiled.size(), thr_layout_vmnk=str(vmnk), thread_modes=modes,
              broadcast_mode=None if bmode is None else ATOM_AXES[bmode - 1])


def _thread_domain(d, tiled, op, F) -> None:
    """thrfrg_X(ref) against the final TV layout: threads, TVs, distinct elements (the seed's table)."""
    step = d.last(f"get_layout{op}_TV")
    details = step.details
    thrfrg, ref = details["thrfrg"], details["ref"]
    tile = details.get("broadcast_tile")
    bcast = None
    if tile is not None:
        bcast = tile[1][0]
    with d.paused():
        rows = []
        for stage, lay in (("thrfrg", thrfrg), ("final", F)):
            thr = lay[0].size()
            rows.append({"stage": stage, "layout": str(lay), "threads": thr, "values": lay.size() // thr,
                         "tvs": lay.size(), "distinct": distinct_values(lay)})
        thr_modes = cute(thrfrg[0].shape)
    add_table(d, "thread_domain", ref=str(ref), ref_shape=list(it.wrap(ref.shape)), rows=rows,
              broadcast_tile=None if bcast is None else str(bcast),
              thridx_2_thrid=str(details["thridx_2_thrid"]), thrfrg_thread_shape=thr_modes)


def _formula_F(d, tiled, op, F, Ff) -> None:
    (i, j), axes, bmode = OPERANDS[op]
    tile = (tiled.tile_size(i), tiled.tile_size(j))
    T = F[0].size()
    bcast = [a.name for a in sym.broadcast_axes(Ff)]
    with d.paused():
        outer = _atom_layout_names(tiled)
    add_formula(d, F, Ff, "F", thread_terms=mode_terms(Ff, 0, 1), value_terms=mode_terms(Ff, 1, T),
                coordinates=coordinate_terms(Ff, tile, outer), tile=list(tile), axes_names=list(axes),
                broadcast=bcast, threads=T, values=F.size() // T)
    with d.paused():
        inj = sym.is_injective(Ff)
        sur = sym.is_surjective(Ff, tile[0] * tile[1])
    add_proof(d, "is_injective", inj, {"L": F}, ["F"], "injective", F.size())
    add_proof(d, "is_surjective", sur, {"L": F}, ["F"], "surjective", F.size(), tile[0] * tile[1])


def _right_inverse_steps(d, F, Ff, G, op):
    """G's formula, the right_inverse details by sub-axis name, the checks and the broadcast examples."""
    with d.paused():
        Gf = sym.right_inverse(Ff)
        Cf = sym.coalesce(Ff)
        if Gf.layout != G:
            raise AssertionError(f"symbolic right_inverse {Gf.layout} differs from core {G}")
    step = d.last("right_inverse")
    labels = list(Cf.leaf_labels)
    det = step.details
    named = {"coalesced": str(det["coalesced"]), "modes": labels,
             "weights": list(det["weights"]), "order": [labels[k] for k in det["order"]],
             "chosen": [labels[k] for k in det["chosen"]], "skipped": [labels[k] for k in det["skipped"]],
             "shapes": list(it.flatten_to_tuple(det["coalesced"].shape)) if isinstance(
                 det["coalesced"].shape, tuple) else [det["coalesced"].shape],
             "strides": list(it.flatten_to_tuple(det["coalesced"].stride)) if isinstance(
                 det["coalesced"].stride, tuple) else [det["coalesced"].stride]}
    # the digit of G with the largest coefficient: its TV weight is the product of the extents below it
    top = max(Gf.axes, key=lambda a: a.stride)
    fa = Ff.axis(top.name)
    below = [a.extent for a in Ff.axes if a.weight < fa.weight]
    T = F[0].size()
    add_formula(d, G, Gf, "G", right_inverse=named, size=G.size(), top_axis=top.name, top_weight=top.stride,
                top_factors=below, top_stride_in_F=fa.stride, threads=T)
    with d.paused():
        pr = sym.prove_right_inverse(Ff, Gf, labels=("F", "G"))
        pl = sym.prove_left_inverse(Ff, Gf, labels=("F", "G"))
    add_proof(d, "prove_right_inverse", pr, {"L": F, "R": G}, ["F", "G"], "right_inverse", G.size())
    add_proof(d, "prove_left_inverse", pl, {"L": F, "R": G}, ["F", "G"], "left_inverse", F.size())
    # worked examples: the TV of G's top digit, and its broadcast twin (the seed's 512 and 576)
    base = fa.weight
    q = Ff(base)
    add_evaluation(d, F, Ff, "F", it.idx2crd(base, (T, F.size() // T)), "broadcast")
    for b in sym.broadcast_axes(Ff):
        twin = base + b.weight
        add_evaluation(d, F, Ff, "F", it.idx2crd(twin, (T, F.size() // T)), "broadcast")
        add_evaluation(d, G, Gf, "G", q, "chosen")
        add_evaluation(d, F, Ff, "F", G(q), "roundtrip")
        d.add_step("evaluate", {"layout": G}, G(F(twin)),
                   {"label": "G∘F", "kind": "left", "at": twin, "index": twin, "digits": {},
                    "value": G(F(twin)), "inner": F(twin), "axis": b.name})
        break
    else:
        add_evaluation(d, G, Gf, "G", q, "chosen")
    return Gf


def _with_shape_steps(d, G, Gf, H, tile, axes, T, N):
    with d.paused():
        Hf = sym.with_shape(Gf, tile, names=axes)
        if Hf.layout != H:
            raise AssertionError(f"symbolic with_shape {Hf.layout} differs from core {H}")
        digits = [[a.name, a.extent, a.weight] for a in Hf.axes]
        per_mode = [mode_terms(Hf, k, 1 if k == 0 else tile[0]) for k in range(2)]
        top, terms = _largest_value(Hf)
        largest = H(top)
    add_formula(d, H, Hf, "H", tile=list(tile), axes_names=list(axes), aliases=dict(Hf.aliases),
                mode_terms=per_mode, largest=largest, largest_terms=terms, digits=digits, N=N)
    with d.paused():
        p = sym.prove(Hf, Gf, labels=("H", "G"))
    add_proof(d, "prove_equal", p, {"lhs": H, "rhs": G}, ["H", "G"], "with_shape", H.size())
    # the seed's table (m,k) -> q -> (t,v) -> tv: the origin, G's top digit, and that plus the lowest digit
    # of the same coordinate mode
    top_axis = max(Hf.axes, key=lambda a: a.stride)
    modes = _leaf_modes(H.shape)
    same = [a for a in Hf.axes if modes[a.leaf] == modes[top_axis.leaf] and a is not top_axis]
    picks = [0, top_axis.weight] + ([top_axis.weight + min(same, key=lambda a: a.weight).weight] if same else [])
    rows = []
    for q in picks:
        crd = it.idx2crd(q, tile)
        tv = H(crd)
        rows.append({"coord": list(crd), "q": q, "tv": tv, "tv_coord": [tv % T, tv // T]})
    ranges = None
    vals = image(Hf)
    if vals is not None:
        by_v = {}
        for x in vals:
            lo, hi = by_v.get(x // T, (x, x))
            by_v[x // T] = (min(lo, x), max(hi, x))
        ranges = [[v, lo, hi] for v, (lo, hi) in sorted(by_v.items())]
    add_table(d, "selected_tvs", rows=rows, threads=T, ranges=ranges, top_axis=top_axis.name,
              top_stride=top_axis.stride, top_coord=list(it.idx2crd(top_axis.weight, tile)))
    return Hf


def _upcast_steps(d, H, Hf, U, n, label):
    with d.paused():
        Uf = sym.upcast(Hf, n)
        if Uf.layout != U:
            raise AssertionError(f"symbolic upcast {Uf.layout} differs from core {U}")
    step = d.last("upcast")
    modes = [list(m) for m in step.details.get("modes", [])]
    each = list(it.product_each(U.shape)) if isinstance(U.shape, tuple) else [U.shape]
    rows = []
    for a in Hf.axes:
        per_group = ceil_div(n, abs(a.stride)) if a.stride else None
        rows.append({"axis": a.name, "shape": a.extent, "stride": a.stride, "per_group": per_group,
                     "new_shape": ceil_div(a.extent, per_group) if per_group else a.extent,
                     "new_stride": ceil_div(abs(a.stride), n) if a.stride else 0})
    add_formula(d, U, Uf, label, n=n, product_each=each, rows=rows, modes=modes,
                steps=Uf.steps.to_dict() if Uf.steps is not None else None)


def _retile_steps(d, atom_num_val, frag, steps, H, Hf, U) -> None:
    result = steps.result
    add_table(d, "retile", V=steps.V, upcast_n=steps.upcast_n, frg_layout_mn=str(steps.frg_layout_mn),
              product_each=list(steps.frg_shape_each), frg_layout_v=str(steps.frg_layout_v),
              tiler=list(steps.tiler), t_tensor=str(steps.t_tensor), v_tensor=str(steps.v_tensor),
              result=str(result), grouping=cute(it.wrap(result.shape)[0]),
              atom_num_val=atom_num_val, fragment=str(frag))
    with d.paused():
        p = sym.prove(steps.with_shape, Hf, labels=("retile: with_shape", "H"))
        q = sym.prove(steps.frg_layout_mn, U, labels=("retile: frg_layout_mn", "frg_layout_mn"))
    add_proof(d, "prove_equal", p, {"lhs": steps.with_shape, "rhs": H}, ["retile: with_shape", "H"],
              "retile_with_shape", H.size())
    add_proof(d, "prove_equal", q, {"lhs": steps.frg_layout_mn, "rhs": U},
              ["retile: frg_layout_mn", "frg_layout_mn"], "retile_upcast", U.size())


# --- any expression ---------------------------------------------------------------------------------------

def derive_expr(text: str, lets: dict | None = None, names: dict | None = None) -> Derivation:
    """Evaluate an expression of the expression language under a derivation, with a formula and checks per step.

    ``lets``: variable -> value (a value, or expression text evaluated first,
    unrecorded); ``names``: variable -> names tree (text or tuples) for a
    layout variable.  Each top-level step of the evaluation gets the formula
    of its result, named after its inputs' sub-axes where the symbolic layer
    can follow them (default names otherwise), and the identity its rule
    guarantees is proved: ``L(R(i)) == i`` for right_inverse, ``R(L(x)) == x``
    for left_inverse, equality as functions for with_shape and coalesce,
    ``result(c) == lhs(rhs(c))`` for composition.
    """
    from .. import lang
    from ..core.layout import Layout as _Layout
    from ..symbolic.names import parse_names
    if not isinstance(text, str) or not text.strip():
        raise SymcuteError("derive expr: the expression is empty")
    lets = dict(lets or {})
    names = dict(names or {})
    env, shown = {}, []
    for var, value in lets.items():
        val = lang.parse_expr_text(value).evaluate(env) if isinstance(value, str) else value
        env[var] = val
    formulas = {}
    for var, tree in names.items():
        if var not in env:
            raise SymcuteError(f"derive expr: names given for {var!r}, which no --let binds")
        if not isinstance(env[var], _Layout):
            raise SymcuteError(f"derive expr: {var} = {env[var]} is not a layout; only layouts take names")
        tree = parse_names(tree) if isinstance(tree, str) else tree
        formulas[var] = sym.formula(env[var], tree)
    for var, val in env.items():
        shown.append([var, str(val), _names_text(formulas[var]) if var in formulas else None])
    d = Derivation(f"derive expr: {text}", recipe="expr", expression=text,
                   lets={k: str(v) for k, v in env.items()},
                   names={k: _names_text(f) for k, f in formulas.items()})
    with d:
        for var, val in env.items():
            d.label(val, var)
        parsed = lang.parse_expr_text(text)
        result = parsed.evaluate(env)
        d.label(result, "result")
    steps = d.steps(top_level_only=True)
    for k, step in enumerate(steps, 1):   # intermediate results are named R1, R2, ... in the report
        if step.output is not None and "label" not in d.graph.nodes[step.output]:
            d.graph.nodes[step.output]["label"] = f"R{k}"
    known = {d.labelled(v): f for v, f in formulas.items()}
    add_table(d, "bindings", rows=shown, result=describe_value(result))
    for k, step in enumerate(steps, 1):
        _explain_step(d, step, k, known)
    return d


def _names_text(f) -> str:
    from ..symbolic.names import format_names
    return format_names(f.names)


def describe_value(x) -> str:
    if isinstance(x, (tuple, list)):
        return cute(x)
    return str(x)


_SYM_OPS = {"right_inverse": ("right_inverse", ("layout",)), "left_inverse": ("left_inverse", ("layout",)),
            "coalesce": ("coalesce", ("layout", "profile")), "complement": ("complement", ("layout", "cotarget")),
            "upcast": ("upcast", ("layout", "n")), "downcast": ("downcast", ("layout", "n")),
            "composition": ("composition", ("lhs", "rhs")), "logical_divide": ("logical_divide", ("layout", "tiler")),
            "zipped_divide": ("zipped_divide", ("layout", "tiler")),
            "logical_product": ("logical_product", ("block", "tiler"))}


def _explain_step(d: Derivation, step, k: int, known: dict) -> None:
    """The formula of a step's result (names followed through the symbolic layer) and its guaranteed identity."""
    from ..core.layout import Layout as _Layout
    out = d.obj(step.output) if step.output is not None else None
    if not isinstance(out, _Layout) or not _int_strides(out):
        return

    def f_of(node):
        if node in known:
            return known[node]
        obj = d.obj(node)
        return sym.formula(obj) if isinstance(obj, _Layout) and _int_strides(obj) else obj

    with d.paused():
        args = {name: f_of(node) for name, node in step.inputs.items()}
        f = None
        try:
            if step.rule in ("get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV") and "self" in step.inputs:
                # the atoms layer names a TiledMMA's TV layouts (t0, t1, wm, wn | v0, v1, ...)
                f = sym.formula(out, d.obj(step.inputs["self"]).layout_TV_names(step.rule[10]))
            elif step.rule in _SYM_OPS:
                fn_name, params = _SYM_OPS[step.rule]
                fn = getattr(sym, fn_name, None) or getattr(sym.ops, fn_name)
                call = [args[p] for p in params if p in args]
                f = fn(*call)
            elif step.rule == "with_shape":
                shape = tuple(args[n] for n in sorted(a for a in args if a.startswith("shape")))
                f = sym.with_shape(args["self"], *shape)
        except (SymcuteError, AssertionError, TypeError, KeyError, AttributeError):
            f = None   # no symbolic counterpart for these inputs: default names below
        if f is None or f.layout != out:
            f = sym.formula(out)
    known[step.output] = f
    add_formula(d, out, f, d.graph.nodes[step.output]["label"], step=k, rule=step.rule)
    _step_check(d, step, k, args, f)


def _int_strides(layout) -> bool:
    return all(isinstance(x, int) and not isinstance(x, bool) for x in it.flatten_to_tuple(layout.stride))


def _step_check(d: Derivation, step, k: int, args: dict, f) -> None:
    from ..symbolic import Compose
    from ..symbolic.formula import Formula
    rule, label = step.rule, d.graph.nodes[step.output]["label"]

    def name_of(key):
        return d.graph.nodes[step.inputs[key]].get("label", "L")
    with d.paused():
        try:
            if rule == "right_inverse" and isinstance(args.get("layout"), Formula):
                L = args["layout"]
                lab = [name_of("layout"), label]
                p, claim, n = sym.prove_right_inverse(L, f, labels=tuple(lab)), "right_inverse", f.size()
            elif rule == "left_inverse" and isinstance(args.get("layout"), Formula):
                L = args["layout"]
                lab = [name_of("layout"), label]
                p, claim, n = sym.prove_left_inverse(L, f, labels=tuple(lab)), "left_inverse", L.size()
            elif rule in ("with_shape", "coalesce") and isinstance(args.get("self", args.get("layout")), Formula):
                L = args.get("self", args.get("layout"))
                if L.size() != f.size():
                    return
                lab = [label, name_of("self" if "self" in step.inputs else "layout")]
                p, claim, n = sym.prove(f, L, labels=tuple(lab)), "equal", f.size()
            elif rule == "composition" and isinstance(args.get("lhs"), Formula) and isinstance(args.get("rhs"), Formula):
                both = f"{name_of('lhs')}∘{name_of('rhs')}"
                p = sym.prove(f, Compose(args["lhs"], args["rhs"]), labels=(label, both))
                claim, lab, n = "equal", [label, both], f.size()
            else:
                return
        except SymcuteError:
            return
    rid = {"right_inverse": "prove_right_inverse", "left_inverse": "prove_left_inverse"}.get(claim, "prove_equal")
    add_proof(d, rid, p, {"result": d.obj(step.output)}, lab, claim, n)
    d.graph.nodes[_last_node(d)]["details"]["step"] = k


# --- TV layouts of a TiledMMA (GMMA and other atoms without an LDSM tiled copy) ---------------------------

def derive_tv(mma="SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", atom_layout=(1, 1, 1), operands=("A", "B", "C")) -> Derivation:
    """The TV layouts of a TiledMMA with named sub-axes, their right inverses and the inverse identities.

    For each operand: F = get_layoutX_TV() (recorded), its formula, broadcast
    sub-axes, G = right_inverse(F) (recorded) with the skipped modes, checks
    ``F(G(i)) == i``, ``G(F(x)) == x``, injectivity, surjectivity onto the
    operand tile, and a worked example (G's top digit).
    """
    from ..atoms import make_tiled_mma
    shape_layout = _atom_layout(atom_layout)
    ops = [_operand(o) for o in operands]
    d = Derivation(f"TV layouts of {mma} tiled {cute(shape_layout)}", recipe="tv", mma=str(mma),
                   atom_layout=list(shape_layout), operands=ops)
    with d:
        tiled = make_tiled_mma(mma, shape_layout)
        d.label(tiled, "mma")
        atom = tiled.atom
        add_table(d, "tv_configuration", mma=atom.name, ptx=atom.ptx, header=atom.header, arch=atom.arch,
                  tile=[tiled.tile_size(k) for k in range(3)], threads=tiled.size(),
                  atom_layout=str(tiled.atom_layout_mnk),
                  descriptors={o: (atom.frg_type_a if o == "A" else atom.frg_type_b) for o in ("A", "B")
                               if (atom.frg_type_a if o == "A" else atom.frg_type_b)})
        for op in ops:
            _tv_operand(d, tiled, op)
    return d


def _tv_operand(d, tiled, op) -> None:
    (i, j), axes, _ = OPERANDS[op]
    F = tiled.get_layout_TV(op)
    d.label(F, f"F_{op}")
    with d.paused():
        Ff = sym.formula(F, _names_tree(tiled, op))
    tile = (tiled.tile_size(i), tiled.tile_size(j))
    T = F[0].size()
    bc = sym.broadcast_axes(Ff)
    copies = 1
    for b in bc:
        copies *= b.extent
    add_formula(d, F, Ff, f"F_{op}", operand=op, tile=list(tile), broadcast=[[b.name, b.extent] for b in bc],
                copies=copies, threads=T, values=F.size() // T, size=F.size())
    G = right_inverse(F)
    d.label(G, f"G_{op}")
    with d.paused():
        Gf = sym.right_inverse(Ff)
        Cf = sym.coalesce(Ff)
        det = d.last("right_inverse").details
        labels = list(Cf.leaf_labels)
        strides = it.flatten_to_tuple(det["coalesced"].stride)
        order = [f"{labels[k]}({strides[k]})" for k in det["order"]]
        skipped = [labels[k] for k in det["skipped"]]
    add_formula(d, G, Gf, f"G_{op}", operand=op, size=G.size(), order=order, skipped=skipped)
    with d.paused():
        checks = [("prove_right_inverse", sym.prove_right_inverse(Ff, Gf, labels=("F", "G")), "right_inverse",
                   G.size(), None),
                  ("prove_left_inverse", sym.prove_left_inverse(Ff, Gf, labels=("F", "G")), "left_inverse",
                   F.size(), None),
                  ("is_injective", sym.is_injective(Ff), "injective", F.size(), None),
                  ("is_surjective", sym.is_surjective(Ff, tile[0] * tile[1]), "surjective", F.size(),
                   tile[0] * tile[1])]
    for rule, p, claim, n, target in checks:
        add_proof(d, rule, p, {"L": F, "R": G} if "inverse" in rule else {"L": F}, ["F", "G"], claim, n, target)
        d.graph.nodes[_last_node(d)]["details"]["operand"] = op
    if Gf.axes:
        top = max(Gf.axes, key=lambda a: a.stride)
        q = top.weight
        tv = G(q)
        add_evaluation(d, G, Gf, f"G_{op}", q, f"example_{op}")
        add_evaluation(d, F, Ff, f"F_{op}", it.idx2crd(tv, (T, F.size() // T)), f"example_{op}")


# --- the catalog of MMA atoms -------------------------------------------------------------------------------

def derive_catalog(filter: str | None = None, arch: str | None = None) -> Derivation:
    """right_inverse / left_inverse facts of every catalogued MMA atom's A, B and C TV layouts (one table).

    Per layout L: size(L), size(right_inverse(L)), the prover's verdict on
    ``L(R(i)) == i``, the broadcast sub-axes (thread sub-axes ``t0, t1, ...``,
    value sub-axes ``v0, v1, ...``, numbered by position), and whether
    ``left_inverse(L)`` undoes L.  The operations run unrecorded (thousands of
    them); the derivation holds the table.
    """
    from ..atoms import mma_atoms
    from .rules import CUTLASS_VERSION
    d = Derivation("right_inverse / left_inverse of the MMA atom catalog", recipe="catalog", filter=filter,
                   arch=arch)
    rows = []
    with d.paused():
        for entry in mma_atoms(filter=filter, arch=arch):
            atom = entry.atom
            cells = {}
            for op in ("A", "B", "C"):
                lay = getattr(atom, op.lower() + "_layout")
                cells[op] = None if lay is None else _inverse_facts(lay)
            rows.append({"atom": entry.name, "arch": entry.arch, "header": entry.header, "cells": cells})
    add_table(d, "catalog", rows=rows, count=len(rows), version=CUTLASS_VERSION)
    return d


def _tv_names(layout: Layout):
    """Positional names for an atom's TV layout: thread leaves t0, t1, ...; value leaves v0, v1, ..."""
    def leaves(shape, prefix):
        flat = it.flatten_to_tuple(shape) if isinstance(shape, tuple) else (shape,)
        names = [f"{prefix}{k}" for k in range(len(flat))]
        return it.unflatten(tuple(names), shape) if isinstance(shape, tuple) else names[0]
    return (leaves(layout.shape[0], "t"), leaves(layout.shape[1], "v"))


def _inverse_facts(L: Layout) -> dict:
    f = sym.formula(L, _tv_names(L))
    R = right_inverse(L)
    pr = sym.prove_right_inverse(f, R)
    out = {"size": L.size(), "rsize": R.size(), "right": pr.verdict, "right_method": pr.method,
           "broadcast": [[a.name, a.extent] for a in sym.broadcast_axes(f)]}
    try:
        pl = sym.prove_left_inverse(f)
        out["left"], out["left_method"] = pl.verdict, pl.method
    except LayoutError as e:   # CuTe's left_inverse refuses it (divisibility)
        out["left"], out["left_method"] = "error", str(e)
    return out
