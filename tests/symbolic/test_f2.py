"""GF(2) matrices (symcute.symbolic.f2): rank, kernel, solve, inverse against brute force."""

import itertools
import random

import pytest

from symcute.errors import SymcuteError
from symcute.symbolic.f2 import F2Matrix, bit_positions


def _random_matrix(rng, n_rows, n_cols):
    return F2Matrix(tuple(rng.randrange(1 << n_rows) for _ in range(n_cols)), n_rows)


def _image(A):
    return {A(x) for x in range(1 << A.n_cols)}


@pytest.mark.parametrize("seed", range(60))
def test_rank_kernel_solve_match_brute_force(seed):
    rng = random.Random(seed)
    A = _random_matrix(rng, rng.randrange(0, 7), rng.randrange(0, 7))
    image = _image(A)
    assert len(image) == 1 << A.rank()
    kernel = {x for x in range(1 << A.n_cols) if A(x) == 0}
    assert len(kernel) == 1 << len(A.kernel())
    assert all(A(v) == 0 for v in A.kernel())
    span = {0}
    for v in A.kernel():
        span |= {s ^ v for s in span}
    assert span == kernel
    for y in range(1 << A.n_rows):
        x = A.solve(y)
        assert (x is not None) == (y in image)
        if x is not None:
            assert A(x) == y
    m = A.missing()
    assert (m is None) == A.is_surjective()
    if m is not None:
        assert m not in image and all(1 << i in image for i in range(m.bit_length() - 1))


def test_linear_and_compose():
    rng = random.Random(1)
    for _ in range(50):
        A, B = _random_matrix(rng, 5, 4), _random_matrix(rng, 4, 3)
        C = A @ B
        for x in range(8):
            assert C(x) == A(B(x))
        for x, y in itertools.product(range(16), repeat=2):
            assert A(x ^ y) == A(x) ^ A(y)


def test_inverse_and_rows():
    rng = random.Random(2)
    done = 0
    while done < 20:
        A = _random_matrix(rng, 5, 5)
        if not A.is_invertible():
            with pytest.raises(SymcuteError, match="no inverse"):
                A.inverse()
            continue
        assert A @ A.inverse() == F2Matrix.identity(5) == A.inverse() @ A
        assert F2Matrix.from_rows(A.rows(), 5) == A
        assert A.transpose().transpose() == A
        done += 1


def test_bad_vectors_are_refused():
    with pytest.raises(SymcuteError, match="column 0"):
        F2Matrix((4,), 2)
    with pytest.raises(SymcuteError, match="input"):
        F2Matrix((1,), 1)(2)
    assert bit_positions(0b1010) == [1, 3]
