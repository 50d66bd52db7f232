"""shared_access / bank_conflicts against an independent brute-force count with core's evaluation."""

import random

import pytest

from symcute import ComposedLayout, Layout, Swizzle
from symcute.errors import LayoutError
from symcute.memory import bank_conflicts, shared_access


def brute(tv, smem, value_bits, n):
    """Per-lane count written from the rule alone: for each warp and each access k, for each phase the
    max over banks of the number of distinct 4-byte words; 32-bit accesses: one phase of 32 lanes."""
    nt, nv = tv[0].size(), tv[1].size()
    total = ideal = 0
    worst = 0
    nbytes = n * value_bits // 8
    per_phase = 32 if nbytes <= 4 else 128 // nbytes
    for w in range(-(-nt // 32)):
        for k in range(nv // n):
            for p in range(32 // per_phase):
                banks, words = {}, set()
                for lane in range(p * per_phase, (p + 1) * per_phase):
                    t = 32 * w + lane
                    if t >= nt:
                        continue
                    a = smem(tv(t, k * n)) * value_bits // 8
                    for word in range(a // 4, (a + nbytes - 1) // 4 + 1):
                        banks.setdefault(word % 32, set()).add(word)
                        words.add(word)
                if banks:
                    m = max(len(s) for s in banks.values())
                    total += m
                    worst = max(worst, m)
                    ideal += -(-len(words) // 32)
    return total, ideal, worst


def test_column_read_of_a_32x32_float_tile():
    r = shared_access(Layout((32, 1), (1, 0)), Layout((32, 32), (32, 1)), 32)
    assert (r.wavefronts, r.ideal_wavefronts, r.conflicts, r.ways) == (32, 1, 31, 32)
    assert not r.conflict_free
    lanes = [ls[0] for ls in r.witness.lanes]
    assert len({l.byte_address // 4 % 32 for l in lanes}) == 1          # one bank
    assert len({l.byte_address // 4 for l in lanes}) == 32              # 32 distinct words


def test_padding_and_cute_swizzles_fix_the_column_read():
    for smem in ("(32,32):(33,1)", "Sw<5,0,5> o 0 o (32,32):(32,1)"):
        r = shared_access("(32,1):(1,0)", smem, 32)
        assert (r.wavefronts, r.conflict_free) == (1, True), smem
    assert shared_access("(32,1):(1,0)", "Sw<3,0,5> o 0 o (32,32):(32,1)", 32).ways == 4


def _random_case(rng):
    shape = [rng.choice([1, 2, 4, 8]) for _ in range(3)]
    size = shape[0] * shape[1] * shape[2]
    m = rng.choice([4, 8, 16, 32])
    ncols = max(1, 4096 // m // 4)
    smem_shape = (m, ncols)
    strides = rng.choice([(1, m), (ncols, 1), (ncols + 1, 1), (1, m + 1)])
    base = Layout(smem_shape, strides)
    if rng.random() < 0.6:
        b = rng.randint(1, 3)
        s = rng.randint(b, 5)
        sw = Swizzle(b, rng.randint(0, 4), s)
        smem = ComposedLayout(sw, 0, base)
        if sw.size() > smem.size():
            smem = base
    else:
        smem = base
    # a TV layout: a random permutation of the tile's indices split into (threads, values)
    nthr = rng.choice([32, 64])
    nval = rng.choice([1, 2, 4])
    tile = smem.size()
    stride_t = rng.choice([1, nval, rng.randint(1, 64)])
    stride_v = rng.choice([nthr, 1, rng.randint(1, 64)])
    tv = Layout((nthr, nval), (stride_t, stride_v))
    if tv(nthr - 1, nval - 1) >= tile:
        tv = Layout((nthr, nval), (1, nthr))
    return tv, smem


def test_32bit_analysis_equals_brute_force_on_random_cases():
    rng = random.Random(14)
    checked = 0
    for _ in range(2500):
        tv, smem = _random_case(rng)
        r = shared_access(tv, smem, 32, 32)
        assert (r.wavefronts, r.ideal_wavefronts, r.ways) == brute(tv, smem, 32, 1), (tv, smem)
        if r.certificate is not None:      # F2-linear: the kernel dimensions give the worst phase exactly
            assert r.certificate.wavefronts == r.ways
        # the witness lanes really collide: one bank, distinct words, each lane's address matches core's
        banks = {l.byte_address // 4 % 32 for ls in r.witness.lanes for l in ls}
        assert banks == {r.witness.bank} and len(r.witness.words) == r.ways
        for ls in r.witness.lanes:
            for l in ls:
                assert smem(tv(l.thread, r.witness.instruction)) * 4 == l.byte_address
        checked += 1
    assert checked == 2500


def test_wider_and_narrower_accesses_equal_brute_force():
    rng = random.Random(15)
    for _ in range(300):
        tv, smem = _random_case(rng)
        for bits in (8, 16):
            r = shared_access(tv, smem, bits, bits)
            assert (r.wavefronts, r.ideal_wavefronts, r.ways) == brute(tv, smem, bits, 1)
    for n, vb in ((2, 32), (4, 32), (8, 16)):
        tv = Layout((32, n), (n, 1))
        r = shared_access(tv, Layout((32, 64), (1, 32)), vb)
        assert r.vector.values == n
        assert (r.wavefronts, r.ideal_wavefronts, r.ways) == brute(tv, Layout((32, 64), (1, 32)), vb, n)


def test_vector_width_reasons():
    r = shared_access("(32,8):(8,1)", "(32,64):(1,32)", 32)
    assert (r.vector.bits, r.vector.reason) == (128, "limit")
    r = shared_access("(32,4):(1,32)", "(32,64):(1,32)", 32)
    assert (r.vector.bits, r.vector.reason) == (32, "contiguity")
    with pytest.raises(LayoutError, match="not possible"):
        shared_access("(32,4):(1,32)", "(32,64):(1,32)", 32, 64)


def test_sm80_ldmatrix_read_conflicts_unswizzled_and_not_with_cutes_swizzle():
    from symcute.atoms import copy_atom, make_tiled_copy_A, make_tiled_mma
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    tc = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    plain = bank_conflicts(tc, "(32,64):(64,1)")
    sw = bank_conflicts(tc, "Sw<3,3,3> o 0 o (32,64):(64,1)")
    assert plain.instruction.name.startswith("ldmatrix") and plain.ways == 8
    assert sw.conflict_free and sw.wavefronts == plain.ideal_wavefronts


def test_register_only_atoms_are_refused():
    from symcute.atoms import copy_atom, make_tiled_copy
    tc = make_tiled_copy(copy_atom("SM75_U32x1_MOVM_T", "half_t"), Layout(32), Layout((1, 2)))
    with pytest.raises(LayoutError, match="does not access shared memory"):
        bank_conflicts(tc, "(32,2):(2,1)")


def test_f2_certificate_of_the_column_read_and_of_cutes_swizzle():
    r = shared_access("(32,1):(1,0)", "(32,32):(32,1)", 32)
    c = r.certificate
    assert c is not None and "F2 kernel certificate" in r.method
    assert (c.dim_ker_bank, c.dim_ker_word, c.wavefronts) == (5, 0, 32)
    assert c.images == tuple(128 << i for i in range(5))
    r = shared_access("(32,1):(1,0)", "Sw<3,0,5> o 0 o (32,32):(32,1)", 32)
    assert r.certificate.wavefronts == r.ways == 4
    # row stride 33 words: 132*j has no carries for j < 32, so it is F2-linear too (and conflict-free)
    r = shared_access("(32,1):(1,0)", "(32,32):(33,1)", 32)
    assert (r.certificate.dim_ker_bank, r.certificate.wavefronts) == (0, 1)
    # stride 3 words: carries, not F2-affine; the exact count stands alone
    r = shared_access("(32,1):(3,0)", "(32,32):(1,32)", 32)
    assert r.certificate is None and r.method == "exact per-lane count"


def test_global_sectors_per_request():
    from symcute.memory import global_access
    col = global_access("(32,1):(1,0)", "(32,32):(32,1)", 32)      # a column of a row-major float tile
    row = global_access("(32,1):(1,0)", "(32,32):(1,32)", 32)      # a row: 128 contiguous bytes
    vec = global_access("(32,4):(4,1)", "(128,32):(1,128)", 32)    # 16 bytes per lane, contiguous
    assert (col.sectors, col.ideal_sectors, col.coalesced) == (32, 4, False)
    assert (row.sectors, row.lines, row.coalesced) == (4, 1, True)
    assert (vec.access_bits, vec.requests, vec.sectors) == (128, 1, 16) and vec.coalesced


@pytest.mark.parametrize("mma, vt, bits", [("SM80_16x8x32_S32S8S8S32_TN", "int8_t", 8),
                                           ("SM80_16x8x8_F32TF32TF32F32_TN", "tfloat32_t", 32),
                                           ("SM80_16x8x64_S32S4S4S32_TN", "int4b_t", 4)])
def test_ldmatrix_reads_of_other_element_types(mma, vt, bits):
    from symcute.atoms import copy_atom, make_tiled_copy_A, make_tiled_mma
    tc = make_tiled_copy_A(copy_atom("SM75_U32x4_LDSM_N", vt), make_tiled_mma(mma, (2, 2, 1)))
    m, k = tc.tiler_mn
    r = bank_conflicts(tc, f"({m},{k}):({k},1)")      # rows of k * bits / 8 bytes, unswizzled
    assert r.value_bits == bits and r.instruction.lane_bytes == 16
    rows_per_128b = 128 // (k * bits // 8)            # rows sharing one 128-byte bank line
    assert r.ways == max(1, 8 // rows_per_128b)


def test_a_note_prints_its_text_and_carries_its_key():
    from symcute.atoms import copy_atom, make_tiled_copy_A, make_tiled_mma
    from symcute.core import parse_layout
    from symcute.memory import Note, NoteKey, bank_conflicts
    tc = make_tiled_copy_A(copy_atom("SM90_U32x4_STSM_N", "half_t"),
                           make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)))
    res = bank_conflicts(tc, parse_layout("Sw<3,3,3> o 0 o (32,64):(64,1)"))
    assert [n.key for n in res.notes] == [NoteKey.STORE_STREAM, NoteKey.STORE_CONCURRENT]
    assert all(isinstance(n, Note) and str(n) == n.text for n in res.notes)
    assert str(res.notes[0]).startswith("store stream: every second 512-byte")


def test_max_vector_refuses_layouts_with_a_symcute_error():
    # docs/errors.md promises no bare TypeError: a user passing layouts is pointed at shared_access
    import numpy as np
    from symcute.memory import max_vector
    tv = Layout((32, 8), (8, 1))
    with pytest.raises(LayoutError, match="shared_access"):
        max_vector(tv, "Sw<3,3,3> o 0 o (32,64):(64,1)", 16)
    bits = np.arange(32 * 8, dtype=np.int64).reshape(32, 8) * 16
    with pytest.raises(LayoutError, match="value_bits must be a positive integer"):
        max_vector(bits, "16")
    assert max_vector(bits, 16).values == shared_access(tv, Layout(256), 16).vector.values == 8


def test_memory_results_print_a_summary_not_their_arrays():
    # repr and the notebook display are a few lines of figures computed by the analysis itself
    from symcute.memory.synth import copy_side, synthesize_swizzle
    from symcute.notebook import display_data
    from symcute.recipes.bank import build_copy
    _, tc = build_copy("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), "A", "SM75_U32x4_LDSM_N", "half_t")
    base = Layout.parse("(32,64):(64,1)")
    r = bank_conflicts(tc, base)
    text = repr(r)
    assert "array" not in text and len(text) < 300
    assert f"{r.wavefronts} wavefronts, ideal {r.ideal_wavefronts}, {r.conflicts} conflicts" in text
    md = display_data(r)["text/markdown"]
    assert f"| wavefronts | {r.wavefronts} (ideal {r.ideal_wavefronts}; {r.conflicts} conflicts; worst bank " \
           f"{r.ways}-way) |" in md
    s = synthesize_swizzle(base, [copy_side(tc, base)])
    assert repr(s).startswith(f"SwizzleSynthesis(base {base}: best {s.best.swizzle} with {s.best.total} wavefronts")
    assert "| optimal | " + ", ".join(str(c.swizzle).replace("<", "&lt;") for c in s.optimal) + " |" in \
        display_data(s)["text/markdown"]
    assert r.wavefronts != r.ideal_wavefronts and s.best.total == sum(s.ideal)   # the seed's conflict and its fix


def test_cp_async_costs_of_every_instruction_at_once_are_the_models():
    """shared._cp_async_costs (numpy, all instructions together) against model.cp_async_cost (one instruction,
    lane by lane) on random addresses: aligned, strided, repeated words, unaligned copies, inactive lanes."""
    import random
    import numpy as np
    from symcute.memory import model as m
    from symcute.memory.shared import _cp_async_costs
    rng = random.Random(14)
    compared = 0
    for _ in range(400):
        nbytes = rng.choice((4, 8, 16))
        instr = m.cp_async(nbytes, "ca", nbytes * rng.choice((1, 2, 4, 8, 16)))
        warps, nk, mode = rng.randint(1, 2), rng.randint(1, 3), rng.randrange(4)
        lb = np.zeros((warps, nk, 32), dtype=np.int64)
        for w in range(warps):
            for k in range(nk):
                for lane in range(32):
                    a = (rng.randrange(4096 // nbytes) * nbytes if mode == 0 else
                         lane * nbytes * rng.choice((1, 2, 3, 8)) % 8192 if mode == 1 else
                         rng.randrange(64) * 4 if mode == 2 else rng.randrange(2048))
                    lb[w, k, lane] = -1 if rng.random() < 0.1 else a
        active = np.ones(32, dtype=bool)
        if rng.random() < 0.2:
            active[rng.randint(1, 31):] = False
        wave, ideal = _cp_async_costs(instr, lb, active)
        for w in range(warps):
            for k in range(nk):
                lanes = [None if lb[w, k, x] < 0 or not active[x] else int(lb[w, k, x]) for x in range(32)]
                assert m.cp_async_cost(instr, lanes) == (int(wave[w, k]), int(ideal[w, k]))
                compared += 1
    assert compared > 600
