"""English templates.  Fields are Markdown-safe already (code spans, escaped text, numbers)."""

TEXT = {
    # --- shared: checks, verdicts, tables -----------------------------------------------------------
    "none": "none",
    "recheck_note": "**Imported.** Re-checked when read from JSON: {values} values recomputed with symcute.core, {formulas} formulas against their layouts, {verdicts} verdicts proved again.",
    "recheck_rederived": "**Imported.** Re-checked when read from JSON: derived again from its configuration, its {steps} steps equal this symcute's, node for node ({values} values recomputed with symcute.core, {formulas} formulas against their layouts, {verdicts} verdicts proved again; every table, label, certificate and worked example as derived).",
    "recheck_missing": "Not re-checked (shown as the file states them): the steps {rules}.",
    "check_line": "**Check.** {claim}: **{verdict}** ({method}).",
    "verdict_proved": "proved",
    "verdict_refuted": "refuted",
    "verdict_unknown": "unknown",
    "method_refinement": "mutual refinement: both sides as linear forms over common digits",
    "method_chain": "sorted-stride chain",
    "method_exhaustive": "exhaustive evaluation",
    "method_domains": "the domains differ",
    "method_none": "no method applies",
    # vocabulary.Method by its short name (a conjunction's a+b, a part's row); en: the member's value
    "method_name_refinement": "refinement",
    "method_name_chain": "chain",
    "method_name_gf2": "gf2",
    "method_name_exhaustive": "exhaustive",
    "method_name_probe": "probe",
    "method_name_z3": "z3",
    "method_name_isl": "isl",
    "method_name_arithmetic": "arithmetic",
    "method_name_inspection": "inspection",
    "method_name_vacuous": "vacuous",
    "method_name_domains": "domains",
    "method_name_none": "none",
    "counterexample": "Counterexample (re-evaluated with symcute.core):",
    "ce_item": "- {label}: {value}",
    "ce_steps": "{what} step by step",
    "ce_index": "input index",
    "ce_coordinate": "input coordinate",
    "ce_indices": "two inputs",
    "ce_coordinates": "their coordinates",
    "ce_value": "common value",
    "ce_value_at": "value",
    "ce_missing_value": "value never reached",
    "ce_digit": "first differing digit",
    "ce_side": "side {what}",
    "ce_size": "size of {what}",
    "ce_index_of_a": "input index of `a`",
    "ce_index_of_b": "input index of `b`",
    "ce_needed_size": "size needed",
    "ce_previous_of_r": "value of `R` at the index before",
    "ce_value_of_r": "value of `R` at the index",
    "ce_index_of_l": "input of `L` with the same value",
    "ce_only_in_image_of_r": "values only in the image of `R`",
    "ce_missing_from_image_of_r": "values missing from the image of `R`",
    "ce_first": "first input",
    "ce_second": "second input",
    "ce_block_start": "start of its block",
    "ce_start_value": "value at the block start",
    "ce_expected": "expected value",
    "ce_alignment": "alignment",
    "ce_fixed_digits": "fixed sub-axes",
    "ce_other_digits": "other sub-axes",
    "ce_thread": "thread",
    "ce_thread_value": "value number in the thread",
    "cert_equality": "Certificate: the common digits of both sides; the identity holds iff the two coefficient "
                     "columns agree on every row.",
    "cert_injective": "Certificate: the digits sorted by |stride|; each stride must exceed the largest sum the "
                      "smaller digits reach.",
    "cert_surjective": "Certificate: the positive-stride digits sorted by stride; each stride must be at most one "
                       "more than the range already covered.",
    "cert_exhaustive": "Certificate: every input was evaluated.",
    "cell_ok": "ok",
    "cell_differs": "differs",
    "cell_fails": "fails",
    "cell_gap": "gap",
    "cell_in_block": "in block",
    "cell_block": "block",
    "hdr_digit": "digit",
    "hdr_extent": "extent",
    "hdr_weight": "weight",
    "hdr_stride": "stride",
    "hdr_span_below": "span below",
    "hdr_stride_span": "stride > span",
    "hdr_covered_below": "covered below",
    "hdr_stride_covered_1": "stride <= covered+1",
    "hdr_inputs": "inputs",
    "hdr_mismatches": "mismatches",
    "hdr_inputs_evaluated": "inputs evaluated",
    "hdr_failures": "failures",
    "hdr_distinct_values": "distinct values",
    "hdr_targets": "targets",
    "hdr_exact_query": "exact query",
    "hdr_result": "result",
    "hdr_part": "part",
    "hdr_via": "via ({label})",
    "hdr_flips_of": "{label} flips",
    "hdr_inputs_tried": "inputs tried",
    "hdr_failing_input": "failing input",
    "hdr_blocks": "blocks",
    "hdr_coefficient": "coefficient",
    "hdr_role": "role",
    "hdr_column_of_m": "column of M",
    "hdr_times_weight": "{label}*weight",
    "hdr_mod_of": "mod {label}",
    "hdr_number": "#",
    "hdr_claim": "claim",
    "hdr_verdict": "verdict",
    "hdr_method": "method",
    "hdr_content": "content",
    "hdr_file": "CuTe source",
    "hdr_function": "function",
    "hdr_symbol": "symbol",
    "hdr_meaning": "meaning here",
    "hdr_values": "values",
    "row_subaxis": "sub-axis",
    "row_shape": "shape",
    "row_q_stride": "q stride",
    "row_tv_weight": "TV weight",
    "row_tv_stride": "tv stride",
    "row_q_weight": "q weight",
    "row_stride": "stride",
    "row_weight": "weight",
    "claim_right_inverse": "{a}({b}(i)) == i for every 0 <= i < {n}",
    "claim_left_inverse": "{b}({a}(x)) == x for every 0 <= x < {n}",
    "claim_injective": "{a} is injective on [0, {n})",
    "claim_surjective": "{a} reaches every element of [0, {target})",
    "claim_bijective": "{a} is a bijection onto [0, {target})",
    "claim_with_shape": "{a}(i) == {b}(i) for every 0 <= i < {n}, i.e. {a}(c) == {b}(crd2idx(c))",
    "claim_retile_with_shape": "{a} (inside TiledCopy::retile) equals {b} on [0, {n})",
    "claim_retile_upcast": "{a} (inside TiledCopy::retile) equals {b} on [0, {n})",
    "claim_equal": "{a}(i) == {b}(i) for every 0 <= i < {n}",
    "claim_contract": "{a}, CuTe's value of {b}, meets {b}'s documented postcondition",
    "sources_intro": "The steps above follow these sources (CUTLASS {version}, `include/`); the checks are "
                     "symcute's own prover.",
    "values_list": "{values}",
    "list_sep": ", ",
    "range_with": "{formula}, {range}",

    # --- retile-d ------------------------------------------------------------------------------------
    "retile_title": "From the TV layout to upcast: `retile_D` for operand {op} of {mma}, atom layout {layout}",
    "retile_intro": "Reading the inside of `retile_D`, one line is easy to misread:",
    "retile_setup_fewer": "Take this configuration: the {op} tile is {rows}×{cols}, only {elements} matrix elements, "
                          "while `TiledNumThr*V` is {T}×{V} = {N}.",
    "retile_setup": "Take this configuration: the {op} tile is {rows}×{cols} = {elements} matrix elements, and "
                    "`TiledNumThr*V` is {T}×{V} = {N}.",
    "retile_q_upcast": "Why can the code call {upcast}?",
    "retile_q_stride": "Why does the right inverse contain a stride {stride}?",
    "retile_q_each": "Why is `product_each(shape(frg_layout_mn))` equal to {each}?",
    "retile_q_each_ones": "Why are both matrix extents of the result 1, {each}?",
    "retile_answer_broadcast": "The answer starts at the broadcast tile {tile} inside {fn}: it connects the "
                               "threads along {mode} to the {op} layout, so one {op} element belongs to several "
                               "TVs while the full thread domain keeps its numbering. The sections below fix one "
                               "configuration and compute every step along CuTe's source; every number is "
                               "computed by symcute, every identity is checked by its prover.",
    "retile_answer_plain": "The answer starts at {fn}. The sections below fix one configuration and compute every "
                           "step along CuTe's source; every number is computed by symcute, every identity is "
                           "checked by its prover.",
    "sec_configuration": "Matrix coordinates and TV coordinates",
    "config_intro": "This document uses the MMA atom {mma} ({ptx}, traits in {header}), arranged {layout} along "
                    "M, N and K:",
    "config_tile": "Its whole MMA tile is:",
    "config_operand": "{op} uses the ({a},{b}) coordinates, so the {op} tile is {rows}×{cols}. The fragment "
                      "discussed here covers exactly this tile, with {V} values of {vt} in its first mode per "
                      "thread.",
    "sym_lane": "thread within one MMA atom (ThrV)",
    "sym_wm": "atom coordinate along M (the atom layout)",
    "sym_wn": "atom coordinate along N (the atom layout)",
    "sym_wk": "atom coordinate along K (the atom layout)",
    "sym_t": "thread of the whole TiledMMA",
    "sym_v": "value within one thread",
    "sym_q": "logical index of the {op} tile",
    "sym_tv": "flattened thread-and-value index",
    "config_t_where": "where:",
    "config_q_note": "q encodes a matrix position, tv a thread-and-value position; their ranges differ. q is not "
                     "a shared-memory offset either: the storage address also goes through the source tensor's "
                     "layout.",
    "sec_tiled_copy": "{fn} takes the MMA's layout",
    "tiled_copy_intro": "{fn} takes the MMA's {op} layout and tile size directly:",
    "tiled_copy_values": "So in this example:",
    "tiled_copy_tiler": "Tiler_MN is the copy implementation's generic name; for operand {op} its two modes are "
                        "{a} and {b}.",
    "tiled_copy_v": "V is the size of the first mode of the input fragment, here thread 0's fragment {fragment} "
                    "(V = {V}), not the total number of elements of an arbitrarily large fragment.",
    "tiled_copy_v_given": "(V = {V} was given explicitly for this derivation.)",
    "tiled_copy_atom": "The copy atom is {atom} ({ptx}): {thr} threads, {val} values per thread and instruction.",
    "tiled_copy_arch": "Note: {copy} is an {copy_arch} instruction and {mma} an {mma_arch} MMA. CuTe builds this "
                       "TiledCopy (make_tiled_copy checks no architecture), so the layouts below are CuTe's; "
                       "but an {mma_arch} GPU cannot issue the copy instruction.",
    "tiled_copy_threads": "Note: the TiledMMA has {threads} threads, not a multiple of the copy atom's {thr}; CuTe "
                          "builds the TiledCopy anyway, and the copy instruction runs with the atom's thread count.",
    "sec_broadcast": "Why {elements} elements have {tvs} TVs: {tile}",
    "sec_thread_domain": "The thread domain of {op}",
    "domain_ref_intro": "{fn} first builds the reference matrix layout:",
    "domain_ref_value": "Here it is:",
    "domain_return": "and returns the final TV layout through:",
    "domain_thrfrg": "First {fn}: it combines the MMA atom's {op} partitioning with the thread arrangement along "
                     "{a} and {b}; its thread input is {modes}. ThrV is the thread coordinate inside the atom "
                     "(here the lane), not the value index v. The layout is {layout}, and its thread domain has",
    "domain_thrfrg_tvs": "threads. With {values} values per thread that is {tvs} TVs, covering {distinct} "
                         "distinct {op} elements.",
    "domain_full": "The full MMA thread organisation also contains {mode}. The source connects it to {op} "
                   "with {tile}:",
    "domain_middle": "Its middle layout is:",
    "domain_keep": "{tile} keeps {keep} and ignores {drop} when it is evaluated. Composed at the input of the "
                   "partitioned layout, it accepts the full thread coordinate including {drop}, and different "
                   "values of {drop} land on the same {op} position.",
    "domain_no_broadcast": "{op} needs all thread modes (M and N), so no further tile is composed: the thread domain of "
                           "the partitioned layout is already the full one.",
    "domain_broadcast_trivial": "{fn} composes {tile} here too, but the {mode} mode has a single thread, so it "
                                "connects nothing: no {op} element is shared, and the thread domain of the "
                                "partitioned layout is already the full one.",
    "stage_broadcast": "after {tile}",
    "stage_final": "{fn}",
    "hdr_stage": "stage",
    "hdr_thread_domain": "thread domain",
    "hdr_tvs": "TVs",
    "hdr_distinct": "distinct {op} elements",
    "domain_meaning": "This is the broadcast of {op} along {mode}: those warps compute different outputs but use "
                      "the same {op}. The broadcast expresses a repeated demand for the same elements; it does not "
                      "compress the full thread domain to {threads}.",
    "domain_thridx": "Last, thridx_2_thrid turns the thread index into the logical thread coordinate; here it is "
                     "{layout}. F's input is still all {threads} threads with their value indices.",
    "sec_formula_F": "{fn} as a formula",
    "formula_digits": "To see the strides that follow, split the thread and value indices into their sub-axes "
                      "(each a digit of the index):",
    "formula_coords": "The TV layout sends each sub-axis to the matrix coordinates {a} and {b}:",
    "formula_q": "Substituted into {q}:",
    "formula_table": "Leaving out the modes of size 1, the layout is exactly this list of sub-axes (the q stride "
                     "is what one step of the sub-axis adds to q; the TV weight is what it adds to tv):",
    "formula_weights": "The TV weights are the prefix products of the shape, and they can be read off the TV "
                       "index directly:",
    "formula_broadcast": "{axis} has stride 0 but shape {extent}: the number of input TVs grows with it while "
                         "the number of distinct matrix elements does not.",
    "formula_example": "For example, these two TVs both need the element {elem}:",
    "formula_example_tv": "Their TV numbers are:",
    "sec_right_inverse": "right_inverse picks one representative and keeps the original TV numbers",
    "sec_right_inverse_plain": "right_inverse inverts F and keeps the original TV numbers",
    "ri_let": "Let:",
    "ri_contract": "G must satisfy:",
    "ri_not_left": "that is, every matrix element finds one usable TV. G need not recover every repeated TV, so "
                   "{tv} is not required.",
    "ri_prefix": "CuTe's right_inverse first takes the prefix products of F's full shape as the weights of the "
                 "flattened input index (the TV weights):",
    "ri_coalesced": "It coalesces F to {layout} and then sorts the modes by their q stride, building a contiguous "
                    "cover: a mode is taken when its stride equals the range covered so far.",
    "ri_order": "Order by stride: {order}. Taken: {chosen}. Skipped: {skipped}.",
    "ri_skip_broadcast": "The zero stride of {axis} cannot extend a contiguous cover, so it is skipped: the right "
                         "inverse uses the representatives with {axis}=0.",
    "ri_weight_kept": "Skipping the broadcast mode does not recompute the TV weights. The weight of {axis} still "
                      "contains the full thread domain:",
    "ri_weight_plain": "The weight of {axis} is the product of the extents before it:",
    "ri_so": "So:",
    "ri_left_fails": "Here F, given a single integer, reads it as a flattened TV coordinate. G chose TV {value}, "
                     "so G(F({at})) = {value}, not {at}: G does not return the other representative of the same "
                     "element.",
    "ri_result": "The right inverse is:",
    "ri_size": "size(G) = {size} bounds the number of inputs; the outputs are still TV numbers of the original "
               "range {tvs}. A layout such as 2:512 also has only two inputs and outputs 0 and 512: the shape "
               "does not bound the strides.",
    "ri_formula": "Over named sub-axes, G's input digits are F's output digits and its coefficients are F's TV "
                  "weights:",
    "ri_formula_note": "Each sub-axis of G is the F sub-axis of the same name: its q weight in G is its q stride in "
                       "F, its tv stride in G is its TV weight in F.",
    "sec_with_shape": "with_shape arranges the right inverse's input as {a}, {b}",
    "ws_intro": "Now consider:",
    "ws_impl": "with_shape is implemented as:",
    "ws_meaning": "so H means:",
    "ws_layout": "It connects the matrix's two-dimensional coordinate to G's input; the output is still the TV "
                 "number G selected. The layout is:",
    "ws_split": "Split its two top-level modes:",
    "ws_correspondence": "and match them with the sub-axes above:",
    "ws_output": "So the output TV number is:",
    "ws_stride_meaning": "Now the stride {stride} has a concrete meaning: {axis} going from 0 to 1 adds {step} to "
                         "{b}, that is {vstep} to the thread's value index v, and {product} to the original TV "
                         "number.",
    "ws_stride_meaning_thread": "The stride {stride} is the TV weight of {axis}: one step of it moves {step} along "
                                "{b}.",
    "hdr_matrix_coord": "matrix coordinate",
    "hdr_selected_tv": "selected (t,v)",
    "hdr_h_output": "tv output of H",
    "ws_not_packed": "H has only {n} inputs, but its outputs are not packed into {top}. With one representative "
                     "chosen, the TV numbers of each v are:",
    "ws_no_new_stride": "with_shape did not create the stride {stride}: it moved the TV weight the right inverse "
                        "already had onto the matching sub-axis of {b}.",
    "sec_upcast": "Why upcast uses {n}, not {elements}",
    "sec_upcast_same": "upcast<{n}>: counting in ranges of the threads' values",
    "up_intro": "Back to the target expression:",
    "up_range": "{expr} comes from the full number of threads and the first mode of the input fragment ({V} "
                "values): it is the TV range of every thread's first {V} values, of size {N}. The right inverse "
                "chose only some of them, but their numbers stay spread over this range:",
    "up_range_all": "{expr} comes from the full number of threads and the first mode of the input fragment ({V} "
                    "values): it is the TV range of every thread's first {V} values, of size {N}. Each element has "
                    "exactly one TV, so the right inverse takes all of them, in this range:",
    "up_granularity": "upcast changes the granularity in which the layout's outputs are counted and shrinks the "
                      "input shape accordingly. It does not require the number of input coordinates to be at "
                      "least N, and no element type of a tensor is converted here.",
    "up_formula": "For positive static strides, the source computes per sub-axis:",
    "up_example": "Take the sub-axis {axis}, (shape,stride) = {pair}. Its coordinates contribute {values} to the "
                  "output TV number; in groups of {N}, both positions fall into one group:",
    "up_example_block": "positions per group = {per}\ngroups needed        = {groups}",
    "up_others": "The other sub-axes work the same way:",
    "hdr_subaxis": "sub-axis",
    "hdr_old_shape": "old shape",
    "hdr_old_stride": "old stride",
    "hdr_per_group": "positions per group",
    "hdr_new_shape": "new shape",
    "up_ceil": "ceil_div is division rounded up: {ex} rounds up to 1; a sub-axis with fewer positions than a "
               "whole group still keeps one group.",
    "up_strides": "Every old stride is above 0 and below {N}, so {ceil} is 1 as well. The result is:",
    "up_largest": "As a cross-check, the largest output of H is:",
    "up_in_first": "Every selected TV lies in the first range of {N}, consistent with the layout computed above.",
    "up_beyond_first": "The selected TVs reach beyond the first range of {N}.",
    "up_domain": "The new layout has a smaller input domain: it is not the old layout with every output divided "
                 "by N while keeping all the (m,k) inputs.",
    "sec_contrast": "Contrast: {n}",
    "up_contrast": "If the same H is upcast with {n} instead of {N}, the last sub-axis keeps",
    "up_contrast_each": "so the sub-axis {axis} survives and {each}: the two halves along it. The granularity "
                        "depends on the per-thread value range considered, not on the number of distinct matrix "
                        "elements.",
    "up_contrast_lesson": "",
    "sec_retile": "Back in {fn}: what the 1s mean",
    "rt_intro": "retile then uses this layout to compute the fragment's gathering ranges:",
    "rt_tiler": "Here product_each(...) = {each}, so the tiler of the second line is {tiler}: the first mode keeps "
                "each thread's {V} values, and each matrix direction takes the extent shown.",
    "rt_values": "The {V} values do not disappear: logical_product(make_layout(V), ...) keeps them, and they are "
                 "grouped by the number of values the copy atom moves per instruction. With {ptx} each instruction "
                 "writes {val} {vt} values per thread, so the values are organised as {grouping}.",
    "rt_broadcast_loads": "The right inverse choosing the {mode}=0 representatives does not stop the other warps "
                          "from loading: this is the grouping layout; ThrCopy::retile_D builds each thread's view "
                          "on that thread's own fragment data(), so every warp still prepares the {op} registers "
                          "it needs.",
    "rt_chain": "Along this chain, {tile} sets up the layout of the operand, right_inverse picks TV representatives "
                "that keep their original numbers, with_shape connects the matrix coordinates, and upcast "
                "extracts the fragment gathering layout for the current V range.",
    "rt_chain_plain": "Along this chain, {fn} sets up the layout of the operand, right_inverse inverts it (each "
                      "element has exactly one TV, which keeps its original number), with_shape connects the "
                      "matrix coordinates, and upcast extracts the fragment gathering layout for the current V range.",
    "sec_checks": "Checks",
    "checks_intro": "Every identity used above, as the prover answered it:",
    "sec_sources": "Sources",
    "src_atom_layout": "the MMA atom's traits ({op} layout)",
    "src_copy_atom": "the copy atom's traits",

    # --- tv (TV layouts and their right inverses) -------------------------------------------------------------
    "tv_copy_title": "TV layouts of make_tmem_copy({copy}, a TMEM tensor {tmem} of {vt}): right_inverse facts",
    "tv_copy_intro": "For the source (TMEM) and destination (registers) side of the TiledCopy this document derives "
                     "the TV layout (thread, value) -> coordinate of the tile the copy moves, names its sub-axes, "
                     "computes its right inverse and checks the identities CuTe's inverses guarantee. The four warps "
                     "of the warpgroup each reach their own 32-lane TMEM sub-partition (make_tmem_copy's thread "
                     "layout (32,4):(0,32*DP)).",
    "tv_copy_config": "Configuration: {copy} ({ptx}, traits in {header}), {threads} threads, tile {tile}; "
                      "TiledLayout_TV = {layout_tv}, Tiler_MN = {tiler}.",
    "tv_title": "TV layouts of {mma}, atom layout {layout}: right_inverse facts",
    "tv_intro": "For each operand this document derives the TV layout of the TiledMMA, names its sub-axes, "
                "computes its right inverse and checks the identities CuTe's inverses guarantee.",
    "tv_config": "Configuration: {mma} ({ptx}, traits in {header}), tile (M,N,K) = {tile}, {threads} threads.",
    "tv_descriptor": "{op} is read from shared memory through a descriptor ({frg}); its TV layout is still the "
                     "mapping CuTe uses for partitioning.",
    "sec_tv_operand": "Operand {op}: {fn}",
    "tv_layout": "The TV layout and its formula over named sub-axes:",
    "tv_broadcast": "Broadcast sub-axes (stride 0): {axes}. Each element of the tile is held by {copies} TVs.",
    "tv_no_broadcast": "No sub-axis has stride 0.",
    "tv_right_inverse": "Its right inverse (size {size}):",
    "tv_skipped": "right_inverse skipped {skipped} (stride order {order}).",
    "tv_example": "Worked example:",
    "sec_tv_summary": "Summary",
    "hdr_operand": "operand",
    "hdr_tv_layout": "TV layout",
    "hdr_size": "size",
    "hdr_ri_size": "size of right_inverse",
    "hdr_broadcast": "broadcast sub-axes",
    "hdr_rinv_proved": "L(R(i)) == i",
    "hdr_linv_proved": "R(L(x)) == x",

    # --- expr (generic chain) ------------------------------------------------------------------------------
    "expr_title": "Derivation of {expr}",
    "expr_intro": "symcute evaluated the expression below with the bindings listed, recording every CuTe "
                  "operation; each step shows its rule, its result as a formula over named sub-axes, and the "
                  "identities the rule guarantees, checked by the prover.",
    "hand_intro": "symcute recorded the CuTe operations below; each step shows its rule, its result, the "
                  "intermediate quantities the operation noted, and the checks recorded for it.",
    "expr_bindings": "Bindings:",
    "expr_result": "Result:",
    "sec_step": "Step {k}: {call}",
    "step_rule": "Rule ({source}): {statement}",
    "step_guarantee": "Guarantee: {guarantee}.",
    "step_result": "Result:",
    "step_formula": "Formula:",
    "step_details": "Intermediate quantities:",
    "step_nested": "This step ran {n} nested operations: {rules}.",
    "step_error": "The step failed: {error}",
    "detail_weights": "prefix-product weights",
    "detail_order": "modes in stride order",
    "detail_chosen": "modes taken",
    "detail_skipped": "modes skipped",
    "detail_coalesced": "coalesced layout",
    "detail_modes": "per mode: shape, stride, ceil_div(N, |stride|), new shape, new stride",
    "detail_n": "N",
    "detail_divisions": "division steps",
    "detail_filtered": "filtered layout",
    "detail_sorted_modes": "modes sorted by stride",
    "detail_gaps": "gaps",
    "detail_rest": "rest",
    "detail_decays": "decays",
    "detail_other": "{key}",

    # --- catalog -------------------------------------------------------------------------------------------
    "cat_title": "right_inverse and left_inverse of every catalogued MMA atom",
    "cat_intro": "For each catalogued MMA atom ({count} atoms, CUTLASS {version}) and each of its A, B, C TV "
                 "layouts L: the size of L, the size of R = right_inverse(L), the prover's verdict on "
                 "L(R(i)) == i, the sub-axes of stride 0 (broadcasts; thread sub-axes t*, value sub-axes v*), "
                 "and whether left_inverse(L) undoes L (R(L(x)) == x; it cannot when L has a broadcast).",
    "cat_totals": "Totals: {layouts} TV layouts; L(R(i)) == i proved for {proved}, refuted for {refuted}, unknown "
                  "for {unknown}; {injective} layouts have a left inverse that undoes them; {broadcast} have a "
                  "broadcast sub-axis; {missing} layouts are not available ({missing_why}).",
    "cat_cell": "{size} → {rsize}",
    "cat_missing": "CuTe's definition is malformed",
    "hdr_atom": "atom",
    "hdr_arch": "arch",
    "cat_legend": "Each operand cell reads size(L) → size(R), then ✓ when L(R(i)) == i is proved (✗ refuted, ? "
                  "unknown), then ⇄ when left_inverse(L) undoes L; broadcast sub-axes follow with their extents. "
                  "All proofs use mutual refinement unless marked (ex) for exhaustive.",
    # --- gmem recipe -----------------------------------------------------------------------------------
    "gmem_title": "Global-memory addresses of A through local_tile and partition_A: {mma}, atom layout {layout}",
    "gmem_intro": "This document follows a row-major global tensor A of run-time extents M and K through the CTA "
                  "tile {bm}x{bk} (`local_tile`) and the TiledMMA's `partition_A`, and writes the address that "
                  "every (thread, value) of every CTA tile reads, as a formula over named sub-axes whose "
                  "coefficients are expressions in K. Every claim below is decided for every admissible value of "
                  "the parameters, not for one instantiation.",
    "gmem_config": "MMA atom {mma} ({ptx}, from {header}); {threads} threads; the TiledMMA tile (M,N,K) is {mma_tile}.",
    "gmem_sec_params": "Parameters and side conditions",
    "gmem_params": "M and K are run-time integers (CuTe's `int`), declared with the side conditions {conditions}. "
                   "Numbers are static (`Int<n>{{}}`); CuTe's operations take their run-time code paths on M and K.",
    "gmem_sec_tiles": "CTA tiles",
    "gmem_global": "The global tensor is {layout} (CuTe prints {cute}: the unit stride is static).",
    "gmem_tile_counts": "There are {m} x {k} CTA tiles.",
    "gmem_loose": "Without the divisibility conditions the same division is {layout}: {m} x {k} tiles.",
    "gmem_partial_refuted": "Without them the fact \"every tile is full\" (M % {bm} == 0 and K % {bk} == 0) is "
                            "refuted: at {witness} the last tile is partial, and a kernel must predicate its loads.",
    "gmem_partial_proved": "Every tile is full for every admissible M and K.",
    "gmem_partial_unknown": "Whether every tile is full is not settled by the side conditions.",
    "gmem_local_tile": "`local_tile(mA, tile, (bm, bk))` is the tile {layout} at offset {offset}.",
    "gmem_sec_partition": "Thread partitioning",
    "gmem_thrfrg": "`thrfrg_A` of the CTA tile, and the (thread, value) layout obtained from it as "
                   "`get_layoutA_TV` does (the wn threads share A: stride 0):",
    "gmem_threads": "`partition_A` for some threads (offset from the start of A, and the fragment's layout):",
    "gmem_hdr_thread": "thread",
    "gmem_hdr_offset": "offset",
    "gmem_hdr_partition": "partition_A",
    "gmem_sec_formula": "The address formula",
    "gmem_formula_intro": "Over the sub-axes of the thread (t0, t1, wm, wn), of the value (v0, v1, v2) and of the "
                          "atom tiles inside the CTA tile (rm, rk), thread t's value v of CTA tile (bm, bk) reads:",
    "gmem_hdr_axis": "sub-axis",
    "gmem_hdr_extent": "extent",
    "gmem_hdr_coefficient": "coefficient",
    "gmem_hdr_m": "row part m",
    "gmem_hdr_k": "column part k",
    "gmem_sec_checks": "Claims for every admissible M and K",
    "gmem_checks_intro": "Each claim is proved (a certificate valid for all admissible parameters), refuted (an "
                         "admissible instantiation and a coordinate, re-evaluated with symcute.core) or unknown.",
    "gmem_check": "- {claim}: **{verdict}** ({method}).",
    # lines of the code blocks
    "gmem_code_reference": "CuTe, static {bm}x{bk} column-major tile: {layout}",
    "gmem_code_partition0": "partition_S(gA) of thread 0 = {offset} + {layout}",
    "gmem_counterexample": "Counterexample at {witness}, coordinate {coordinate}: {values}.",
    "gmem_claim_closed_form": "addr = ({bm}*bm + m(t,v))*K + {bk}*bk + k(t,v)",
    "gmem_claim_static_tv": "m + {bm}*k at every (thread, value) is CuTe's static TV layout of the column-major "
                            "{bm}x{bk} tile",
    "gmem_claim_injective": "apart from the wn broadcast, distinct (thread, value) read distinct addresses",
    "gmem_claim_aligned_pairs": "each thread's v0 pair is two adjacent elements starting at an even offset "
                                "(one 32-bit access of half_t)",
    "gmem_claim_cross_check": "cross-check: the formula equals core's partition_A at random admissible (M, K)",
    # the recipe's own methods (GmemMethod): Markdown, as the check line prints them
    "gmem_method_exhaustive": "exhaustive over {points} (thread, value) points",
    "gmem_method_exhaustive_stopped": "exhaustive",
    "gmem_method_even_coefficients": "every coefficient but v0's is even for all admissible K",
    "gmem_method_a_coefficient": "a coefficient",
    "gmem_method_core_agrees": "{instances} admissible (M, K), {points} (thread, value) points equal to core's "
                               "partition\\_A",
    "gmem_method_core_differs": "core",
    "gmem_conclusion": "So for every M and K allowed by the side conditions, CTA tile (bm, bk) of A covers rows "
                       "{bm}*bm + m and columns {bk}*bk + k, and each thread's addresses are the formula above; "
                       "CuTe computes the same values at run time.",
    "gmem_verdict_agrees": "agrees",
    "gmem_verdict_differs": "differs",
    # --- swizzle recipe --------------------------------------------------------------------------------
    "method_gf2": "linear algebra over GF(2): rank, image and kernel of the bit matrix",
    "cert_gf2-injective": "Certificate: each index bit with the offset bits it flips (a column of the matrix M over GF(2)); the rank of M decides injectivity.",
    "cert_gf2-surjective": "Certificate: each index bit with the offset bits it flips; the image is the column space of M shifted by the constant.",
    "cert_gf2-bijective": "Certificate: each index bit with the offset bits it flips (the columns of M over GF(2)); M has full rank and its image is the whole range.",
    "cert_gf2-equality": "Certificate: the offset bits each index bit flips on both sides; the two sides agree iff every column and the constant agree.",
    "hdr_index_bit": "index bit",
    "hdr_name": "name",
    "hdr_flips_offset_bits": "flips offset bits",
    "sw_title": "The swizzled shared-memory tile {layout}",
    "sw_intro": "{layout} is CuTe's composed layout A o O o B: B = {inner} maps the tile coordinates ({names}) to an offset, O is added to it, and the swizzle A = {swizzle} XORs bit-fields of the result. Every value below is computed by symcute.core; the formulas and proofs by symcute.symbolic.",
    "sw_sec_formula": "Formula",
    "sw_formula": "The offset of element ({names}), read as C (>> and << are shifts, & a mask, ^ XOR):",
    "sw_formula_plain": "Without the swizzle it is {plain}. The sub-axes:",
    "sw_sec_bits": "Bit table",
    "sw_bits": "Every sub-axis's multiples occupy their own bits of the offset, so + is XOR and the layout is linear over GF(2) in the bits of its sub-axes ({bits}; r_i is bit i of r). Each offset bit is the XOR of the input bits listed:",
    "sw_hdr_offset_bit": "offset bit",
    "sw_offset_bit": "bit {i}",
    "sw_hdr_xor": "with the swizzle",
    "sw_hdr_plain": "without it",
    "sw_sec_proof": "Bijection",
    "sw_sec_banks": "Bank collisions",
    "sw_banks": "For {bits}-bit elements, element ({row}, {column}) of each row lies at a byte address whose bits 2..6 are its bank (32 banks of 4 bytes). With the column fixed the bank is a GF(2)-linear function of the bits of {row}, so rows r and r' share a bank exactly when r ^ r' lies in the kernel of that function:",
    "sw_hdr_row": "row",
    "sw_hdr_bank_sw": "bank (swizzled)",
    "sw_hdr_bank_plain": "bank (without the swizzle)",
    "sw_banks_plain": "Without the swizzle the kernel is spanned by {kernel}: the rows fall into {distinct} bank(s), a {ways}-way conflict.",
    "sw_banks_swizzled": "With the swizzle the kernel is spanned by {kernel}: the rows fall into {distinct} banks ({ways}-way); the rows that still collide: {pairs} (each pair re-evaluated with symcute.core).",
    "gmem_sec_copy": "The same tile through a TiledCopy: partition_S",
    "gmem_copy_intro": "A global-to-shared copy of the CTA tile with {atom}, thread layout {thr} and value layout "
                       "{val} (`make_tiled_copy`): `tidfrg_S` of the tile and thread 0's `partition_S`, and the "
                       "source address formula over the copy's sub-axes:",
    "gmem_copy_vector_proved": "Each copy moves {n} contiguous elements (the sub-axis of extent {n} has coefficient "
                               "1) starting at a multiple of {n} elements ({bytes} bytes) for every admissible M "
                               "and K and every tile: **proved** (every other coefficient, and those of bm and bk "
                               "in the tile offset, is divisible by {n}).",
    "gmem_copy_vector_unknown": "Whether each copy's {n} elements start at a multiple of {n} is not settled.",
    "gmem_copy_k8_proved": "The same holds for every K divisible by {n} (K only a multiple of {n}, one CTA row "
                           "block): **proved**.",
    "gmem_copy_k8_unknown": "For K only divisible by {n} the alignment is not settled.",
    "gmem_copy_loose_refuted": "For K an arbitrary positive integer it is **refuted**: at {witness} a copy "
                               "starts at an offset that is not a multiple of {n}, so the 128-bit access is "
                               "misaligned.",
    "gmem_copy_loose_proved": "It holds even for K an arbitrary positive integer.",
    "gmem_copy_loose_unknown": "For K an arbitrary positive integer it is not settled.",
}

