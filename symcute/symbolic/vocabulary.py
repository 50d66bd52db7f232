"""The prover's vocabulary as types: verdicts, methods, certificate columns and cells, counterexample keys.

A :class:`~symcute.symbolic.proof.Proof` is data.  Its verdict, its method, the columns and marks of
its certificate table and the keys of its counterexample are members of the enums below, so the
report layer translates them by member (``report/templates``, en and zh) and never reads English
back.  Each member's value is its stable serialised form: the text ``Proof.to_json`` writes and
``str(proof)`` prints (unchanged from the untyped form), and what :func:`read_column`,
:func:`read_cell` and :func:`read_key` turn back into members when a proof is read from JSON.

Some columns and keys are named after one side of the claim (``via (F(G(i)))``, ``F flips``,
``G(F(x)) steps``): :class:`Labelled` is such a name, a ``str`` that remembers its kind and label.

A proof's statement, its reason, its certificate's conditions and the exact back-ends' queries are
:class:`Phrase` values: a ``str`` (the neutral English form below, which ``str(proof)`` prints and JSON
stores, unchanged from the untyped form) that keeps its kind (a member of :class:`Statement`,
:class:`Reason`, :class:`Condition` or :class:`Query`, whose value is the pattern) and its typed
arguments (numbers, layouts' CuTe text, names, nested phrases).  The report words each kind in its
own templates (``report/templates/phrases_en.py``, ``phrases_zh.py``); symbolic never imports them.
"""

from __future__ import annotations

import functools
import re
import string
from enum import Enum, unique


class _Term(str, Enum):
    """A str-valued enum that prints as its value (``f"{v}"`` and ``str(v)`` alike, on every Python)."""

    def __str__(self) -> str:
        return str.__str__(self)

    __format__ = str.__format__


class Verdict(_Term):
    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


class Method(_Term):
    """How a verdict was reached (a conjunction of parts joins its parts' methods with ``+``)."""
    REFINEMENT = "refinement"    # mutual refinement: both sides as linear forms over common digits
    CHAIN = "chain"              # the sorted-stride chain (injectivity, surjectivity)
    GF2 = "gf2"                  # linear algebra over GF(2)
    EXHAUSTIVE = "exhaustive"    # every input evaluated
    PROBE = "probe"              # a failing input found by evaluating with core at cheap inputs (no solver)
    Z3 = "z3"
    ISL = "isl"
    ARITHMETIC = "arithmetic"    # a closed-form argument on the integers (contracts)
    INSPECTION = "inspection"    # read off the layout itself (contracts: a stride-0 mode)
    VACUOUS = "vacuous"          # the hypothesis does not hold (contracts)
    DOMAINS = "domains"          # the two sides have different domains
    NONE = "none"                # nothing decided


class Column(_Term):
    """A column of a certificate table that the prover defines (the others are the claim's labels)."""
    DIGIT = "digit"
    EXTENT = "extent"
    WEIGHT = "weight"
    STRIDE = "stride"
    ABS_STRIDE = "|stride|"
    SPAN_BELOW = "span below"
    ABOVE_SPAN = "|stride| > span"
    COVERED_BELOW = "covered below"
    WITHIN_COVER = "stride <= covered+1"
    AGREES = ""                  # the equality tables' per-row mark (Cell.OK / Cell.DIFFERS)
    INPUTS = "inputs"
    INPUTS_EVALUATED = "inputs evaluated"
    MISMATCHES = "mismatches"
    FAILURES = "failures"
    DISTINCT_VALUES = "distinct values"
    TARGETS = "targets"
    EXACT_QUERY = "exact query"
    RESULT = "result"
    PART = "part"
    VERDICT = "verdict"
    METHOD = "method"
    INDEX_BIT = "index bit"
    NAME = "name"
    FLIPS = "flips offset bits"
    # the claim language's block arguments (symbolic/blocks.py)
    INPUTS_TRIED = "inputs tried"
    FAILING_INPUT = "failing input"
    BLOCKS = "blocks"
    COEFFICIENT = "coefficient"
    ROLE = "role"                # Cell.IN_BLOCK / Cell.BLOCK
    COLUMN_OF_M = "column of M"
    TIMES_WEIGHT = "{}*weight"   # a block step times each digit's weight
    MOD_OF = "mod {}"            # each coefficient modulo an alignment
    # named after a side of the claim: the value is the pattern, {} the label
    VIA = "via ({})"             # the chain of values through a composition, per digit
    FLIPS_OF = "{} flips"        # the offset bits one side's index bit flips (GF(2) equality)


class Cell(_Term):
    """A mark in a certificate row."""
    OK = "ok"
    DIFFERS = "DIFFERS"
    FAILS = "fails"
    GAP = "gap"
    IN_BLOCK = "in block"        # a digit (or bit) inside one block
    BLOCK = "block"              # a digit (or bit) that numbers the blocks


