"""The report of the retile-d recipe: the seed's document, generated (``recipes.derive_retile``).

Sections follow the seed: the question, the configuration, make_tiled_copy,
the thread domain (atile / btile), F as a formula, right_inverse, with_shape,
upcast, retile, the checks and the sources.  Every number comes from the
derivation's steps; every sentence from the template table of the language.
"""

from __future__ import annotations

from .. import markup as md
from ..atoms.operand import OPERANDS
from ..recipes.records import FormulaStep, ProofClaim, ProofDetails
from ..recipes.records_retile import (
    Retile, RetileConfig, RetileInverse, RetileWithShape, SelectedTVs, ThreadDomain, TiledMMAConfiguration, TVTerms,
    Upcast,
)
from .common import axes_table, check, checks_summary, cute, lin, product_text, sources, span
from ..markup import Raw, block, code
from .templates import snippets


def render(view, t) -> str:
    ctx = _context(view)
    parts = []
    for section in (_question, _configuration, _tiled_copy, _thread_domain, _formula_F, _right_inverse,
                    _with_shape, _upcast, _retile, _summary):
        parts += section(view, t, ctx)
    return md.join(parts)


def _context(view) -> dict:
    """The facts most sections use, read once."""
    conf = TiledMMAConfiguration.from_details(view.table("configuration"))
    rc = RetileConfig.from_details(view.table("retile_config"))
    op = conf.operand
    ax = conf.operand_axes
    return {"op": op, "conf": conf, "rc": rc, "ax": ax, "T": rc.tiled_num_thr, "V": rc.V, "N": rc.N,
            "tile": rc.tile, "elements": rc.elements, "bmode": conf.broadcast_mode,
            "q_formula": f"{ax[0]}+{rc.tile[0]}*{ax[1]}", "tv_formula": f"t+{rc.tiled_num_thr}*v"}


def _question(view, t, ctx) -> list:
    G = RetileInverse.from_details(view.formula_step("G").details)
    U = Upcast.from_details(view.formula_step("frg_layout_mn").details)
    each = cute(U.product_each)
    fields = dict(op=ctx["op"], rows=ctx["tile"][0], cols=ctx["tile"][1], elements=code(ctx["elements"]),
                  T=ctx["T"], V=ctx["V"], N=code(ctx["N"]), stride=code(G.top_weight), each=code(each),
                  upcast=code(f"upcast<{ctx['N']}>"))
    title = t("retile_title", op=md.esc(ctx["op"]), mma=code(ctx["conf"].mma),
              layout=code(cute(ctx["conf"].atom_layout_shape)))
    # each question only where its premise holds: "only E elements" when E < N, the stride when it reaches the tile
    questions = [t("retile_setup_fewer" if ctx["elements"] < ctx["N"] else "retile_setup", **fields),
                 t("retile_q_upcast", **fields)]
    # the stride as CuTe prints G (a coalesced G may fold the formula's top digit into a longer mode)
    if G.top_weight >= ctx["elements"] and G.top_weight in G.right_inverse.strides_of_G:
        questions.append(t("retile_q_stride", **fields))
    questions.append(t("retile_q_each_ones" if all(x == 1 for x in U.product_each) else "retile_q_each", **fields))
    sep = "" if t("retile_q_upcast", **fields).endswith("？") else " "
    parts = [md.heading(1, title), t("retile_intro"), block(snippets.RETILE_LINE.format(), "cpp"), sep.join(questions)]
    if ctx["bmode"]:
        parts.append(t("retile_answer_broadcast", op=ctx["op"], tile=code(_tile_name(ctx["op"])),
                       mode=code(ctx["bmode"]), fn=code(f"get_layout{ctx['op']}_TV()")))
    else:
        parts.append(t("retile_answer_plain", fn=code(f"get_layout{ctx['op']}_TV()")))
    return parts


def _tile_name(op: str) -> str:
    return {"A": "atile", "B": "btile"}.get(op, "")


