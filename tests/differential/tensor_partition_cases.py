"""Cases for the tensor-partition differential suite: partitions of smem/gmem Tensors by TiledMMAs and TiledCopies.

Each case builds, in real CuTe and in symcute, a tensor over a pointer of one memory space
(``make_smem_ptr((T*)nullptr)``, ``make_gmem_ptr``) with a swizzled layout (``Sw o _0 o L`` from
``composition(Swizzle, L)``), a GMMA smem atom tiled to ``(M, K, PIPE)`` (the swizzle moves into the
pointer) or a plain layout, the stage as the last mode, and prints the results of
``partition_A/B/C``, ``partition_fragment_A/B/C``, ``partition_S/D``, ``retile_D``, ``local_tile`` and
``local_partition`` with ``print(tensor)`` (iterator and layout), separated by ``|``.  Register
fragments print their layout only (their iterator is a stack address in CuTe).  GMMA descriptor
fragments print ``GMMA::DescriptorIterator o layout`` and the descriptor's fields but its start address
(CuTe computes it with a device-only cast, which on the host prints an error line and gives 0).
"""

from __future__ import annotations

import symcute as sc
from symcute.core import Layout, _
from symcute.core.integer import dynamic
from symcute.core.pointer import make_gmem_ptr, make_smem_ptr
from symcute.core.tensor import local_partition, local_tile, make_tensor
from symcute.oracle import cpp_value

from .atoms_cases import Case
from .atoms_cpp import layout_type, sep_prints, tiled_mma_expr


def _shape_cpp(shape) -> str:
    return "make_shape(" + ", ".join(f"Int<{s}>{{}}" for s in shape) + ")"


def smem_tensor(spec, vtype: str):
    """(symcute Tensor, C++ expression) of an smem tensor of ``spec``.

    ``spec``: ("swizzled", "Sw<..> o 0 o atom", shape): ``tile_to_shape(composition(Sw, atom), shape)``;
    ("gmma", "GMMA::Layout_K_SW128_Atom", shape): ``tile_to_shape(GMMA atom<T>, shape)``;
    ("plain", "layout"): the layout itself.
    """
    kind = spec[0]
    if kind == "plain":
        lay = sc.parse_layout(spec[1])
        cpp = cpp_value(spec[1])
    elif kind == "swizzled":
        atom, shape = spec[1], spec[2]
        lay = sc.tile_to_shape(sc.parse_layout(atom), shape)
        cpp = f"tile_to_shape({cpp_value(atom)}, {_shape_cpp(shape)})"
    else:
        name, shape = spec[1], spec[2]
        lay = sc.tile_to_shape(sc.smem_layout_atom(name, vtype), shape)
        ns, atom = name.split("::")
        cpp = f"tile_to_shape({'SM90::GMMA' if ns == 'GMMA' else ns}::{atom}<{vtype}>{{}}, {_shape_cpp(shape)})"
    return make_tensor(make_smem_ptr(vtype), lay), f"make_tensor(make_smem_ptr(({vtype}*)nullptr), {cpp})"


def gmem_tensor(shape, vtype: str, offset: int = 0):
    lay = Layout(shape)
    cpp = f"make_tensor(make_gmem_ptr(({vtype}*)nullptr + {offset}), {layout_type(lay)}{{}})"
    return make_tensor(make_gmem_ptr(vtype, offset), lay), cpp


def _thr(i: int, dyn: bool):
    """(symcute thread index, C++ argument of get_slice): a run-time ``int`` or a static ``Int<i>``."""
    return (dynamic(i), f"int({i})") if dyn else (i, f"Int<{i}>{{}}")


def _text(*values) -> str:
    return "|".join(str(v) for v in values)


def _desc_fields(frg) -> str:
    f = dict(frg.data().fields)
    types = {"INTERLEAVE": 0, "B128": 1, "B64": 2, "B32": 3}
    return f"{f['leading_byte_offset']},{f['stride_byte_offset']},{types[f['layout_type']]}"


# the start address is not compared: on the host CuTe's cast_smem_ptr_to_uint prints HOST_SMEM_CAST and gives 0
HOST_SMEM_CAST = "ERROR: cast_smem_ptr_to_uint not supported but used.\n"
DESC_FIELDS = ('print(int(F.data().desc_.bitfield.leading_byte_offset_)); print(","); '
               'print(int(F.data().desc_.bitfield.stride_byte_offset_)); print(","); '
               'print(int(F.data().desc_.bitfield.layout_type_));')


