"""The retile recipe fills typed records; a derivation read back from JSON gives the same records."""

import pytest

from symcute.errors import SymcuteError
from symcute.recipes import SEED, derive_retile
from symcute.recipes.records_retile import Retile, SelectedTVs, ThreadDomain, Upcast, UpcastRow
from symcute.trace import Derivation


def _records(d):
    table = {s.details["kind"]: s.details for s in d.steps() if s.rule == "table"}
    formula = {s.details["label"]: s.details for s in d.steps() if s.rule == "formula"}
    return (ThreadDomain.from_details(table["thread_domain"]), SelectedTVs.from_details(table["selected_tvs"]),
            Upcast.from_details(formula["frg_layout_mn"]), Upcast.from_details(formula["contrast"]),
            Retile.from_details(table["retile"]))


def test_the_seed_records_and_their_json_round_trip():
    d = derive_retile(**SEED)
    domain, selected, up, contrast, retile = _records(d)
    assert [(r.stage, r.threads, r.tvs, r.distinct) for r in domain.rows] == [("thrfrg", 64, 512, 512),
                                                                             ("final", 128, 1024, 512)]
    assert selected.top_axis == "k2" and [r.tv for r in selected.rows] == [0, 512, 640]
    assert selected.ranges[4] == (4, 512, 575)
    # the seed: upcast<1024> of H folds every sub-axis; upcast<512> keeps k2 (stride 512): ceil_div(2,1) = 2
    assert (up.n, contrast.n) == (1024, 512)
    k2 = [r for r in contrast.rows if r.axis == "k2"]
    assert k2 == [UpcastRow("k2", 2, 512, 1, 2, 1)] and all(r.new_shape == 1 for r in up.rows)
    assert (retile.V, retile.upcast_n, retile.grouping) == (8, 1024, "(4,2)")
    assert _records(Derivation.from_json(d.to_json())) == (domain, selected, up, contrast, retile)


def test_a_record_missing_a_field_is_a_clear_error():
    with pytest.raises(SymcuteError, match="Retile record has no 'grouping'"):
        Retile.from_details({k: 0 for k in ("V", "upcast_n", "frg_layout_mn", "product_each", "frg_layout_v",
                                            "tiler", "t_tensor", "v_tensor", "result", "atom_num_val", "fragment")})


def test_the_gmem_checks_are_records_and_read_back_the_same():
    from symcute.recipes import derive_gmem
    from symcute.recipes.records_gmem import GmemChecks
    d = derive_gmem()
    details = next(s.details for s in d.steps() if s.rule == "table" and s.details["kind"] == "gmem_checks")
    checks = GmemChecks.from_details(details).checks
    by_claim = {c.claim: c for c in checks}
    from symcute.recipes.records_gmem import Agreement
    from symcute.symbolic.vocabulary import Verdict
    assert by_claim["cross_check"].verdict is Agreement.AGREES and by_claim["cross_check"].instances == 6
    assert by_claim["closed_form"].verdict is Verdict.PROVED
    assert by_claim["static_tv"].reference and not any(c.failed for c in checks)
    assert "witness" not in GmemChecks(checks).to_details()["checks"][0] or checks[0].witness is not None
    back = Derivation.from_json(d.to_json())
    again = next(s.details for s in back.steps() if s.rule == "table" and s.details["kind"] == "gmem_checks")
    assert GmemChecks.from_details(again).checks == checks
    assert [type(c.verdict) for c in GmemChecks.from_details(again).checks] == [type(c.verdict) for c in checks]


