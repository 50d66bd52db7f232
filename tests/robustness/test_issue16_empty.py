"""Empty (rank-0) layouts and empty modes: CuTe's refusals as LayoutErrors, its values where it has them.

The values and refusals are checked against real CuTe in
``tests/differential/empty_cases.py``; these are the issue's command-line
reproducers (each was an IndexError traceback with exit 1).
"""

import pytest

import symcute as sc
from symcute import Layout
from symcute.errors import LayoutError

from ..cli_runner import run_cli
from .test_fuzz_cli import check_exit

E = Layout((), ())


@pytest.mark.parametrize("argv", [
    ["prove", "right-inverse", "():()"],
    ["prove", "left-inverse", "():()"],
    ["prove", "equal", "():()", "4:1"],
    ["prove", "equal", "4:1", "():()"],
    ["prove", "right-inverse", "4:1", "--inverse", "():()"],
    ["prove", "left-inverse", "4:1", "--inverse", "():()"],
    ["prove", "injective", "():()"],
    ["calc", "L(0)", "--let", "L=():()"],
    ["calc", "coalesce(():())"],
    ["calc", "right_inverse(():())"],
    ["formula", "((),4):((),2)"],
    ["derive", "expr", "coalesce(L)", "--let", "L=():()"],
])
def test_empty_layout_commands_are_one_line_errors(argv):
    code, out, err = run_cli(argv)
    check_exit(argv, code, err)
    assert code == 2 and ("no modes" in err or "empty mode" in err), err
    assert "tuple index out of range" not in err and "is not a valid call" not in err


@pytest.mark.parametrize("op", ["coalesce", "filter", "right_inverse", "left_inverse", "complement"])
def test_rank0_algebra_is_refused_naming_the_operation(op):
    with pytest.raises(LayoutError, match=rf"^{op}\(\(\):\(\)\): the layout has no modes"):
        getattr(sc, op)(E)


def test_rank0_composition_and_evaluation_are_refused():
    with pytest.raises(LayoutError, match="no modes"):
        sc.composition(E, E)
    with pytest.raises(LayoutError, match="empty mode"):
        sc.composition(Layout(4, 1), E)
    with pytest.raises(LayoutError, match="empty mode"):
        E(0)
    with pytest.raises(LayoutError, match="empty mode"):
        E(())


def test_rank0_values_cute_has():
    assert (sc.size(E), sc.cosize(E), sc.rank(E)) == (1, 1, 0)
    assert str(sc.nullspace(E)) == "1:0"
    assert str(sc.filter_zeros(E)) == "():()" and str(sc.flatten(E)) == "():()"
    assert str(sc.append(E, n=2)) == "(1,1):(0,0)"
    M = Layout.parse("((),4):((),1)")
    assert str(sc.coalesce(M)) == "4:1" and str(sc.right_inverse(M)) == "4:1"