class CounterexampleKey(_Term):
    """A key of a counterexample.  Every key is a member (or a :class:`Labelled` name of a patterned member):
    a side of the claim is keyed by :func:`side_key`, never by its bare label, so a side labelled ``digit``
    cannot overwrite the ``digit`` entry."""
    INDEX = "index"
    COORDINATE = "coordinate"
    INDICES = "indices"
    COORDINATES = "coordinates"
    VALUE = "value"
    MISSING_VALUE = "missing value"
    DIGIT = "digit"
    # images of two layouts (symbolic/claims.py)
    INDEX_OF_A = "index of a"
    INDEX_OF_B = "index of b"
    # CuTe's complement @post (symbolic/contracts.py: R = complement(L))
    NEEDED_SIZE = "needed"                       # size(R) must be at least this
    PREVIOUS_OF_R = "R(i-1)"
    VALUE_OF_R = "R(i)"
    INDEX_OF_L = "L index"                       # the input of L with the value R(i)
    ONLY_IN_IMAGE_OF_R = "in image(R) only"
    MISSING_FROM_IMAGE_OF_R = "missing from image(R)"
    # blocks of inputs (symbolic/blocks.py) and the claim language's coordinates (symbolic/claim.py)
    FIRST = "first"
    SECOND = "second"
    BLOCK_START = "block start"
    START_VALUE = "start value"
    EXPECTED = "expected"
    ALIGNMENT = "alignment"
    FIXED_DIGITS = "for"                         # the sub-axes a "for every" claim fixes, with their values
    OTHER_DIGITS = "at"                          # the other sub-axes
    THREAD = "thread"
    THREAD_VALUE = "v"                           # the value number within the thread (CuTe's TV "v")
    # named after a side of the claim: the value is the pattern, {} the label
    SIDE = "{}"                                  # that side's value at the counterexample
    SIDE_NAMED = "side {}"                       # the same, for a label that reads like one of the keys here
    STEPS = "{} steps"           # the evaluation chain of a composite, named after its label
    SIZE = "size({})"            # the size of one side, named after its label


class Labelled(str):
    """A column or key named after one side of the claim: ``Labelled(Column.VIA, "F(G(i))")`` is
    ``"via (F(G(i)))"`` with ``.kind`` and ``.label`` kept."""

    __slots__ = ("kind", "label")

    def __new__(cls, kind, label: str):
        self = super().__new__(cls, kind.value.format(label))
        self.kind, self.label = kind, label
        return self

    def __repr__(self) -> str:
        return f"Labelled({self.kind.name}, {self.label!r})"

    def __reduce__(self):
        return (Labelled, (self.kind, self.label))


def _reader(enum, fallback=None):
    fixed = {m.value: m for m in enum if "{}" not in m.value}
    patterns = [(m, *m.value.split("{}")) for m in enum if "{}" in m.value and m is not fallback]

    def read(text):
        """The member (or :class:`Labelled` name) ``text`` serialises; any other text is returned as is
        (as the ``fallback`` member's Labelled name where there is one)."""
        if not isinstance(text, str) or isinstance(text, (enum, Labelled)):
            return text
        if text in fixed:
            return fixed[text]
        for member, head, tail in patterns:
            if len(text) > len(head) + len(tail) and text.startswith(head) and text.endswith(tail):
                label = text[len(head):len(text) - len(tail)]
                if member is CounterexampleKey.SIDE_NAMED and not _reads_as_key(label):
                    break   # "side x" where x reads as no key: a side labelled "side x" (see side_key)
                return Labelled(member, label)
        return text if fallback is None else Labelled(fallback, text)
    return read


read_column = _reader(Column)
read_cell = _reader(Cell)
read_key = _reader(CounterexampleKey, CounterexampleKey.SIDE)


def _reads_as_key(text: str) -> bool:
    key = read_key(text)
    return not (isinstance(key, Labelled) and key.kind is CounterexampleKey.SIDE)


def in_summary(key) -> bool:
    """Whether a one-line summary of a counterexample shows this entry: not the first differing digit nor a
    composite's evaluation chain (they explain the other entries)."""
    return key is not CounterexampleKey.DIGIT and not (isinstance(key, Labelled) and key.kind is CounterexampleKey.STEPS)


def side_key(label: str) -> Labelled:
    """The counterexample key of the side labelled ``label``: the label itself (``F(G(i))``), or
    ``side <label>`` where the label reads like another key (a side labelled ``digit``, ``index`` or
    ``F steps``), so that the side's entry and the prover's never share a key, in memory or in JSON.

    @post read_key(str(side_key(x))) == side_key(x) and its ``.label`` is ``x``
    """
    label = str(label)
    return Labelled(CounterexampleKey.SIDE_NAMED if _reads_as_key(label) else CounterexampleKey.SIDE, label)


# --- phrases: statements, reasons, conditions, queries ------------------------------------------------