def test_the_gmem_recipes_own_methods_are_members_with_their_numbers_and_worded_in_both_languages():
    import json
    from symcute.recipes import derive_gmem
    from symcute.recipes.records_gmem import GmemChecks, GmemMethod
    from symcute.report import markdown
    from symcute.report.templates import Text
    d = derive_gmem()
    checks = {c.claim: c for c in GmemChecks.from_details(_table(d, "gmem_checks")).checks}
    assert (checks["static_tv"].method, checks["static_tv"].points) == (GmemMethod.EXHAUSTIVE, 128 * 64)
    assert checks["aligned_pairs"].method is GmemMethod.EVEN_COEFFICIENTS
    assert (checks["cross_check"].method, checks["cross_check"].instances) == (GmemMethod.CORE_AGREES, 6)
    assert checks["cross_check"].points == 6 * 128 * 64       # every thread's 64 values, at each instance
    # the checks the parametric prover decided keep its method (a phrase, worded by the phrase templates)
    assert not isinstance(checks["closed_form"].method, GmemMethod) and checks["closed_form"].method
    back = {c.claim: c for c in GmemChecks.from_details(_table(Derivation.from_json(d.to_json()),
                                                                "gmem_checks")).checks}
    assert back == checks and back["static_tv"].method is GmemMethod.EXHAUSTIVE
    for m in GmemMethod:
        en, zh = (Text(lang)("gmem_method_" + m.value, points=8, instances=2) for lang in ("en", "zh"))
        assert en != zh and ("8" in en) == ("8" in zh) and ("2" in en) == ("2" in zh), m
    zh = markdown(d, "zh")
    assert "（穷举全部 8192 个（线程，值）点）" in zh and "points" not in zh and "admissible" not in zh
    # a document of an older symcute (the method as English text) is not what this symcute derives from its
    # configuration: refused, naming the table (issue 23: a reader cannot tell it from a tampered one)
    old = json.loads(d.to_json())
    for node in old["nodes"]:
        for c in (node.get("details") or {}).get("checks", []):
            if c["method"] == "exhaustive":
                c["method"] = "exhaustive over 8192 (thread, value) points"
    with pytest.raises(SymcuteError, match=r"node s\d+ \(step table\): its details is not what its recipe derives"):
        Derivation.from_json(json.dumps(old))