def mma_case(op: str, name: str, atom_layout, perms, vtype: str, spec, thr_idx: int, tag: str, c_type: str,
             desc: bool = False, dyn: bool = False, umma: bool = False) -> Case:
    """partition_X / partition_fragment_X of an smem tensor of operand ``op`` (A or B), partition_C and
    partition_fragment_C of a gmem C tensor, for thread ``thr_idx`` (static, or run-time with ``dyn``)."""
    t, t_cpp = smem_tensor(spec, vtype)
    idx, idx_cpp = _thr(thr_idx, dyn)
    expr = tiled_mma_expr(name, atom_layout, perms)

    def compute():
        m = sc.make_tiled_mma(name, atom_layout, perms)
        tm, tn = m.tile_size(0), m.tile_size(1)
        c, _cc = gmem_tensor((tm, tn), c_type)
        s = m.get_slice(idx)
        part = getattr(s, f"partition_{op}")(t)
        frg = getattr(s, f"partition_fragment_{op}")(t)
        out = [t, part, frg if desc else frg.layout()]
        if desc and not umma:
            out.append(_desc_fields(frg))
        out += [s.partition_C(c), s.partition_fragment_C(c) if umma else s.partition_fragment_C(c).layout()]
        return _text(*out)

    m0 = sc.make_tiled_mma(name, atom_layout, perms)
    c_cpp = gmem_tensor((m0.tile_size(0), m0.tile_size(1)), c_type)[1]
    frg_print = "print(F);" if desc else "print(F.layout());"
    body = (f"auto mma = {expr}; auto t = {t_cpp}; auto c = {c_cpp}; auto s = mma.get_slice({idx_cpp}); "
            f"auto P = s.partition_{op}(t); auto F = s.partition_fragment_{op}(t); "
            f"print(t); print(\"|\"); print(P); print(\"|\"); {frg_print} "
            + (f'print("|"); {DESC_FIELDS} ' if desc and not umma else "")
            + 'print("|"); print(s.partition_C(c)); print("|"); '
            + ('print(s.partition_fragment_C(c));' if umma else 'print(s.partition_fragment_C(c).layout());'))
    return Case(f"mma_{op}#{tag}#{name}#{atom_layout}#{spec}#{thr_idx}#{'dyn' if dyn else 'static'}",
                f"mma_partition_{op}",
                f"make_tiled_mma({name!r}, {atom_layout}, {perms}).get_slice({thr_idx}).partition_{op}({t})",
                body, compute)


def copy_case(copy_name: str, vtype: str, mma, spec, thr_idx: int, tag: str, dyn: bool = False) -> Case:
    """make_tiled_copy_A(Copy_Atom<copy, T>, mma): partition_S of an smem tensor, retile_D of the MMA's
    A fragment of that tensor."""
    name, atom_layout, perms = mma
    t, t_cpp = smem_tensor(spec, vtype)
    idx, idx_cpp = _thr(thr_idx, dyn)

    def compute():
        m = sc.make_tiled_mma(name, atom_layout, perms)
        tc = sc.make_tiled_copy_A(sc.copy_atom(copy_name, vtype), m)
        s = tc.get_slice(idx)
        frg = m.get_slice(idx).partition_fragment_A(t)
        return _text(s.partition_S(t), s.retile_D(frg).layout(), tc.retile(s.partition_S(t)).layout())

    body = (f"auto mma = {tiled_mma_expr(name, atom_layout, perms)}; "
            f"auto tc = make_tiled_copy_A(Copy_Atom<{copy_name},{vtype}>{{}}, mma); auto t = {t_cpp}; "
            f"auto s = tc.get_slice({idx_cpp}); "
            f"auto F = mma.get_slice({idx_cpp}).partition_fragment_A(t); "
            + sep_prints("s.partition_S(t)", "s.retile_D(F).layout()", "tc.retile(s.partition_S(t)).layout()"))
    return Case(f"copy#{tag}#{copy_name}#{name}#{spec}#{thr_idx}#{'dyn' if dyn else 'static'}", "copy_partition",
                f"make_tiled_copy_A(copy_atom({copy_name!r}, {vtype!r}), mma).get_slice({thr_idx}).partition_S({t})",
                body, compute)


def g2s_case(copy_name: str, vtype: str, thr: Layout, val: Layout, spec, gshape, thr_idx: int, tag: str,
             dyn: bool = False) -> Case:
    """A G2S tiled copy: partition_S of a gmem tile, partition_D of a (swizzled) smem tile with stages."""
    t, t_cpp = smem_tensor(spec, vtype)
    idx, idx_cpp = _thr(thr_idx, dyn)
    g, g_cpp = gmem_tensor(gshape, vtype, 64)

    def compute():
        tc = sc.make_tiled_copy(sc.copy_atom(copy_name, vtype), thr, val)
        s = tc.get_slice(idx)
        return _text(s.partition_S(g), s.partition_D(t))

    body = (f"auto tc = make_tiled_copy(Copy_Atom<{copy_name},{vtype}>{{}}, {layout_type(thr)}{{}}, "
            f"{layout_type(val)}{{}}); auto t = {t_cpp}; auto g = {g_cpp}; auto s = tc.get_slice({idx_cpp}); "
            + sep_prints("s.partition_S(g)", "s.partition_D(t)"))
    return Case(f"g2s#{tag}#{copy_name}#{spec}#{thr_idx}#{'dyn' if dyn else 'static'}", "g2s_partition",
                f"make_tiled_copy(copy_atom({copy_name!r}, {vtype!r}), {thr}, {val}).get_slice({thr_idx})"
                f".partition_D({t})", body, compute)


