"""Linear algebra over GF(2): bit matrices, rank, kernel, solving, composition.

An :class:`F2Matrix` is a linear map ``GF(2)^n -> GF(2)^m`` stored as its ``n``
*columns*: column ``j`` is the image of input bit ``j``, an ``int`` whose bit
``i`` is row ``i``.  A vector is an ``int`` bitmask, so ``A(x)`` is the XOR of
the columns selected by the set bits of ``x``.  This is Triton's "bases" form
of a linear layout (arXiv 2505.23819: one basis vector per input bit), and it is
what a swizzle ``Sw<B,M,S>`` or a power-of-two layout is on the bits of its
offsets (``symcute.symbolic.bits`` builds those maps with named input bits).

Every query is Gaussian elimination on at most a few dozen columns of Python
ints: O(n^2) word operations, independent of the ``2^n`` points of the domain.

    >>> A = F2Matrix((0b01, 0b11, 0b10), 2)          # x0 -> r0, x1 -> r0^r1, x2 -> r1
    >>> A.rank(), A.kernel(), A.solve(0b10)
    (2, (7,), 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..errors import SymcuteError


def _check_vector(v, width: int, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v >> width:
        raise SymcuteError(f"F2Matrix: {what} {v!r} is not a bit vector of {width} bits")
    return v


@dataclass(frozen=True)
class F2Matrix:
    """A GF(2) matrix with ``n_rows`` rows, given by its columns (ints, bit ``i`` = row ``i``).

    @pre every column is an int in [0, 2^n_rows)
    @post A(x ^ y) == A(x) ^ A(y)
    """

    columns: tuple
    n_rows: int

    def __post_init__(self):
        if isinstance(self.n_rows, bool) or not isinstance(self.n_rows, int) or self.n_rows < 0:
            raise SymcuteError(f"F2Matrix: n_rows must be a non-negative integer, got {self.n_rows!r}")
        cols = tuple(self.columns)
        for j, c in enumerate(cols):
            _check_vector(c, self.n_rows, f"column {j}")
        object.__setattr__(self, "columns", cols)

    # --- construction ------------------------------------------------------------
    @staticmethod
    def identity(n: int) -> "F2Matrix":
        return F2Matrix(tuple(1 << j for j in range(n)), n)

    @staticmethod
    def zeros(n_rows: int, n_cols: int) -> "F2Matrix":
        return F2Matrix((0,) * n_cols, n_rows)

    @staticmethod
    def from_rows(rows: Iterable[int], n_cols: int) -> "F2Matrix":
        """The matrix whose row ``i`` is the bitmask ``rows[i]`` over the ``n_cols`` inputs."""
        rows = tuple(rows)
        for i, r in enumerate(rows):
            _check_vector(r, n_cols, f"row {i}")
        return F2Matrix(tuple(sum(((r >> j) & 1) << i for i, r in enumerate(rows)) for j in range(n_cols)),
                        len(rows))

    @staticmethod
    def from_function(fn, n_cols: int, n_rows: int) -> "F2Matrix":
        """The matrix whose column ``j`` is ``fn(1 << j)`` (the caller vouches that ``fn`` is linear)."""
        return F2Matrix(tuple(fn(1 << j) for j in range(n_cols)), n_rows)

    # --- shape and values -----------------------------------------------------------
    @property
    def n_cols(self) -> int:
        return len(self.columns)

    def __call__(self, x: int) -> int:
        """``A x``: the XOR of the columns of the set bits of ``x``."""
        _check_vector(x, self.n_cols, "input")
        out, j = 0, 0
        while x:
            if x & 1:
                out ^= self.columns[j]
            x >>= 1
            j += 1
        return out

    def rows(self) -> tuple:
        """Row ``i`` as a bitmask over the inputs (which input bits are XORed into output bit ``i``)."""
        return tuple(sum(((c >> i) & 1) << j for j, c in enumerate(self.columns)) for i in range(self.n_rows))

    def to_lists(self) -> list:
        """The dense 0/1 matrix, row by row (row ``i``, column ``j``)."""
        return [[(c >> i) & 1 for c in self.columns] for i in range(self.n_rows)]

    def transpose(self) -> "F2Matrix":
        return F2Matrix(self.rows(), self.n_cols)

    def compose(self, inner: "F2Matrix") -> "F2Matrix":
        """``self o inner`` (first ``inner``, then ``self``).  @pre inner.n_rows <= self.n_cols"""
        if inner.n_rows > self.n_cols:
            raise SymcuteError(f"F2Matrix.compose: the inner map has {inner.n_rows} output bits, the outer "
                               f"only {self.n_cols} input bits")
        return F2Matrix(tuple(self(c) for c in inner.columns), self.n_rows)

    def __matmul__(self, inner: "F2Matrix") -> "F2Matrix":
        return self.compose(inner)

    def __add__(self, other: "F2Matrix") -> "F2Matrix":
        """Entrywise XOR (the sum of two linear maps)."""
        if (self.n_rows, self.n_cols) != (other.n_rows, other.n_cols):
            raise SymcuteError(f"F2Matrix: cannot add a {self.n_rows}x{self.n_cols} and a "
                               f"{other.n_rows}x{other.n_cols} matrix")
        return F2Matrix(tuple(a ^ b for a, b in zip(self.columns, other.columns)), self.n_rows)

    def widen(self, n_rows: int) -> "F2Matrix":
        """The same map with ``n_rows`` output bits (extra rows are 0).  @pre the columns fit"""
        return F2Matrix(self.columns, n_rows)

    # --- elimination ----------------------------------------------------------------
    def _eliminate(self):
        """Pivots ``{bit: (reduced vector, combination of input columns)}`` and a kernel basis."""
        pivots: dict = {}
        kernel = []
        for j, c in enumerate(self.columns):
            v, combo = _reduce(c, 1 << j, pivots)
            if v:
                pivots[v.bit_length() - 1] = (v, combo)
            else:
                kernel.append(combo)
        return pivots, tuple(kernel)

    def _elim(self):
        cached = self.__dict__.get("_elim_cache")
        if cached is None:
            cached = self._eliminate()
            object.__setattr__(self, "_elim_cache", cached)
        return cached

    def rank(self) -> int:
        return len(self._elim()[0])

    def kernel(self) -> tuple:
        """A basis of ``{x : A x = 0}`` (each an input bitmask); empty iff ``A`` is injective.

        @post all(self(v) == 0 for v in self.kernel()) and len(kernel) == n_cols - rank
        """
        return self._elim()[1]

    def image(self) -> tuple:
        """A basis of the column space (reduced vectors, distinct leading bits, highest first)."""
        pivots = self._elim()[0]
        return tuple(pivots[b][0] for b in sorted(pivots, reverse=True))

    def solve(self, y: int):
        """Some ``x`` with ``A x == y``, or ``None`` when ``y`` is not in the image.

        @post x is None or self(x) == y
        """
        _check_vector(y, self.n_rows, "target")
        v, combo = _reduce(y, 0, self._elim()[0])
        return None if v else combo

    def missing(self):
        """The smallest output vector outside the image (``None`` when surjective).

        The image is spanned by pivot vectors with distinct leading bits, so the
        first unit vector ``e_i`` that does not reduce to 0 is outside it.
        """
        pivots = self._elim()[0]
        for i in range(self.n_rows):
            if _reduce(1 << i, 0, pivots)[0]:
                return 1 << i
        return None

    def is_injective(self) -> bool:
        return self.rank() == self.n_cols

    def is_surjective(self) -> bool:
        return self.rank() == self.n_rows

    def is_invertible(self) -> bool:
        return self.n_rows == self.n_cols == self.rank()

    def inverse(self) -> "F2Matrix":
        """``A^-1``.  @pre A is square and invertible  @post A.compose(A.inverse()) == identity"""
        if not self.is_invertible():
            raise SymcuteError(f"F2Matrix.inverse: a {self.n_rows}x{self.n_cols} matrix of rank {self.rank()} "
                               f"has no inverse")
        return F2Matrix(tuple(self.solve(1 << i) for i in range(self.n_rows)), self.n_cols)

    def right_inverse(self) -> "F2Matrix":
        """Some ``R`` with ``A R = identity``.  @pre A is surjective"""
        if not self.is_surjective():
            raise SymcuteError(f"F2Matrix.right_inverse: rank {self.rank()} < {self.n_rows} rows (not surjective)")
        return F2Matrix(tuple(self.solve(1 << i) for i in range(self.n_rows)), self.n_cols)

    def __str__(self) -> str:
        return "\n".join("".join(str(b) for b in row) for row in self.to_lists()) or "(empty)"


def _reduce(v: int, combo: int, pivots: dict):
    """Reduce ``v`` by the pivots (highest leading bit first), tracking the input combination."""
    for bit in sorted(pivots, reverse=True):
        if (v >> bit) & 1:
            pv, pc = pivots[bit]
            v ^= pv
            combo ^= pc
    return v, combo


def bit_positions(v: int) -> list:
    """The set bits of ``v``, lowest first (``bit_positions(0b1010) == [1, 3]``)."""
    out, i = [], 0
    while v:
        if v & 1:
            out.append(i)
        v >>= 1
        i += 1
    return out