# --- the bank recipe (symcute.recipes.bank, symcute.report.bank) ----------------------------------------
TEXT.update({
    "bank_title": "Bank conflicts of {atom} for operand {op} of {mma} over {smem}",
    "bank_intro": "Each lane's shared-memory address is `smem_layout(tv_layout(t, v))` times the element size. "
                  "Shared memory has 32 banks of 4 bytes (bank = bits 2..6 of the byte address); the lanes served "
                  "together (a phase) need as many wavefronts as the largest number of distinct 4-byte words one "
                  "bank must deliver (the same word is a broadcast). Every lane of every instruction is evaluated; "
                  "the rules and their sources are in docs/memory.md, each confirmed on an H200.",
    "bank_sec_config": "The copy",
    "bank_config": "Copy atom {atom} ({ptx}, {header}) with values of type {vt} ({bits} bits). The shared-memory side "
                   "is {side} = {tv}, with named sub-axes {names}: {threads} threads, i.e. {warps} warps, each issuing "
                   "{per_warp} instructions.",
    "bank_instruction": "Instruction: {instr}; each lane address covers {bytes} bytes; {active} lanes give addresses, "
                        "served in {phases} phases of {lanes} lanes.",
    "bank_sec_address": "Address and bank, over the named sub-axes",
    "bank_formula": "The element offset of lane (t, v) in {smem}, as a formula of the TV layout's sub-axes:",
    "bank_bits": "The bank bits as XORs of the sub-axes' bits (the map lane bits -> address bits is F2-linear here; "
                 "`x_i` is bit i of sub-axis x):",
    "bank_bits_none": "Bank bits as a formula: not shown ({why}).",
    "bank_hdr_bank_bit": "bank bit",
    "bank_hdr_xor": "= XOR of",
    "bank_sec_phases": "The worst instruction, phase by phase (warp {warp}, instruction {k})",
    "bank_phases_intro": "Per phase: the lanes, the wavefronts it needs, the ideal, and its busiest bank with the "
                         "distinct words that bank serves.",
    "bank_hdr_phase": "phase",
    "bank_hdr_lanes": "lanes",
    "bank_hdr_wavefronts": "wavefronts",
    "bank_hdr_ideal": "ideal",
    "bank_hdr_bank": "busiest bank",
    "bank_hdr_words": "its words (byte address / 4)",
    "bank_lane_banks": "The bank of each lane's first word:",
    "bank_sec_witness": "Witness",
    "bank_witness": "A {ways}-way conflict: in warp {warp}, instruction {k}, phase {phase}, bank {bank} must deliver "
                    "these distinct words, one per wavefront:",
    "bank_hdr_lane": "lane",
    "bank_hdr_thread": "thread",
    "bank_hdr_axes": "named sub-axes",
    "bank_hdr_byte": "byte address",
    "bank_hdr_word": "word",
    "bank_witness_why": "These lanes differ only in {axes}: those sub-axes move the address by multiples of 128 bytes, which the bank bits (2..6) do not see.",
    "bank_src_banks": "32 banks of 4 bytes; successive words in successive banks; one word to many lanes is a broadcast.",
    "bank_src_ldsm": "Each 8x8 matrix is given by 8 row addresses of 16 bytes (lanes 8i..8i+7 for matrix i).",
    "bank_src_ncu": "Wavefronts and bank conflicts per shared-memory instruction (the H200 counters the model is checked against).",
    "bank_no_witness": "No conflict: in every phase each bank delivers at most one distinct word.",
    "bank_sec_result": "Result",
    "bank_result": "**{verdict}.** {wave} wavefronts over all {n} warp instructions against {ideal} ideal; worst bank "
                   "multiplicity {ways}-way; {conflicts} conflicts (what Nsight Compute's "
                   "`l1tex__data_bank_conflicts_pipe_lsu_mem_shared` counts). Method: {method}.",
    "bank_method_exact": "exact count over every lane of every phase",
    "bank_method_exact_certified": "exact count over every lane of every phase, and an F2 kernel certificate for the worst phase",
    "bank_note_store_stream": "**Note.** A stream of 512-byte conflict-free stores (st.shared.v4 by a full warp, stmatrix.x4): on the H200 every second one costs one more wavefront; Nsight Compute counts that many more than the per-instruction total (docs/memory.md, Store streams).",
    "bank_note_store_stream_timing": "**Note.** A warp's stream of store instructions with a conflicting one: on the H200 its wavefront count depends on how the instructions are spaced (+0 to +2 per warp for one launch), so only the per-instruction count is given (docs/memory.md, Store streams).",
    "bank_note_store_concurrent": "**Note.** Warps storing at the same time can add wavefronts on the H200 (timing-dependent); the counts assume the warps' stores do not overlap.",
    "bank_note_cp_async": "**Note.** cp.async: the shared-memory write is served by the 128-byte lines of the global source, each lane's source assumed 16 bytes after the previous lane's (as in CUTLASS's copies); on the H200 the count is exact for one instruction with such sources (docs/memory.md, cp.async).",
    "bank_note_cp_async_stream": "**Note.** Several cp.async instructions: on the H200 the conflict counter moved by up to 2% between identical launches, so only the per-instruction count is given (docs/memory.md, cp.async).",
    "bank_note_cp_async_cg": "**Note.** cp.async.cg: its shared-memory write is not visible to Nsight Compute's counters.",
    "bank_free": "Conflict-free",
    "bank_conflicting": "Conflicts",
    "bank_certificate": "**Certificate.** In the worst phase the lane bits map to the byte-address offsets {images} "
                        "(XOR-linear, checked on every lane). dim ker(bank map) = {kb}, dim ker(word map) = {kw}: "
                        "each bank serves 2^({kb} - {kw}) = {w} distinct words.",
    "bank_sec_fix": "The fix",
    "bank_fix": "Every `Sw<B,M,S>` composed with the unswizzled tile {base} ({n} candidates, each analysed exactly "
                "like the copy above) was tried: the best is {best} with {cost} wavefronts (ideal {ideal}). Optimal: "
                "{optimal}. Next: {alts}.",
    "bank_fix_current_ok": "The layout's own swizzle {current} is optimal.",
    "bank_fix_current_not": "The layout's own swizzle {current} is not optimal.",
    "bank_fix_skipped": "No synthesis here: {why}.",
    # recipes.records_memory.BankReason: why a part shows no formula or no synthesis
    "bank_reason_bits_of_byte_swizzle": "the swizzle acts on byte addresses; bank bits are shown per lane in the table",
    "bank_reason_inside_element": "value bits inside the element",
    "bank_reason_fix_of_byte_swizzle": "the smem layout swizzles byte addresses (GMMA atom)",
    "bank_reason_no_base": "no unswizzled base layout",
    # the lines of the address formula block and of the lanes-to-banks block
    "bank_code_on_bytes": "   (on byte addresses)",
    "bank_code_byte_address": "byte address = {bytes} * {offset}",
    "bank_code_phase_line": "phase {phase}: lanes {first:2d}-{last:2d} -> banks{cells}",
})