class Count(int):
    """A number of inputs or items: an int that prints as ``2^k`` from 1024 up when it is a power of two
    (as the limits' messages write it), else as the int."""

    def __str__(self) -> str:
        n = int(self)
        return f"2^{n.bit_length() - 1}" if n >= 1024 and n & (n - 1) == 0 else str(n)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    __repr__ = __str__


class Phrase(str):
    """A statement, reason, condition or query of the prover as data: ``Phrase(Statement.INJECTIVE, a="8:1",
    n=8)`` is the text ``"8:1 is injective on [0, 8)"`` (the kind's pattern filled in) with ``.kind``
    and ``.args`` kept, so the report can word it in any language.  An argument is a number, a text
    (a layout's CuTe notation, a name, a label, a back-end's own output) or a nested Phrase."""

    __slots__ = ("kind", "args")

    def __new__(cls, kind, /, **args):
        self = super().__new__(cls, kind.value.format(**args))
        self.kind, self.args = kind, args
        return self

    def __repr__(self) -> str:
        return f"Phrase({type(self.kind).__name__}.{self.kind.name}, {str(self)!r})"

    def __reduce__(self):
        return (_phrase, (self.kind, self.args))


def _phrase(kind, args):
    return Phrase(kind, **args)


@unique
class Statement(_Term):
    """What a proof states (``Proof.statement``)."""
    # the prover (symbolic/prover.py)
    EQUAL_SIZES = "{a} == {b} as functions (sizes {na} and {nb})"
    EQUAL = "{a}(i) == {b}(i) for all 0 <= i < {n}"
    RIGHT_INVERSE = "{a}({b}(i)) == i for all 0 <= i < {n} ({a} = {L}, {b} = {R})"
    LEFT_INVERSE = "{b}({a}(x)) == x for all 0 <= x < {n} ({a} = {L}, {b} = {R})"
    INJECTIVE = "{a} is injective on [0, {n})"
    SURJECTIVE = "{a} maps [0, {size}) onto a superset of [0, {n})"
    BIJECTIVE = "{a} is a bijection from [0, {size}) onto [0, {n})"
    # images (symbolic/claims.py)
    DISJOINT = "image of {a} on [0, {na}) and image of {b} on [0, {nb}) are disjoint"
    CONTAINS = "image of {b} on [0, {nb}) contains the image of {a} on [0, {na})"
    # the claim language (symbolic/claim.py)
    CONTIGUOUS = "{a}(j) == {a}(0) + {step}*j for all 0 <= j < {n}"
    ALIGNED = "{a}(0) is a multiple of {alignment}"
    FOR_EVERY = "for every {axes}: {claim}"
    BLOCK_INJECTIVE = "for every {axes}: {a} is injective in the other sub-axes"
    BLOCK_CONTIGUOUS = "for every {axes}: {a} takes consecutive values (step {step}) in the other sub-axes"
    BLOCK_ALIGNED = "for every {axes}: {a} starts at a multiple of {alignment}"
    VECTOR_CONTIGUOUS = "every thread's {width} consecutive values are at consecutive addresses ({what})"
    VECTOR_ALIGNED = "every group starts at a multiple of {alignment}"
    VECTOR = ("for every thread t and every group of {width} consecutive values of t: the addresses are "
              "consecutive and the first is a multiple of {alignment} ({what})")
    MEMORY_OF_TV = "memory {memory} o tv {tv}"
    # CuTe's contracts (symbolic/contracts.py): "{call} = {result}: ..." names CuTe's value
    CONTRACT = "{call} = {result}: {claim}"
    MEETS_BY_MODE = "{call} = {result} meets R(c) == A(B(c)) mode by mode"
    MEETS_POST = "{call} = {result} meets CuTe's @post"
    MEETS_BY_MODE_DEFINITION = "{call} = {result} meets the definition mode by mode"
    MEETS_DEFINITION = "{call} = {result} meets its definition"
    SAME_FUNCTION_AS = "the same function as {a}"
    COMPOSES = "R(c) == A(B(c)) for all 0 <= c < {n}"
    INVERTS_RIGHT = "L(R(i)) == i for all 0 <= i < {n}"
    INVERTS_LEFT = "L(R(L(i))) == L(i) for all 0 <= i < {n}"
    COMPLEMENT_SIZE = "size(R) = {size} >= {cotarget} / size(filter(L)) = {need}"
    ORDERED = "R(i-1) < R(i) for all 1 <= i < {n}"
    DISJOINT_FROM = "R(i) != L(j) for all 1 <= i < {n}, 0 <= j < {m}"
    MODE_SAME_FUNCTION = "mode {path} of {result}: the same function as {a}"
    DIVIDES = "D(c) == L(B(c)) for all 0 <= c < {n}, B = {B}"
    COMPATIBLE = "size({label}) == size(B) (composition's @post compatible(B, {label}))"
    DIVIDE_PART = "{call} part {piece}: {claim}"
    BLOCK_PART = "{call} = {result}: the block part {piece} == {a}"
    TILE_PART = "{call} = {result}: the tile part {piece} == complement(A, {cotarget}) o B = {C} o {B}"
    MODE_ORDER = "mode i is {order} of logical_product(A, B)"
    SAME_FUNCTION_ON = "the same function on [0, {n})"
    SAME_IMAGE_NO_ZERO = "the same image, no stride-0 mode"
    NO_ZERO_STRIDE = "no stride-0 mode of extent > 1"
    SAME_MEMORY_IN_UNITS = "the same memory in units of {units}"
    SAME_MEMORY = "the same memory"
    IF_INJECTIVE = "if {a} is injective with non-negative strides, then {claim}"
    SAME_IMAGE = "image(R) == {image}"
    # the parametric prover (symbolic/parametric/prover.py: ParamProof.claim)
    PARAM_EQUAL = "{a} == {b} as functions"
    PARAM_INJECTIVE = "{a} is injective"
    PARAM_FORMULA = "F == {expected}"


