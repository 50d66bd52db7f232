"""The values every committed proof shows are CuTe's: one g++ program prints them with the real headers.

Skips when real CuTe (g++ and the CUTLASS headers, through symcute.oracle) is not available.  By
default only the seed's configuration is compiled (one program, a few seconds); ``SYMCUTE_LARGE=1``
adds every other configuration of proofs/ (operands B and C, SM75, SM90 GMMA).
"""

import os

import pytest

from symcute.recipes import SEED, derive_retile, derive_tv
from ..cute_policy import cute_unavailable
from ..large import large_run

pytestmark = pytest.mark.cute   # every test here compiles real CuTe

MMA = "auto mma = make_tiled_mma({mma}{{}}, Layout<Shape<{shape}>>{{}}); "
RETILE = ("auto tc = make_tiled_copy_{op}(Copy_Atom<{copy}, {vt}>{{}}, mma); "
          "auto frag = mma.get_slice(0).partition_fragment_{op}(make_tensor<{vt}>(Shape<_{r},_{c}>{{}})); ")
RETILE_CONFIGS = [
    dict(SEED),
    dict(SEED, operand="B", contrast=None),
    dict(SEED, operand="C", copy_atom="UniversalCopy<uint32_t>", contrast=None),
    dict(SEED, mma="SM75_16x8x8_F32F16F16F32_TN", copy_atom="SM75_U32x1_LDSM_N", contrast=None),
]


def _shape(t):
    return ",".join(f"_{x}" for x in t)


def _retile_cases(cfg):
    d = derive_retile(**cfg)
    op = cfg["operand"]
    config = next(s.details for s in d.find("table") if s.details["kind"] == "retile_config")
    tile = config["tile"]
    prefix = MMA.format(mma=cfg["mma"], shape=_shape(cfg["atom_layout"]))
    F = f"mma.get_layout{op}_TV()"
    H = f"right_inverse({F}).with_shape(make_shape(_{tile[0]}{{}}, _{tile[1]}{{}}))"
    exprs = {"F": F, "G": f"right_inverse({F})", "H": H, "frg_layout_mn": f"upcast<{config['N']}>({H})"}
    if cfg.get("contrast"):
        exprs["contrast"] = f"upcast<{cfg['contrast']}>({H})"
    cases = {}
    for label, e in exprs.items():
        cases[label] = (d.text(d.labelled(label)), "{ " + prefix + f"print({e}); }}")
    rt = RETILE.format(op=op, copy=cfg["copy_atom"], vt=cfg["value_type"], r=tile[0], c=tile[1])
    cases["fragment"] = (d.text(d.labelled("fragment")), "{ " + prefix + rt + "print(frag.layout()); }")
    cases["retile"] = (d.text(d.labelled("retile")), "{ " + prefix + rt + "print(tc.retile(frag.layout())); }")
    return cases


def _tv_cases(mma, atom_layout):
    d = derive_tv(mma, atom_layout)
    prefix = MMA.format(mma=mma, shape=_shape(atom_layout))
    cases = {}
    for op in "ABC":
        cases[f"F_{op}"] = (d.text(d.labelled(f"F_{op}")), "{ " + prefix + f"print(mma.get_layout{op}_TV()); }}")
        cases[f"G_{op}"] = (d.text(d.labelled(f"G_{op}")),
                            "{ " + prefix + f"print(right_inverse(mma.get_layout{op}_TV())); }}")
    return cases


def test_recipe_values_equal_real_cute():
    oracle_mod = pytest.importorskip("symcute.oracle")
    try:
        oracle = oracle_mod.CuteOracle()
    except oracle_mod.OracleUnavailable as e:
        cute_unavailable(e)
    large = large_run()
    expected, bodies = {}, {}
    for k, cfg in enumerate(RETILE_CONFIGS if large else RETILE_CONFIGS[:1]):
        for label, (ours, body) in _retile_cases(cfg).items():
            expected[f"{k}:{label}"], bodies[f"{k}:{label}"] = ours, body
    gmma = _tv_cases("SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", (2, 1, 1)) if large else {}
    for label, (ours, body) in gmma.items():
        expected[f"gmma:{label}"], bodies[f"gmma:{label}"] = ours, body
    results = oracle.run(bodies)
    bad = {k: (expected[k], r.output if r.ok else r.status + ": " + str(r.error)) for k, r in results.items()
           if not r.ok or r.output.strip() != expected[k]}
    assert not bad, bad
    assert len(results) == (31 if large else 7)
