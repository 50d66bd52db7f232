"""The retile recipe fills typed records; a derivation read back from JSON gives the same records."""

import pytest

from symcute.errors import SymcuteError
from symcute.recipes import SEED, derive_retile
from symcute.recipes.records import Retile, SelectedTVs, ThreadDomain, Upcast, UpcastRow
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
    from symcute.recipes.records import GmemChecks
    d = derive_gmem()
    details = next(s.details for s in d.steps() if s.rule == "table" and s.details["kind"] == "gmem_checks")
    checks = GmemChecks.from_details(details).checks
    by_claim = {c.claim: c for c in checks}
    assert by_claim["cross_check"].verdict == "agrees" and by_claim["cross_check"].instances == 6
    assert by_claim["static_tv"].reference and not any(c.failed for c in checks)
    assert "witness" not in GmemChecks(checks).to_details()["checks"][0] or checks[0].witness is not None
    back = Derivation.from_json(d.to_json())
    again = next(s.details for s in back.steps() if s.rule == "table" and s.details["kind"] == "gmem_checks")
    assert [(c.claim, str(c.verdict), c.points) for c in GmemChecks.from_details(again).checks] == \
        [(c.claim, str(c.verdict), c.points) for c in checks]


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