@unique
class Reason(_Term):
    """Why a verdict was reached, or why the prover could not decide (``Proof.reason``)."""
    # equality
    DOMAINS_DIFFER = "the domains differ: index {index} is in the domain of {side} only"
    DIGIT_DIFFERS = ("digit {digit} has coefficient {lhs} on the left and {rhs} on the right; "
                     "{index} is the smallest index where they differ")
    DIGIT_COEFFICIENTS = "{digit}=1 (extent {extent}): coefficient {lhs} vs {rhs}"   # a counterexample's digit entry
    FIRST_DIFFERENCE = "{index} is the smallest index where the two sides differ"
    SIZES_DIFFER = "the sizes differ"
    # the undecided chain: each back-end that did not decide adds its clause
    NO_COMMON_REFINEMENT = "the two sides' digits have no common refinement"
    EXACT_UNDECIDED = "{why}; the exact back-ends did not decide ({evidence})"
    OVER_LIMIT = "{why}; the domain of {n} inputs exceeds the exhaustive limit {limit} ({how})"
    OVER_LIMIT_ITEMS = "{why}; enumerating {n} items exceeds the exhaustive limit {limit} ({how})"
    NO_F2_VIEW = "{why}; no GF(2) view either: {detail}"
    NO_F2_DOMAIN = "{why}; no GF(2) view of a domain of {n} inputs (not a power of two)"
    EXACT_OFF = "the exact back-ends are off (SYMCUTE_EXACT=0)"
    TOO_MANY_MODES = ("the claim has {modes} flat modes, more than the exact back-ends take "
                      "(symcute.symbolic.exact.MAX_MODES = {limit})")
    BACKEND_NOTE = "{backend}: {detail}"
    NO_BACKEND = "no exact back-end answers {question}"
    BOTH = "{first}; {second}"
    # injectivity
    ZERO_STRIDE = "digit {digit} (extent {extent}) has stride 0: a broadcast"
    SAME_VALUE = "{digit}=1 and {other}={k} give the same value"
    CANCEL = "{other}={k} and {digit}=1 cancel"
    COLLISION_FOUND = "two inputs with the same value (found by an exact back-end)"
    NOT_REPRODUCED = "{backend}'s counterexample ({what}) did not reproduce ({check}): no counterexample is shown"
    COLLISION = "two inputs with the same value"
    NO_CHAIN = "the sorted strides do not form a chain and no simple collision exists"
    # surjectivity, bijectivity
    GAP = ("the digits of stride < {c} reach at most {covered}, and every other digit adds at least {c} > {y}, "
           "so no input maps to {y}")
    LARGEST_VALUE = "the largest value is {top}"
    NEGATIVE_STRIDES = "negative strides: the chain argument does not apply"
    NOT_HIT = "no input maps to {y}"
    NOT_INJECTIVE = "not injective: {why}"
    NOT_ONTO = "not onto [0, n): {why}"
    BIT_SPLIT_PART = "{why} (one block of the bit split)"
    IMAGE_BOUND_UNKNOWN = "injective and onto, but the image bound is unknown"
    NEGATIVE_STRIDE = "digit {digit} has a negative stride"
    OUTSIDE_FOUND = "a value outside the target (found by ISL)"
    OUTSIDE = "a value outside the target"
    OUTSIDE_TARGET = "{why}: outside [0, {n})"
    VALUE_OUTSIDE = "the value at {index} is {value}: outside [0, {n})"
    # GF(2)
    F2_RANK_DEFICIENT = ("M has rank {rank} < {k}; the kernel vector {v} ({bits}) maps to 0, so indices 0 and {v} "
                         "collide")
    F2_OUTSIDE_SPACE = "{y} ^ {c} is outside the column space of M (rank {rank}), so no index maps to {y}"
    F2_MISSES_ZERO = "the value at 0 is {c} and {c} is outside the column space, so the image misses 0"
    F2_TOO_MANY = "{size} distinct values cannot all lie in [0, {n}): {v} at index {x}"
    F2_CONSTANTS_DIFFER = "the constants differ ({lhs} vs {rhs})"
    F2_BIT_DIFFERS = "index bit {bit} flips different offset bits on the two sides"
    # images
    MEET = "{a}({x}) = {b}({y}) = {value}"
    NOT_IN_B = "no index of {b} maps to {value} = {a}({x})"
    SAME_FUNCTION_SUBDOMAIN = "a and b are the same function on [0, {na}) and {na} <= {nb}"
    # the claim language
    WHOLE_INJECTIVE = "{a} is injective on its whole domain [0, {size}), which contains [0, {n})"
    ON_WHOLE_DOMAIN = "{why} on the whole domain [0, {size}), which contains [0, {n})"
    NOT_CONTIGUOUS = "not contiguous: {why}"
    NOT_ALIGNED = "not aligned: {why}"
    # blocks (symbolic/blocks.py)
    NOT_A_CHAIN = "the digits of the domain are not a mixed-radix chain at weight {weight}"
    STRADDLES = "digit {digit} (weight {weight}, extent {extent}) straddles the block boundary {m} at a non-multiple"
    IN_BLOCK_UNKNOWN = "the in-block layout {J}'s injectivity is unknown ({why})"
    NOT_STEP = "digit {digit} (weight {weight}) has coefficient {coef}, not {want}"
    BASE_VALUE = "G(0) = {base}"
    NOT_MULTIPLE = "digit {digit} has coefficient {coef}, not a multiple of {alignment}"
    F2_BLOCK_KERNEL = "rank J < {inner}: {v} is in its kernel"
    F2_CONSTANT = "c = {c}"
    F2_BLOCK_COLUMN = "the column of index bit {bit} is {column}"
    BLOCK_COLLISION = "two inputs of block {block} have the value {value}"
    NOT_CONSECUTIVE = "{value} is not {start} + {step}*{offset}"
    BLOCK_START = "a block starts at {value}, not a multiple of {alignment}"
    # linear forms (symbolic/linear.py): why a term has no linear form
    SWIZZLED = "{layout} is swizzled: an XOR of bit-fields, not a linear form over digits"
    NOT_A_BOX_EXTENDED = "[0, {n}) is not a box of the digits of {layout} (extended past its size {size})"
    NOT_A_BOX = "[0, {n}) is not a box of the digits of {layout}"
    ENDS_INSIDE = ("[0, {n}) is not a box of the digits of {layout}: it ends inside digit {digit} "
                   "(weight {weight}) at a non-multiple of its weight")
    NEGATIVE_INNER = "digit {digit} of the inner function has a negative coefficient {coef}"
    NO_SPLIT = ("digit {digit} (extent {extent}, value step {step}) does not split over the digits of {layout}: "
                "a step straddles a digit boundary")
    CARRIES = "the inner values can carry out of digit {digit} of {layout} (they span {span} positions of its {extent})"
    # contracts
    EMPTY_DOMAIN = "the domain is empty (size 0): the claim is checked at no point"
    EMPTY_RESULT = ("{label} is empty (size 0) while B has {b_size} elements: {label} has no value at any "
                    "of B's coordinates, so it is not the composition it should be")
    RESULT_SIZE_DIFFERS = "{label} has {size} elements, B has {b_size}: they cannot be the same function of c"
    PART_FAILS = "{part}: {why}"
    EVALUATED_WITH_CORE = "evaluated with core"
    RE_EVALUATED = "re-evaluated with core"
    PRECONDITION_FAILS = ("the precondition does not hold (a negative stride, or L not proved injective): "
                          "the claim says nothing here")
    IMAGES_ENUMERATED = "both images enumerated with core"
    IN_ONE_IMAGE = "in one image and not the other"
    # the parametric prover's arguments (symbolic/parametric/prover.py: ParamProof.method)
    PARAM_SIZES_DIFFER = "sizes differ"
    PARAM_SEARCH = "instantiation search"
    PARAM_SIZE_UNSETTLED = "size equality not settled"
    PARAM_SAME_DIGITS = "digits: same sub-axes, equal coefficients where the extent exceeds 1"
    PARAM_COEFFICIENT_DIFFERS = "digits: a coefficient differs"
    PARAM_NOTHING_FOUND = "no certificate and no counterexample found"
    PARAM_CHAIN = "digits: sorted coefficients, each at least the span below it"
    PARAM_POLYNOMIAL = "polynomial identity over the sub-axes and parameters"
    PARAM_Z3_NO_COORDINATE = "z3: no admissible parameters and coordinate where they differ"
    PARAM_Z3_NO_INDEX = "z3: no admissible parameters and index where they differ"
    PARAM_Z3_NO_COLLISION = "z3: no admissible parameters and two indices with one offset"
    PARAM_Z3_MODEL = "z3 model, re-evaluated with core"
    PARAM_UNDECIDED = "not a polynomial identity; z3 did not decide"
    # how one fact over the parameters was decided (symbolic/parametric: FactVerdict.how)
    FACT_EVALUATION = "evaluation"                           # no parameter left: the fact evaluated
    FACT_POLYNOMIAL = "polynomial"                           # an identity of polynomials
    FACT_Z3 = "z3"                                           # z3: no admissible counterexample
    FACT_Z3_UNSUPPORTED = "z3: unsupported expression"
    FACT_Z3_MODEL = "z3 model, re-evaluated"                 # z3's model, the fact false at it
    FACT_Z3_UNKNOWN = "z3: unknown"                          # z3 gave up (its time limit)
    FACT_Z3_UNCONFIRMED = "z3: sat"                          # z3's model, but the fact not false at it
    # why a swizzle synthesis has no candidate conflict-free on every side (memory/synth.py)
    SYNTH_NONE_ALONE = ("{side}: no swizzle of the family makes it conflict-free, even alone (best {best} "
                        "wavefronts against {ideal} ideal, with {swizzle})")
    SYNTH_ALONE_BUT = "{side} is conflict-free with e.g. {swizzle}, but {why}"   # why: clauses joined by BOTH
    SYNTH_THEN_NEEDS = "{side} then needs {wavefronts} wavefronts (ideal {ideal})"


