"""The rule catalog's statements in English: what each recorded step does, keyed by rule id.

The catalog itself (``symcute.trace.rules``) is data: the CuTe source, the function, the identity
guaranteed.  A report cites a step with ``Text(lang).rule(id)``; a rule without a statement here reads
"CuTe's <id>.".
"""

STATEMENTS = {
    "coalesce":
        "Merge modes that are contiguous in the codomain, walking from the last mode back (bw_coalesce); size-1 "
        "modes are dropped.",
    "filter": "Remove stride-0 and size-1 modes: coalesce(filter_zeros(layout)).",
    "composition":
        "Divide the right-hand stride through the left-hand modes (coalesced), checking the Stride and Shape "
        "Divisibility Conditions, one right-hand mode at a time.",
    "complement":
        "Sort the filtered modes by stride; each gap min_stride / covered becomes a mode; the rest up to the "
        "cotarget is appended.",
    "right_inverse":
        "Coalesce; weight each mode by the exclusive prefix product of the shape (its weight in the flattened input "
        "index); take modes in stride order while each stride equals the extent covered so far (modes that break the "
        "chain, stride-0 modes among them, are skipped).",
    "left_inverse":
        "Coalesce; weight modes by prefix products; in stride order, every non-zero stride divided by the size "
        "gathered so far becomes a mode.",
    "with_shape": "Reorganise the input of a layout: composition(layout, make_layout(shape)).",
    "upcast":
        "Count the codomain in units of N: per mode, shape' = ceil_div(shape, ceil_div(N, |stride|)), stride' = "
        "sign(stride) * ceil_div(|stride|, N); stride-0 modes stay.",
    "downcast": "Split each codomain unit into N: stride-1 modes grow N times, other strides scale by N.",
    "recast_layout": "upcast / downcast by the ratio of the value types' bit widths.",
    "logical_divide": "composition(layout, make_layout(tiler, complement(tiler, shape(coalesce(layout))))).",
    "zipped_divide": "logical_divide, then gather the tile modes and the rest modes: ((tiles),(rests)).",
    "tiled_divide": "zipped_divide with the rest mode unpacked.",
    "flat_divide": "zipped_divide with both modes unpacked.",
    "logical_product": "make_layout(block, composition(complement(block, size(block)*cosize(tiler)), tiler)).",
    "zipped_product": "logical_product with the modes regrouped: ((block),(repeats)).",
    "tiled_product": "zipped_product with the repeat mode unpacked.",
    "flat_product": "zipped_product with both modes unpacked.",
    "blocked_product": "logical_product of rank-matched layouts, zipped mode by mode: (block_i, tiler_i).",
    "raked_product": "logical_product of rank-matched layouts, interleaved: (tiler_i, block_i).",
    "tile_to_shape": "Repeat the block with blocked_product until it has the target shape.",
    "max_common_layout": "coalesce(composition(a, right_inverse(b))); keep its leading stride-1 mode.",
    "max_common_vector": "The size of max_common_layout(a, b).",
    "nullspace": "The compact coordinates of the stride-0 modes.",
    "make_tiled_mma": "Arrange atoms over an atom layout (thr_layout_vmnk) with optional permutations.",
    "thrfrg_A": "Partition an (M,K) layout into ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK))).",
    "thrfrg_B": "Partition an (N,K) layout into thread and value modes.",
    "thrfrg_C": "Partition an (M,N) layout into thread and value modes.",
    "get_layoutA_TV":
        "thrfrg_A(ref_A).compose(atile, _).compose(thridx_2_thrid, _): the (thread, value) -> (m,k) layout; atile = "
        "(ThrM,ThrN):(1,0) gives the N threads stride 0 (they read the A of their M thread).",
    "get_layoutB_TV":
        "The (thread, value) -> (n,k) layout of B; btile = (ThrM,ThrN):(0,1) gives the M threads stride 0.",
    "get_layoutC_TV": "The (thread, value) -> (m,n) layout of C.",
    "make_tiled_copy_A": "make_tiled_copy_impl(copy_atom, mma.get_layoutA_TV(), (tile_size<0>, tile_size<2>)).",
    "retile": "frg_layout_mn = upcast<TiledNumThr*V>(right_inverse(TiledLayout_TV).with_shape(shape(Tiler_MN))); "
        "frg_layout_v = zipped_divide(logical_product(make_layout(V), right_inverse(frg_layout_mn)), "
        "make_layout(AtomNumVal)); the tensor is zipped_divide'd by prepend(product_each(shape(frg_layout_mn)), V).",
    "make_tiled_copy_B": "make_tiled_copy_impl(copy_atom, mma.get_layoutB_TV(), (tile_size<1>, tile_size<2>)).",
    "make_tiled_copy_C": "make_tiled_copy_impl(copy_atom, mma.get_layoutC_TV(), (tile_size<0>, tile_size<1>)).",
    "make_tiled_copy": "layout_mn = raked_product(thr_layout, val_layout); layout_tv = "
        "right_inverse(layout_mn).with_shape(size(thr), size(val)); tiler = product_each(shape(layout_mn)).",
    "make_cotiled_copy":
        "layout_tv_data = (left_inverse(data), 1:0) o atom_tv; tiler = per data mode the filtered image of "
        "layout_tv_data; layout_tv = left_inverse(make_layout(data_shape) o tiler) o layout_tv_data.",
    "make_tmem_copy":
        "atom thread layout (32,4):(0,32*TMEM::DP<T>) (each warp in its own 32-lane sub-partition), value layout "
        "coalesce(upcast<sizeof_bits<T>>(ValID)); make_cotiled_copy with the TMEM tensor's layout.",
    "make_utccp_copy": "atom thread layout size(ThrID):0 (one issuing thread per CTA), value layout "
        "coalesce(upcast<sizeof_bits<T>>(ValID)); make_cotiled_copy with the TMEM tensor's layout.",
    "get_layoutS_TV":
        "The TiledCopy's (thread, value) -> (m,n) layout of the source: TiledLayout_TV composed with the atom's "
        "source-to-reference map.",
    "get_layoutD_TV": "The TiledCopy's (thread, value) -> (m,n) layout of the destination.",
    "tidfrg_S":
        "Partition a source tensor's layout into ((ThrV, FrgV), Rest) by the TiledCopy's tiler and TiledLayout_TV, "
        "re-expressed through the atom's AtomLayoutSrc/AtomLayoutRef.",
    "tidfrg_D": "Partition a destination tensor's layout into ((ThrV, FrgV), Rest), as tidfrg_S with AtomLayoutDst.",
    "slice_and_offset":
        "Slice a layout at a coordinate with _ and return the sub-layout and the offset of the fixed part (for a "
        "swizzled layout the offset carries the swizzle).",
    "partition_fragment_A":
        "make_fragment_like(partition_A(tile)): the thread's register fragment of A, (FrgV, RestM, RestK).",
    "partition_fragment_B": "make_fragment_like(partition_B(tile)): the thread's register fragment of B.",
    "partition_fragment_C": "make_fragment_like of the C partition (compact): the thread's accumulators.",
    "formula":
        "Name the sub-axes of a layout: each mode of extent > 1 is a digit of the input index with a weight (prefix "
        "product) and a stride; the value is the sum of stride*digit.",
    "table": "A table of facts computed from the recorded values (sizes, counts, examples).",
    "evaluate": "Evaluate a layout at one input, showing the input's digits.",
    "prove_right_inverse":
        "Prove L(R(i)) == i for every i < size(R) by mutual refinement: both sides as linear forms over common "
        "digits, compared coefficient by coefficient.",
    "prove_left_inverse": "Prove or refute R(L(x)) == x for every x < size(L).",
    "prove_equal": "Prove or refute A(i) == B(i) for every i of the common domain.",
    "is_injective":
        "Decide whether distinct inputs have distinct values (sorted-stride chain, or a collision as counterexample).",
    "is_surjective": "Decide whether every value in [0, n) is reached (sorted positive strides cover without a hole)."
        "",
    "is_bijective": "Decide whether the layout is a bijection onto [0, n).",
    "make_layout":
        "Make a layout from a shape (compact, column-major), a shape and a stride, or the concatenation of layouts.",
    "make_ordered_layout": "A compact layout whose strides increase in the given mode order.",
    "make_layout_like": "A compact layout with the layout's shape and stride order (stride-0 modes stay 0).",
    "make_identity_layout": "shape:basis, mapping each coordinate to itself.",
    "shape": "The shape of a layout (an IntTuple).",
    "stride": "The stride of a layout (an IntTuple).",
    "get": "Mode access: the sub-layout at a mode path.",
    "select": "The layout made of the chosen modes.",
    "take": "The modes [B, E) of a layout.",
    "group": "Gather the modes [B, E) into one mode.",
    "append": "Append a mode (append<N> pads with 1:0 up to rank N).",
    "prepend": "Prepend a mode (prepend<N> pads at the front up to rank N).",
    "flatten": "Flatten the nesting of a layout's modes.",
    "unflatten": "Give a flat tuple the nesting of a target profile (CuTe's unflatten).",
    "make_tuple": "A tuple of the values above (an argument built from recorded values).",
    "get_slice": "The slice of a TiledMMA for one thread index (a ThrMMA).",
    "prove_contract":
        "Check CuTe's value against the operation's documented postcondition (composition: R(c) == A(B(c)); "
        "complement: ordered, disjoint, big enough; divides and products against their definitions; casts: the same "
        "memory), as calc's quick check does.",
}
