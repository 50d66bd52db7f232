"""The seed's recipe: ``TiledCopy::retile`` (inside ``retile_S``/``retile_D``) for one operand of a TiledMMA."""

from __future__ import annotations

from .. import symbolic as sym
from ..core import Layout, Underscore, right_inverse, upcast
from ..atoms.operand import get_operand
from ..core import int_tuple as it
from ..errors import SymcuteError
from ..symbolic.ops import upcast_axes
from ..trace.derivation import Derivation
from .steps import (
    ATOM_AXES, _atom_layout, _atom_layout_names, _largest_value, _leaf_modes,
    _names_tree, add_evaluation, add_formula, add_proof, add_table, coordinate_terms, cute,
    distinct_values, image, mode_terms,
)
from .records import Evaluation
from .records_retile import (
    Digit, Retile, RetileConfig, RetileInverse, RetileWithShape, RightInverseModes, SelectedTV, SelectedTVs,
    StageRow, ThreadDomain, ThreadMode, TiledMMAConfiguration, TVTerms, Upcast, UpcastRow,
)

# The seed document's configuration (seeds/000_28a9c404e15f3261.txt); its aside
# contrasts upcast<128*8> with upcast<128*4>.
SEED = {"mma": "SM80_16x8x16_F16F16F16F16_TN", "atom_layout": (2, 2, 1), "operand": "A",
        "copy_atom": "SM75_U32x2_LDSM_N", "value_type": "half_t", "frg_values": None, "contrast": 512}


def derive_retile(mma="SM80_16x8x16_F16F16F16F16_TN", atom_layout=(2, 2, 1), operand="A",
                  copy_atom="SM75_U32x2_LDSM_N", value_type="half_t", frg_values=None,
                  contrast=None, permutation=None) -> Derivation:
    """The seed's derivation of ``retile_D`` for one operand of a TiledMMA, recorded step by step.

    Builds ``make_tiled_mma(mma, atom_layout)``, the operand's TV layout F,
    ``make_tiled_copy_X(Copy_Atom<copy_atom, value_type>, mma)``, the thread-0
    register fragment (its first mode gives ``V``; ``frg_values`` overrides it),
    and records ``G = right_inverse(F)``, ``H = G.with_shape(Tiler_MN)``,
    ``upcast<TiledNumThr*V>(H)`` (and ``upcast<contrast>(H)`` when asked),
    ``retile(fragment)``, with the named formulas, the prover's checks, worked
    examples and tables.  ``permutation``: the TiledMMA's PermutationMNK as three tile extents
    (CuTe's ``Tile<_32,_32,_16>``), e.g. for an LDSM x4 copy of B.
    @post the labels F, G, H, frg_layout_mn, retile name the CuTe values
    """
    from ..atoms import copy_atom as lookup_copy, make_tiled_mma
    from ..atoms import make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C
    o = get_operand(operand)
    op, (i, j), axes = o.name, o.modes, o.axes
    shape_layout = _atom_layout(atom_layout)
    if frg_values is not None and (isinstance(frg_values, bool) or not isinstance(frg_values, int)
                                   or frg_values < 1):
        raise SymcuteError(f"the fragment's value count must be a positive integer, got {frg_values!r}")
    if contrast is not None and (isinstance(contrast, bool) or not isinstance(contrast, int) or contrast < 1):
        raise SymcuteError(f"the contrast upcast must be a positive integer, got {contrast!r}")
    config = {"recipe": "retile-d", "mma": str(mma), "atom_layout": list(shape_layout), "operand": op,
              "copy_atom": str(copy_atom), "value_type": str(value_type), "frg_values": frg_values,
              "contrast": contrast, "permutation": None if permutation is None else list(permutation)}
    d = Derivation(f"retile_D: operand {op} of {mma} tiled {cute(shape_layout)}", **config)
    perms = None if permutation is None else _permutation(permutation)
    with d:
        tiled = make_tiled_mma(mma, shape_layout, perms)
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
        add_table(d, "retile_config", **RetileConfig(
            V, N, cute(tc.tiler_mn), tuple(tile), tile[0] * tile[1], str(frag), frg_values is not None, atom.name,
            str(atom.value_type), atom.ptx, atom.header, str(tc.layout_tv), members["tiled_num_thr"],
            members["tiled_num_val"], members["atom_num_thr"], members["atom_num_val"], atom.arch,
            tiled.atom.arch, tiled.size()).to_details())
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


