"""The rule catalog: what each recorded step does, where CuTe does it, and what it guarantees.

Every traced operation has a rule id (its CuTe name).  A report cites the rule
next to the step: the statement in words, the CuTe source location (file and
function in CUTLASS 4.2's headers, ``include/cute/...``), and the identity the
step guarantees (checked by the prover where the report shows a check).
"""

from __future__ import annotations

from dataclasses import dataclass

CUTLASS_VERSION = "4.2.0"


@dataclass(frozen=True)
class Rule:
    id: str
    statement: str
    source: str           # file under include/ in CUTLASS
    function: str         # the C++ function or member
    guarantees: str       # the identity the step guarantees
    statement_zh: str = ""
    origin: str = "cute"  # "cute": CuTe's headers; "symcute": a step symcute adds (a proof, a formula, a table)

    def citation(self) -> str:
        if self.origin == "symcute":
            return f"{self.source}, {self.function} (symcute)"
        return f"{self.source}, {self.function} (CUTLASS {CUTLASS_VERSION})"

    def statement_in(self, lang: str) -> str:
        """The statement in ``lang`` ("en" or "zh"; English when there is no translation)."""
        return self.statement_zh if lang == "zh" and self.statement_zh else self.statement


_L = "cute/layout.hpp"
_MMA = "cute/atom/mma_atom.hpp"
_COPY = "cute/atom/copy_atom.hpp"