@unique
class Condition(_Term):
    """A side condition a certificate's argument used (``Certificate.conditions``)."""
    MIXED_RADIX = ("the digits form the mixed-radix chain of [0, {top}) (weights are prefix products of the "
                   "extents)")
    LINEAR_FORMS = "both sides are linear forms in these digits, so they agree iff every row agrees"
    NO_OVERFLOW = ("through each composition, no outer digit can overflow into the next (checked digit by "
                   "digit), so the composite stays linear")
    EXACT_ENCODING = ("each side is CuTe's evaluation written exactly in integer arithmetic (mixed-radix digits, "
                      "floor and mod by constants, swizzle bits); Z3 or ISL decides the negated claim, and every "
                      "witness is re-evaluated with core")
    EVALUATED_BOTH = "evaluated both sides at all {n} inputs"
    EVALUATED = "evaluated at all {n} inputs"
    EVALUATED_WITH_CORE = "both sides evaluated with core"
    EVALUATED_CORE = "evaluated at all {n} inputs with core"
    CHAIN_INJECTIVE = ("digits sorted by |stride|; each stride exceeds the largest sum the smaller digits reach, "
                       "so distinct digit vectors give distinct values")
    CHAIN_COVERS = "positive-stride digits sorted by stride cover [0, {covered}] without a hole (other digits held at 0)"
    IN_TARGET = "every value lies in [0, {n})"
    # GF(2)
    F2_AFFINE = ("the term is F2-affine on the bits of its index: each sub-axis's multiples occupy their own offset "
                 "bits and no two share one (so + is XOR), a swizzle XORs bit-fields, an offset shares no bit with "
                 "the values it is added to")
    F2_AFFINE_BOTH = F2_AFFINE + " (both sides)"
    F2_MATRIX = "value = M q ^ {c} with M the {rows}x{cols} matrix over GF(2) whose columns are listed"
    F2_FULL_RANK = "rank M = {rank} = the {k} index bits: the kernel is {{0}}, so distinct indices have distinct values"
    F2_KERNEL = "rank M = {rank} < {k}: kernel vector {v} ({bits})"
    F2_COVERS = "{c} and every unit vector below {n} lie in the column space, so the image coset contains [0, {n})"
    F2_NOT_IN_SPACE = "{y} ^ {c} is not in the column space of M"
    F2_INJECTIVE = "rank M = {k}: injective"
    F2_ONTO = "the image coset contains [0, {n}) and has {size} = {n} elements, so it is [0, {n})"
    F2_EQUAL = ("both sides are F2-affine on [0, {top}) ⊇ [0, {n}): they agree iff every column and the constant "
                "agree")
    # blocks
    PROBED = ("a failing input found by evaluating G with core at the block starts 0, 1, 2, 4, ... and the "
              "in-block steps 1, 2, 4, ..., m-1")
    PROBED_INPUTS = ("the witness was found by evaluating with core at cheap inputs (each digit at 1 and at its "
                     "extent-1, the index's powers of two, place values, seeded random inputs); no solver was asked")
    EXACT_BLOCKS = "G is CuTe's evaluation written exactly in integer arithmetic; every witness is re-evaluated with core"
    BLOCK_STEP = ("G(k*{m} + j) - G(k*{m}) is the in-block part sum(c*x) = {step}*j iff every in-block coefficient "
                  "is {step} times its weight")
    BLOCK_STARTS = ("every block start G(k*{m}) = G(0) + sum of block-digit terms; G(0) = {base}: all are multiples "
                    "of {alignment} iff G(0) and every block coefficient are")
    ONE_INPUT_BLOCKS = "each block has one input"
    IN_BLOCK_LAYOUT = ("G(k*{m} + j) = G(k*{m}) + J(j) with J = {J} (the in-block digits): every block is injective "
                       "iff J is ({method}: {verdict})")
    F2_BLOCK_RANK = ("G(k*{m} + j) = M(k*{m}) ^ c ^ J j with J the {inner} in-block columns: every block is "
                     "injective iff rank J = {inner}")
    F2_BLOCK_STARTS = "the block starts are c ^ (sums of block columns): all multiples of {alignment} iff c and every block column are"
    SWIZZLE_BIJECTION = ("{sw} is a bijection of the integers (it keeps the bits it reads): {sw} o 0 o {L} "
                         "collides exactly where {L} does")
    SWIZZLE_PERMUTES_BLOCKS = ("{sw} permutes every aligned block of {period} values (it reads and writes the bits "
                               "below {period} only) and is its own inverse: {sw} o 0 o {L} covers [0, {n}) and stays "
                               "in it exactly when {L} does, and misses {sw}(y) where {L} misses y")
    BIT_SPLIT = ("T(P(a + |F|*b)) = F(a) + {q}*H(b) with 0 <= F < {q}, F = {low} (GF(2)), H = {high} (linear): "
                 "injective iff F and H are; [0, N) covered iff F covers [0, min(N, {q})) and H [0, ceil(N/{q}))")
    F2_UNIT_COLUMNS = ("the in-block columns are the unit vectors 1, 2, ..., {half} and c and every block column are "
                       "multiples of {m}: each block start has {inner} zero low bits, so XOR with j is + j")