def _permutation(p) -> tuple:
    """Three positive tile extents (CuTe's ``Tile<_M,_N,_K>``: each a ``Layout<_M>`` permutation)."""
    if isinstance(p, str):
        try:
            p = tuple(int(x) for x in p.replace("(", "").replace(")", "").split(","))
        except ValueError:
            raise SymcuteError(f"--permutation expects M,N,K (three positive integers), got {p!r}") from None
    if len(p) != 3 or any(isinstance(x, bool) or not isinstance(x, int) or x < 1 for x in p):
        raise SymcuteError(f"the permutation must be three positive tile extents M,N,K, got {p!r}")
    return tuple(Layout(x) for x in p)


def _configuration(d, tiled, op) -> None:
    """The tile sizes, the thread organisation and the symbols of the configuration."""
    atom = tiled.atom
    vmnk = tiled.thr_layout_vmnk
    o = get_operand(op)
    (i, j), axes = o.modes, o.axes
    modes = []
    for k, name in enumerate(ATOM_AXES):
        ext = vmnk[k + 1].size()
        stride = it.flatten_to_tuple(vmnk[k + 1].stride)[0] if ext > 1 else 0
        modes.append(ThreadMode(name, ext, stride))
    tile = tuple(tiled.tile_size(k) for k in range(3))
    add_table(d, "configuration", **TiledMMAConfiguration(
        atom.name, atom.arch, atom.header, atom.ptx, tuple(atom.shape_mnk), str(tiled.atom_layout_mnk),
        tuple(vmnk[k].size() for k in (1, 2, 3)),
        None if all(isinstance(x, Underscore) for x in tiled.permutation_mnk_) else tile,
        tile, op, tuple(axes), (tiled.tile_size(i), tiled.tile_size(j)), atom.thr_id.size(), tiled.size(),
        str(vmnk), tuple(modes),
        # a broadcast only where the broadcast mode has threads: with atom layout (2,1,1) the
        # wn mode of A has extent 1, and atile connects nothing
        None if o.broadcast is None or vmnk[o.broadcast + 1].size() == 1 else ATOM_AXES[o.broadcast],
    ).to_details())


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
            rows.append(StageRow(stage, str(lay), thr, lay.size() // thr, lay.size(), distinct_values(lay)))
        thr_modes = cute(thrfrg[0].shape)
    add_table(d, "thread_domain", **ThreadDomain(
        str(ref), tuple(it.wrap(ref.shape)), tuple(rows), None if bcast is None else str(bcast),
        str(details["thridx_2_thrid"]), thr_modes).to_details())


def _formula_F(d, tiled, op, F, Ff) -> None:
    o = get_operand(op)
    tile, axes = o.tile_shape([tiled.tile_size(k) for k in range(3)]), o.axes
    T = F[0].size()
    bcast = [a.name for a in sym.broadcast_axes(Ff)]
    with d.paused():
        outer = _atom_layout_names(tiled)
    add_formula(d, F, Ff, "F", **TVTerms(
        thread_terms=mode_terms(Ff, 0, 1), value_terms=mode_terms(Ff, 1, T),
        coordinates=coordinate_terms(Ff, tile, outer), tile=tuple(tile), axes_names=tuple(axes),
        broadcast=tuple(bcast), threads=T, values=F.size() // T).to_details())
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
    coalesced = det["coalesced"]
    named = RightInverseModes(
        coalesced=str(coalesced), modes=tuple(labels), weights=tuple(det["weights"]),
        order=tuple(labels[k] for k in det["order"]), chosen=tuple(labels[k] for k in det["chosen"]),
        skipped=tuple(labels[k] for k in det["skipped"]), shapes=tuple(it.flatten_to_tuple(coalesced.shape)),
        strides=tuple(it.flatten_to_tuple(coalesced.stride)), strides_of_G=tuple(it.flatten_to_tuple(G.stride)))
    # the digit of G with the largest coefficient: its TV weight is the product of the extents below it
    top = max(Gf.axes, key=lambda a: a.stride)
    fa = Ff.axis(top.name)
    below = [a.extent for a in Ff.axes if a.weight < fa.weight]
    T = F[0].size()
    add_formula(d, G, Gf, "G", **RetileInverse(
        right_inverse=named, size=G.size(), top_axis=top.name, top_weight=top.stride, top_factors=tuple(below),
        top_stride_in_F=fa.stride, threads=T).to_details())
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
                   Evaluation("G∘F", "left", twin, twin, {}, G(F(twin)), inner=F(twin), axis=b.name).to_details())
        break
    else:
        add_evaluation(d, G, Gf, "G", q, "chosen")
    return Gf


def _with_shape_steps(d, G, Gf, H, tile, axes, T, N):
    with d.paused():
        Hf = sym.with_shape(Gf, tile, names=axes)
        if Hf.layout != H:
            raise AssertionError(f"symbolic with_shape {Hf.layout} differs from core {H}")
        digits = tuple(Digit(a.name, a.extent, a.weight) for a in Hf.axes)
        per_mode = [mode_terms(Hf, k, 1 if k == 0 else tile[0]) for k in range(2)]
        top, terms = _largest_value(Hf)
        largest = H(top)
    add_formula(d, H, Hf, "H", **RetileWithShape(
        tile=tuple(tile), axes_names=tuple(axes), aliases=dict(Hf.aliases), mode_terms=per_mode,
        largest=largest, largest_terms=terms, digits=digits, N=N).to_details())
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
        rows.append(SelectedTV(tuple(crd), q, tv, (tv % T, tv // T)))
    ranges = None
    vals = image(Hf)
    if vals is not None:
        by_v = {}
        for x in vals:
            lo, hi = by_v.get(x // T, (x, x))
            by_v[x // T] = (min(lo, x), max(hi, x))
        ranges = tuple((v, lo, hi) for v, (lo, hi) in sorted(by_v.items()))
    add_table(d, "selected_tvs", **SelectedTVs(tuple(rows), T, ranges, top_axis.name, top_axis.stride,
                                               tuple(it.idx2crd(top_axis.weight, tile))).to_details())
    return Hf


def _upcast_steps(d, H, Hf, U, n, label):
    with d.paused():
        Uf = sym.upcast(Hf, n)
        if Uf.layout != U:
            raise AssertionError(f"symbolic upcast {Uf.layout} differs from core {U}")
    step = d.last("upcast")
    modes = tuple(tuple(m) for m in step.details.get("modes", []))
    each = tuple(it.product_each(U.shape)) if isinstance(U.shape, tuple) else (U.shape,)
    rows = tuple(UpcastRow(*a) for a in upcast_axes(Hf, n))   # symbolic's per-sub-axis rows, as read
    add_formula(d, U, Uf, label, **Upcast(n, each, rows, modes,
                                          Uf.steps.to_dict() if Uf.steps is not None else None).to_details())


def _retile_steps(d, atom_num_val, frag, steps, H, Hf, U) -> None:
    result = steps.result
    add_table(d, "retile", **Retile(steps.V, steps.upcast_n, str(steps.frg_layout_mn), tuple(steps.frg_shape_each),
                                    str(steps.frg_layout_v), tuple(steps.tiler), str(steps.t_tensor),
                                    str(steps.v_tensor), str(result), cute(it.wrap(result.shape)[0]), atom_num_val,
                                    str(frag)).to_details())
    with d.paused():
        p = sym.prove(steps.with_shape, Hf, labels=("retile: with_shape", "H"))
        q = sym.prove(steps.frg_layout_mn, U, labels=("retile: frg_layout_mn", "frg_layout_mn"))
    add_proof(d, "prove_equal", p, {"lhs": steps.with_shape, "rhs": H}, ["retile: with_shape", "H"],
              "retile_with_shape", H.size())
    add_proof(d, "prove_equal", q, {"lhs": steps.frg_layout_mn, "rhs": U},
              ["retile: frg_layout_mn", "frg_layout_mn"], "retile_upcast", U.size())
