"""CuTe's IntTuple functions (int_tuple.hpp, stride.hpp, tuple_algorithms.hpp) on plain tuples and ints.

Expected values are CuTe 4.2's (the differential suite, tests/differential/test_int_tuple_vs_cute.py,
compiles the same calls with real CuTe).
"""

from __future__ import annotations

import pytest

import symcute as sc
from symcute.errors import SymcuteError


def test_compact_major_with_a_tuple_current_applies_at_its_terminals():
    # stride.hpp: transform(shape, current, compact_major); this was a silent tuple repetition
    assert sc.compact_col_major(((24, 24), 24), (1, 24)) == ((1, 24), 24)
    assert sc.compact_row_major(((2, 3), 4), (1, 5)) == ((3, 1), 5)
    assert sc.compact_col_major((2, 3), 5) == (5, 10)


@pytest.mark.parametrize("shape, current", [(4, (1, 2)), ((2, 3), (1, 2, 3))])
def test_compact_major_refuses_what_cute_refuses(shape, current):
    with pytest.raises(SymcuteError):
        sc.compact_col_major(shape, current)