@unique
class Query(_Term):
    """What an exact back-end was asked to find (the ``exact query`` cell of its certificate)."""
    DIFFERENT_INDICES = "indices where the two sides differ"
    EQUAL_PAIRS = "pairs of indices with equal values"
    OUTSIDE_IMAGE = "values in [0, {n}) outside the image"
    COMMON_VALUE = "a common value"
    VALUE_NOT_IN_B = "a value b never takes"
    OUTSIDE_B = "a value of a outside b's image"
    OUTSIDE_TARGET = "a value outside [0, {n})"
    FAILING_BLOCK = "a block where {kind} fails"
    BLOCK_STARTS_AND_STEPS = "block starts and unit steps"


PHRASE_KINDS = (Statement, Reason, Condition, Query)


def _pattern(member):
    """``(parts, literal length)`` of a member's pattern: ``parts`` are ``(literal, field or None)``."""
    parts = [(text, field) for text, field, _spec, _conv in string.Formatter().parse(member.value)]
    return parts, sum(len(text) for text, _ in parts)


_PATTERNS = {}
_INT = re.compile(r"-?[0-9]+\Z")
_POW2 = re.compile(r"2\^([0-9]+)\Z")
# Fields that hold a number: a reading that puts other text there is not the phrase's (the pattern
# "the largest value is {top}" must not read "the largest value is 48: outside [0, 4)")
NUMBER_FIELDS = frozenset({
    "n", "na", "nb", "size", "index", "top", "k", "y", "c", "covered", "x", "v", "rank", "modes", "limit",
    "weight", "extent", "coef", "m", "base", "alignment", "step", "offset", "start", "want", "span", "block",
    "column", "cotarget", "need", "half", "inner", "lhs", "rhs", "rows", "cols", "value", "width"})
