"""The gmem recipe: a parametric (M, K) A through local_tile and partition_A (and a TiledCopy's partition_S)."""

from __future__ import annotations

import pytest

from symcute.recipes import derive_gmem
from symcute.report import markdown
from symcute.report.view import View


@pytest.fixture(scope="module")
def view():
    return View(derive_gmem())


def test_tiles_and_offset(view):
    tiles = view.table("gmem_tiles")
    assert tiles["tiles"] == "((128,32),(M/128,K/32)):((K,1),(128*K,32))"
    assert tiles["tile_counts_loose"] == ["ceil_div(M,128)", "ceil_div(K,32)"]
    assert tiles["offset"] == "32*bk+128*bm*K"
    # without divisibility, "every tile is full" has a real counterexample
    assert tiles["all_full_loose"] == "refuted"
    w = tiles["all_full_witness"]
    assert w["M"] % 128 or w["K"] % 32


def test_claims_for_all_sizes(view):
    verdicts = {c["claim"]: c["verdict"] for c in view.table("gmem_checks")["checks"]}
    assert verdicts == {"closed_form": "proved", "static_tv": "proved", "injective": "proved",
                        "aligned_pairs": "proved", "cross_check": "agrees"}
    form = view.table("gmem_formula")
    assert form["m"] == "t1+8*v1+16*wm+32*rm" and form["k"] == "v0+2*t0+8*v2+16*rk"


def test_copy_alignment_needs_divisibility(view):
    c = view.table("gmem_copy")
    assert c["contiguous"] and c["aligned"] == "proved" and c["aligned_k8"] == "proved"
    assert c["aligned_loose"] == "refuted" and c["aligned_loose_witness"]["K"] % 8


def test_a_smaller_tile_and_both_languages():
    d = derive_gmem(tile=(64, 16))
    en, zh = markdown(d, "en"), markdown(d, "zh")
    assert "M/64" in en and "M/64" in zh
    assert en.count("**proved**") == zh.count("**已证明**")


@pytest.mark.parametrize("wrong", ["offset", "layout"])
def test_the_cross_check_finds_a_partition_that_differs_from_cores(monkeypatch, wrong):
    """A formula whose thread 5 has thread 6's offset, or a layout with two strides exchanged (the same
    offset, a different function), differs from core's partition_A: the cross-check says so."""
    import types

    from symcute.core import Layout
    from symcute.recipes import derive_gmem
    from symcute.recipes.records_gmem import Agreement, GmemChecks
    from symcute.symbolic.parametric import tensor as T
    right = T.partition

    def partition(tiled, op, gA, t):
        part = right(tiled, op, gA, t)
        if t != 5:
            return part
        if wrong == "offset":
            return right(tiled, op, gA, 6)

        def swapped(values):
            lay = part.layout.subs(values)
            s = list(lay.stride)
            s[1], s[2] = s[2], s[1]
            return Layout(lay.shape, tuple(s))
        return types.SimpleNamespace(offset_expr=part.offset_expr, layout=types.SimpleNamespace(subs=swapped))

    monkeypatch.setattr(T, "partition", partition)
    d = derive_gmem()
    details = next(s.details for s in d.steps() if s.rule == "table" and s.details["kind"] == "gmem_checks")
    check = {c.claim: c for c in GmemChecks.from_details(details).checks}["cross_check"]
    assert check.verdict is Agreement.DIFFERS
