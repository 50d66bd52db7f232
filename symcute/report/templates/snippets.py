"""CuTe source excerpts quoted by the reports (CUTLASS 4.2 headers), keyed by operand where they differ.

They are C++ and the same in every language; ``{...}`` fields are filled by
``str.format`` with values of the derivation.
"""

RETILE_LINE = """auto frg_layout_mn = upcast<TiledNumThr{{}} * V>(
    right_inverse(TiledLayout_TV{{}})
        .with_shape(shape(Tiler_MN{{}})));"""

MAKE_TILED_MMA = """auto mma = make_tiled_mma(
    {mma}{{}},
    Layout<Shape<{shape}>>{{}});"""

MAKE_TILED_MMA_PERM = """auto mma = make_tiled_mma(
    {mma}{{}},
    Layout<Shape<{shape}>>{{}},
    Tile<{tile}>{{}});"""

MAKE_TILED_COPY = {
    "A": """return make_tiled_copy_impl(
    copy_atom,
    mma.get_layoutA_TV(),
    make_shape(tile_size<0>(mma), tile_size<2>(mma)));""",
    "B": """return make_tiled_copy_impl(
    copy_atom,
    mma.get_layoutB_TV(),
    make_shape(tile_size<1>(mma), tile_size<2>(mma)));""",
    "C": """return make_tiled_copy_impl(
    copy_atom,
    mma.get_layoutC_TV(),
    make_shape(tile_size<0>(mma), tile_size<1>(mma)));""",
}

REF = {
    "A": """auto ref_A = make_layout(
    make_shape(tile_size_mnk<0>(), tile_size_mnk<2>()));""",
    "B": """auto ref_B = make_layout(
    make_shape(tile_size_mnk<1>(), tile_size_mnk<2>()));""",
    "C": """auto ref_C = make_layout(
    make_shape(tile_size_mnk<0>(), tile_size_mnk<1>()));""",
}

RETURN_TV = {
    "A": """return thrfrg_A(ref_A)
    .compose(atile, _)
    .compose(thridx_2_thrid, _);""",
    "B": """return thrfrg_B(ref_B)
    .compose(btile, _)
    .compose(thridx_2_thrid, _);""",
    "C": """return thrfrg_C(ref_C)
    .compose(thridx_2_thrid, _);""",
}

BROADCAST_TILE = {
    "A": """auto atile = make_tile(
    _,
    make_tile(
        make_layout(
            make_shape(size<1>(thr_layout_vmnk_),
                       size<2>(thr_layout_vmnk_)),
            make_stride(Int<1>{}, Int<0>{})),
        _));""",
    "B": """auto btile = make_tile(
    _,
    make_tile(
        make_layout(
            make_shape(size<1>(thr_layout_vmnk_),
                       size<2>(thr_layout_vmnk_)),
            make_stride(Int<0>{}, Int<1>{})),
        _));""",
}

TV_INVERSE = """auto F = mma.get_layout{op}_TV();
auto G = right_inverse(F);"""

WITH_SHAPE = """auto H = right_inverse(F)
             .with_shape(make_shape({shape}));"""

WITH_SHAPE_IMPL = """return composition(*this, make_layout(shape));"""

UPCAST = """auto frg_layout_mn = upcast<{T}*{V}>(H);"""

UPCAST_IMPL = """new_shape  = ceil_div(old_shape, ceil_div(N, old_stride));
new_stride = ceil_div(old_stride, N);"""

RETILE_REST = """auto frg_layout_v = zipped_divide(
    logical_product(make_layout(V), right_inverse(frg_layout_mn)),
    make_layout(AtomNumVal{}));

auto t_tensor = zipped_divide(
    tensor, prepend(product_each(shape(frg_layout_mn)), V));"""