def test_the_tv_records_read_back_the_same():
    from symcute.recipes import derive_tv
    from symcute.recipes.records import AxisRow, BroadcastAxis, FormulaStep, TVConfiguration, TVInverse, TVLayout
    d = derive_tv("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), ("A",))

    def records(der):
        conf = next(s.details for s in der.steps() if s.rule == "table" and s.details["kind"] == "tv_configuration")
        f = next(s.details for s in der.steps() if s.rule == "formula" and s.details["label"] == "F_A")
        g = next(s.details for s in der.steps() if s.rule == "formula" and s.details["label"] == "G_A")
        return (TVConfiguration.from_details(conf), FormulaStep.from_details(f), TVLayout.from_details(f),
                TVInverse.from_details(g))
    conf, F, f, g = records(d)
    assert conf.tile == (32, 16, 16) and conf.threads == 128 and conf.tiler is None
    assert f.broadcast == (BroadcastAxis("wn", 2),) and f.copies == 2 and f.size == 1024
    assert isinstance(F.axes[0], AxisRow) and F.axes[0].name == F.axes[0][0] == "t0"
    assert g.size == 512 and "wn" in g.skipped
    assert records(Derivation.from_json(d.to_json())) == (conf, F, f, g)


# --- every table and formula step the recipes write is covered by its records ------------------------------

def _table(d, kind):
    return next(s.details for s in d.steps() if s.rule == "table" and s.details["kind"] == kind)


def _formula(d, label):
    return next(s.details for s in d.steps() if s.rule == "formula" and s.details["label"] == label)


def _covered(details, *records, beside=("kind",)):
    """Every key of a step's details is a field of one of ``records`` (no raw key left beside them)."""
    from dataclasses import fields
    known = {f.name for r in records for f in fields(r)} | set(beside)
    return set(details) - known


def test_the_retile_configuration_and_formula_extras_are_records():
    from symcute.recipes.records import FormulaStep
    from symcute.recipes.records_retile import (
        Digit, RetileInverse, RetileWithShape, RightInverseModes, Term, ThreadMode, TiledMMAConfiguration, TVTerms,
    )
    d = derive_retile(**SEED)

    def records(der):
        return (TiledMMAConfiguration.from_details(_table(der, "configuration")),
                TVTerms.from_details(_formula(der, "F")), RetileInverse.from_details(_formula(der, "G")),
                RetileWithShape.from_details(_formula(der, "H")))
    conf, F, G, H = records(d)
    assert conf.thread_modes == (ThreadMode("wm", 2, 32), ThreadMode("wn", 2, 64), ThreadMode("wk", 1, 0))
    assert conf.broadcast_mode == "wn" and conf.permutation is None and conf.tile == (32, 16, 16)
    assert F.thread_terms[0] == Term(1, "t0", 4) and F.thread_terms[0].coefficient == 1
    assert isinstance(F.coordinates[0][0], Term) and F.broadcast == ("wn",)
    assert isinstance(G.right_inverse, RightInverseModes) and G.right_inverse.skipped == ("wn",)
    assert (G.top_axis, G.top_weight, G.size) == ("v2", 512, 512)
    assert H.digits[-1] == Digit("k2", 2, 256) and H.largest == 959 and H.mode_terms[1][2].name == "k2"
    assert records(Derivation.from_json(d.to_json())) == (conf, F, G, H)
    # no key of these steps is left outside the records
    assert not _covered(_table(d, "configuration"), TiledMMAConfiguration)
    for label, extra in (("F", TVTerms), ("G", RetileInverse), ("H", RetileWithShape)):
        assert not _covered(_formula(d, label), FormulaStep, extra, beside=()), label


def test_a_permuted_tiled_mma_records_its_permutation():
    from symcute.recipes.records_retile import TiledMMAConfiguration
    d = derive_retile(operand="B", copy_atom="SM75_U32x4_LDSM_N", permutation=(32, 32, 16))
    conf = TiledMMAConfiguration.from_details(_table(d, "configuration"))
    assert conf.permutation == (32, 32, 16) == conf.tile and conf.operand_axes == ("n", "k")


def test_the_worked_examples_are_records():
    from symcute.recipes.records import Evaluation
    d = derive_retile(**SEED)
    ev = [Evaluation.from_details(s.details) for s in d.steps() if s.rule == "evaluate"]
    assert [(e.kind, e.at, e.value) for e in ev] == [("broadcast", (0, 4), 256), ("broadcast", (64, 4), 256),
                                                     ("chosen", 256, 512), ("roundtrip", 512, 256),
                                                     ("left", 576, 512)]
    assert ev[-1].inner == 256 and ev[-1].axis == "wn" and ev[0].inner is None
    assert "inner" not in ev[0].to_details()   # optional fields stay out of the JSON while None


def test_the_gmem_tables_are_records():
    from symcute.recipes import derive_gmem
    from symcute.recipes.records_gmem import (
        AddressAxis, GmemConfiguration, GmemCopy, GmemFormula, GmemPartition, GmemTiles, ThreadPartition,
    )
    from symcute.symbolic.vocabulary import Verdict
    kinds = {"gmem_configuration": GmemConfiguration, "gmem_tiles": GmemTiles, "gmem_partition": GmemPartition,
             "gmem_formula": GmemFormula, "gmem_copy": GmemCopy}
    d = derive_gmem()

    def records(der):
        return {k: rec.from_details(_table(der, k)) for k, rec in kinds.items()}
    r = records(d)
    assert r["gmem_configuration"].tile == (128, 32) and r["gmem_configuration"].mma_tile == (32, 16, 16)
    tiles = r["gmem_tiles"]
    assert tiles.all_full_loose is Verdict.REFUTED and tiles.tile_counts == ("M/128", "K/32")
    assert r["gmem_partition"].threads[0] == ThreadPartition(0, "32*bk+128*bm*K", r["gmem_partition"].threads[0].layout)
    assert r["gmem_formula"].axes[1] == AddressAxis("t1", "8", "K", "1", "0")
    copy = r["gmem_copy"]
    assert (copy.aligned, copy.aligned_k8, copy.aligned_loose) == (Verdict.PROVED, Verdict.PROVED, Verdict.REFUTED)
    back = records(Derivation.from_json(d.to_json()))
    assert back == r and back["gmem_copy"].aligned is Verdict.PROVED   # the member again, not its text
    for k, rec in kinds.items():
        assert not _covered(_table(d, k), rec), k


def test_the_catalog_is_records():
    from symcute.recipes import derive_catalog
    from symcute.recipes.records import BroadcastAxis
    from symcute.recipes.records_catalog import Catalog, InverseFacts
    from symcute.symbolic.vocabulary import Method, Verdict
    d = derive_catalog(filter="SM90_64x8x16_F16F16F16_SS")
    cat = Catalog.from_details(_table(d, "catalog"))
    (row,) = cat.rows
    A = row.cells["A"]
    assert cat.count == 1 and row.arch == "sm90" and isinstance(A, InverseFacts)
    assert A.right is Verdict.PROVED and A.right_method is Method.REFINEMENT and not A.left_refused
    # GMMA's A: every one of the 128 threads holds the whole tile (t0 broadcast), so left_inverse fails
    assert (A.size, A.rsize) == (131072, 1024) and A.broadcast == (BroadcastAxis("t0", 128),)
    assert A.left is Verdict.REFUTED and row.cells["C"].broadcast == ()
    assert Catalog.from_details(_table(Derivation.from_json(d.to_json()), "catalog")) == cat
    assert not _covered(_table(d, "catalog"), Catalog)
    with pytest.raises(SymcuteError, match="InverseFacts record's 'right' cannot be 'maybe'"):
        InverseFacts(1, 1, "maybe", "refinement", (), "proved", "refinement")   # not a verdict


def test_the_expr_bindings_are_records():
    from symcute.expr import derive_expr
    from symcute.recipes.records import FormulaStep
    from symcute.recipes.records_expr import Binding, Bindings, ExprFormula
    d = derive_expr("right_inverse(L)", lets={"L": "(4,2):(2,1)"}, names={"L": "(a,b)"})
    b = Bindings.from_details(_table(d, "bindings"))
    assert b.rows == (Binding("L", "(4,2):(2,1)", "(a,b)"),) and b.result == "(2,4):(4,1)"
    assert b.rows[0].names == "(a,b)"
    assert Bindings.from_details(_table(Derivation.from_json(d.to_json()), "bindings")) == b
    f = next(s.details for s in d.steps() if s.rule == "formula")
    assert ExprFormula.from_details(f) == ExprFormula(1, "right_inverse")
    assert not _covered(f, FormulaStep, ExprFormula, beside=())
    assert not _covered(_table(d, "bindings"), Bindings)


def test_a_nested_record_missing_a_field_is_a_clear_error():
    from symcute.recipes.records_retile import RetileInverse
    details = _formula(derive_retile(**SEED), "G")
    broken = {**details, "right_inverse": {k: v for k, v in details["right_inverse"].items() if k != "chosen"}}
    with pytest.raises(SymcuteError, match="RightInverseModes record has no 'chosen'"):
        RetileInverse.from_details(broken)


def test_a_table_record_refuses_a_key_it_does_not_know():
    from symcute.recipes import derive_gmem
    from symcute.recipes.records_gmem import GmemConfiguration
    details = _table(derive_gmem(), "gmem_configuration")
    assert GmemConfiguration.from_details(details).threads == 128
    with pytest.raises(SymcuteError, match="GmemConfiguration record has no field 'warps'"):
        GmemConfiguration.from_details({**details, "warps": 4})


def test_the_upcast_rows_are_symbolics_per_sub_axis_rows_of_H():
    from dataclasses import fields
    from symcute.core.recast import upcast_mode
    from symcute.recipes.records import FormulaStep
    from symcute.symbolic.ops import UpcastAxis
    assert tuple(f.name for f in fields(UpcastRow)) == UpcastAxis._fields     # the record is the row, as read
    d = derive_retile(**SEED)
    formula = {s.details["label"]: s.details for s in d.steps() if s.rule == "formula"}
    H = FormulaStep.from_details(formula["H"])
    for label in ("frg_layout_mn", "contrast"):
        up = Upcast.from_details(formula[label])
        assert up.rows == tuple(UpcastRow(a.name, *upcast_mode(a.extent, a.stride, up.n)) for a in H.axes)
        assert len(up.modes) == len(up.rows) == 6        # the seed: one sub-axis per mode, rows = core's modes
        assert [(r.shape, r.stride, r.per_group, r.new_shape, r.new_stride) for r in up.rows] == \
            [tuple(m) for m in up.modes]


def _proof_steps(d):
    return [s for s in d.steps(top_level_only=True) if "claim" in s.details]


def test_every_proof_step_is_a_proof_details_record():
    from symcute.expr import derive_expr
    from symcute.recipes import derive_swizzle, derive_tv
    from symcute.recipes.records import ProofClaim, ProofDetails
    from symcute.symbolic.vocabulary import Method, Verdict
    made = {"retile": derive_retile(**SEED),
            "tv": derive_tv("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), ("A", "B")),
            "swizzle": derive_swizzle("Sw<3,4,3> o 0 o (8,64):(64,1)", names=("r", "c")),
            "expr": derive_expr("right_inverse(L)", lets={"L": "(4,2):(2,1)"})}
    read = {name: [ProofDetails.from_details(s.details) for s in _proof_steps(d)] for name, d in made.items()}
    # the seed's checks, in order: F injective / surjective onto the 32x16 tile, F∘G and G∘F, H == G, retile's
    assert [(c.claim, c.labels, c.domain, c.target) for c in read["retile"][:2]] == [
        (ProofClaim.INJECTIVE, ("F",), 1024, None), (ProofClaim.SURJECTIVE, ("F",), 1024, 512)]
    assert [c.claim for c in read["retile"][2:]] == [ProofClaim.RIGHT_INVERSE, ProofClaim.LEFT_INVERSE,
                                                      ProofClaim.WITH_SHAPE, ProofClaim.RETILE_WITH_SHAPE,
                                                      ProofClaim.RETILE_UPCAST]
    # the seed's F broadcasts (two TVs per element): not injective, and G∘F is not the identity
    assert [(c.verdict, c.method) for c in read["retile"][:4]] == [
        (Verdict.REFUTED, Method.CHAIN), (Verdict.PROVED, Method.CHAIN),
        (Verdict.PROVED, Method.REFINEMENT), (Verdict.REFUTED, Method.REFINEMENT)]
    assert {c.operand for c in read["tv"]} == {"A", "B"} and all(c.step is None for c in read["tv"])
    assert [(c.claim, c.step, c.operand) for c in read["expr"]] == [(ProofClaim.RIGHT_INVERSE, 1, None)]
    assert read["swizzle"][0].claim is ProofClaim.BIJECTIVE
    for name, d in made.items():
        back = Derivation.from_json(d.to_json())
        assert [ProofDetails.from_details(s.details) for s in _proof_steps(back)] == read[name], name
        assert all(not _covered(s.details, ProofDetails, beside=()) for s in _proof_steps(d)), name


def test_a_proof_step_domain_is_required_and_may_be_null(monkeypatch):
    import json
    from symcute.recipes.records import ProofClaim, ProofDetails
    c = ProofDetails("contract", ["x", "upcast"], "proved", "refinement+chain", None, step=2)
    assert (c.claim, c.labels, c.method) == (ProofClaim.CONTRACT, ("x", "upcast"), "refinement+chain")
    details = c.to_details()
    # null is written (the key is there), the unset optional fields are not
    assert json.dumps(details, sort_keys=True) == ('{"claim": "contract", "domain": null, "labels": ["x", "upcast"], '
                                                   '"method": "refinement+chain", "step": 2, "verdict": "proved"}')
    assert ProofDetails.from_details(json.loads(json.dumps(details))) == c
    with pytest.raises(SymcuteError, match="ProofDetails record has no 'domain'"):
        ProofDetails.from_details({k: v for k, v in details.items() if k != "domain"})
    with pytest.raises(SymcuteError, match="ProofDetails record has no field 'operands'"):
        ProofDetails.from_details({**details, "operands": "A"})
    with pytest.raises(SymcuteError, match="ProofDetails record's 'claim' cannot be 'surjective-ish'"):
        ProofDetails("surjective-ish", [], "proved", "chain", 4)                # not a claim
    # a derivation read from JSON with a claim nobody defined: a clear error when the report reads it
    from symcute.report import markdown
    d = derive_retile(**SEED)
    doc = json.loads(d.to_json())
    (node,) = [n for n in doc["nodes"] if (n.get("details") or {}).get("claim") == "with_shape"]
    node["details"]["claim"] = "x" * 500
    # its recipe's re-derivation refuses it on reading (issue 23); without it, the typed reading does
    with pytest.raises(SymcuteError, match=r"node s\d+ \(step prove_equal\): its details is not what its recipe"):
        Derivation.from_json(json.dumps(doc))
    import symcute.trace.recheck as recheck
    monkeypatch.setattr(recheck, "_REDERIVERS", [])
    with pytest.raises(SymcuteError, match=r"ProofDetails record's 'claim' cannot be 'xxx.*\.\.\. \(a malformed"):
        markdown(Derivation.from_json(json.dumps(doc)), "en")
