"""The prover's phrases in English: one template per member of ``symcute.symbolic.vocabulary``'s
Statement, Reason, Condition and Query (aligned with ``phrases_zh``).

A phrase template is plain text, not Markdown: ``Text.phrase`` escapes it and fills each field with its
argument as code, or with a nested phrase in the same language.  The fields are the member's own.  Today
each English template reads as the member's serialised text (what ``str(proof)`` prints); a report may
word it differently here without changing JSON or the CLI.
"""

from ...symbolic.vocabulary import Condition, Query, Reason, Statement

PHRASES = {
    # Statement
    Statement.EQUAL_SIZES: '{a} == {b} as functions (sizes {na} and {nb})',
    Statement.EQUAL: '{a}(i) == {b}(i) for all 0 <= i < {n}',
    Statement.RIGHT_INVERSE: '{a}({b}(i)) == i for all 0 <= i < {n} ({a} = {L}, {b} = {R})',
    Statement.LEFT_INVERSE: '{b}({a}(x)) == x for all 0 <= x < {n} ({a} = {L}, {b} = {R})',
    Statement.INJECTIVE: '{a} is injective on [0, {n})',
    Statement.SURJECTIVE: '{a} maps [0, {size}) onto a superset of [0, {n})',
    Statement.BIJECTIVE: '{a} is a bijection from [0, {size}) onto [0, {n})',
    Statement.DISJOINT: 'image of {a} on [0, {na}) and image of {b} on [0, {nb}) are disjoint',
    Statement.CONTAINS: 'image of {b} on [0, {nb}) contains the image of {a} on [0, {na})',
    Statement.CONTIGUOUS: '{a}(j) == {a}(0) + {step}*j for all 0 <= j < {n}',
    Statement.ALIGNED: '{a}(0) is a multiple of {alignment}',
    Statement.FOR_EVERY: 'for every {axes}: {claim}',
    Statement.BLOCK_INJECTIVE: 'for every {axes}: {a} is injective in the other sub-axes',
    Statement.BLOCK_CONTIGUOUS: (
        'for every {axes}: {a} takes consecutive values (step {step}) in the other sub-axes'),
    Statement.BLOCK_ALIGNED: 'for every {axes}: {a} starts at a multiple of {alignment}',
    Statement.VECTOR_CONTIGUOUS: "every thread's {width} consecutive values are at consecutive addresses ({what})",
    Statement.VECTOR_ALIGNED: 'every group starts at a multiple of {alignment}',
    Statement.VECTOR: (
        'for every thread t and every group of {width} consecutive values of t: the addresses are consecutive '
        'and the first is a multiple of {alignment} ({what})'),
    Statement.MEMORY_OF_TV: 'memory {memory} o tv {tv}',
    Statement.CONTRACT: '{call} = {result}: {claim}',
    Statement.MEETS_BY_MODE: '{call} = {result} meets R(c) == A(B(c)) mode by mode',
    Statement.MEETS_POST: "{call} = {result} meets CuTe's @post",
    Statement.MEETS_BY_MODE_DEFINITION: '{call} = {result} meets the definition mode by mode',
    Statement.MEETS_DEFINITION: '{call} = {result} meets its definition',
    Statement.SAME_FUNCTION_AS: 'the same function as {a}',
    Statement.COMPOSES: 'R(c) == A(B(c)) for all 0 <= c < {n}',
    Statement.INVERTS_RIGHT: 'L(R(i)) == i for all 0 <= i < {n}',
    Statement.INVERTS_LEFT: 'L(R(L(i))) == L(i) for all 0 <= i < {n}',
    Statement.COMPLEMENT_SIZE: 'size(R) = {size} >= {cotarget} / size(filter(L)) = {need}',
    Statement.ORDERED: 'R(i-1) < R(i) for all 1 <= i < {n}',
    Statement.DISJOINT_FROM: 'R(i) != L(j) for all 1 <= i < {n}, 0 <= j < {m}',
    Statement.MODE_SAME_FUNCTION: 'mode {path} of {result}: the same function as {a}',
    Statement.DIVIDES: 'D(c) == L(B(c)) for all 0 <= c < {n}, B = {B}',
    Statement.COMPATIBLE: "size({label}) == size(B) (composition's @post compatible(B, {label}))",
    Statement.DIVIDE_PART: '{call} part {piece}: {claim}',
    Statement.BLOCK_PART: '{call} = {result}: the block part {piece} == {a}',
    Statement.TILE_PART: '{call} = {result}: the tile part {piece} == complement(A, {cotarget}) o B = {C} o {B}',
    Statement.MODE_ORDER: 'mode i is {order} of logical_product(A, B)',
    Statement.SAME_FUNCTION_ON: 'the same function on [0, {n})',
    Statement.SAME_IMAGE_NO_ZERO: 'the same image, no stride-0 mode',
    Statement.NO_ZERO_STRIDE: 'no stride-0 mode of extent > 1',
    Statement.SAME_MEMORY_IN_UNITS: 'the same memory in units of {units}',
    Statement.SAME_MEMORY: 'the same memory',
    Statement.IF_INJECTIVE: 'if {a} is injective with non-negative strides, then {claim}',
    Statement.SAME_IMAGE: 'image(R) == {image}',
    Statement.PARAM_EQUAL: '{a} == {b} as functions',
    Statement.PARAM_INJECTIVE: '{a} is injective',
    Statement.PARAM_FORMULA: 'F == {expected}',
    # Reason
    Reason.DOMAINS_DIFFER: 'the domains differ: index {index} is in the domain of {side} only',
    Reason.DIGIT_DIFFERS: (
        'digit {digit} has coefficient {lhs} on the left and {rhs} on the right; {index} is the smallest index '
        'where they differ'),
    Reason.DIGIT_COEFFICIENTS: '{digit}=1 (extent {extent}): coefficient {lhs} vs {rhs}',
    Reason.FIRST_DIFFERENCE: '{index} is the smallest index where the two sides differ',
    Reason.SIZES_DIFFER: 'the sizes differ',
    Reason.NO_COMMON_REFINEMENT: "the two sides' digits have no common refinement",
    Reason.EXACT_UNDECIDED: '{why}; the exact back-ends did not decide ({evidence})',
    Reason.OVER_LIMIT: '{why}; the domain of {n} inputs exceeds the exhaustive limit {limit} ({how})',
    Reason.OVER_LIMIT_ITEMS: '{why}; enumerating {n} items exceeds the exhaustive limit {limit} ({how})',
    Reason.NO_F2_VIEW: '{why}; no GF(2) view either: {detail}',
    Reason.NO_F2_DOMAIN: '{why}; no GF(2) view of a domain of {n} inputs (not a power of two)',
    Reason.EXACT_OFF: 'the exact back-ends are off (SYMCUTE_EXACT=0)',
    Reason.TOO_MANY_MODES: (
        'the claim has {modes} flat modes, more than the exact back-ends take (symcute.symbolic.exact.MAX_MODES '
        '= {limit})'),
    Reason.BACKEND_NOTE: '{backend}: {detail}',
    Reason.NO_BACKEND: 'no exact back-end answers {question}',
    Reason.BOTH: '{first}; {second}',
    Reason.ZERO_STRIDE: 'digit {digit} (extent {extent}) has stride 0: a broadcast',
    Reason.SAME_VALUE: '{digit}=1 and {other}={k} give the same value',
    Reason.CANCEL: '{other}={k} and {digit}=1 cancel',
    Reason.COLLISION_FOUND: 'two inputs with the same value (found by an exact back-end)',
    Reason.NOT_REPRODUCED: "{backend}'s counterexample ({what}) did not reproduce ({check}): no counterexample is shown",
    Reason.COLLISION: 'two inputs with the same value',
    Reason.NO_CHAIN: 'the sorted strides do not form a chain and no simple collision exists',
    Reason.GAP: (
        'the digits of stride < {c} reach at most {covered}, and every other digit adds at least {c} > {y}, so '
        'no input maps to {y}'),
    Reason.LARGEST_VALUE: 'the largest value is {top}',
    Reason.NEGATIVE_STRIDES: 'negative strides: the chain argument does not apply',
    Reason.NOT_HIT: 'no input maps to {y}',
    Reason.NOT_INJECTIVE: 'not injective: {why}',
    Reason.NOT_ONTO: 'not onto [0, n): {why}',
    Reason.BIT_SPLIT_PART: '{why} (one block of the bit split)',
    Reason.IMAGE_BOUND_UNKNOWN: 'injective and onto, but the image bound is unknown',
    Reason.NEGATIVE_STRIDE: 'digit {digit} has a negative stride',
    Reason.OUTSIDE_FOUND: 'a value outside the target (found by ISL)',
    Reason.OUTSIDE: 'a value outside the target',
    Reason.OUTSIDE_TARGET: '{why}: outside [0, {n})',
    Reason.VALUE_OUTSIDE: 'the value at {index} is {value}: outside [0, {n})',
    Reason.F2_RANK_DEFICIENT: (
        'M has rank {rank} < {k}; the kernel vector {v} ({bits}) maps to 0, so indices 0 and {v} collide'),
    Reason.F2_OUTSIDE_SPACE: '{y} ^ {c} is outside the column space of M (rank {rank}), so no index maps to {y}',
    Reason.F2_MISSES_ZERO: 'the value at 0 is {c} and {c} is outside the column space, so the image misses 0',
    Reason.F2_TOO_MANY: '{size} distinct values cannot all lie in [0, {n}): {v} at index {x}',
    Reason.F2_CONSTANTS_DIFFER: 'the constants differ ({lhs} vs {rhs})',
    Reason.F2_BIT_DIFFERS: 'index bit {bit} flips different offset bits on the two sides',
    Reason.MEET: '{a}({x}) = {b}({y}) = {value}',
    Reason.NOT_IN_B: 'no index of {b} maps to {value} = {a}({x})',
    Reason.SAME_FUNCTION_SUBDOMAIN: 'a and b are the same function on [0, {na}) and {na} <= {nb}',
    Reason.WHOLE_INJECTIVE: '{a} is injective on its whole domain [0, {size}), which contains [0, {n})',
    Reason.ON_WHOLE_DOMAIN: '{why} on the whole domain [0, {size}), which contains [0, {n})',
    Reason.NOT_CONTIGUOUS: 'not contiguous: {why}',
    Reason.NOT_ALIGNED: 'not aligned: {why}',
    Reason.NOT_A_CHAIN: 'the digits of the domain are not a mixed-radix chain at weight {weight}',
    Reason.STRADDLES: (
        'digit {digit} (weight {weight}, extent {extent}) straddles the block boundary {m} at a non-multiple'),
    Reason.IN_BLOCK_UNKNOWN: "the in-block layout {J}'s injectivity is unknown ({why})",
    Reason.NOT_STEP: 'digit {digit} (weight {weight}) has coefficient {coef}, not {want}',
    Reason.BASE_VALUE: 'G(0) = {base}',
    Reason.NOT_MULTIPLE: 'digit {digit} has coefficient {coef}, not a multiple of {alignment}',
    Reason.F2_BLOCK_KERNEL: 'rank J < {inner}: {v} is in its kernel',
    Reason.F2_CONSTANT: 'c = {c}',
    Reason.F2_BLOCK_COLUMN: 'the column of index bit {bit} is {column}',
    Reason.BLOCK_COLLISION: 'two inputs of block {block} have the value {value}',
    Reason.NOT_CONSECUTIVE: '{value} is not {start} + {step}*{offset}',
    Reason.BLOCK_START: 'a block starts at {value}, not a multiple of {alignment}',
    Reason.SWIZZLED: '{layout} is swizzled: an XOR of bit-fields, not a linear form over digits',
    Reason.NOT_A_BOX_EXTENDED: '[0, {n}) is not a box of the digits of {layout} (extended past its size {size})',
    Reason.NOT_A_BOX: '[0, {n}) is not a box of the digits of {layout}',
    Reason.ENDS_INSIDE: (
        '[0, {n}) is not a box of the digits of {layout}: it ends inside digit {digit} (weight {weight}) at a '
        'non-multiple of its weight'),
    Reason.NEGATIVE_INNER: 'digit {digit} of the inner function has a negative coefficient {coef}',
    Reason.NO_SPLIT: (
        'digit {digit} (extent {extent}, value step {step}) does not split over the digits of {layout}: a step '
        'straddles a digit boundary'),
    Reason.CARRIES: (
        'the inner values can carry out of digit {digit} of {layout} (they span {span} positions of its {extent})'),
    Reason.EMPTY_DOMAIN: 'the domain is empty (size 0): the claim is checked at no point',
    Reason.EMPTY_RESULT: ('{label} is empty (size 0) while B has {b_size} elements: {label} has no value at any '
                        "of B's coordinates, so it is not the composition it should be"),
    Reason.RESULT_SIZE_DIFFERS: '{label} has {size} elements, B has {b_size}: they cannot be the same function of c',
    Reason.PART_FAILS: '{part}: {why}',
    Reason.EVALUATED_WITH_CORE: 'evaluated with core',
    Reason.RE_EVALUATED: 're-evaluated with core',
    Reason.PRECONDITION_FAILS: (
        'the precondition does not hold (a negative stride, or L not proved injective): the claim says nothing '
        'here'),
    Reason.IMAGES_ENUMERATED: 'both images enumerated with core',
    Reason.IN_ONE_IMAGE: 'in one image and not the other',
    Reason.PARAM_SIZES_DIFFER: 'sizes differ',
    Reason.PARAM_SEARCH: 'instantiation search',
    Reason.PARAM_SIZE_UNSETTLED: 'size equality not settled',
    Reason.PARAM_SAME_DIGITS: 'digits: same sub-axes, equal coefficients where the extent exceeds 1',
    Reason.PARAM_COEFFICIENT_DIFFERS: 'digits: a coefficient differs',
    Reason.PARAM_NOTHING_FOUND: 'no certificate and no counterexample found',
    Reason.PARAM_CHAIN: 'digits: sorted coefficients, each at least the span below it',
    Reason.PARAM_POLYNOMIAL: 'polynomial identity over the sub-axes and parameters',
    Reason.PARAM_Z3_NO_COORDINATE: 'z3: no admissible parameters and coordinate where they differ',
    Reason.PARAM_Z3_NO_INDEX: 'z3: no admissible parameters and index where they differ',
    Reason.PARAM_Z3_NO_COLLISION: 'z3: no admissible parameters and two indices with one offset',
    Reason.PARAM_Z3_MODEL: 'z3 model, re-evaluated with core',
    Reason.PARAM_UNDECIDED: 'not a polynomial identity; z3 did not decide',
    Reason.FACT_EVALUATION: 'evaluation',
    Reason.FACT_POLYNOMIAL: 'polynomial',
    Reason.FACT_Z3: 'z3',
    Reason.FACT_Z3_UNSUPPORTED: 'z3: unsupported expression',
    Reason.FACT_Z3_MODEL: 'z3 model, re-evaluated',
    Reason.FACT_Z3_UNKNOWN: 'z3: unknown',
    Reason.FACT_Z3_UNCONFIRMED: 'z3: sat',
    Reason.SYNTH_NONE_ALONE: '{side}: no swizzle of the family makes it conflict-free, even alone (best {best} wavefronts against {ideal} ideal, with {swizzle})',
    Reason.SYNTH_ALONE_BUT: '{side} is conflict-free with e.g. {swizzle}, but {why}',
    Reason.SYNTH_THEN_NEEDS: '{side} then needs {wavefronts} wavefronts (ideal {ideal})',
    # Condition
    Condition.MIXED_RADIX: (
        'the digits form the mixed-radix chain of [0, {top}) (weights are prefix products of the extents)'),
    Condition.LINEAR_FORMS: 'both sides are linear forms in these digits, so they agree iff every row agrees',
    Condition.NO_OVERFLOW: (
        'through each composition, no outer digit can overflow into the next (checked digit by digit), so the '
        'composite stays linear'),
    Condition.EXACT_ENCODING: (
        "each side is CuTe's evaluation written exactly in integer arithmetic (mixed-radix digits, floor and mod "
        'by constants, swizzle bits); Z3 or ISL decides the negated claim, and every witness is re-evaluated '
        'with core'),
    Condition.EVALUATED_BOTH: 'evaluated both sides at all {n} inputs',
    Condition.EVALUATED: 'evaluated at all {n} inputs',
    Condition.EVALUATED_WITH_CORE: 'both sides evaluated with core',
    Condition.EVALUATED_CORE: 'evaluated at all {n} inputs with core',
    Condition.CHAIN_INJECTIVE: (
        'digits sorted by |stride|; each stride exceeds the largest sum the smaller digits reach, so distinct '
        'digit vectors give distinct values'),
    Condition.CHAIN_COVERS: (
        'positive-stride digits sorted by stride cover [0, {covered}] without a hole (other digits held at 0)'),
    Condition.IN_TARGET: 'every value lies in [0, {n})',
    Condition.F2_AFFINE: (
        "the term is F2-affine on the bits of its index: each sub-axis's multiples occupy their own offset bits "
        'and no two share one (so + is XOR), a swizzle XORs bit-fields, an offset shares no bit with the values '
        'it is added to'),
    Condition.F2_AFFINE_BOTH: (
        "the term is F2-affine on the bits of its index: each sub-axis's multiples occupy their own offset bits "
        'and no two share one (so + is XOR), a swizzle XORs bit-fields, an offset shares no bit with the values '
        'it is added to (both sides)'),
    Condition.F2_MATRIX: 'value = M q ^ {c} with M the {rows}x{cols} matrix over GF(2) whose columns are listed',
    Condition.F2_FULL_RANK: (
        'rank M = {rank} = the {k} index bits: the kernel is {{0}}, so distinct indices have distinct values'),
    Condition.F2_KERNEL: 'rank M = {rank} < {k}: kernel vector {v} ({bits})',
    Condition.F2_COVERS: (
        '{c} and every unit vector below {n} lie in the column space, so the image coset contains [0, {n})'),
    Condition.F2_NOT_IN_SPACE: '{y} ^ {c} is not in the column space of M',
    Condition.F2_INJECTIVE: 'rank M = {k}: injective',
    Condition.F2_ONTO: 'the image coset contains [0, {n}) and has {size} = {n} elements, so it is [0, {n})',
    Condition.F2_EQUAL: (
        'both sides are F2-affine on [0, {top}) ⊇ [0, {n}): they agree iff every column and the constant agree'),
    Condition.PROBED: (
        'a failing input found by evaluating G with core at the block starts 0, 1, 2, 4, ... and the in-block '
        'steps 1, 2, 4, ..., m-1'),
    Condition.PROBED_INPUTS: (
        "the witness was found by evaluating with core at cheap inputs (each digit at 1 and at its extent-1, the "
        "index's powers of two, place values, seeded random inputs); no solver was asked"),
    Condition.EXACT_BLOCKS: (
        "G is CuTe's evaluation written exactly in integer arithmetic; every witness is re-evaluated with core"),
    Condition.BLOCK_STEP: (
        'G(k*{m} + j) - G(k*{m}) is the in-block part sum(c*x) = {step}*j iff every in-block coefficient is '
        '{step} times its weight'),
    Condition.BLOCK_STARTS: (
        'every block start G(k*{m}) = G(0) + sum of block-digit terms; G(0) = {base}: all are multiples of '
        '{alignment} iff G(0) and every block coefficient are'),
    Condition.ONE_INPUT_BLOCKS: 'each block has one input',
    Condition.IN_BLOCK_LAYOUT: (
        'G(k*{m} + j) = G(k*{m}) + J(j) with J = {J} (the in-block digits): every block is injective iff J is '
        '({method}: {verdict})'),
    Condition.F2_BLOCK_RANK: (
        'G(k*{m} + j) = M(k*{m}) ^ c ^ J j with J the {inner} in-block columns: every block is injective iff '
        'rank J = {inner}'),
    Condition.F2_BLOCK_STARTS: (
        'the block starts are c ^ (sums of block columns): all multiples of {alignment} iff c and every block '
        'column are'),
    Condition.SWIZZLE_BIJECTION: (
        '{sw} is a bijection of the integers (it keeps the bits it reads): {sw} o 0 o {L} collides exactly where '
        '{L} does'),
    Condition.SWIZZLE_PERMUTES_BLOCKS: (
        '{sw} permutes every aligned block of {period} values (it reads and writes the bits below {period} only) '
        'and is its own inverse: {sw} o 0 o {L} covers [0, {n}) and stays in it exactly when {L} does, and misses '
        '{sw}(y) where {L} misses y'),
    Condition.BIT_SPLIT: (
        'T(P(a + |F|*b)) = F(a) + {q}*H(b) with 0 <= F < {q}, F = {low} (GF(2)), H = {high} (linear): injective '
        'iff F and H are; [0, N) covered iff F covers [0, min(N, {q})) and H [0, ceil(N/{q}))'),
    Condition.F2_UNIT_COLUMNS: (
        'the in-block columns are the unit vectors 1, 2, ..., {half} and c and every block column are multiples '
        'of {m}: each block start has {inner} zero low bits, so XOR with j is + j'),
    # Query
    Query.DIFFERENT_INDICES: 'indices where the two sides differ',
    Query.EQUAL_PAIRS: 'pairs of indices with equal values',
    Query.OUTSIDE_IMAGE: 'values in [0, {n}) outside the image',
    Query.COMMON_VALUE: 'a common value',
    Query.VALUE_NOT_IN_B: 'a value b never takes',
    Query.OUTSIDE_B: "a value of a outside b's image",
    Query.OUTSIDE_TARGET: 'a value outside [0, {n})',
    Query.FAILING_BLOCK: 'a block where {kind} fails',
    Query.BLOCK_STARTS_AND_STEPS: 'block starts and unit steps',
}