RULES: dict[str, Rule] = {r.id: r for r in [
    Rule("coalesce", "Merge modes that are contiguous in the codomain, walking from the last mode back "
         "(bw_coalesce); size-1 modes are dropped.", _L, "coalesce / detail::bw_coalesce",
         "result(i) == layout(i) for all i < size(layout); depth(result) <= 1",
         "从最后一个 mode 向前合并在余域中连续的 mode，去掉大小为 1 的 mode。"),
    Rule("filter", "Remove stride-0 and size-1 modes: coalesce(filter_zeros(layout)).", _L, "filter",
         "image(result) == image(layout)", "去掉 stride 为 0 和大小为 1 的 mode。"),
    Rule("composition", "Divide the right-hand stride through the left-hand modes (coalesced), checking the "
         "Stride and Shape Divisibility Conditions, one right-hand mode at a time.", _L,
         "composition / detail::composition_impl",
         "compatible(rhs, result); result(c) == lhs(rhs(c)) when the strong divisibility condition holds",
         "把右侧的 stride 依次除过左侧（合并后）的各个 mode，并检查 stride 与 shape 的整除条件。"),
    Rule("complement", "Sort the filtered modes by stride; each gap min_stride / covered becomes a mode; "
         "the rest up to the cotarget is appended.", _L, "complement / detail::complement",
         "result is ordered and its image is disjoint from layout's (except 0); cosize covers the cotarget",
         "按 stride 排序，每个空隙成为一个新 mode，再补到 cotarget。"),
    Rule("right_inverse", "Coalesce; weight each mode by the exclusive prefix product of the shape (its "
         "weight in the flattened input index); take modes in stride order while each stride equals the "
         "extent covered so far (modes that break the chain, stride-0 modes among them, are skipped).",
         _L, "right_inverse", "layout(result(i)) == i for all i < size(result)",
         "先合并；以 shape 的前缀积作为每个 mode 在展平输入编号中的权重；按 stride 排序，只要 stride 等于"
         "已覆盖的范围就接上这个 mode（无法延长连续覆盖的 mode，包括 stride 为 0 的 mode，被跳过）。"),
    Rule("left_inverse", "Coalesce; weight modes by prefix products; in stride order, every non-zero stride "
         "divided by the size gathered so far becomes a mode.", _L, "left_inverse",
         "result(layout(i)) == i for all i < size(layout) when layout is injective",
         "先合并；按 stride 排序，每个非零 stride 除以已收集的大小成为一个 mode。"),
    Rule("with_shape", "Reorganise the input of a layout: composition(layout, make_layout(shape)).", _L,
         "Layout::with_shape", "result(c) == layout(crd2idx(c, shape)) (a column-major index)",
         "重新组织输入：composition(layout, make_layout(shape))。"),
    Rule("upcast", "Count the codomain in units of N: per mode, shape' = ceil_div(shape, ceil_div(N, |stride|)), "
         "stride' = sign(stride) * ceil_div(|stride|, N); stride-0 modes stay.", _L, "upcast<N>",
         "the N-aligned groups of the image are enumerated once",
         "以 N 为单位计算余域：每个 mode 的 shape' = ceil_div(shape, ceil_div(N, |stride|))，"
         "stride' = ceil_div(|stride|, N)。"),
    Rule("downcast", "Split each codomain unit into N: stride-1 modes grow N times, other strides scale by N.",
         _L, "downcast<N>", "result(i) == N * layout(i / N) + i % N on the stride-1 mode",
         "把余域每个单位拆成 N 份。"),
    Rule("recast_layout", "upcast / downcast by the ratio of the value types' bit widths.", _L,
         "recast_layout<Old, New>", "the same bytes, counted in the new type", "按位宽比例 upcast/downcast。"),
    Rule("logical_divide", "composition(layout, make_layout(tiler, complement(tiler, shape(coalesce(layout))))).",
         _L, "logical_divide", "mode 0 walks one tile, mode 1 walks the tiles", "按 tiler 分块。"),
    Rule("zipped_divide", "logical_divide, then gather the tile modes and the rest modes: ((tiles),(rests)).",
         _L, "zipped_divide", "same function as logical_divide, modes regrouped", "分块后把 tile 与其余部分分组。"),
    Rule("tiled_divide", "zipped_divide with the rest mode unpacked.", _L, "tiled_divide",
         "same function as logical_divide", "zipped_divide 并展开其余部分。"),
    Rule("flat_divide", "zipped_divide with both modes unpacked.", _L, "flat_divide",
         "same function as logical_divide", "zipped_divide 并展开两部分。"),
    Rule("logical_product", "make_layout(block, composition(complement(block, size(block)*cosize(tiler)), tiler)).",
         _L, "logical_product", "mode 0 is the block; mode 1 repeats it in the tiler's arrangement",
         "mode 0 是 block，mode 1 按 tiler 重复它。"),
    Rule("zipped_product", "logical_product with the modes regrouped: ((block),(repeats)).", _L, "zipped_product",
         "same function as logical_product", "logical_product 的分组形式。"),
    Rule("tiled_product", "zipped_product with the repeat mode unpacked.", _L, "tiled_product",
         "same function as logical_product", "zipped_product 并展开重复部分。"),
    Rule("flat_product", "zipped_product with both modes unpacked.", _L, "flat_product",
         "same function as logical_product", "zipped_product 并展开两部分。"),
    Rule("blocked_product", "logical_product of rank-matched layouts, zipped mode by mode: (block_i, tiler_i).",
         _L, "blocked_product", "rank(result) == max(rank(block), rank(tiler))", "按 mode 配对的块状乘积。"),
    Rule("raked_product", "logical_product of rank-matched layouts, interleaved: (tiler_i, block_i).",
         _L, "raked_product", "rank(result) == max(rank(block), rank(tiler))", "交错的乘积。"),
    Rule("tile_to_shape", "Repeat the block with blocked_product until it has the target shape.", _L,
         "tile_to_shape", "compatible(target shape, shape(result))", "用 blocked_product 重复 block 到目标 shape。"),
    Rule("max_common_layout", "coalesce(composition(a, right_inverse(b))); keep its leading stride-1 mode.", _L,
         "max_common_layout", "a(R(i)) == i == b(R(i)) for i < size(R)", "两个布局共同的最长连续部分。"),
    Rule("max_common_vector", "The size of max_common_layout(a, b).", _L, "max_common_vector",
         "a and b agree on the first N indices of b's order", "共同连续部分的大小。"),
    Rule("nullspace", "The compact coordinates of the stride-0 modes.", _L, "nullspace",
         "layout(result(i)) == 0", "stride 为 0 的 mode 构成的零空间。"),
    # atoms
    Rule("make_tiled_mma", "Arrange atoms over an atom layout (thr_layout_vmnk) with optional permutations.",
         _MMA, "make_tiled_mma / TiledMMA", "the tile is (M*AtomM, N*AtomN, K*AtomK) up to permutations",
         "按 atom 布局排列 MMA Atom。"),
    Rule("thrfrg_A", "Partition an (M,K) layout into ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK))).", _MMA,
         "TiledMMA::thrfrg_A", "the thread modes index the atom's threads and the M/K atom tile",
         "把 (M,K) 布局划分为线程与值的模式。"),
    Rule("thrfrg_B", "Partition an (N,K) layout into thread and value modes.", _MMA, "TiledMMA::thrfrg_B",
         "as thrfrg_A for B", "把 (N,K) 布局划分为线程与值的模式。"),
    Rule("thrfrg_C", "Partition an (M,N) layout into thread and value modes.", _MMA, "TiledMMA::thrfrg_C",
         "as thrfrg_A for C", "把 (M,N) 布局划分为线程与值的模式。"),
    Rule("get_layoutA_TV", "thrfrg_A(ref_A).compose(atile, _).compose(thridx_2_thrid, _): the (thread, value) -> "
         "(m,k) layout; atile = (ThrM,ThrN):(1,0) gives the N threads stride 0 (they read the A of their M thread).", _MMA, "TiledMMA::get_layoutA_TV",
         "F(t, v) is the A element that thread t holds as value v",
         "thrfrg_A(ref_A).compose(atile, _).compose(thridx_2_thrid, _)：(线程, 值) → (m,k)；atile = (ThrM,ThrN):(1,0) "
         "让 N 方向的线程 stride 为 0（读取其 M 线程的 A）。"),
    Rule("get_layoutB_TV", "The (thread, value) -> (n,k) layout of B; btile = (ThrM,ThrN):(0,1) gives the M threads stride 0.", _MMA,
         "TiledMMA::get_layoutB_TV", "F(t, v) is the B element of thread t, value v", "B 的 (线程, 值) → (n,k) 布局。"),
    Rule("get_layoutC_TV", "The (thread, value) -> (m,n) layout of C.", _MMA, "TiledMMA::get_layoutC_TV",
         "F(t, v) is the C element of thread t, value v", "C 的 (线程, 值) → (m,n) 布局。"),
    Rule("make_tiled_copy_A", "make_tiled_copy_impl(copy_atom, mma.get_layoutA_TV(), (tile_size<0>, tile_size<2>)).",
         _COPY, "make_tiled_copy_A", "the copy uses the MMA's A partitioning and the (M,K) tile",
         "直接采用 MMA 的 A 布局和 A tile 大小。"),
    Rule("retile", "frg_layout_mn = upcast<TiledNumThr*V>(right_inverse(TiledLayout_TV).with_shape(shape(Tiler_MN))); "
         "frg_layout_v = zipped_divide(logical_product(make_layout(V), right_inverse(frg_layout_mn)), "
         "make_layout(AtomNumVal)); the tensor is zipped_divide'd by prepend(product_each(shape(frg_layout_mn)), V).",
         _COPY, "TiledCopy::retile (used by retile_S / retile_D)",
         "each thread's fragment is regrouped by the copy atom's values per instruction",
         "frg_layout_mn 与 frg_layout_v 的计算，fragment 按 Copy Atom 每次的值数重新分组。"),
]}


