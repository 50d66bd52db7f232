"""The rule catalog: what each recorded step does, where CuTe does it, and what it guarantees.

Every traced operation has a rule id (its CuTe name).  A report cites the rule
next to the step: the CuTe source location (file and function in CUTLASS 4.2's
headers, ``include/cute/...``), the identity the step guarantees (checked by the
prover where the report shows a check), and the statement in words, which the
report's templates hold per language (``symcute/report/templates/rules_en.py``,
``rules_zh.py``): this catalog is data.
"""

from __future__ import annotations

from dataclasses import dataclass

CUTLASS_VERSION = "4.2.0"


@dataclass(frozen=True)
class Rule:
    id: str
    source: str           # file under include/ in CUTLASS
    function: str         # the C++ function or member
    guarantees: str       # the identity the step guarantees
    origin: str = "cute"  # "cute": CuTe's headers; "symcute": a step symcute adds (a proof, a formula, a table)

    def citation(self) -> str:
        if self.origin == "symcute":
            return f"{self.source}, {self.function} (symcute)"
        return f"{self.source}, {self.function} (CUTLASS {CUTLASS_VERSION})"


_L = "cute/layout.hpp"
_MMA = "cute/atom/mma_atom.hpp"
_COPY = "cute/atom/copy_atom.hpp"

RULES: dict[str, Rule] = {r.id: r for r in [
    Rule("coalesce", _L, "coalesce / detail::bw_coalesce",
         "result(i) == layout(i) for all i < size(layout); depth(result) <= 1"),
    Rule("filter", _L, "filter", "image(result) == image(layout)"),
    Rule("composition", _L, "composition / detail::composition_impl",
         "compatible(rhs, result); result(c) == lhs(rhs(c)) when the strong divisibility condition holds"),
    Rule("complement", _L, "complement / detail::complement",
         "result is ordered and its image is disjoint from layout's (except 0); cosize covers the cotarget"),
    Rule("right_inverse", _L, "right_inverse", "layout(result(i)) == i for all i < size(result)"),
    Rule("left_inverse", _L, "left_inverse",
         "result(layout(i)) == i for all i < size(layout) when layout is injective"),
    Rule("with_shape", _L, "Layout::with_shape", "result(c) == layout(crd2idx(c, shape)) (a column-major index)"),
    Rule("upcast", _L, "upcast<N>", "the N-aligned groups of the image are enumerated once"),
    Rule("downcast", _L, "downcast<N>", "result(i) == N * layout(i / N) + i % N on the stride-1 mode"),
    Rule("recast_layout", _L, "recast_layout<Old, New>", "the same bytes, counted in the new type"),
    Rule("logical_divide", _L, "logical_divide", "mode 0 walks one tile, mode 1 walks the tiles"),
    Rule("zipped_divide", _L, "zipped_divide", "same function as logical_divide, modes regrouped"),
    Rule("tiled_divide", _L, "tiled_divide", "same function as logical_divide"),
    Rule("flat_divide", _L, "flat_divide", "same function as logical_divide"),
    Rule("logical_product", _L, "logical_product",
         "mode 0 is the block; mode 1 repeats it in the tiler's arrangement"),
    Rule("zipped_product", _L, "zipped_product", "same function as logical_product"),
    Rule("tiled_product", _L, "tiled_product", "same function as logical_product"),
    Rule("flat_product", _L, "flat_product", "same function as logical_product"),
    Rule("blocked_product", _L, "blocked_product", "rank(result) == max(rank(block), rank(tiler))"),
    Rule("raked_product", _L, "raked_product", "rank(result) == max(rank(block), rank(tiler))"),
    Rule("tile_to_shape", _L, "tile_to_shape", "compatible(target shape, shape(result))"),
    Rule("max_common_layout", _L, "max_common_layout", "a(R(i)) == i == b(R(i)) for i < size(R)"),
    Rule("max_common_vector", _L, "max_common_vector", "a and b agree on the first N indices of b's order"),
    Rule("nullspace", _L, "nullspace", "layout(result(i)) == 0"),
    # atoms
    Rule("make_tiled_mma", _MMA, "make_tiled_mma / TiledMMA",
         "the tile is (M*AtomM, N*AtomN, K*AtomK) up to permutations"),
    Rule("thrfrg_A", _MMA, "TiledMMA::thrfrg_A", "the thread modes index the atom's threads and the M/K atom tile"),
    Rule("thrfrg_B", _MMA, "TiledMMA::thrfrg_B", "as thrfrg_A for B"),
    Rule("thrfrg_C", _MMA, "TiledMMA::thrfrg_C", "as thrfrg_A for C"),
    Rule("get_layoutA_TV", _MMA, "TiledMMA::get_layoutA_TV",
         "F(t, v) is the A element that thread t holds as value v"),
    Rule("get_layoutB_TV", _MMA, "TiledMMA::get_layoutB_TV", "F(t, v) is the B element of thread t, value v"),
    Rule("get_layoutC_TV", _MMA, "TiledMMA::get_layoutC_TV", "F(t, v) is the C element of thread t, value v"),
    Rule("make_tiled_copy_A", _COPY, "make_tiled_copy_A",
         "the copy uses the MMA's A partitioning and the (M,K) tile"),
    Rule("retile", _COPY, "TiledCopy::retile (used by retile_S / retile_D)",
         "each thread's fragment is regrouped by the copy atom's values per instruction"),
]}