def tile_case(spec, vtype: str, tiler, coord, thr: Layout, idx: int, tag: str, dyn: bool = False,
              counting: int | None = None) -> Case:
    """local_tile of an smem tensor (stage kept as _), and local_partition of the tile by a thread layout;
    ``dyn``: run-time coordinates and index (blockIdx, threadIdx); ``counting``: the layout over
    ``counting_iterator<int>(counting)`` instead of an smem pointer."""
    t, t_cpp = smem_tensor(spec, vtype)
    if counting is not None:   # a swizzled spec: the tensor's layout is the composed layout itself
        t = make_tensor(t.layout(), counting)
        t_cpp = t_cpp.replace(f"make_smem_ptr(({vtype}*)nullptr)", f"counting_iterator<int>({counting})")
    tiler_cpp = "make_tile(" + ", ".join(f"Int<{x}>{{}}" for x in tiler) + ")"
    coord_cpp = "make_coord(" + ", ".join("_" if c is _ else (f"int({c})" if dyn else f"Int<{c}>{{}}")
                                          for c in coord) + ")"
    py_coord = tuple(c if c is _ or not dyn else dynamic(c) for c in coord)
    py_idx, idx_cpp = _thr(idx, dyn)

    def compute():
        tile = local_tile(t, tiler, py_coord)
        return _text(tile, local_partition(tile, thr, py_idx))

    body = (f"auto t = {t_cpp}; auto tile = local_tile(t, {tiler_cpp}, {coord_cpp}); "
            + sep_prints("tile", f"local_partition(tile, {layout_type(thr)}{{}}, {idx_cpp})"))
    return Case(f"tile#{tag}#{spec}#{tiler}#{coord}#{idx}#{'dyn' if dyn else 'static'}#{counting}",
                "local_tile_partition", f"local_tile({t}, {tiler}, {coord})", body, compute)


SM80 = ("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), None)
SM80_PERM = ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, 32, 16))

SM80_SMEM_A = [  # (M, K, PIPE) = (64, 64, 3) and friends, stages last
    ("swizzled", "Sw<3,3,3> o 0 o (8,64):(64,1)", (64, 64, 3)),
    ("swizzled", "Sw<2,3,3> o 0 o (8,32):(32,1)", (64, 32, 2)),
    ("swizzled", "Sw<3,3,3> o 0 o (64,8):(1,64)", (64, 64, 3)),
    ("gmma", "GMMA::Layout_K_SW128_Atom", (64, 64, 3)),
    ("gmma", "GMMA::Layout_K_SW64_Atom", (32, 32, 2)),
    ("plain", "(64,32,3):(32,1,2048)"),
]