_PROVER = "symcute/symbolic/prover.py"

# Steps that symcute adds to a derivation (not CuTe operations): they cite symcute's own modules.
RULES.update({r.id: r for r in [
    Rule("make_tiled_copy_B", "make_tiled_copy_impl(copy_atom, mma.get_layoutB_TV(), (tile_size<1>, tile_size<2>)).",
         _COPY, "make_tiled_copy_B", "the copy uses the MMA's B partitioning and the (N,K) tile",
         "直接采用 MMA 的 B 布局和 B tile 大小。"),
    Rule("make_tiled_copy_C", "make_tiled_copy_impl(copy_atom, mma.get_layoutC_TV(), (tile_size<0>, tile_size<1>)).",
         _COPY, "make_tiled_copy_C", "the copy uses the MMA's C partitioning and the (M,N) tile",
         "直接采用 MMA 的 C 布局和 C tile 大小。"),
    Rule("make_tiled_copy", "layout_mn = raked_product(thr_layout, val_layout); layout_tv = right_inverse(layout_mn)"
         ".with_shape(size(thr), size(val)); tiler = product_each(shape(layout_mn)).", _COPY, "make_tiled_copy",
         "each thread copies its values of the (M,N) tile", "由线程布局和值布局构造 TiledCopy。"),
    Rule("make_cotiled_copy", "layout_tv_data = (left_inverse(data), 1:0) o atom_tv; tiler = per data mode the "
         "filtered image of layout_tv_data; layout_tv = left_inverse(make_layout(data_shape) o tiler) o "
         "layout_tv_data.", _COPY, "make_cotiled_copy",
         "each (thread, value) of the atom reaches the data element at the address the atom names",
         "把原子的 (线程, 值) → 地址 映射换成数据张量中的坐标，并按数据的各模式切出 tiler。"),
    Rule("make_tmem_copy", "atom thread layout (32,4):(0,32*TMEM::DP<T>) (each warp in its own 32-lane "
         "sub-partition), value layout coalesce(upcast<sizeof_bits<T>>(ValID)); make_cotiled_copy with the TMEM "
         "tensor's layout.", "cute/atom/copy_traits_sm100.hpp", "make_tmem_copy",
         "warp w, lane l reaches TMEM lane 32*w + l", "每个 warp 访问自己的 32 lane 子分区；值布局来自原子的 ValID。"),
    Rule("make_utccp_copy", "atom thread layout size(ThrID):0 (one issuing thread per CTA), value layout "
         "coalesce(upcast<sizeof_bits<T>>(ValID)); make_cotiled_copy with the TMEM tensor's layout.",
         "cute/atom/copy_traits_sm100.hpp", "make_utccp_copy",
         "the copy writes the TMEM addresses the atom's ValID names", "共享内存到 TMEM 的拷贝：值布局来自原子的 ValID。"),
    Rule("get_layoutS_TV", "The TiledCopy's (thread, value) -> (m,n) layout of the source: TiledLayout_TV "
         "composed with the atom's source-to-reference map.", _COPY, "TiledCopy::get_layoutS_TV",
         "F(t, v) is the tile element that thread t reads as value v", "源的 (线程, 值) → (m,n) 布局。"),
    Rule("get_layoutD_TV", "The TiledCopy's (thread, value) -> (m,n) layout of the destination.", _COPY,
         "TiledCopy::get_layoutD_TV", "F(t, v) is the tile element that thread t writes as value v",
         "目标的 (线程, 值) → (m,n) 布局。"),
    Rule("tidfrg_S", "Partition a source tensor's layout into ((ThrV, FrgV), Rest) by the TiledCopy's tiler and "
         "TiledLayout_TV, re-expressed through the atom's AtomLayoutSrc/AtomLayoutRef.", _COPY, "TiledCopy::tidfrg_S",
         "mode 0 indexes the threads, mode 1 the values per copy", "按 TiledCopy 划分源张量。"),
    Rule("tidfrg_D", "Partition a destination tensor's layout into ((ThrV, FrgV), Rest), as tidfrg_S with "
         "AtomLayoutDst.", _COPY, "TiledCopy::tidfrg_D", "mode 0 indexes the threads, mode 1 the values per copy",
         "按 TiledCopy 划分目标张量。"),
    Rule("slice_and_offset", "Slice a layout at a coordinate with _ and return the sub-layout and the offset of "
         "the fixed part (for a swizzled layout the offset carries the swizzle).", _L, "slice_and_offset",
         "layout(c) == offset + result(c restricted to the _ modes)", "在坐标处切片，返回子布局与偏移。"),
    Rule("partition_fragment_A", "make_fragment_like(partition_A(tile)): the thread's register fragment of A, "
         "(FrgV, RestM, RestK).", "cute/atom/mma_atom.hpp", "ThrMMA::partition_fragment_A",
         "size<0>(result) == size<1>(LayoutA_TV of the atom)", "线程的 A 寄存器 fragment：(FrgV, RestM, RestK)。"),
    Rule("partition_fragment_B", "make_fragment_like(partition_B(tile)): the thread's register fragment of B.",
         "cute/atom/mma_atom.hpp", "ThrMMA::partition_fragment_B",
         "size<0>(result) == size<1>(LayoutB_TV of the atom)", "线程的 B 寄存器 fragment。"),
    Rule("partition_fragment_C", "make_fragment_like of the C partition (compact): the thread's accumulators.",
         "cute/atom/mma_atom.hpp", "ThrMMA::partition_fragment_C",
         "size<0>(result) == size<1>(LayoutC_TV of the atom)", "线程的 C 累加器 fragment。"),
    Rule("formula", "Name the sub-axes of a layout: each mode of extent > 1 is a digit of the input index with "
         "a weight (prefix product) and a stride; the value is the sum of stride*digit.",
         "symcute/symbolic/formula.py", "formula", "formula(L)(q) == L(q) for all q < size(L)",
         "为布局的子轴命名：每个大小大于 1 的 mode 是输入编号的一位，有权重（前缀积）和 stride；值是 stride*位 之和。",
         origin="symcute"),
    Rule("table", "A table of facts computed from the recorded values (sizes, counts, examples).",
         "symcute/recipes/", "derive_retile / derive_tv / derive_expr / derive_catalog",
         "every entry is computed from the values above",
         "由前面记录的值计算出的事实表。", origin="symcute"),
    Rule("evaluate", "Evaluate a layout at one input, showing the input's digits.", "symcute/symbolic/prover.py",
         "witness", "the value is the core evaluation of the layout", "在一个输入处求值并列出各位。",
         origin="symcute"),
    Rule("prove_right_inverse", "Prove L(R(i)) == i for every i < size(R) by mutual refinement: both sides "
         "as linear forms over common digits, compared coefficient by coefficient.", _PROVER,
         "prove_right_inverse", "proved: the identity holds on the whole domain; refuted: a checked counterexample",
         "用相互细化证明 L(R(i)) == i 对所有 i < size(R) 成立：两边写成公共数位上的线性式，逐个系数比较。",
         origin="symcute"),
    Rule("prove_left_inverse", "Prove or refute R(L(x)) == x for every x < size(L).", _PROVER, "prove_left_inverse",
         "proved: the identity holds on the whole domain; refuted: a checked counterexample",
         "证明或反驳 R(L(x)) == x 对所有 x < size(L) 成立。", origin="symcute"),
    Rule("prove_equal", "Prove or refute A(i) == B(i) for every i of the common domain.", _PROVER, "prove",
         "proved: the two layouts are the same function", "证明或反驳两个布局在公共定义域上逐点相等。",
         origin="symcute"),
    Rule("is_injective", "Decide whether distinct inputs have distinct values (sorted-stride chain, or a "
         "collision as counterexample).", _PROVER, "is_injective", "refuted: two inputs with the same value",
         "判断不同输入是否有不同的值（按 stride 排序的链，或给出碰撞反例）。", origin="symcute"),
    Rule("is_surjective", "Decide whether every value in [0, n) is reached (sorted positive strides cover "
         "without a hole).", _PROVER, "is_surjective", "proved: every value of [0, n) is reached",
         "判断 [0, n) 中每个值是否都被取到（按 stride 排序的正 stride 无空隙地覆盖）。", origin="symcute"),
    Rule("is_bijective", "Decide whether the layout is a bijection onto [0, n).", _PROVER, "is_bijective",
         "proved: injective, onto, and every value lies in [0, n)", "判断布局是否是到 [0, n) 的双射。",
         origin="symcute"),
]})