def _configuration(view, t, ctx) -> list:
    conf, op, ax = ctx["conf"], ctx["op"], ctx["ax"]
    shape = ",".join(f"_{s}" for s in conf.atom_layout_shape)
    atom, lay, tile = conf.atom_shape, conf.atom_layout_shape, conf.tile
    perm = conf.permutation
    if perm:  # the permutation sets the tile (CuTe: tile_size<I> is size of the permutation's mode I)
        mnk = f"(M,N,K) = Tile<{','.join(f'_{x}' for x in perm)}> = {cute(tile)}"
    else:
        mnk = "(M,N,K) = (" + ", ".join(f"{a}*{b}" for a, b in zip(atom, lay)) + f") = {cute(tile)}"
    parts = [md.heading(2, t("sec_configuration")),
             t("config_intro", mma=code(conf.mma), ptx=code(conf.ptx), header=code(conf.header),
               layout=code(cute(lay))),
             block(snippets.MAKE_TILED_MMA.format(mma=conf.mma, shape=shape) if not perm else
                   snippets.MAKE_TILED_MMA_PERM.format(mma=conf.mma, shape=shape,
                                                       tile=",".join(f"_{x}" for x in perm)), "cpp"),
             t("config_tile"), block(mnk),
             t("config_operand", op=op, a=code(ax[0].upper()), b=code(ax[1].upper()),
               rows=ctx["tile"][0], cols=ctx["tile"][1], V=code(ctx["V"]),
               vt=code(ctx["rc"].value_type))]
    rows = [[Raw(code("lane", cell=True)), Raw(t("sym_lane")), span(conf.atom_threads)]]
    modes = [m for m in conf.thread_modes if m.extent > 1]
    for name, ext, _ in modes:
        rows.append([Raw(code(name, cell=True)), Raw(t("sym_" + name)), Raw(t("values_list", values=t("list_sep").join(
            str(i) for i in range(ext)))) if ext <= 4 else span(ext)])
    q = ctx["q_formula"]
    rows += [[Raw(code("t", cell=True)), Raw(t("sym_t")), span(ctx["T"])],
             [Raw(code("v", cell=True)), Raw(t("sym_v")), span(ctx["V"])],
             [Raw(code("q", cell=True)), Raw(t("sym_q", op=op)), Raw(t("range_with", formula=code(f"q={q}", cell=True),
                                                                        range=span(ctx["elements"])))],
             [Raw(code("tv", cell=True)), Raw(t("sym_tv")),
              Raw(t("range_with", formula=code(f"tv={ctx['tv_formula']}", cell=True),
                    range=span(ctx["T"] * ctx["V"])))]]
    parts.append(md.table([t("hdr_symbol"), t("hdr_meaning"), t("hdr_values")], rows))
    t_terms = [(1, "lane")] + [(stride, name) for name, ext, stride in modes]
    parts += [t("config_t_where"), block("t = " + lin(t_terms)), t("config_q_note")]
    return parts


def _tiled_copy(view, t, ctx) -> list:
    rc, op = ctx["rc"], ctx["op"]
    frag = {"A": "tCrA", "B": "tCrB", "C": "tCrC"}[op]
    lines = [f"TiledLayout_TV = mma.get_layout{op}_TV()", f"TiledNumThr    = {rc.tiled_num_thr}",
             f"V              = size<0>({frag}) = {rc.V}", f"Tiler_MN       = {rc.tiler}"]
    parts = [md.heading(2, t("sec_tiled_copy", fn=code(f"make_tiled_copy_{op}"))),
             t("tiled_copy_intro", fn=code(f"make_tiled_copy_{op}"), op=op),
             block(snippets.MAKE_TILED_COPY[op], "cpp"), t("tiled_copy_values"), block("\n".join(lines)),
             t("tiled_copy_tiler", op=op, a=code(ctx["ax"][0].upper()), b=code(ctx["ax"][1].upper())),
             t("tiled_copy_v", fragment=code(rc.fragment), V=code(rc.V))]
    if rc.fragment_given:
        parts.append(t("tiled_copy_v_given", V=code(rc.V)))
    parts.append(t("tiled_copy_atom", atom=code(f"Copy_Atom<{rc.copy_atom}, {rc.value_type}>"),
                   ptx=code(rc.ptx), thr=code(rc.atom_num_thr), val=code(rc.atom_num_val)))
    # CuTe checks neither the architecture nor the thread counts of the pair: say what it accepted
    copy_arch, mma_arch = _sm(rc.copy_arch), _sm(ctx["conf"].arch)
    if copy_arch is not None and mma_arch is not None and copy_arch > mma_arch:
        parts.append(t("tiled_copy_arch", copy=code(rc.copy_atom), copy_arch=rc.copy_arch,
                       mma=code(ctx["conf"].mma), mma_arch=ctx["conf"].arch))
    if rc.mma_threads is not None and rc.mma_threads % rc.atom_num_thr:
        parts.append(t("tiled_copy_threads", threads=code(rc.mma_threads), thr=code(rc.atom_num_thr)))
    return parts


