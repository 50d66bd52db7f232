"""The hardware check of SM90 sparse GMMA (``wgmma.mma_async.sp``): CuTe's ELayout and CLayout on the tensor cores.

A sparse GMMA multiplies a 2:4 structured-sparse A (every group of 4
consecutive k of a row holds 2 non-zeros) stored compressed, ``(M, K/2)``, in
shared memory, with a dense B ``(N, K)`` in shared memory, into the C/D
registers.  Each thread also passes one 32-bit metadata register E; CuTe's
``ELayout`` claims which logical element ``(m, k)`` of A each metadata bit
describes: the nibble of group ``g`` of row ``m`` is ``idx0 | idx1 << 2`` (the
positions of the two non-zeros in the group), and its bit ``b`` belongs to
``k = 4*g + b``.  ``CLayout`` claims where each accumulator lives.

``emit(folder)`` writes one CUDA program (one kernel per case, CuTe's own
``SM90::GMMA::SPARSE::GMMA_*_SS::fma`` between ``warpgroup_arrive`` and
``warpgroup_wait``), its inputs and a run script; ``judge(results)`` rebuilds
every input from the seed, predicts D from the atom's ELayout and CLayout
(``D = A_dense * B^T + C``) and compares the hardware's D bit for bit.
Because the prediction uses only the seed and the layouts, recorded output can
judge other layouts later, without a GPU (``tests/hwcheck/test_sparse_recorded.py``).

What it confirms and what not: the metadata layout (ELayout) and the
accumulator layout (CLayout) exactly; A and B are read by descriptor, so
their TV layouts (``ABLayout``: every thread sees the whole tile) are not
register claims and are not tested beyond the compressed storage the PTX
defines.  RS forms (A in registers) and tf32 (1:2 sparsity) are not run here.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import SymcuteError
from .values import SplitMix64, pack, unpack, value_type

SEED = 20261201
TRIALS = 4
THREADS = 128

# (catalogued name, A type, B type, C type): SS forms of five type families, small and large N
CASES = [
    ("SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "half_t", "half_t", "half_t"),
    ("SM90::GMMA::SPARSE::GMMA_64x256x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "half_t", "half_t",
     "half_t"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "half_t", "half_t", "float"),
    ("SM90::GMMA::SPARSE::GMMA_64x128x32_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>", "bfloat16_t",
     "bfloat16_t", "float"),
    ("SM90::GMMA::SPARSE::GMMA_64x8x64_F32E4M3E4M3_SS_TN<>", "float_e4m3_t", "float_e4m3_t", "float"),
    ("SM90::GMMA::SPARSE::GMMA_64x256x64_F32E4M3E5M2_SS_TN<>", "float_e4m3_t", "float_e5m2_t", "float"),
    ("SM90::GMMA::SPARSE::GMMA_64x64x64_F16E5M2E4M3_SS_TN<>", "float_e5m2_t", "float_e4m3_t", "half_t"),
    ("SM90::GMMA::SPARSE::GMMA_64x8x64_S32S8S8_SS_TN<>", "int8_t", "int8_t", "int32_t"),
    ("SM90::GMMA::SPARSE::GMMA_64x256x64_S32U8S8_SS_TN<>", "uint8_t", "int8_t", "int32_t"),
    ("SM90::GMMA::SPARSE::GMMA_64x32x64_S32S8U8_SS_TN_SATURATE<>", "int8_t", "uint8_t", "int32_t"),
]

_CPP_TYPE = {"half_t": "cute::half_t", "bfloat16_t": "cute::bfloat16_t", "float_e4m3_t": "cute::float_e4m3_t",
             "float_e5m2_t": "cute::float_e5m2_t", "int8_t": "int8_t", "uint8_t": "uint8_t"}


@dataclass(frozen=True)
class Trial:
    """One trial's tiles: A dense (M,K) with its 2:4 pattern, A compressed (M,K/2), B (N,K), C (M,N)."""
    a_dense: list      # a_dense[m][k]
    a_comp: list       # a_comp[m][c]
    idx: list          # idx[m][g] = (idx0, idx1)
    b: list            # b[n][k]
    c: list            # c[m][n]