# Construction and access (CuTe's make_layout, shape, get<I>, ...): recorded so that every value a step
# reads has a producer in the graph; reports walk the other steps (Derivation.steps(structural=False)).
_TUPLE = "cute/container/tuple.hpp"
RULES.update({r.id: r for r in [
    Rule("make_layout", "Make a layout from a shape (compact, column-major), a shape and a stride, or the "
         "concatenation of layouts.", _L, "make_layout", "shape(result) == shape; stride(result) == stride",
         "由 shape（和 stride）或若干布局构造布局。"),
    Rule("make_ordered_layout", "A compact layout whose strides increase in the given mode order.", _L,
         "make_ordered_layout", "result is compact", "按给定顺序递增 stride 的紧凑布局。"),
    Rule("make_layout_like", "A compact layout with the layout's shape and stride order (stride-0 modes stay 0).",
         _L, "make_layout_like", "shape(result) == shape(layout)", "与给定布局同 shape、同 stride 顺序的紧凑布局。"),
    Rule("make_identity_layout", "shape:basis, mapping each coordinate to itself.", _L, "make_identity_layout",
         "result(c) == c", "把每个坐标映射到自身的布局。"),
    Rule("shape", "The shape of a layout (an IntTuple).", _L, "shape / Layout::shape", "the layout's shape",
         "布局的 shape。"),
    Rule("stride", "The stride of a layout (an IntTuple).", _L, "stride / Layout::stride", "the layout's stride",
         "布局的 stride。"),
    Rule("get", "Mode access: the sub-layout at a mode path.", _L, "get<I...> / layout<I...>",
         "result(c) == layout(c placed at the mode path)", "按 mode 路径取子布局。"),
    Rule("select", "The layout made of the chosen modes.", _L, "select<I...>", "mode k of result is mode I_k",
         "由所选 mode 组成的布局。"),
    Rule("take", "The modes [B, E) of a layout.", _L, "take<B,E>", "result == select<B..E-1>(layout)",
         "布局的 mode [B, E)。"),
    Rule("group", "Gather the modes [B, E) into one mode.", _L, "group<B,E>", "same function, modes regrouped",
         "把 mode [B, E) 合为一个 mode。"),
    Rule("append", "Append a mode (append<N> pads with 1:0 up to rank N).", _L, "append", "the first modes unchanged",
         "追加一个 mode。"),
    Rule("prepend", "Prepend a mode (prepend<N> pads at the front up to rank N).", _L, "prepend",
         "the last modes unchanged", "在前面加一个 mode。"),
    Rule("flatten", "Flatten the nesting of a layout's modes.", _L, "flatten", "same function, one level of modes",
         "展平 mode 的嵌套。"),
    Rule("make_tuple", "A tuple of the values above (an argument built from recorded values).", _TUPLE,
         "make_tuple", "element k of result is argument k", "由前面的值组成的元组。"),
    Rule("get_slice", "The slice of a TiledMMA for one thread index (a ThrMMA).", _MMA, "TiledMMA::get_slice",
         "result partitions for thread thr_idx", "TiledMMA 对一个线程的切片（ThrMMA）。"),
]})

STRUCTURAL = frozenset({"make_layout", "make_ordered_layout", "make_layout_like", "make_identity_layout", "shape",
                        "stride", "get", "select", "take", "group", "append", "prepend", "flatten", "make_tuple",
                        "get_slice"})


def citation_of(rule: Rule) -> dict:
    """The citation a step node carries (strings only): file, function, CUTLASS version, origin, one line."""
    out = {"origin": rule.origin, "source": rule.source, "function": rule.function, "citation": rule.citation()}
    if rule.origin == "cute":
        out["cutlass"] = CUTLASS_VERSION
    return out


def rule_for(rule_id: str) -> Rule:
    """The catalog entry of a rule id; an operation without one gets a generic entry."""
    r = RULES.get(rule_id)
    if r is None:
        return Rule(rule_id, f"CuTe's {rule_id}.", "cute/", rule_id, "as CuTe defines it")
    return r


def register_rule(rule: Rule) -> None:
    """Higher layers add their rules (atoms, symbolic) by id."""
    RULES[rule.id] = rule