_PROVER = "symcute/symbolic/prover.py"

# Steps that symcute adds to a derivation (not CuTe operations): they cite symcute's own modules.
RULES.update({r.id: r for r in [
    Rule("make_tiled_copy_B", _COPY, "make_tiled_copy_B",
         "the copy uses the MMA's B partitioning and the (N,K) tile"),
    Rule("make_tiled_copy_C", _COPY, "make_tiled_copy_C",
         "the copy uses the MMA's C partitioning and the (M,N) tile"),
    Rule("make_tiled_copy", _COPY, "make_tiled_copy", "each thread copies its values of the (M,N) tile"),
    Rule("make_cotiled_copy", _COPY, "make_cotiled_copy",
         "each (thread, value) of the atom reaches the data element at the address the atom names"),
    Rule("make_tmem_copy", "cute/atom/copy_traits_sm100.hpp", "make_tmem_copy",
         "warp w, lane l reaches TMEM lane 32*w + l"),
    Rule("make_utccp_copy", "cute/atom/copy_traits_sm100.hpp", "make_utccp_copy",
         "the copy writes the TMEM addresses the atom's ValID names"),
    Rule("get_layoutS_TV", _COPY, "TiledCopy::get_layoutS_TV",
         "F(t, v) is the tile element that thread t reads as value v"),
    Rule("get_layoutD_TV", _COPY, "TiledCopy::get_layoutD_TV",
         "F(t, v) is the tile element that thread t writes as value v"),
    Rule("tidfrg_S", _COPY, "TiledCopy::tidfrg_S", "mode 0 indexes the threads, mode 1 the values per copy"),
    Rule("tidfrg_D", _COPY, "TiledCopy::tidfrg_D", "mode 0 indexes the threads, mode 1 the values per copy"),
    Rule("slice_and_offset", _L, "slice_and_offset", "layout(c) == offset + result(c restricted to the _ modes)"),
    Rule("partition_fragment_A", "cute/atom/mma_atom.hpp", "ThrMMA::partition_fragment_A",
         "size<0>(result) == size<1>(LayoutA_TV of the atom)"),
    Rule("partition_fragment_B", "cute/atom/mma_atom.hpp", "ThrMMA::partition_fragment_B",
         "size<0>(result) == size<1>(LayoutB_TV of the atom)"),
    Rule("partition_fragment_C", "cute/atom/mma_atom.hpp", "ThrMMA::partition_fragment_C",
         "size<0>(result) == size<1>(LayoutC_TV of the atom)"),
    Rule("formula", "symcute/symbolic/formula.py", "formula", "formula(L)(q) == L(q) for all q < size(L)",
         origin="symcute"),
    Rule("table", "symcute/recipes/", "derive_retile / derive_tv / derive_expr / derive_catalog",
         "every entry is computed from the values above", origin="symcute"),
    Rule("evaluate", "symcute/symbolic/prover.py", "witness", "the value is the core evaluation of the layout",
         origin="symcute"),
    Rule("prove_right_inverse", _PROVER, "prove_right_inverse",
         "proved: the identity holds on the whole domain; refuted: a checked counterexample", origin="symcute"),
    Rule("prove_left_inverse", _PROVER, "prove_left_inverse",
         "proved: the identity holds on the whole domain; refuted: a checked counterexample", origin="symcute"),
    Rule("prove_equal", _PROVER, "prove", "proved: the two layouts are the same function", origin="symcute"),
    Rule("is_injective", _PROVER, "is_injective", "refuted: two inputs with the same value", origin="symcute"),
    Rule("is_surjective", _PROVER, "is_surjective", "proved: every value of [0, n) is reached", origin="symcute"),
    Rule("is_bijective", _PROVER, "is_bijective", "proved: injective, onto, and every value lies in [0, n)",
         origin="symcute"),
    # here, not registered by recipes.steps at its import: a fresh process reading a derivation that
    # cites it (derive expr --format json) refused it until symcute.recipes.steps was imported (issue 31)
    Rule("prove_contract", "symcute/symbolic/contracts.py", "contract",
         "proved: CuTe's value meets its contract; refuted: a checked index where it does not", origin="symcute"),
]})