def _sm(arch) -> int | None:
    """``sm75`` -> 75 (None when the text names no SM number)."""
    import re
    m = re.fullmatch(r"sm(\d+)[a-z]?", str(arch or ""))
    return int(m.group(1)) if m else None


def _thread_domain(view, t, ctx) -> list:
    op, conf = ctx["op"], ctx["conf"]
    td = ThreadDomain.from_details(view.table("thread_domain"))
    thr, fin = td.rows
    ref_name = f"ref_{op}"
    ax = ctx["ax"]
    rows_, cols_ = td.ref_shape
    atom_thr = conf.atom_threads
    i, j = OPERANDS[op].modes
    sizes = [m.extent for m in conf.thread_modes]
    thr_factors = [atom_thr, sizes[i], sizes[j]]
    fin_factors = [atom_thr] + sizes
    distinct = lambda r: r.distinct if r.distinct is not None else "?"
    if ctx["bmode"]:
        head = t("sec_broadcast", elements=ctx["elements"], tvs=fin.tvs, tile=code(_tile_name(op)))
    else:
        head = t("sec_thread_domain", op=op)
    parts = [md.heading(2, head), t("domain_ref_intro", fn=code(f"get_layout{op}_TV()")),
             block(snippets.REF[op], "cpp"), t("domain_ref_value"),
             block(f"{ref_name} = {td.ref}\n{ref_name}({ax[0]},{ax[1]}) = {ax[0]}+{rows_}*{ax[1]}"),
             t("domain_return"), block(snippets.RETURN_TV[op], "cpp")]
    thr_modes = {"A": "(ThrV,(ThrM,ThrK))", "B": "(ThrV,(ThrN,ThrK))", "C": "(ThrV,(ThrM,ThrN))"}[op]
    parts.append(t("domain_thrfrg", fn=code(f"thrfrg_{op}({ref_name})"), op=op, modes=code(thr_modes),
                   a=code(ax[0].upper()), b=code(ax[1].upper()), layout=code(thr.layout)))
    parts.append(block(f"{product_text(thr_factors)} = {thr.threads}"))
    parts.append(t("domain_thrfrg_tvs", values=thr.values, tvs=code(f"{thr.threads}*{thr.values}"
                                                                         f"={thr.tvs}"),
                   distinct=code(distinct(thr)), op=op))
    if ctx["bmode"]:
        tile = _tile_name(op)
        mode = ctx["bmode"]
        other = {"A": "wm", "B": "wn"}[op]
        parts += [t("domain_full", op=op, mode=code(mode), tile=code(tile)),
                  block(snippets.BROADCAST_TILE[op], "cpp"), t("domain_middle"),
                  block(f"(ThrM,ThrN):{'(1,0)' if op == 'A' else '(0,1)'} = {td.broadcast_tile}\n\n"
                        f"(wm,wn) → {'wm+0*wn' if op == 'A' else '0*wm+wn'} → {other}"),
                  t("domain_keep", tile=code(tile), keep=code(other), drop=code(mode), op=op)]
        stage_final = t("stage_broadcast", tile=code(tile, cell=True))
    elif op in ("A", "B"):  # the broadcast tile is composed, but its mode has one thread: it connects nothing
        mode = {"A": "wn", "B": "wm"}[op]
        parts.append(t("domain_broadcast_trivial", op=op, tile=code(_tile_name(op)), mode=code(mode),
                       fn=code(f"get_layout{op}_TV()")))
        stage_final = t("stage_final", fn=code(f"get_layout{op}_TV()", cell=True))
    else:
        parts.append(t("domain_no_broadcast", op=op))
        stage_final = t("stage_final", fn=code(f"get_layout{op}_TV()", cell=True))
    table = md.table([t("hdr_stage"), t("hdr_thread_domain"), t("hdr_tvs"), t("hdr_distinct", op=op)], [
        [Raw(code(f"thrfrg_{op}({ref_name})", cell=True)), f"{product_text(thr_factors)}={thr.threads}",
         f"{thr.threads}*{thr.values}={thr.tvs}", distinct(thr)],
        [Raw(stage_final), f"{product_text(fin_factors)}={fin.threads}",
         f"{fin.threads}*{fin.values}={fin.tvs}", distinct(fin)]])
    parts.append(table)
    if ctx["bmode"]:
        parts.append(t("domain_meaning", op=op, mode=code(ctx["bmode"]), threads=code(thr.threads)))
    parts.append(t("domain_thridx", layout=code(td.thridx_2_thrid), threads=code(fin.threads)))
    return parts