# Fields that hold a nested phrase (read back as one when their text is one); every other field is text
PHRASE_FIELDS = frozenset({"why", "claim", "part", "first", "second", "what", "evidence"})
# Of those, the fields the prover always fills with a Statement (a reason's "why" may be an error's text): a
# reading that puts other text there is not the phrase's ("formula: layout ..." is no "{part}: {why}")
ALWAYS_STATEMENTS = frozenset({"claim", "part", "what"})
# Fields whose text is one of a few names
CHOICE_FIELDS = {"backend": frozenset({"Z3", "ISL"})}
# Text a field never holds: one back-end's note never contains the next one's (exact.decide joins them with BOTH)
REFUSED_IN = {"detail": ("; ISL: ", "; Z3: ")}
READINGS = 64   # the most ways one pattern may split one text (a text with many ": " has many)
# What a field costs a reading: of two readings that explain as many literal characters, the one with
# fewer fields (fewer pieces of text left unexplained) wins
FIELD_COST = 1
# Reading is a search over splits, nested up to 8 deep: on hostile text (a derivation file is untrusted;
# ": " * 2000 has many splits at every depth) it grows faster than the text.  A text longer than
# MAX_PHRASE_TEXT, or one whose reading takes more than PHRASE_WORK steps (splits tried and patterns
# looked at), stays plain text: its words are the same (str(phrase) == text), only the report's other
# language cannot word it.  Real phrases are far inside both (the longest in the tests: ~300 characters).
MAX_PHRASE_TEXT = 2000
PHRASE_WORK = 20_000