# Construction and access (CuTe's make_layout, shape, get<I>, ...): recorded so that every value a step
# reads has a producer in the graph; reports walk the other steps (Derivation.steps(structural=False)).
_TUPLE = "cute/container/tuple.hpp"
RULES.update({r.id: r for r in [
    Rule("make_layout", _L, "make_layout", "shape(result) == shape; stride(result) == stride"),
    Rule("make_ordered_layout", _L, "make_ordered_layout", "result is compact"),
    Rule("make_layout_like", _L, "make_layout_like", "shape(result) == shape(layout)"),
    Rule("make_identity_layout", _L, "make_identity_layout", "result(c) == c"),
    Rule("shape", _L, "shape / Layout::shape", "the layout's shape"),
    Rule("stride", _L, "stride / Layout::stride", "the layout's stride"),
    Rule("get", _L, "get<I...> / layout<I...>", "result(c) == layout(c placed at the mode path)"),
    Rule("select", _L, "select<I...>", "mode k of result is mode I_k"),
    Rule("take", _L, "take<B,E>", "result == select<B..E-1>(layout)"),
    Rule("group", _L, "group<B,E>", "same function, modes regrouped"),
    Rule("append", _L, "append", "the first modes unchanged"),
    Rule("prepend", _L, "prepend", "the last modes unchanged"),
    Rule("flatten", _L, "flatten", "same function, one level of modes"),
    Rule("unflatten", _L, "unflatten", "same function, modes nested as the profile"),
    Rule("make_tuple", _TUPLE, "make_tuple", "element k of result is argument k"),
    Rule("get_slice", _MMA, "TiledMMA::get_slice", "result partitions for thread thr_idx"),
]})

STRUCTURAL = frozenset({"make_layout", "make_ordered_layout", "make_layout_like", "make_identity_layout", "shape",
                        "stride", "get", "select", "take", "group", "append", "prepend", "flatten", "unflatten", "make_tuple",
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
        return Rule(rule_id, "cute/", rule_id, "as CuTe defines it")
    return r


def register_rule(rule: Rule) -> None:
    """Higher layers add their rules (atoms, symbolic) by id."""
    RULES[rule.id] = rule
