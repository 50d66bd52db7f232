"""The report of the gmem recipe: a parametric global tensor through local_tile and partition_A."""

from __future__ import annotations

from .. import markup as md
from ..markup import Raw, block, code
from ..symbolic.vocabulary import Reason, read_phrase
from ..recipes.records_gmem import (
    Agreement, GmemChecks, GmemConfiguration, GmemCopy, GmemFormula, GmemMethod, GmemPartition, GmemTiles,
)


def render(view, t) -> str:
    conf = GmemConfiguration.from_details(view.table("gmem_configuration"))
    tiles = GmemTiles.from_details(view.table("gmem_tiles"))
    part = GmemPartition.from_details(view.table("gmem_partition"))
    form = GmemFormula.from_details(view.table("gmem_formula"))
    checks = GmemChecks.from_details(view.table("gmem_checks")).checks
    BM, BK = conf.tile
    parts = [md.heading(1, t("gmem_title", mma=code(conf.mma), layout=code(conf.atom_layout))),
             t("gmem_intro", bm=code(BM), bk=code(BK)),
             block(f"Tensor mA = make_tensor(ptr, make_shape(M, K), make_stride(K, Int<1>{{}}));\n"
                   f"Tensor gA = local_tile(mA, make_tile(Int<{BM}>{{}}, Int<{BK}>{{}}), make_coord(bm, bk));\n"
                   f"Tensor tA = mma.get_slice(t).partition_A(gA);", "cpp"),
             t("gmem_config", mma=code(conf.mma), ptx=code(conf.ptx), header=code(conf.header),
               threads=code(conf.threads), mma_tile=code(",".join(str(x) for x in conf.mma_tile))),
             md.heading(2, t("gmem_sec_params")),
             t("gmem_params", conditions=", ".join(code(c) for c in conf.conditions)),
             md.heading(2, t("gmem_sec_tiles")),
             t("gmem_global", layout=code(tiles.global_layout), cute=code(tiles.global_cute)),
             block(f"zipped_divide(mA, ({BM},{BK})) = {tiles.tiles}"),
             t("gmem_tile_counts", m=code(tiles.tile_counts[0]), k=code(tiles.tile_counts[1])),
             t("gmem_loose", layout=code(tiles.tiles_loose), m=code(tiles.tile_counts_loose[0]),
               k=code(tiles.tile_counts_loose[1])),
             t("gmem_partial_" + tiles.all_full_loose.value, bm=code(BM), bk=code(BK),
               witness=code(", ".join(f"{k}={v}" for k, v in tiles.all_full_witness.items()))),
             t("gmem_local_tile", offset=code(tiles.offset), layout=code(tiles.tile_layout)),
             md.heading(2, t("gmem_sec_partition")),
             t("gmem_thrfrg"), block(f"thrfrg_A(gA) = {part.thrfrg}\nTV(t, v) = {part.layout_tv}"),
             t("gmem_threads"),
             md.table([t("gmem_hdr_thread"), t("gmem_hdr_offset"), t("gmem_hdr_partition")],
                      [[r.thread, Raw(code(r.offset, cell=True)), Raw(code(r.layout, cell=True))]
                       for r in part.threads]),
             md.heading(2, t("gmem_sec_formula")),
             t("gmem_formula_intro"),
             block(f"addr(bm, bk, t, v) = {form.address}\n"
                   f"                   = {form.closed}\n"
                   f"m(t, v) = {form.m}\nk(t, v) = {form.k}"),
             md.table([t("gmem_hdr_axis"), t("gmem_hdr_extent"), t("gmem_hdr_coefficient"), t("gmem_hdr_m"),
                       t("gmem_hdr_k")], [[Raw(code(c, cell=True)) for c in row] for row in form.axes]),
             md.heading(2, t("gmem_sec_checks")),
             t("gmem_checks_intro")]
    for c in checks:
        verdict = c.verdict.value
        line = t("gmem_check", claim=t("gmem_claim_" + c.claim, bm=code(BM), bk=code(BK)),
                 verdict=t(("gmem_verdict_" if isinstance(c.verdict, Agreement) else "verdict_") + verdict),
                 method=_method(t, c))
        if c.failed:
            w = ", ".join(f"{k}={v}" for k, v in (c.witness or {}).items())
            line += " " + t("gmem_counterexample", witness=code(w or "-"), coordinate=code(c.coordinate or ""),
                            values=code(" != ".join(str(v) for v in c.values or ())))
        parts.append(line)
        if c.claim == "static_tv":
            parts.append(block(t("gmem_code_reference", bm=BM, bk=BK, layout=c.reference)))
    if view.has_table("gmem_copy"):
        c = GmemCopy.from_details(view.table("gmem_copy"))
        parts += [md.heading(2, t("gmem_sec_copy")),
                  t("gmem_copy_intro", atom=code(c.atom), thr=code(c.thr_layout), val=code(c.val_layout)),
                  block(f"tidfrg_S(gA) = {c.tidfrg}\n"
                        + t("gmem_code_partition0", offset=c.offset0, layout=c.partition0)
                        + f"\nF = {c.formula}"),
                  md.table([t("gmem_hdr_axis"), t("gmem_hdr_extent"), t("gmem_hdr_coefficient")],
                           [[Raw(code(x, cell=True)) for x in row] for row in c.axes]),
                  t("gmem_copy_vector_" + c.aligned.value, n=code(c.vector), bytes=code(2 * c.vector)),
                  t("gmem_copy_k8_" + c.aligned_k8.value, n=code(c.vector)),
                  t("gmem_copy_loose_" + c.aligned_loose.value, n=code(c.vector),
                    witness=code(", ".join(f"{k}={v}" for k, v in c.aligned_loose_witness.items())))]
    parts.append(t("gmem_conclusion", bm=code(BM), bk=code(BK)))
    return md.join(parts)


def _method(t, c) -> str:
    """The recipe's own method in the report's words (its numbers filled in), or the prover's phrase."""
    if isinstance(c.method, GmemMethod):
        return t("gmem_method_" + c.method.value, points=c.points, instances=c.instances)
    return t.phrase(read_phrase(c.method, (Reason,)))