def _stream(case: str, trial: int, what: str) -> SplitMix64:
    h = hashlib.sha256(f"{SEED}|{case}|{trial}|{what}".encode()).digest()
    return SplitMix64(int.from_bytes(h[:8], "little"))


_PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def make_trial(case: str, shape: tuple, ta: str, tb: str, tc: str, trial: int) -> Trial:
    m_, n_, k_ = shape
    va, vb, vc = value_type(ta, "A"), value_type(tb, "B"), value_type(tc, "C")
    ra, rb, rc = _stream(case, trial, "A"), _stream(case, trial, "B"), _stream(case, trial, "C")
    a_dense = [[0] * k_ for _ in range(m_)]
    a_comp = [[0] * (k_ // 2) for _ in range(m_)]
    idx = [[None] * (k_ // 4) for _ in range(m_)]
    for m in range(m_):
        for g in range(k_ // 4):
            pair = _PAIRS[ra.between(0, 5)]
            idx[m][g] = pair
            for j, p in enumerate(pair):
                x = ra.between(va.lo, va.hi)
                a_comp[m][2 * g + j] = x
                a_dense[m][4 * g + p] = x
    b = [[rb.between(vb.lo, vb.hi) for _ in range(k_)] for _ in range(n_)]
    c = [[rc.between(vc.lo, vc.hi) for _ in range(n_)] for _ in range(m_)]
    return Trial(a_dense, a_comp, idx, b, c)


def metadata_registers(atom, trial: Trial, e_layout=None) -> list:
    """Each thread's 32-bit E register: bit v describes the element (m, k) = ELayout(t, v)."""
    lay = e_layout if e_layout is not None else atom.extra_layout("ELayout")
    m_ = atom.shape_mnk[0]
    nthr, nval = lay[0].size(), lay[1].size()
    if nval != 32:
        raise SymcuteError(f"{atom.name}: ELayout {lay} has {nval} values per thread, not the 32 bits of E")
    regs = []
    for t in range(nthr):
        r = 0
        for v in range(nval):
            q = lay((t, v))
            m, k = q % m_, q // m_
            i0, i1 = trial.idx[m][k // 4]
            nibble = i0 | (i1 << 2)
            r |= ((nibble >> (k % 4)) & 1) << v
        regs.append(r)
    return regs


def predicted_d(atom, trial: Trial, c_layout=None) -> list:
    """D per (thread, value) through CLayout: sum_k A_dense(m,k) B(n,k) + C(m,n)."""
    import numpy as np
    lay = c_layout if c_layout is not None else atom.c_layout
    m_, n_, k_ = atom.shape_mnk
    d = np.array(trial.a_dense, dtype=np.int64) @ np.array(trial.b, dtype=np.int64).T \
        + np.array(trial.c, dtype=np.int64)          # exact: small integers, int64
    q = _offsets(lay)
    return d[q % m_, q // m_].tolist()


@lru_cache(maxsize=64)
def _offsets(lay):
    """``lay((t, v))`` for every thread and value, as a (threads, values) integer array."""
    import numpy as np
    nthr, nval = lay[0].size(), lay[1].size()
    return np.array([[lay((t, v)) for v in range(nval)] for t in range(nthr)], dtype=np.int64)


def _c_registers(atom, trial: Trial, tc: str) -> bytes:
    vc = value_type(tc, "C")
    lay = atom.c_layout
    m_ = atom.shape_mnk[0]
    out = b""
    for t in range(lay[0].size()):
        vals = []
        for v in range(lay[1].size()):
            q = lay((t, v))
            vals.append(trial.c[q % m_][q // m_])
        out += pack(vals, vc)
    return out


def case_inputs(atom, ta, tb, tc, trial_idx: int) -> dict:
    """The bytes of one trial: A compressed column-major (m + M*c), B column-major (n + N*k), C and E registers."""
    m_, n_, k_ = atom.shape_mnk
    tr = make_trial(atom.name, atom.shape_mnk, ta, tb, tc, trial_idx)
    va, vb = value_type(ta, "A"), value_type(tb, "B")
    a = pack([tr.a_comp[j % m_][j // m_] for j in range(m_ * k_ // 2)], va)
    b = pack([tr.b[j % n_][j // n_] for j in range(n_ * k_)], vb)
    e = b"".join(r.to_bytes(4, "little") for r in metadata_registers(atom, tr))
    return {"a": a, "b": b, "c": _c_registers(atom, tr, tc), "e": e, "trial": tr}


KERNEL = r"""// Generated by symcute.hwcheck.sparse: CuTe's sparse GMMA wrappers on the tensor cores.
#include <cute/atom/mma_atom.hpp>
#include <cutlass/arch/barrier.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

template <class Op, class TA, class TB, int M, int N, int K>
__device__ __forceinline__ void hwcheck_sparse(const unsigned char* a, const unsigned char* b,
                                               const unsigned char* c, const unsigned char* e, unsigned char* d) {
  using namespace cute;
  __shared__ alignas(1024) TA sA_data[M * K / 2];
  __shared__ alignas(1024) TB sB_data[N * K];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto sA = make_tensor(make_smem_ptr(sA_data), tile_to_shape(GMMA::Layout_K_INTER_Atom<TA>{}, Shape<Int<M>, Int<K / 2>>{}));
  auto sB = make_tensor(make_smem_ptr(sB_data), tile_to_shape(GMMA::Layout_K_INTER_Atom<TB>{}, Shape<Int<N>, Int<K>>{}));
  const TA* gA = reinterpret_cast<const TA*>(a) + blockIdx.x * (M * K / 2);
  const TB* gB = reinterpret_cast<const TB*>(b) + blockIdx.x * (N * K);
  for (int j = threadIdx.x; j < M * K / 2; j += blockDim.x) sA(j % M, j / M) = gA[j];
  for (int j = threadIdx.x; j < N * K; j += blockDim.x) sB(j % N, j / N) = gB[j];
  cutlass::arch::fence_view_async_shared();
  __syncthreads();
  using RC = typename Op::CRegisters;
  uint64_t ra[1] = {GMMA::make_gmma_desc<GMMA::Major::K>(sA)};
  uint64_t rb[1] = {GMMA::make_gmma_desc<GMMA::Major::K>(sB)};
  uint32_t re[1];
  memcpy(re, e + i * 4, 4);
  RC rc;
  memcpy(&rc, c + i * sizeof(RC), sizeof(RC));
  GMMA::ScaleOut accumulate[1] = {GMMA::ScaleOut::One};
  for (int r = 0; r < cute::extent<RC>::value; ++r) warpgroup_fence_operand(rc[r]);
  warpgroup_arrive();
  cute::detail::explode(Op::fma,
                        ra, cute::make_int_sequence<1>{},
                        rb, cute::make_int_sequence<1>{},
                        rc, cute::make_int_sequence<cute::extent<RC>::value>{},
                        re, cute::make_int_sequence<1>{},
                        accumulate, cute::make_int_sequence<1>{});
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  for (int r = 0; r < cute::extent<RC>::value; ++r) warpgroup_fence_operand(rc[r]);
  memcpy(d + i * sizeof(RC), &rc, sizeof(RC));
}

typedef void (*kernel_t)(const unsigned char*, const unsigned char*, const unsigned char*, const unsigned char*,
                         unsigned char*);
#define SPARSE_CASE(IDX, OP, TA, TB, M, N, K, NC)                                                           \
  static_assert(sizeof(OP::CRegisters) == NC, "case " #IDX ": C registers are not " #NC " bytes");           \
  static_assert(sizeof(OP::ERegisters) == 4, "case " #IDX ": E registers are not one uint32_t");            \
  extern "C" __global__ void __launch_bounds__(128, 1) sparse_case_##IDX(                                   \
      const unsigned char* a, const unsigned char* b, const unsigned char* c, const unsigned char* e,       \
      unsigned char* d) {                                                                                  \
    hwcheck_sparse<OP, TA, TB, M, N, K>(a, b, c, e, d);                                                     \
  }
"""

MAIN = r"""
struct SparseCase { kernel_t kernel; size_t na, nb, nc; };

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s inputs.bin\n", argv[0]); return 2; }
  FILE* f = fopen(argv[1], "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
  std::vector<unsigned char> in;
  int ch;
  while ((ch = fgetc(f)) != EOF) in.push_back((unsigned char)ch);
  fclose(f);
  cudaDeviceProp prop;
  int dev = 0, drv = 0, rt = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    printf("{\"kind\":\"env\",\"error\":\"no device\"}\n");
    return 2;
  }
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  printf("{\"kind\":\"env\",\"manifest\":\"%s\",\"device\":\"%s\",\"cc\":\"%d.%d\",\"driver_cuda\":%d,"
         "\"runtime_cuda\":%d,\"nvcc\":\"%d.%d.%d\"}\n", SPARSE_MANIFEST, prop.name, prop.major, prop.minor, drv, rt,
         __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__);
  size_t off = 0;
  for (int i = 0; i < SPARSE_NCASES; ++i) {
    const SparseCase& k = cases[i];
    size_t sa = SPARSE_TRIALS * k.na, sb = SPARSE_TRIALS * k.nb, sc = SPARSE_TRIALS * k.nc;
    size_t se = SPARSE_TRIALS * 128 * 4;
    unsigned char *da, *db, *dc, *de, *dd;
    cudaError_t e = cudaMalloc(&da, sa);
    if (e == cudaSuccess) e = cudaMalloc(&db, sb);
    if (e == cudaSuccess) e = cudaMalloc(&dc, sc);
    if (e == cudaSuccess) e = cudaMalloc(&de, se);
    if (e == cudaSuccess) e = cudaMalloc(&dd, sc);
    if (e == cudaSuccess) e = cudaMemcpy(da, in.data() + off, sa, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(db, in.data() + off + sa, sb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(dc, in.data() + off + sa + sb, sc, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemcpy(de, in.data() + off + sa + sb + sc, se, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMemset(dd, 0x5A, sc);
    if (e == cudaSuccess) { k.kernel<<<SPARSE_TRIALS, 128>>>(da, db, dc, de, dd); e = cudaGetLastError(); }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    std::vector<unsigned char> out(sc);
    if (e == cudaSuccess) e = cudaMemcpy(out.data(), dd, sc, cudaMemcpyDeviceToHost);
    off += sa + sb + sc + se;
    if (e != cudaSuccess) {
      printf("{\"kind\":\"case\",\"index\":%d,\"status\":\"error\",\"error\":\"%s\"}\n", i, cudaGetErrorString(e));
      return 3;
    }
    std::string hexd(2 * sc, '0');
    static const char* digits = "0123456789abcdef";
    for (size_t j = 0; j < sc; ++j) { hexd[2 * j] = digits[out[j] >> 4]; hexd[2 * j + 1] = digits[out[j] & 15]; }
    printf("{\"kind\":\"case\",\"index\":%d,\"status\":\"ok\",\"d\":\"%s\"}\n", i, hexd.c_str());
    cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(de); cudaFree(dd);
  }
  return 0;
}
"""

RUN = """#!/usr/bin/env bash
# Generated by symcute.hwcheck.sparse: build (unless sparse_prog runs) and run the sparse GMMA check on an sm_90a GPU.
set -u
cd "$(dirname "$0")"
INC="${CUTLASS_INCLUDE:-include}"
if ! [ -x ./sparse_prog ] && [ -f sparse_prog.gz ]; then gunzip -k sparse_prog.gz && chmod +x sparse_prog; fi
if ! [ -f inputs.bin ]; then   # the inputs are a function of the seed: rebuild them with symcute
  PYTHONPATH="${SYMCUTE_ROOT:-../..}" python3 -c "from symcute.hwcheck import sparse; open('inputs.bin', 'wb').write(sparse.inputs())" || exit 2
fi
if ! [ -x ./sparse_prog ]; then
  nvcc -std=c++17 -O1 -w -gencode=arch=compute_90a,code=sm_90a -I"$INC" sparse.cu -o sparse_prog || exit 2
fi
./sparse_prog inputs.bin > results.jsonl
rc=$?
if command -v cuobjdump >/dev/null 2>&1; then
  cuobjdump --dump-sass sparse_prog | grep -E "Function :|GMMA" > sass_mma.txt
fi
exit $rc
"""


def _cases():
    from ..atoms import mma_atom
    return [(mma_atom(name), ta, tb, tc) for name, ta, tb, tc in CASES]


def manifest() -> dict:
    text = json.dumps({"seed": SEED, "trials": TRIALS, "cases": CASES}, sort_keys=True)
    return {"seed": SEED, "trials": TRIALS, "cases": [list(c) for c in CASES],
            "id": hashlib.sha256(text.encode()).hexdigest()[:16]}


@lru_cache(maxsize=1)   # a pure function of SEED, TRIALS, CASES and the catalog: about 3 s of CPU, once
def program() -> str:
    man = manifest()
    parts = [KERNEL]
    rows = []
    for i, (atom, ta, tb, tc) in enumerate(_cases()):
        m, n, k = atom.shape_mnk
        op = atom.name
        nc = (atom.c_layout[1].size() * value_type(tc, "C").bits) // 8
        parts.append(f"using Op{i} = cute::{op.replace('GMMA::Major', 'cute::GMMA::Major')};\n"
                     f"SPARSE_CASE({i}, Op{i}, {_CPP_TYPE[ta]}, {_CPP_TYPE[tb]}, {m}, {n}, {k}, {nc})\n")
        na = m * k // 2 * value_type(ta, "A").bits // 8
        nb = n * k * value_type(tb, "B").bits // 8
        rows.append(f"  {{sparse_case_{i}, {na}, {nb}, {nc * THREADS}}},")
    parts.append(f'#define SPARSE_MANIFEST "{man["id"]}"\n#define SPARSE_NCASES {len(rows)}\n'
                 f"#define SPARSE_TRIALS {TRIALS}\nstatic const struct {{ kernel_t kernel; size_t na, nb, nc; }} "
                 f"cases_raw[] = {{\n" + "\n".join(rows) + "\n};\n")
    return "".join(parts) + MAIN.replace("const SparseCase& k = cases[i];",
                                         "const auto& k = cases_raw[i];").replace(
        "struct SparseCase { kernel_t kernel; size_t na, nb, nc; };\n", "")


@lru_cache(maxsize=1)   # as program(): the same bytes every call
def inputs() -> bytes:
    out = b""
    for atom, ta, tb, tc in _cases():
        per = [case_inputs(atom, ta, tb, tc, t) for t in range(TRIALS)]
        for key in ("a", "b", "c", "e"):
            out += b"".join(p[key] for p in per)
    return out


def emit(folder) -> list:
    """Write the sparse probe (program, run.sh, manifest, inputs) as ``folder``, in one directory swap
    (``symcute.files.write_tree``: never through a link, concurrent emits never mix)."""
    from .. import files
    target = Path(folder)
    if not target.is_symlink() and (target.exists() and not target.is_dir()):
        # refused before the probe is generated (seconds of CPU): a FIFO or a file is never a folder
        files.refuse_special_target(target)
        raise SymcuteError(f"cannot write into {target}: it is not a directory")
    entries = {"sparse.cu": (program(), files.FILE_MODE), "run.sh": (RUN, files.SCRIPT_MODE),
               "manifest.json": (json.dumps(manifest(), indent=1) + "\n", files.FILE_MODE),
               "inputs.bin": (inputs(), files.FILE_MODE)}
    out = files.write_tree(folder, entries)
    return sorted(str(out / n) for n in entries)


@dataclass(frozen=True)
class SparseVerdict:
    name: str
    verdict: str          # agree / disagree / error
    mismatches: int       # (t, v) of D differing in some trial
    total: int            # size(CLayout)
    example: str = ""


def judge(results_lines, layouts: dict | None = None, only=None) -> list[SparseVerdict]:
    """Compare recorded D with the prediction of the catalog (or of ``layouts``: name -> {"E": L, "C": L}).

    ``only``: judge just these case names (the others are left out of the result).
    """
    recs = {}
    for line in results_lines:
        line = line.strip()
        if not line:
            continue
        rec = json.loads(line)
        if rec.get("kind") == "case":
            recs[rec["index"]] = rec
    out = []
    for i, (atom, ta, tb, tc) in enumerate(_cases()):
        if only is not None and atom.name not in only:
            continue
        rec = recs.get(i)
        if rec is None or rec.get("status") != "ok":
            out.append(SparseVerdict(atom.name, "error", 0, atom.c_layout.size(),
                                     (rec or {}).get("error", "no result")))
            continue
        over = (layouts or {}).get(atom.name, {})
        vc = value_type(tc, "C")
        nthr, nval = atom.c_layout[0].size(), atom.c_layout[1].size()
        raw = bytes.fromhex(rec["d"])
        per_trial = nthr * nval * vc.bits // 8
        if len(raw) != TRIALS * per_trial:
            out.append(SparseVerdict(atom.name, "error", 0, nthr * nval, f"{len(raw)} bytes of D, expected "
                                                                   f"{TRIALS * per_trial}"))
            continue
        bad, example = set(), ""
        for t in range(TRIALS):
            tr = make_trial(atom.name, atom.shape_mnk, ta, tb, tc, t)
            if "E" in over:   # what the layout under test would have loaded: the hardware saw the catalog's E
                tr = _reinterpret(atom, tr, over["E"])
            pred = predicted_d(atom, tr, over.get("C"))
            chunk = raw[t * per_trial:(t + 1) * per_trial]
            for th in range(nthr):
                got = unpack(chunk[th * nval * vc.bits // 8:(th + 1) * nval * vc.bits // 8], vc, nval)
                for v in range(nval):
                    if float(got[v]) != float(pred[th][v]):
                        if not bad:
                            example = f"trial {t} thread {th} value {v}: predicted {pred[th][v]}, measured {got[v]}"
                        bad.add((th, v))
        out.append(SparseVerdict(atom.name, "agree" if not bad else "disagree", len(bad), nthr * nval, example))
    return out


def _reinterpret(atom, trial: Trial, e_layout) -> Trial:
    """The A a different ELayout claims the hardware saw: the E registers that ran, read back through it."""
    regs = metadata_registers(atom, trial)            # what the program loaded (the catalog's ELayout)
    m_, _, k_ = atom.shape_mnk
    nib = [[0] * (k_ // 4) for _ in range(m_)]
    for t in range(e_layout[0].size()):
        for v in range(e_layout[1].size()):
            q = e_layout((t, v))
            m, k = q % m_, q // m_
            nib[m][k // 4] |= ((regs[t] >> v) & 1) << (k % 4)
    a_dense = [[0] * k_ for _ in range(m_)]
    for m in range(m_):
        for g in range(k_ // 4):
            i0, i1 = nib[m][g] & 3, nib[m][g] >> 2
            a_dense[m][4 * g + i0] += trial.a_comp[m][2 * g]
            a_dense[m][4 * g + i1] += trial.a_comp[m][2 * g + 1]
    return Trial(a_dense, trial.a_comp, trial.idx, trial.b, trial.c)
