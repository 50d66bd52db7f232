"""The hardware cases: every analysed access that the H200 run measures.

A case is a *spec* (plain JSON: how to rebuild it from symcute's own API) and
the lane addresses and prediction derived from it.  The CPU test rebuilds every
spec, checks the addresses are unchanged, and judges the recorded counters.

Families: raw lane patterns of every plain width (8..128-bit ld/st: strides,
broadcasts, padding, permutations, random addresses); ldmatrix/stmatrix
.x1/.x2/.x4 with and without .trans over row strides and swizzles; cp.async
4/8/16 bytes; TV layouts over swizzled and unswizzled tiles (the 32x32 float
column read among them); and TiledCopies of every shared-memory copy atom of
the catalog over K-major, MN-major, CuTe-swizzled and GMMA-atom smem layouts.
"""

from __future__ import annotations

import numpy as np

from . import model


def instruction(spec: dict) -> model.Instruction:
    kind = spec["instr"]
    if kind[0] == "ldst":
        return model.ld_st(kind[1], kind[2])
    if kind[0] == "matrix":
        return model.matrix(kind[1], kind[2], kind[3])
    return model.cp_async(kind[1], kind[2], spec.get("gstride", 16))


def pattern_addresses(spec: dict) -> list:
    """[warp][instr][lane] byte addresses of a raw lane pattern."""
    instr = instruction(spec)
    p, b = spec["pattern"], instr.lane_bytes
    lanes = np.arange(32)
    if p == "stride":
        a = lanes * spec["stride"] + spec.get("offset", 0)
    elif p == "mod":          # lanes repeat every `period` lanes (broadcast across phases)
        a = (lanes % spec["period"]) * spec["stride"]
    elif p == "blocks":       # lanes in blocks of `block` share one address; blocks `stride` apart
        a = (lanes // spec["block"]) * spec["stride"]
    elif p == "all_but_last":  # every lane at 0 except lane 31 at `stride`
        a = np.where(lanes == 31, spec["stride"], 0)
    elif p == "perm":
        a = np.random.RandomState(spec["seed"]).permutation(32) * b
    elif p == "random":
        a = np.random.RandomState(spec["seed"]).randint(0, spec["span"] // b, size=32) * b
    elif p == "rows_swizzled":  # 16-byte rows at `stride`, Swizzle<B,4,S> on the byte address
        bb, s = spec["swizzle"]
        x = lanes * spec["stride"]
        a = x ^ ((x >> s) & (((1 << bb) - 1) << 4))
    elif p == "cf_random":    # conflict-free: each phase's lanes a random permutation of one 128-byte row,
        rng = np.random.RandomState(spec["seed"])   # the phases in random distinct rows
        per = instr.phase_lanes
        rows = rng.permutation(64)[:32 // per]
        a = np.concatenate([rng.permutation(per) * b + 128 * int(r) for r in rows])[:32]
    else:
        raise ValueError(f"unknown pattern {p!r}")
    # a stream: the same lane pattern issued `ninstr` times by each of `warps` warps, instruction k
    # shifted by k * istride bytes
    n, step, wstep = spec.get("ninstr", 1), spec.get("istride", 0), spec.get("wstride", 0)
    return [[[int(v) + k * step + w * wstep for v in a] for k in range(n)] for w in range(spec.get("warps", 1))]


def cp_groups(spec: dict) -> tuple:
    """``(shared addresses, global sources)``, each [warp][instr][lane], of a cp.async line-group probe.

    ``lines`` global 128-byte lines, ``32 / lines`` lanes each (``order`` ``blocked``: lanes 8i..8i+7 in
    line i for 4 lines; ``interleaved``: lane l in line l % lines); within its line the lanes write
    ``m`` rows (128 * 8 bytes apart: one bank set, distinct words) of ``per / m`` consecutive
    ``size``-byte chunks, so each line alone is ``m``-way on its banks; ``overlap`` ``disjoint``: the lines'
    bank sets are apart where 128 bytes allow; ``same``: every line on the same banks (other rows).
    """
    size, lines, m = spec["size"], spec["lines"], spec["m"]
    per = WARP_LANES // lines
    chunks = per // m
    shared, sources = [], []
    for lane in range(WARP_LANES):
        i, j = (lane // per, lane % per) if spec["order"] == "blocked" else (lane % lines, lane // lines)
        row, col = j // chunks, j % chunks
        if spec["overlap"] == "disjoint":
            base = (i * chunks * size) % 128 + 1024 * m * ((i * chunks * size) // 128)
        else:
            base = 1024 * m * i
        shared.append(base + 1024 * row + col * size)
        sources.append(128 * i + j * size)
    return [[shared]], [[sources]]


WARP_LANES = 32


def cp_random(spec: dict) -> tuple:
    """``(shared addresses, global sources)`` of a random cp.async probe: every lane's source in one of
    ``lines`` random 128-byte lines (random chunk), its destination a random ``size``-aligned address of 4 KB."""
    rng = np.random.RandomState(spec["seed"])
    size, lines = spec["size"], spec["lines"]
    pool = rng.permutation(64)[:lines]
    src = [int(pool[rng.randint(lines)]) * 128 + int(rng.randint(128 // size)) * size for _ in range(WARP_LANES)]
    dst = [int(rng.randint(4096 // size)) * size for _ in range(WARP_LANES)]
    return [[dst]], [[src]]


def build(spec: dict):
    """``(instruction, addresses [warp][instr][lane], SharedAccess or None)`` of a spec
    (for a global-memory spec: ``(access bits, addresses, GlobalAccess)``)."""
    from ..core import parse_layout
    if spec["family"] == "gmem":
        from .gmem import global_access
        g = global_access(parse_layout(spec["tv"]), parse_layout(spec["gmem"]), spec["value_bits"],
                          spec.get("vector_bits"))
        return g.access_bits, _nested(g.lane_addresses), g
    if spec["family"] == "pattern":
        return instruction(spec), pattern_addresses(spec), None
    if spec["family"] == "cpgroups":
        return model.cp_async(spec["size"], spec.get("cache", "ca")), cp_groups(spec)[0], None
    if spec["family"] == "cprandom":
        return model.cp_async(spec["size"]), cp_random(spec)[0], None
    if spec["family"] == "cpregular":
        return model.cp_async(spec["size"]), cp_regular(spec)[0], None
    if spec["family"] == "cpfactor":
        return model.cp_async(spec["size"]), cp_factor(spec)[0], None
    if spec["family"] == "tv":
        from .shared import shared_access
        r = shared_access(parse_layout(spec["tv"]), _smem(spec["smem"], spec["value_bits"]), spec["value_bits"],
                          spec.get("vector_bits"), spec.get("op", "ld"))
    else:
        from .copy import bank_conflicts
        r = bank_conflicts(tiled_copy(spec), _smem(spec["smem"], _bits(spec["type"])), spec.get("side"))
    return r.instruction, _nested(r.lane_addresses), r


def _bits(t: str) -> int:
    from ..core import sizeof_bits
    return sizeof_bits(t)


def _smem(text: str, value_bits: int):
    """A smem layout spec: CuTe notation, or 'GMMA:<atom>:<M>x<N>' for a GMMA layout atom tiled to M x N."""
    from ..core import parse_layout, tile_to_shape
    if text.startswith("GMMA:"):
        from ..atoms.smem_layouts import smem_layout_atom
        _, name, mn = text.split(":")
        m, n = (int(x) for x in mn.split("x"))
        return tile_to_shape(smem_layout_atom(f"GMMA::Layout_{name}_Atom", _TYPES[value_bits]), (m, n))
    return parse_layout(text)


_TYPES = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double"}


def tiled_copy(spec: dict):
    from ..atoms import copy_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C, \
        make_tiled_mma
    from ..core import parse_layout
    atom = copy_atom(spec["atom"], spec["type"])
    if "mma" in spec:
        mma = make_tiled_mma(spec["mma"], tuple(spec["mma_layout"]), tuple(spec["mma_tile"]))
        return {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C}[spec["operand"]](atom, mma)
    return make_tiled_copy(atom, parse_layout(spec["thr"]), parse_layout(spec["val"]))


def _nested(a) -> list:
    return [[[None if int(x) < 0 else int(x) for x in k] for k in w] for w in a]


def kind_of(instr: model.Instruction) -> str:
    """The probe program's name for a model instruction (``ld32``, ``ldsm4t``, ``cpasync16``, ...)."""
    n = instr.name
    if n.startswith(("ldmatrix", "stmatrix")):
        return f"{instr.op}sm{instr.active_lanes // 8}{'t' if '.trans' in n else ''}"
    if instr.op == "ldgsts":
        return f"cpasync{'cg' if '.cg.' in n else ''}{instr.lane_bytes}"
    return f"{instr.op}{instr.lane_bytes * 8}"


def predict(instr: model.Instruction, addresses: list, sources: list | None = None) -> tuple:
    """(wavefronts, ideal) of all warps' instructions by the model, phase by phase (``sources``:
    cp.async's global byte addresses [warp][instr][lane], default ``lane * source_stride``)."""
    wave = ideal = 0
    for wi, w in enumerate(addresses):
        for ki, k in enumerate(w):
            a, b = model.instruction_cost(instr, k, sources[wi][ki] if sources is not None else None)
            wave += a
            ideal += b
    return wave, ideal


def predict_counter(instr: model.Instruction, addresses: list, sources: list | None = None) -> tuple:
    """``(wavefronts, ideal, timing_dependent)`` that Nsight Compute counts when the warps run one at a time,
    each issuing its instructions back to back: the per-instruction model plus :func:`model.store_stream`."""
    wave = ideal = 0
    timing = False
    for wi, w in enumerate(addresses):
        costs = [model.instruction_cost(instr, k, sources[wi][ki] if sources is not None else None)
                 for ki, k in enumerate(w)]
        extra, t = model.store_stream(instr, costs, [sum(a is not None for a in k[:instr.active_lanes])
                                                      for k in w])
        wave += sum(c[0] for c in costs) + extra
        ideal += sum(c[1] for c in costs)
        timing = timing or t
    return wave, ideal, timing


# --- the case list ----------------------------------------------------------------------------------------

def _pattern_specs() -> list:
    specs = []
    for op in ("ld", "st"):
        for bits in (8, 16, 32, 64, 128):
            b = bits // 8
            strides = sorted({b, 2 * b, 4 * b, 8 * b, 16 * b, 32 * b, 128, 256} | ({132} if b <= 4 else set())
                             | ({136} if b <= 8 else set()) | ({144} if b <= 16 else set()))
            for s in strides:
                if s % b == 0 and s * 31 + b <= 64 * 1024:
                    specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "stride", "stride": s})
            specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "stride", "stride": 0})
            for period in (8, 16):
                specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "mod", "period": period,
                              "stride": b})
                specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "mod", "period": period,
                              "stride": 128})
            specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "perm", "seed": bits})
            for seed in (1, 2):
                specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "random",
                              "seed": seed * 100 + bits, "span": 1024})
    for op in ("ld", "st"):
        for num in (1, 2, 4):
            for trans in (False, True):
                ins = ["matrix", op, num, trans]
                for s in (16, 32, 64, 128, 144, 256):
                    specs.append({"family": "pattern", "instr": ins, "pattern": "stride", "stride": s})
                specs.append({"family": "pattern", "instr": ins, "pattern": "rows_swizzled", "stride": 128,
                              "swizzle": [3, 3]})
                specs.append({"family": "pattern", "instr": ins, "pattern": "rows_swizzled", "stride": 64,
                              "swizzle": [2, 3]})
    # broadcasts of wide loads and stores: which lanes sharing an address are served together
    for op in ("ld", "st"):
        for bits in (32, 64, 128):
            b = bits // 8
            for block in (2, 4, 8, 16):
                for stride in (b, 128, 0 if block == 16 else 4 * b):
                    specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "blocks",
                                  "block": block, "stride": stride})
            for stride in (b, 128):
                specs.append({"family": "pattern", "instr": ["ldst", op, bits], "pattern": "all_but_last",
                              "stride": stride})
    # cp.async with the global sources of consecutive lanes 4, 16 or 128 bytes apart
    for nbytes in (4, 8, 16):
        for gstride in (nbytes, 128):
            for pat in ({"pattern": "stride", "stride": nbytes}, {"pattern": "stride", "stride": 32},
                        {"pattern": "stride", "stride": 128}, {"pattern": "perm", "seed": nbytes}):
                specs.append({"family": "pattern", "instr": ["cp.async", nbytes, "ca"], **pat, "gstride": gstride})
    for nbytes, cache in ((4, "ca"), (8, "ca"), (16, "ca"), (16, "cg")):
        ins = ["cp.async", nbytes, cache]
        for s in sorted({nbytes, 2 * nbytes, 32, 128}):
            specs.append({"family": "pattern", "instr": ins, "pattern": "stride", "stride": s})
        specs.append({"family": "pattern", "instr": ins, "pattern": "stride", "stride": 0})
        specs.append({"family": "pattern", "instr": ins, "pattern": "perm", "seed": nbytes})
    return specs