class _Exhausted(Exception):
    """A reading ran past PHRASE_WORK steps."""


_work = [0]   # steps of the reading in progress (reset by each outermost read_phrase)


def _step() -> None:
    _work[0] += 1
    if _work[0] > PHRASE_WORK:
        raise _Exhausted


def _patterns(kinds):
    key = tuple(kinds)
    if key not in _PATTERNS:
        # the most literal text first: of two readings that explain as much, the more specific wins
        _PATTERNS[key] = sorted(((m, *_pattern(m)) for kind in kinds for m in kind), key=lambda r: -r[2])
    return _PATTERNS[key]


def _number(text: str) -> bool:
    return bool(_INT.match(text) or _POW2.match(text))


def _fits(field: str, text: str, depth: int = 0) -> bool:
    if field in NUMBER_FIELDS:
        return _number(text)
    if field in ALWAYS_STATEMENTS:
        return depth < 8 and _best(text, (Statement,), depth + 1) is not None
    if field in REFUSED_IN and any(r in text for r in REFUSED_IN[field]):
        return False
    return text in CHOICE_FIELDS[field] if field in CHOICE_FIELDS else True


def _splits(parts, text: str, depth: int = 0):
    """Every way ``text`` reads as ``parts`` (literals in place, each field's text fitting it): dicts field ->
    text, at most READINGS of them."""
    out = []

    def walk(k, pos, bound):
        if len(out) >= READINGS:
            return
        _step()
        if k == len(parts):
            if pos == len(text):
                out.append(dict(bound))
            return
        literal, field = parts[k]
        if not text.startswith(literal, pos):
            return
        pos += len(literal)
        if field is None:
            walk(k + 1, pos, bound)
            return
        following = parts[k + 1][0] if k + 1 < len(parts) else ""
        if field in bound:                       # a field repeated: the same text again
            if text.startswith(bound[field], pos):
                walk(k + 1, pos + len(bound[field]), bound)
            return
        if not following:                        # the last field (or one followed by a field): the rest
            ends = [len(text)] if k + 1 == len(parts) else range(pos, len(text) + 1)
        else:
            ends, at = [], text.find(following, pos)
            while at != -1:
                ends.append(at)
                at = text.find(following, at + 1)
        for end in ends:
            value = text[pos:end]
            if _fits(field, value, depth):
                bound[field] = value
                walk(k + 1, end, bound)
                del bound[field]

    walk(0, 0, {})
    return out


def _argument(field: str, text: str, depth: int):
    if _INT.match(text) and str(int(text)) == text:
        return int(text)
    m = _POW2.match(text)
    if m and int(m.group(1)) >= 10:
        return Count(1 << int(m.group(1)))
    if field in PHRASE_FIELDS and depth < 8:
        return read_phrase(text, (Statement,) if field in ALWAYS_STATEMENTS else PHRASE_KINDS, depth + 1)
    return text


def read_phrase(text, kinds=PHRASE_KINDS, depth: int = 0):
    """The :class:`Phrase` that ``text`` serialises (its arguments read back too: numbers as ints, nested
    clauses as phrases), trying the members of ``kinds``; any other text is returned as is.

    Text can read more than one way (``"{part}: {why}"`` splits at any ``": "``, and a pattern whose last
    field is text can swallow a clause): of the readings whose number fields hold numbers, the one whose
    patterns' own words explain the most of the text (nested phrases included, less FIELD_COST a field)
    wins.  Every reading gives the same text back.

    @post str(read_phrase(t)) == t
    """
    if not isinstance(text, str) or isinstance(text, Phrase) or len(text) > MAX_PHRASE_TEXT:
        return text
    if depth:
        best = _best(str(text), tuple(kinds), depth)
    else:
        _work[0] = 0
        try:
            best = _best(str(text), tuple(kinds), depth)
        except _Exhausted:   # nothing of the unfinished reading is cached (lru_cache keeps no exception)
            return text
    return best[0] if best else text


@functools.lru_cache(maxsize=4096)
def _best(text: str, kinds: tuple, depth: int):
    """``(phrase, literal characters explained)`` of the best reading of ``text``, or None."""
    best = None
    for member, parts, literal in _patterns(kinds):
        _step()
        if not text.startswith(parts[0][0]) or not text.endswith(parts[-1][0] if parts[-1][1] is None else ""):
            continue
        for split in _splits(parts, text, depth):
            args, score = {}, literal - FIELD_COST * len(split)
            for k, v in split.items():
                args[k] = _argument(k, v, depth)
                if isinstance(args[k], Phrase):
                    score += _best(v, (Statement,) if k in ALWAYS_STATEMENTS else PHRASE_KINDS, depth + 1)[1]
            p = Phrase(member, **args)
            if p != text:   # a number that reads back differently ("007") stays text
                p, score = Phrase(member, **split), literal - FIELD_COST * len(split)
                if p != text:
                    continue
            if best is None or score > best[1]:
                best = (p, score)
    return best
