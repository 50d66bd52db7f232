"""The prover's vocabulary as types: verdicts, methods, certificate columns and cells, counterexample keys.

A :class:`~symcute.symbolic.proof.Proof` is data.  Its verdict, its method, the columns and marks of
its certificate table and the keys of its counterexample are members of the enums below, so the
report layer translates them by member (``report/templates``, en and zh) and never reads English
back.  Each member's value is its stable serialised form: the text ``Proof.to_json`` writes and
``str(proof)`` prints (unchanged from the untyped form), and what :func:`read_column`,
:func:`read_cell` and :func:`read_key` turn back into members when a proof is read from JSON.

Some columns and keys are named after one side of the claim (``via (F(G(i)))``, ``F flips``,
``G(F(x)) steps``): :class:`Labelled` is such a name, a ``str`` that remembers its kind and label.
"""

from __future__ import annotations

from enum import Enum


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