def _formula_F(view, t, ctx) -> list:
    details = view.formula_step("F").details
    f, terms = FormulaStep.from_details(details), TVTerms.from_details(details)
    ax = ctx["ax"]
    parts = [md.heading(2, t("sec_formula_F", fn=code(f"get_layout{ctx['op']}_TV"))), t("formula_digits")]
    t_terms = [(c, n) for c, n, _ in terms.thread_terms]
    v_terms = [(c, n) for c, n, _ in terms.value_terms]
    lines = [f"t = {lin(t_terms)}", f"v = {lin(v_terms)}", "",
             ", ".join(f"{n}=0…{e - 1}" for _, n, e in terms.thread_terms + terms.value_terms)]
    parts.append(block("\n".join(lines)))
    if terms.coordinates:
        cm, ck = terms.coordinates
        parts.append(t("formula_coords", a=code(ax[0]), b=code(ax[1])))
        parts.append(block(f"{ax[0]} = {lin([(c, n) for c, n, _ in cm])}\n{ax[1]} = {lin([(c, n) for c, n, _ in ck])}"))
    parts.append(t("formula_q", q=code(f"q={ctx['q_formula']}")))
    # F in CuTe notation: what print(mma.get_layout{op}_TV()) shows, next to its formula
    parts.append(block(f"F = {view.text('F')}\n\nF(t,v) = q\n       = {f.text_zeros}"))
    parts.append(t("formula_table"))
    parts.append(axes_table(t, f.axes, t("row_q_stride"), t("row_tv_weight")))
    weights = [(r.weight, r.name) for r in f.axes]
    parts.append(t("formula_weights"))
    parts.append(block(f"tv = {ctx['tv_formula']}\n   = {lin(weights)}"))
    extents = {r.name: r.extent for r in f.axes}
    for b in terms.broadcast:
        parts.append(t("formula_broadcast", axis=code(b), extent=code(extents[b])))
    ev = view.evaluations("broadcast")
    if len(ev) == 2:
        a, b = ev
        crd = _tile_coord(a.value, ctx["tile"])
        parts.append(t("formula_example", op=ctx["op"], elem=code(f"{ctx['op']}{cute(crd)}")))
        parts.append(block("\n".join(f"F(t={e.at[0]}, v={e.at[1]}) = {e.value}" for e in ev)))
        parts.append(t("formula_example_tv"))
        parts.append(block("\n".join(f"{e.at[0]}+{ctx['T']}*{e.at[1]} = {e.index}" for e in ev)))
    for s, p in view.proofs():
        if _claim(s) in (ProofClaim.INJECTIVE, ProofClaim.SURJECTIVE):
            parts.append(check(t, s, p))
    return parts


def _claim(step) -> ProofClaim | None:
    return ProofDetails.from_details(step.details).claim