def cases(wide: bool = False) -> list[Case]:
    """The CI sample; ``wide`` (``SYMCUTE_LARGE=1``) adds every 8th thread of each SM80 configuration."""
    out: list[Case] = []
    mma_thr = tuple(range(0, 128, 8)) + (37, 101) if wide else (0, 37, 101)
    copy_thr = tuple(range(1, 128, 8)) + (70,) if wide else (0, 9, 70)
    g2s_thr = tuple(range(3, 128, 8)) + (127,) if wide else (0, 13, 127)
    for i, spec in enumerate(SM80_SMEM_A):
        for thr in mma_thr:
            out.append(mma_case("A", *SM80, "half_t", spec, thr, "sm80", "half_t"))
        out.append(mma_case("B", *SM80, "half_t", spec, 66, "sm80", "half_t"))
        out.append(mma_case("A", *SM80_PERM, "half_t", spec, 5 + i, "sm80perm", "float"))
        for thr in copy_thr:
            out.append(copy_case("SM75_U32x4_LDSM_N", "half_t", SM80, spec, thr, "ldsm"))
        out.append(copy_case("SM75_U32x2_LDSM_N", "half_t", SM80_PERM, spec, 33, "ldsm2"))
        # a run-time thread index (threadIdx.x): the swizzle decays to run-time per-bit strides
        out.append(mma_case("A", *SM80, "half_t", spec, 37, "sm80", "half_t", dyn=True))
        out.append(copy_case("SM75_U32x4_LDSM_N", "half_t", SM80, spec, 9, "ldsm", dyn=True))
    g2s = (Layout((16, 8), (8, 1)), Layout((1, 8)))
    for spec in [("swizzled", "Sw<3,3,3> o 0 o (8,64):(64,1)", (128, 64, 3)),
                 ("gmma", "GMMA::Layout_K_SW128_Atom", (128, 64, 3)), ("plain", "(128,64,3):(64,1,8192)")]:
        for thr in g2s_thr:
            out.append(g2s_case("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t", *g2s, spec, (128, 64), thr, "cpasync"))
        out.append(g2s_case("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t", *g2s, spec, (128, 64), 13, "cpasync",
                            dyn=True))
    for spec, tiler, coord in [(("swizzled", "Sw<3,3,3> o 0 o (8,64):(64,1)", (128, 64, 3)), (32, 64), (1, 0, _)),
                               (("gmma", "GMMA::Layout_K_SW128_Atom", (128, 64, 3)), (64, 32), (1, 1, _)),
                               (("gmma", "GMMA::Layout_MN_SW128_Atom", (128, 64, 3)), (64, 64), (1, 0, _))]:
        for idx in (0, 7):
            out.append(tile_case(spec, "half_t", tiler, coord, Layout((8, 4), (4, 1)), idx, "tile"))
        out.append(tile_case(spec, "half_t", tiler, coord, Layout((8, 4), (4, 1)), 7, "tile", dyn=True))
        if spec[0] == "swizzled":   # the composed layout over a counting iterator (no pointer)
            for dyn in (False, True):
                out.append(tile_case(spec, "half_t", tiler, coord, Layout((8, 4), (4, 1)), 5, "tile", dyn, 100))
    # SM90 GMMA: SS atoms read A and B through smem descriptors
    k_atoms = ["GMMA::Layout_K_SW128_Atom", "GMMA::Layout_K_SW64_Atom", "GMMA::Layout_K_SW32_Atom",
               "GMMA::Layout_K_INTER_Atom"]
    mn_atoms = ["GMMA::Layout_MN_SW128_Atom", "GMMA::Layout_MN_SW64_Atom", "GMMA::Layout_MN_INTER_Atom"]
    kk = "SM90_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    mnmn = "SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>"
    for atom in k_atoms:
        for lay, shape, thr in [((1, 1, 1), (64, 64, 3), 0), ((2, 1, 1), (128, 64, 4), 200)]:
            out.append(mma_case("A", kk, lay, None, "half_t", ("gmma", atom, shape), thr, "sm90", "half_t", True))
        out.append(mma_case("B", kk, (1, 1, 1), None, "half_t", ("gmma", atom, (64, 64, 2)), 77, "sm90", "half_t",
                            True))
        out.append(mma_case("A", kk, (2, 1, 1), None, "half_t", ("gmma", atom, (128, 64, 4)), 200, "sm90", "half_t",
                            True, dyn=True))
    for atom in mn_atoms:
        out.append(mma_case("A", mnmn, (2, 1, 1), None, "half_t", ("gmma", atom, (128, 64, 3)), 129, "sm90mn",
                            "float", True))
        out.append(mma_case("B", mnmn, (1, 1, 1), None, "half_t", ("gmma", atom, (64, 64, 3)), 3, "sm90mn", "float",
                            True))
    # SM100 UMMA SS: descriptor fragments of UMMA smem atoms, the accumulator in tensor memory (1 thread)
    for mk, atoms_ in (("K", ["UMMA::Layout_K_SW128_Atom", "UMMA::Layout_K_SW32_Atom"]),
                       ("MN", ["UMMA::Layout_MN_SW128_Atom"])):
        u = f"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,128,UMMA::Major::{mk},UMMA::Major::{mk}>"
        for atom in atoms_:
            for op in "AB":
                out.append(mma_case(op, u, (1, 1, 1), None, "half_t", ("gmma", atom, (128, 64, 3)), 0, "sm100",
                                    "float", True, umma=True))
    # refused by both: a descriptor of a composed (Sw o _0 o L) smem tensor; a gmem tensor; a non-canonical one
    out.append(mma_case("A", kk, (1, 1, 1), None, "half_t", ("swizzled", "Sw<3,4,3> o 0 o (8,64):(64,1)", (64, 64, 3)),
                        0, "sm90bad", "half_t", True))
    out.append(mma_case("A", kk, (1, 1, 1), None, "half_t", ("plain", "(64,64,3):(1,64,4096)"), 0, "sm90bad",
                        "half_t", True))
    out.append(mma_case("A", kk, (1, 1, 1), None, "half_t", ("plain", "(64,64,3):(64,1,4096)"), 0, "sm90plain",
                        "half_t", True))
    return out