def _tv_specs() -> list:
    f32 = 32
    specs = [
        # the one-warp column read of a 32x32 float tile: 32 wavefronts, 31 conflicts
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "(32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "(32,32):(1,32)", "value_bits": f32},
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "(32,32):(33,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "Sw<5,0,5> o 0 o (32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "Sw<3,0,5> o 0 o (32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "Sw<4,0,5> o 0 o (32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,1):(1,0)", "smem": "Sw<2,0,5> o 0 o (32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,32):(1,32)", "smem": "(32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,32):(1,32)", "smem": "Sw<5,0,5> o 0 o (32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,32):(32,1)", "smem": "(32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,32):(1,32)", "smem": "(32,32):(32,1)", "value_bits": f32, "vector_bits": 64},
        {"family": "tv", "tv": "(32,32):(1,32)", "smem": "(32,32):(32,1)", "value_bits": f32, "vector_bits": 32},
        {"family": "tv", "tv": "((8,4),4):((4,256),1)", "smem": "(32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "((8,4),4):((4,256),1)", "smem": "Sw<3,2,3> o 0 o (32,32):(32,1)", "value_bits": f32},
        {"family": "tv", "tv": "(32,8):(8,1)", "smem": "(64,64):(64,1)", "value_bits": 16, "op": "st"},
        {"family": "tv", "tv": "(32,8):(64,1)", "smem": "(64,64):(64,1)", "value_bits": 16, "op": "st"},
        {"family": "tv", "tv": "(32,8):(64,1)", "smem": "Sw<3,3,3> o 0 o (64,64):(64,1)", "value_bits": 16},
        {"family": "tv", "tv": "(32,8):(64,1)", "smem": "Sw<3,3,3> o 0 o (64,64):(64,1)", "value_bits": 16,
         "op": "st"},
        {"family": "tv", "tv": "(32,4):(64,1)", "smem": "(64,64):(64,1)", "value_bits": 16},
        {"family": "tv", "tv": "(32,2):(2,1)", "smem": "(64,64):(64,1)", "value_bits": 8},
        {"family": "tv", "tv": "(32,2):(64,1)", "smem": "(64,64):(64,1)", "value_bits": 8},
        {"family": "tv", "tv": "(32,1):(64,1)", "smem": "(64,64):(64,1)", "value_bits": 16},
    ]
    for sw in ("Sw<1,0,5>", "Sw<2,0,5>", "Sw<3,0,5>", "Sw<4,0,5>", "Sw<5,0,5>"):
        specs.append({"family": "tv", "tv": "(32,1):(1,0)", "smem": f"{sw} o 0 o (32,32):(1,32)", "value_bits": f32,
                      "op": "st"})
    return specs


SM80_F16 = "SM80_16x8x16_F16F16F16F16_TN"


def _copy_specs() -> list:
    specs = []
    mma = {"mma": SM80_F16, "mma_layout": [2, 2, 1], "mma_tile": [32, 32, 16]}
    kmajor = {32: ["(32,16):(16,1)", "Sw<1,3,3> o 0 o (32,16):(16,1)", "(32,64):(64,1)",
                   "Sw<3,3,3> o 0 o (32,64):(64,1)", "Sw<2,3,3> o 0 o (32,32):(32,1)", "GMMA:K_SW128:32x64",
                   "GMMA:K_SW64:32x32", "GMMA:K_SW32:32x16", "GMMA:K_INTER:32x16"]}
    mnmajor = ["(32,16):(1,32)", "(64,16):(1,64)", "Sw<3,3,3> o 0 o (64,16):(1,64)",
               "GMMA:MN_SW128:64x16", "GMMA:MN_SW64:32x16", "GMMA:MN_INTER:32x16"]
    for atom in ("SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N",
                 "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N"):
        for operand in ("A", "B"):
            for smem in kmajor[32]:
                specs.append({"family": "copy", "atom": atom, "type": "half_t", "operand": operand, "smem": smem, **mma})
    for atom in ("SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T",
                 "SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T"):
        for operand in ("A", "B"):
            for smem in mnmajor:
                specs.append({"family": "copy", "atom": atom, "type": "half_t", "operand": operand, "smem": smem, **mma})
    # gmem -> smem copies of CUTLASS's SM80 mainloops: 128-bit per thread, 8 threads per 64-element row
    for atom in ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
                 "UniversalCopy<uint128_t>"):
        for smem in ("(32,64):(64,1)", "Sw<3,3,3> o 0 o (32,64):(64,1)", "Sw<2,3,3> o 0 o (32,64):(64,1)",
                     "(32,64):(1,32)"):
            specs.append({"family": "copy", "atom": atom, "type": "half_t", "thr": "(16,8):(8,1)", "val": "(1,8)",
                          "smem": smem, "side": "D"})
    for atom, val in (("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "(1,4)"), ("SM80_CP_ASYNC_CACHEALWAYS<uint32_t>", "(1,2)"),
                      ("UniversalCopy<uint64_t>", "(1,4)"), ("UniversalCopy<uint32_t>", "(1,2)"),
                      ("UniversalCopy<uint16_t>", "(1,1)")):
        for smem in ("(32,64):(64,1)", "Sw<3,3,3> o 0 o (32,64):(64,1)", "(32,64):(1,32)"):
            specs.append({"family": "copy", "atom": atom, "type": "half_t", "thr": "(32,4):(4,1)", "val": val,
                          "smem": smem, "side": "D"})
    # the sgemm (float) copies: 32-bit per thread; a column-major thread layout against a row-major tile conflicts
    for thr in ("(32,8):(1,32)", "(32,8):(8,1)"):
        for smem in ("(128,8):(1,128)", "(128,8):(8,1)", "(128,8):(9,1)"):
            for atom in ("UniversalCopy<uint32_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"):
                specs.append({"family": "copy", "atom": atom, "type": "float", "thr": thr, "val": "(1,1)",
                              "smem": smem, "side": "D"})
    for smem in ("(128,8):(1,128)", "(128,8):(8,1)"):
        specs.append({"family": "copy", "atom": "AutoVectorizingCopy", "type": "float", "thr": "(32,8):(1,32)",
                      "val": "(4,1)", "smem": smem, "side": "S"})
    return specs


def _gmem_specs() -> list:
    g = [("(32,1):(1,0)", "(32,32):(32,1)", 32), ("(32,1):(1,0)", "(32,32):(1,32)", 32),
         ("(32,1):(2,0)", "(64,32):(1,64)", 32), ("(32,1):(3,0)", "(96,32):(1,96)", 32),
         ("(32,4):(4,1)", "(128,32):(1,128)", 32), ("(32,2):(2,1)", "(64,32):(1,64)", 32),
         ("(32,4):(1,32)", "(128,32):(1,128)", 32), ("(32,4):(4,1)", "(32,128):(128,1)", 32),
         ("((8,4),8):((8,256),1)", "(32,64):(64,1)", 16), ("((8,4),8):((8,512),1)", "(64,64):(64,1)", 16),
         ("(32,8):(8,1)", "(256,16):(1,256)", 16), ("((4,8),8):((8,64),1)", "(64,64):(1,64)", 16),
         ("(32,(4,2)):(4,(1,256))", "(128,64):(1,128)", 32), ("(32,8):(1,32)", "(128,8):(1,128)", 32),
         ("(32,8):(8,1)", "(128,8):(1,128)", 32), ("(32,8):(1,32)", "(128,8):(8,1)", 32),
         ("(32,1):(33,0)", "(33,32):(1,33)", 32), ("(32,2):(1,32)", "(64,32):(1,64)", 64),
         ("(32,1):(1,0)", "(32,16):(16,1)", 64), ("(32,1):(4,0)", "(128,8):(1,128)", 32)]
    specs = []
    for tv, gm, vb in g:
        specs.append({"family": "gmem", "tv": tv, "gmem": gm, "value_bits": vb})
        if vb == 32:
            specs.append({"family": "gmem", "tv": tv, "gmem": gm, "value_bits": vb, "vector_bits": 32})
    return specs


def all_specs() -> list:
    return _pattern_specs() + _tv_specs() + _copy_specs() + _gmem_specs()


def case_name(spec: dict) -> str:
    keys = [k for k in spec if k != "family"]
    return spec["family"] + ":" + ";".join(f"{k}={spec[k]}" for k in keys)


def all_cases(refused: list | None = None, concurrent: bool = True) -> list:
    """The runnable cases (each multi-warp case twice: warps one at a time, and concurrently when
    ``concurrent``); specs the analysis refuses (CuTe would not compile them either: e.g. a 128-bit
    copy over a column-major tile) go to ``refused`` with the reason."""
    from ..errors import LayoutError
    out = []
    for spec in all_specs():
        try:
            instr, addrs, r = build(spec)
        except LayoutError as e:
            if refused is not None:
                refused.append((spec, str(e)))
            continue
        if spec["family"] == "gmem":
            if instr < 32:
                continue
            out.append({"name": case_name(spec), "spec": spec, "kind": f"gld{instr}", "op": "gld",
                        "warps": len(addrs), "ninstr": len(addrs[0]), "serial": True, "gstride": 16,
                        "predicted_sectors": r.sectors, "predicted_ideal_sectors": r.ideal_sectors,
                        "predicted_requests": r.requests, "addresses": addrs})
            continue
        wave, ideal = predict(instr, addrs)
        if r is not None and (r.wavefronts, r.ideal_wavefronts) != (wave, ideal):
            raise AssertionError(f"{case_name(spec)}: analysis {r.wavefronts}/{r.ideal_wavefronts} != model "
                                 f"{wave}/{ideal}")
        case = {"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": instr.op,
                "warps": len(addrs), "ninstr": len(addrs[0]), "serial": True, "gstride": spec.get("gstride", 16),
                "predicted_wavefronts": wave, "predicted_ideal": ideal, "addresses": addrs}
        out.append(case)
        if concurrent and len(addrs) > 1:
            out.append({**case, "name": case["name"] + ";concurrent", "serial": False})
    return out


def spaced_cases(gap_ns: int = 2000) -> list:
    """The cases whose counters the bank model does not predict in a stream (several store or cp.async
    instructions of one warp back to back), run again one warp at a time with ``gap_ns`` between
    instructions, and their single-instruction controls."""
    out = []
    for c in all_cases(concurrent=False):
        if c["op"] in ("st", "ldgsts") and (c["ninstr"] > 1 or c["warps"] > 1):
            out.append({**c, "name": c["name"] + f";gap={gap_ns}", "gap": gap_ns})
    return out


# --- run 4: store streams and cp.async line groups -----------------------------------------------------------

# per width, the lane stride (bytes) giving a 1-, 2- and 4-way conflict per phase
_STREAM_STRIDES = {("ldst", 32): (4, 8, 16), ("ldst", 64): (8, 16, 32), ("ldst", 128): (16, 32, 64),
                   ("matrix", 1): (16, 32, 64), ("matrix", 2): (16, 32, 64), ("matrix", 4): (16, 32, 64)}


def _stream_specs() -> list:
    specs = []
    kinds = [["ldst", "st", 32], ["ldst", "st", 64], ["ldst", "st", 128], ["matrix", "st", 1, False],
             ["matrix", "st", 2, False], ["matrix", "st", 4, False], ["matrix", "st", 4, True]]
    for ins in kinds:
        key = (ins[0], ins[2])
        for stride in _STREAM_STRIDES[key]:
            for n in (1, 2, 3, 4, 8):
                for gap in (0, 2000):
                    specs.append({"family": "pattern", "instr": ins, "pattern": "stride", "stride": stride,
                                  "ninstr": n, "gap": gap})
    # the same stream with every instruction at other addresses (4 KB further), and loads as controls
    for ins in (["ldst", "st", 128], ["matrix", "st", 4, False]):
        for n in (2, 3, 4, 8):
            for gap in (0, 2000):
                specs.append({"family": "pattern", "instr": ins, "pattern": "stride", "stride": 16, "ninstr": n,
                              "istride": 4096, "gap": gap})
    for ins in (["ldst", "ld", 128], ["matrix", "ld", 4, False], ["ldst", "ld", 64]):
        for n in (2, 4, 8):
            specs.append({"family": "pattern", "instr": ins, "pattern": "stride", "stride": 16, "ninstr": n})
    return specs


def _cp_group_specs() -> list:
    specs = []
    for size in (4, 8, 16):
        for lines in (1, 2, 4, 8, 16, 32):
            per = WARP_LANES // lines
            if per * size > 128:
                continue
            for m in (1, 2, 4, 8):
                if m > per:
                    continue
                for overlap in ("disjoint", "same"):
                    for order in ("blocked", "interleaved"):
                        if lines == 1 and (overlap, order) != ("disjoint", "blocked"):
                            continue
                        specs.append({"family": "cpgroups", "size": size, "lines": lines, "m": m,
                                      "overlap": overlap, "order": order})
    return specs


def stream_cases(repeats: int = 3) -> list:
    """Run 4's cases: store streams of one warp (length 1..8, 32..512 bytes per instruction, 1/2/4-way,
    back to back or 2 us apart), two warps storing concurrently (repeated: timing), cp.async line groups
    with explicit global sources (and cp.async.cg controls), and run 2's cp.async copies again."""
    out = []
    for spec in _stream_specs():
        instr, addrs, _ = build(spec)
        wave, ideal = predict(instr, addrs)
        out.append({"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": instr.op,
                    "warps": 1, "ninstr": len(addrs[0]), "serial": True, "gstride": 16, "gap": spec.get("gap", 0),
                    "predicted_wavefronts": wave, "predicted_ideal": ideal, "addresses": addrs})
    for ins, stride in ((["ldst", "st", 128], 16), (["matrix", "st", 4, False], 16), (["ldst", "st", 32], 4),
                        (["ldst", "st", 128], 32)):
        spec = {"family": "pattern", "instr": ins, "pattern": "stride", "stride": stride, "warps": 2}
        instr, addrs, _ = build(spec)
        wave, ideal = predict(instr, addrs)
        for r in range(repeats + 2):
            out.append({"name": case_name(spec) + f";concurrent;repeat={r}", "spec": spec, "kind": kind_of(instr),
                        "op": instr.op, "warps": 2, "ninstr": 1, "serial": False, "gstride": 16, "gap": 0,
                        "predicted_wavefronts": wave, "predicted_ideal": ideal, "addresses": addrs})
    for spec in _cp_group_specs():
        shared, sources = cp_groups(spec)
        instr = model.cp_async(spec["size"])
        wave, ideal = predict(instr, shared, sources)
        case = {"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": "ldgsts", "warps": 1,
                "ninstr": 1, "serial": True, "gstride": 16, "gap": 0, "addresses": shared, "gsources": sources,
                "predicted_wavefronts": wave, "predicted_ideal": ideal}
        out.append(case)
        if spec["size"] == 16 and spec["m"] == 1:
            cg = {**spec, "cache": "cg"}
            out.append({**case, "name": case_name(cg), "spec": cg, "kind": "cpasynccg16"})
    # run 2's cp.async copies whose counts moved between runs, repeated
    for c in all_cases(concurrent=False):
        if c["op"] == "ldgsts" and c["spec"]["family"] == "copy" and "cg" not in c["kind"]:
            for r in range(repeats):
                out.append({**c, "name": c["name"] + f";repeat={r}", "gap": 0})
    return out


def cp_regular(spec: dict) -> tuple:
    """``(shared addresses, global sources)`` of a random cp.async probe with *regular* sources
    (:func:`model.cp_async_regular`): lane l reads line ``line(l)`` (random among ``lines`` lines: the
    first ``lines`` lines, or random ones when ``scatter``), the lanes of one line at increasing chunks;
    destinations random ``size``-aligned addresses of 4 KB (``dense``: lane l at ``l * size``)."""
    rng = np.random.RandomState(spec["seed"])
    size, lines = spec["size"], spec["lines"]
    pool = rng.permutation(64)[:lines] if spec.get("scatter") else np.arange(lines)
    line_of = [int(rng.randint(lines)) for _ in range(WARP_LANES)]
    per = 128 // size
    while any(line_of.count(i) > per for i in range(lines)):
        line_of = [int(rng.randint(lines)) for _ in range(WARP_LANES)]
    seen: dict = {}
    src = []
    for l in range(WARP_LANES):
        j = seen.get(line_of[l], 0)
        seen[line_of[l]] = j + 1
        src.append(int(pool[line_of[l]]) * 128 + j * size)
    dst = [l * size for l in range(WARP_LANES)] if spec.get("dense") else \
        [int(rng.randint(4096 // size)) * size for _ in range(WARP_LANES)]
    return [[dst]], [[src]]


def cp_factor(spec: dict) -> tuple:
    """``(shared addresses, global sources)`` of run 7's cp.async probes, one factor at a time:
    ``src``: 'dense' (lane l at ``l * size``), 'random_lines' (regular sources, lane -> one of ``lines``
    lines at random), 'blocked_scatter' / 'interleaved_scatter' (lanes over ``lines`` random lines of 64);
    ``dst``: 'perm' (a random permutation of the warp's ``32 * size`` bytes), 'random' (random aligned
    addresses of 4 KB, repeats possible), 'dense' (lane l at ``l * size``)."""
    rng = np.random.RandomState(spec["seed"])
    size, lines = spec["size"], spec.get("lines", 1)
    per = 32 // lines if lines else 32
    if spec["src"] == "dense":
        src = [l * size for l in range(WARP_LANES)]
    elif spec["src"] == "random_lines":
        return cp_regular({"size": size, "lines": lines, "seed": spec["seed"], "dense": spec["dst"] == "dense"})
    else:
        pool = rng.permutation(64)[:lines]
        if spec["src"] == "blocked_scatter":
            src = [int(pool[l // per]) * 128 + (l % per) * size for l in range(WARP_LANES)]
        else:
            src = [int(pool[l % lines]) * 128 + (l // lines) * size for l in range(WARP_LANES)]
    if spec["dst"] == "dense":
        dst = [l * size for l in range(WARP_LANES)]
    elif spec["dst"] == "perm":
        dst = [int(x) * size for x in rng.permutation(WARP_LANES)]
    else:
        dst = [int(rng.randint(4096 // size)) * size for _ in range(WARP_LANES)]
    return [[dst]], [[src]]


def factor_cases() -> list:
    """Run 7: which factor of runs 5-6's random instructions the line-group rule misses (predictions
    recorded before the run)."""
    out = []
    rng = np.random.RandomState(707)
    plans = ([("dense", "perm")] * 30 + [("dense", "random")] * 15 + [("random_lines", "dense")] * 30
             + [("blocked_scatter", "dense")] * 15 + [("interleaved_scatter", "dense")] * 15
             + [("blocked_scatter", "perm")] * 15)
    for seed, (src, dst) in enumerate(plans):
        size = int(rng.choice([4, 8, 16]))
        least = max(1, 32 * size // 128)
        lines = int(rng.choice([l for l in (1, 2, 4, 8, 16, 32) if l >= least]))
        spec = {"family": "cpfactor", "size": size, "lines": lines, "src": src, "dst": dst, "seed": 7000 + seed}
        shared, sources = cp_factor(spec)
        instr = model.cp_async(size)
        wave, ideal = predict(instr, shared, sources)
        out.append({"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": "ldgsts", "warps": 1,
                    "ninstr": 1, "serial": True, "gstride": 16, "gap": 0, "addresses": shared, "gsources": sources,
                    "predicted_wavefronts": wave, "predicted_ideal": ideal})
    return out


def regular_cases() -> list:
    """Run 6: fresh cp.async.ca instructions with regular sources and random destinations (predictions
    recorded before the run), and regular sources over scattered lines."""
    out = []
    rng = np.random.RandomState(606)
    for seed in range(96):
        size = int(rng.choice([4, 8, 16]))
        least = max(1, 32 * size // 128)
        spec = {"family": "cpregular", "size": size, "lines": int(rng.choice([l for l in (1, 2, 3, 4, 6, 8, 16, 32)
                                                                              if l >= least])),
                "seed": 6000 + seed, "scatter": bool(seed % 3 == 2), "dense": bool(seed % 4 == 3)}
        shared, sources = cp_regular(spec)
        instr = model.cp_async(spec["size"])
        assert model.cp_async_regular(instr, shared[0][0], sources[0][0])
        wave, ideal = predict(instr, shared, sources)
        out.append({"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": "ldgsts", "warps": 1,
                    "ninstr": 1, "serial": True, "gstride": 16, "gap": 0, "addresses": shared, "gsources": sources,
                    "predicted_wavefronts": wave, "predicted_ideal": ideal})
    return out


def confirm_cases() -> list:
    """Run 5: fresh cases whose predictions are recorded before they run (confirming runs 1-4's rules):
    random cp.async.ca instructions (sources over 1..32 random lines, random destinations), and one- and
    two-warp streams of random conflict-free stores of every width (1..9 instructions, other addresses per
    instruction, back to back or 500 ns apart)."""
    out = []
    rng = np.random.RandomState(2026)
    for seed in range(90):
        spec = {"family": "cprandom", "size": int(rng.choice([4, 8, 16])), "lines": int(rng.choice([1, 2, 3, 4, 5,
                8, 12, 16, 32])), "seed": 1000 + seed}
        shared, sources = cp_random(spec)
        instr = model.cp_async(spec["size"])
        wave, ideal = predict(instr, shared, sources)
        out.append({"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": "ldgsts", "warps": 1,
                    "ninstr": 1, "serial": True, "gstride": 16, "gap": 0, "addresses": shared, "gsources": sources,
                    "predicted_wavefronts": wave, "predicted_ideal": ideal})
    kinds = [["ldst", "st", 32], ["ldst", "st", 64], ["ldst", "st", 128], ["matrix", "st", 1, False],
             ["matrix", "st", 2, True], ["matrix", "st", 4, False], ["matrix", "st", 4, True]]
    for seed in range(110):
        ins = kinds[int(rng.randint(len(kinds)))]
        warps = int(rng.choice([1, 1, 2]))
        spec = {"family": "pattern", "instr": ins, "pattern": "cf_random", "seed": 5000 + seed,
                "ninstr": int(rng.randint(1, 10)), "istride": int(rng.choice([0, 8192])),
                "gap": int(rng.choice([0, 500])), "warps": warps}
        instr, addrs, _ = build(spec)
        wave, ideal, timing = predict_counter(instr, addrs)
        assert not timing and wave >= ideal
        out.append({"name": case_name(spec), "spec": spec, "kind": kind_of(instr), "op": instr.op, "warps": warps,
                    "ninstr": spec["ninstr"], "serial": True, "gstride": 16, "gap": spec["gap"],
                    "predicted_wavefronts": wave, "predicted_ideal": ideal, "addresses": addrs})
    # CUTLASS #3172's kernel, both of its shared-memory phases: the fill loop smem_A[i] = T(i) (128 threads,
    # 16-bit stores, 32 iterations; warps one at a time and concurrently, repeated) and the LDSM_T read of the
    # (128,32) tile of M-major (128,8) atoms under Sw<3,3,4>, Sw<3,3,3> and no swizzle (4 warps, concurrent)
    fill = {"family": "pattern", "instr": ["ldst", "st", 16], "pattern": "stride", "stride": 2, "ninstr": 32,
            "istride": 256, "warps": 4, "wstride": 64}
    instr, addrs, _ = build(fill)
    wave, ideal, timing = predict_counter(instr, addrs)
    for serial, reps in ((True, 1), (False, 3)):
        for r in range(reps):
            out.append({"name": case_name(fill) + (";serial" if serial else f";concurrent;repeat={r}"), "spec": fill,
                        "kind": kind_of(instr), "op": "st", "warps": 4, "ninstr": 32, "serial": serial,
                        "gstride": 16, "gap": 0, "predicted_wavefronts": wave, "predicted_ideal": ideal,
                        "addresses": addrs})
    for sw in ("Sw<3,3,4>", "Sw<3,3,3>", "Sw<0,0,0>"):
        spec = {"family": "copy", "atom": "SM75_U16x8_LDSM_T", "type": "half_t", "operand": "A",
                "smem": f"{sw} o 0 o (128,(8,4)):(1,(128,1024))", "mma": "SM80_16x8x16_F32F16F16F32_TN",
                "mma_layout": [2, 2, 1], "mma_tile": [32, 32, 16]}
        instr, addrs, r = build(spec)
        wave, ideal, _ = predict_counter(instr, addrs)
        out.append({"name": case_name(spec) + ";concurrent", "spec": spec, "kind": kind_of(instr), "op": "ld",
                    "warps": len(addrs), "ninstr": len(addrs[0]), "serial": False, "gstride": 16, "gap": 0,
                    "predicted_wavefronts": wave, "predicted_ideal": ideal, "addresses": addrs})
    return out