def _tile_coord(q: int, tile) -> list:
    return [q % tile[0], q // tile[0]]


def _right_inverse(view, t, ctx) -> list:
    details = view.formula_step("G").details
    gf, g = FormulaStep.from_details(details), RetileInverse.from_details(details)
    ri = g.right_inverse
    op = ctx["op"]
    parts = [md.heading(2, t("sec_right_inverse" if ctx["bmode"] else "sec_right_inverse_plain")), t("ri_let"), block(snippets.TV_INVERSE.format(op=op), "cpp"),
             t("ri_contract"), block("F(G(q)) = q"), t("ri_not_left", tv=code("G(F(tv))=tv"))]
    F = view.formula_step("F").details
    parts.append(t("ri_prefix"))
    parts.append(axes_table(t, FormulaStep.from_details(F).axes, t("row_q_stride"), t("row_tv_weight")))
    parts.append(t("ri_coalesced", layout=code(ri.coalesced)))
    order = [f"{name}({stride})" for name, stride in
             sorted(zip(ri.modes, ri.strides), key=lambda x: ri.order.index(x[0]))]
    parts.append(t("ri_order", order=code(" < ".join(order)), chosen=code(", ".join(ri.chosen)),
                   skipped=code(", ".join(ri.skipped)) if ri.skipped else t("none")))
    skipped_bcast = [s for s in ri.skipped if s in TVTerms.from_details(F).broadcast]
    if skipped_bcast:
        parts.append(t("ri_skip_broadcast", axis=code(", ".join(skipped_bcast))))
    if skipped_bcast:
        parts.append(t("ri_weight_kept", axis=code(g.top_axis)))
    else:
        parts.append(t("ri_weight_plain", axis=code(g.top_axis)))
    parts.append(block(f"{g.top_axis} = {product_text(g.top_factors)} = {g.top_weight}"))
    chosen = view.evaluations("chosen")
    round_ = view.evaluations("roundtrip")
    left = view.evaluations("left")
    if chosen:
        c = chosen[0]
        parts.append(t("ri_so"))
        lines = [f"G({c.at}) = {c.value}"]
        if round_ and left:
            r, l_ = round_[0], left[0]
            lines += ["", f"F({r.at})    = {r.value}", f"G(F({l_.at})) = {l_.value}"]
            parts.append(block("\n".join(lines)))
            parts.append(t("ri_left_fails", value=code(l_.value), at=code(l_.at)))
        else:
            parts.append(block("\n".join(lines)))
    parts.append(t("ri_result"))
    parts.append(block(f"G = {view.text('G')}\nsize(G) = {g.size}"))
    parts.append(t("ri_size", size=code(g.size), tvs=span(ctx["T"] * ctx["V"])))
    parts.append(t("ri_formula"))
    parts.append(block(f"G(q) = {gf.text}"))
    parts.append(axes_table(t, gf.axes, t("row_tv_stride"), t("row_q_weight")))
    parts.append(t("ri_formula_note"))
    for s, p in view.proofs():
        if _claim(s) in (ProofClaim.RIGHT_INVERSE, ProofClaim.LEFT_INVERSE):
            parts.append(check(t, s, p))
    return parts


def _with_shape(view, t, ctx) -> list:
    details = view.formula_step("H").details
    hf, h = FormulaStep.from_details(details), RetileWithShape.from_details(details)
    ax = ctx["ax"]
    tile = ctx["tile"]
    shape_cpp = ", ".join(f"_{x}{{}}" for x in tile)
    parts = [md.heading(2, t("sec_with_shape", a=md.esc(ax[0].upper()), b=md.esc(ax[1].upper()))),
             t("ws_intro"), block(snippets.WITH_SHAPE.format(shape=shape_cpp), "cpp"),
             t("ws_impl"), block(snippets.WITH_SHAPE_IMPL, "cpp"), t("ws_meaning"),
             block(f"H({ax[0]},{ax[1]}) = G({ax[0]}+{tile[0]}*{ax[1]})"),
             t("ws_layout"), block(f"H = {view.text('H')}")]
    mode_lines = []
    for k, terms in enumerate(h.mode_terms):
        exts = cute([e for _, _, e in terms])
        mode_lines.append(f"{ax[k]} = {lin([(c, n) for c, n, _ in terms])}".ljust(28) + f"shape={exts}")
    parts += [t("ws_split"), block("\n".join(mode_lines))]
    al = h.aliases
    corr = []
    for k, terms in enumerate(h.mode_terms):
        names = [n for _, n, _ in terms]
        corr.append(f"({','.join(names)}) = ({','.join(al.get(n, n) for n in names)})")
    parts += [t("ws_correspondence"), block("\n".join(corr)), t("ws_output"),
              block(f"H({ax[0]},{ax[1]}) = {hf.text}")]
    sel = SelectedTVs.from_details(view.table("selected_tvs"))
    top = sel.top_axis
    fax = {r.name: r for r in FormulaStep.from_details(view.formula_step("F").details).axes}
    alias = al.get(top)
    if alias in fax:
        v_weight = fax[alias].weight // ctx["T"] if fax[alias].weight >= ctx["T"] else None
        parts.append(t("ws_stride_meaning" if v_weight else "ws_stride_meaning_thread",
                       stride=code(sel.top_stride), axis=code(top), b=code(ax[1].upper() if
                                                                              sel.top_coord[0] == 0 else ax[0].upper()),
                       step=code(max(sel.top_coord)), vstep=code(v_weight or 0),
                       product=code(f"{ctx['T']}*{v_weight}={sel.top_stride}" if v_weight else sel.top_stride)))
    rows = []
    for r in sel.rows:
        rows.append([cute(r.coord), r.q, cute(r.tv_coord), r.tv])
    parts.append(md.table([t("hdr_matrix_coord"), "q", t("hdr_selected_tv"), t("hdr_h_output")], rows))
    if sel.ranges is not None and h.largest >= ctx["elements"]:
        parts.append(t("ws_not_packed", n=code(RetileInverse.from_details(view.formula_step("G").details).size),
                       top=code(span(ctx["elements"]))))
        lines = []
        for v, lo, hi in sel.ranges:
            lines.append(f"v={v}:".ljust(6) + f"{lo}…{hi}")
        parts.append(block("\n".join(lines)))
    parts.append(t("ws_no_new_stride", stride=code(sel.top_stride), b=code(ax[1].upper())))
    for s, p in view.proofs():
        if _claim(s) is ProofClaim.WITH_SHAPE:
            parts.append(check(t, s, p))
    return parts


def _upcast(view, t, ctx) -> list:
    u = Upcast.from_details(view.formula_step("frg_layout_mn").details)
    h = RetileWithShape.from_details(view.formula_step("H").details)
    N, T, V = ctx["N"], ctx["T"], ctx["V"]
    head = t("sec_upcast", n=code(N), elements=code(ctx["elements"])) if N != ctx["elements"] else \
        t("sec_upcast_same", n=code(N))
    parts = [md.heading(2, head),
             t("up_intro"), block(snippets.UPCAST.format(T=T, V=V), "cpp"),
             t("up_range" if ctx["elements"] < N else "up_range_all", expr=code(f"{T}*{V}"), V=code(V), N=code(N))]
    sel = SelectedTVs.from_details(view.table("selected_tvs"))
    if sel.ranges:
        lines = [f"v={v}:".ljust(6) + f"{lo}…{hi}" for v, lo, hi in sel.ranges]
        if len(lines) > 4:
            lines = lines[:3] + ["..."] + lines[-1:]
        parts.append(block("\n".join(lines)))
    parts += [t("up_granularity"), t("up_formula"), block(snippets.UPCAST_IMPL)]
    rows = u.rows
    top = max(rows, key=lambda r: r.stride)
    parts.append(t("up_example", axis=code(top.axis), pair=code(f"({top.shape},{top.stride})"),
                   values=code(f"0, {top.stride}"), N=code(N)))
    parts.append(block(t("up_example_block", per=f"ceil_div({N},{top.stride}) = {top.per_group}",
                         groups=f"ceil_div({top.shape},{top.per_group}) = {top.new_shape}")))
    parts.append(t("up_others"))
    body = []
    for r in rows:
        per = r.per_group
        body.append([Raw(code(r.axis, cell=True)), r.shape, r.stride, per if per is not None else "-",
                     Raw(code(f"ceil_div({r.shape},{per})={r.new_shape}", cell=True)) if per else r.shape])
    parts.append(md.table([t("hdr_subaxis"), t("hdr_old_shape"), t("hdr_old_stride"), t("hdr_per_group"),
                           t("hdr_new_shape")], body))
    frac = [r for r in rows if r.per_group and r.shape < r.per_group]
    if frac:
        r = frac[0]
        parts.append(t("up_ceil", ex=code(f"{r.shape}/{r.per_group}={_decimal(r.shape, r.per_group)}")))
    strides_ok = all(0 < r.stride < N for r in rows)
    if strides_ok:
        parts.append(t("up_strides", N=code(N), ceil=code(f"ceil_div(old_stride,{N})")))
    parts.append(block(f"frg_layout_mn\n  = {view.text('frg_layout_mn')}\n\n"
                       f"product_each(shape(frg_layout_mn)) = {cute(u.product_each)}"))
    terms = " + ".join(f"{r.top}*{r.stride}" for r in h.largest_terms)
    parts.append(t("up_largest"))
    parts.append(block(f"{terms} = {h.largest}"))
    if h.largest < N:
        parts.append(t("up_in_first", N=code(N)))
    else:
        parts.append(t("up_beyond_first", N=code(N)))
    parts.append(t("up_domain"))
    if view.has("contrast"):
        c = Upcast.from_details(view.formula_step("contrast").details)
        changed = [r for r in c.rows if r.new_shape > 1]
        parts.append(md.heading(3, t("sec_contrast", n=code(c.n))))
        parts.append(t("up_contrast", n=code(f"upcast<{c.n}>"), N=code(N)))
        if changed:
            r = changed[-1]
            parts.append(block(f"new_shape = ceil_div({r.shape}, ceil_div({c.n},{r.stride})) = {r.new_shape}"))
            parts.append(t("up_contrast_each", axis=code(r.axis), each=code(f"product_each(shape(...))="
                                                                            f"{cute(c.product_each)}")))
        parts.append(block(f"upcast<{c.n}>(H) = {view.text('contrast')}"))
        parts.append(t("up_contrast_lesson"))
    return parts


def _decimal(a: int, b: int) -> str:
    from fractions import Fraction
    f = Fraction(a, b)
    # finite decimals only (powers of two and five): layouts' extents are small
    text = f"{a / b:.10f}".rstrip("0").rstrip(".")
    return text if Fraction(text) == f else f"{a}/{b}"


def _retile(view, t, ctx) -> list:
    r = Retile.from_details(view.table("retile"))
    rc = ctx["rc"]
    parts = [md.heading(2, t("sec_retile", fn=code("retile_D"))), t("rt_intro"), block(snippets.RETILE_REST, "cpp"),
             t("rt_tiler", each=code(cute(r.product_each)), tiler=code(cute(r.tiler)), V=code(r.V)),
             block(f"frg_layout_v = {r.frg_layout_v}\nretile({r.fragment})\n  = {r.result}"),
             t("rt_values", V=code(r.V), ptx=code(rc.ptx), val=code(r.atom_num_val),
               vt=code(rc.value_type), grouping=code(r.grouping))]
    if ctx["bmode"]:
        parts.append(t("rt_broadcast_loads", mode=code(ctx["bmode"]), op=ctx["op"]))
    if ctx["bmode"]:
        parts.append(t("rt_chain", tile=code(_tile_name(ctx["op"]))))
    else:  # no broadcast: every element has exactly one TV, so right_inverse picks no representatives
        parts.append(t("rt_chain_plain", fn=code(f"get_layout{ctx['op']}_TV")))
    for s, p in view.proofs():
        if _claim(s) in (ProofClaim.RETILE_WITH_SHAPE, ProofClaim.RETILE_UPCAST):
            parts.append(check(t, s, p, certificate=False))
    return parts


def _summary(view, t, ctx) -> list:
    conf = ctx["conf"]
    extra = [((conf.header, conf.mma), t("src_atom_layout", op=ctx["op"])),
             ((ctx["rc"].copy_header, ctx["rc"].copy_atom), t("src_copy_atom"))]
    return [md.heading(2, t("sec_checks")), t("checks_intro"), checks_summary(t, view),
            md.heading(2, t("sec_sources")), sources(t, view, extra)]
