"""Typos and wrong C++ spellings are errors with a "did you mean", never values echoed back (issue cases).

Each case: exit status 2, exactly one line on stderr of reasonable length, nothing on stdout, and the
line names the offending input (and the intended name, where one is close).  The C++ spellings are
also compiled: real CuTe refuses each of them too (tests/differential would otherwise disagree).
"""

import pytest


L = "(4,8):(8,1)"
CASES = [  # (argv, text the one line must hold)
    (["calc", "size(Lx)", "--let", f"L={L}"], "unknown name 'Lx' at position 5 in 'size(Lx)' (did you mean L?)"),
    (["calc", "size(Layout<Shape<_4,_8>, Stride<_8,_1>>)"], "is a C++ type, not a value: write Layout<...>{}"),
    (["calc", "rank(foo)"], "unknown name 'foo'"),
    (["calc", "cosize(X)"], "unknown name 'X' at position 7"),
    (["calc", "right_invers(4:1)"], "unknown function 'right_invers' at position 0 (did you mean right_inverse"),
    (["calc", "B", "--let", f"A={L}", "--let", "B=right_invers(A)"], "(did you mean right_inverse"),
    (["calc", "SM80_16x8x16_F16F16F16F16_TM"], "(did you mean SM80_16x8x16_F16F16F16F16_TN"),
    (["calc", "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TM,(2,2,1))"],
     "unknown MMA atom 'SM80_16x8x16_F16F16F16F16_TM'; did you mean SM80_16x8x16_F16F16F16F16_TN"),
    (["calc", "SM80_16x8x16_F16F16F16F16_TN"], "is a C++ type, not a value (its value is SM80_16x8x16_F16F16F16F16_TN{})"),
    (["calc", "half_t"], "half_t is a C++ type, not a value"),
    (["calc", "size"], "'size' at position 0 in 'size' is a function; call it: size(...)"),
    (["calc", "L.with_shap(32)", "--let", f"L={L}"], "(did you mean with_shape?)"),
    (["calc", "GMMA::Layout_K_SW128_Atam<half_t>"], "unknown name 'GMMA::Layout_K_SW128_Atam'"),
    (["formula", "Lx", "--let", f"L={L}"], "(did you mean L?)"),
    (["derive", "expr", "right_inverse(Fx)", "--let", f"F={L}"], "(did you mean F?)"),
    # issue 16: wrong C++ spellings once accepted as opaque values with exit 0
    (["calc", "Int<4,5>{}"], "Int takes one integer, got 2"),
    (["calc", "Swizzle<3,4,3,1>{}"], "Swizzle takes three integers <B,M,S>, got 4"),
    (["calc", "Layout<>{}"], "Layout takes a Shape and an optional Stride, got 0"),
    (["calc", "Layout<_4,_1,_2>{}"], "Layout takes a Shape and an optional Stride, got 3"),
    (["calc", "MMA_Atom<SM80_16x8x16_F16F16F16F16_TN, int>{}"], "got 2 template arguments"),
    (["calc", "MMA_Atom<MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>>{}"], "not an atom (CuTe has no MMA_Traits<MMA_Atom<...>>)"),
    (["calc", "make_tiled_mma(MMA_Atom<MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>>{}, (2,2,1))"], "not an atom"),
    (["calc", "Copy_Atom<Copy_Atom<SM75_U32x4_LDSM_N, half_t>, half_t>{}"], "not an atom"),
    (["calc", "Foo<4>{}"], "unknown name 'Foo' at position 0"),
    # a C++ value called with arguments: Swizzle<B,M,S> takes its integers as template arguments
    (["calc", "Swizzle(3,3,3)"], "'Swizzle' at position 0 is a C++ value, written Swizzle<...>{} (template arguments"),
    (["calc", "composition(SM80_16x8x16_F16F16F16F16_TN(1), 8:1)"],
     "'SM80_16x8x16_F16F16F16F16_TN' at position 12 is a C++ value, written SM80_16x8x16_F16F16F16F16_TN{}"),
    (["calc", "size(Foo<4>{})"], "unknown name 'Foo' at position 5"),
]


@pytest.mark.parametrize("argv, want", CASES, ids=[" ".join(a)[:70] for a, _ in CASES])
def test_typo_is_a_one_line_error_with_exit_2(argv, want, cli):
    code, out, err = cli(argv)
    assert code == 2 and out == "", (argv, out)
    assert err.count("\n") == 1 and err.startswith("symcute: error: "), err
    assert len(err) < 400, f"{len(err)} characters: {err}"
    assert want in err, err


def test_gmma_smem_atom_is_a_value_or_an_error_never_the_name(cli):
    """``GMMA::Layout_K_SW128_Atom<half_t>`` is the swizzled smem atom once it is catalogued; until then an
    unknown-name error. Never the name printed back with exit 0."""
    code, out, err = cli(["calc", "GMMA::Layout_K_SW128_Atom<half_t>"])
    assert out.strip() != "GMMA::Layout_K_SW128_Atom<half_t>"
    if code == 0:
        assert out.startswith("Sw<3,4,3> o "), out
    else:
        assert code == 2 and err.count("\n") == 1 and "GMMA::Layout_K_SW128_Atom" in err


def test_value_initialisation_is_the_braced_value(cli):
    """``Swizzle<3,3,3>()`` and ``SM80_..._TN()`` are C++ values as ``Swizzle<3,3,3>{}`` and ``SM80_..._TN{}`` are."""
    for paren, brace in (("composition(Swizzle<3,3,3>(), 8:1)", "composition(Swizzle<3,3,3>{}, 8:1)"),
                         ("size(Layout<Shape<_4,_8>>())", "size(Layout<Shape<_4,_8>>{})"),
                         ("SM80_16x8x16_F16F16F16F16_TN()", "SM80_16x8x16_F16F16F16F16_TN{}")):
        got, want = tuple(cli(["calc", paren])), tuple(cli(["calc", brace]))
        assert got[0] == 0 and got == want, (paren, got, want)
    code, _, err = cli(["calc", "Swizzle()"])
    assert code == 2 and "Swizzle takes three integers <B,M,S>, got 0" in err


def test_free_identifiers_still_name_sub_axes(cli):
    code, out, _ = cli(["calc", "formula(L, (m, n))", "--let", f"L={L}"])
    assert code == 0
    assert out.strip() == "8*m + n"


@pytest.mark.cute
def test_cute_refuses_the_same_spellings():
    """The C++ spellings above do not compile with CuTe's headers either (so refusing them is CuTe's answer)."""
    from tests.differential.harness import oracle_or_skip
    oracle = oracle_or_skip()
    bodies = {
        "int": "print(Int<4,5>{});", "swizzle": "print(Swizzle<3,4,3,1>{});", "layout0": "print(Layout<>{});",
        "layout3": "print(Layout<_4,_1,_2>{});",
        "mma2": "print(MMA_Atom<SM80_16x8x16_F16F16F16F16_TN, int>{});",
        "mma_nested": "print(MMA_Atom<MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>>{});",
        "copy_nested": "print(Copy_Atom<Copy_Atom<SM75_U32x4_LDSM_N, half_t>, half_t>{});",
        "type_as_value": "print(size(Layout<Shape<_4,_8>, Stride<_8,_1>>));",
        "swizzle_call": "print(Swizzle(3,3,3));",
        "value_init": "print(composition(Swizzle<3,3,3>(), Layout<_8,_1>()));",
        "control": "print(Int<4>{});",
    }
    results = oracle.run(bodies, preamble="#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/copy_atom.hpp>\n"
                                          "#include <cute/arch/mma_sm80.hpp>\n#include <cute/atom/mma_traits_sm80.hpp>\n"
                                          "#include <cute/atom/copy_traits_sm75.hpp>\nusing namespace cute;\n")
    assert results.pop("control").output == "4"  # the program itself compiles: each refusal is the case's
    # C++ value-initialisation, T<...>() as T<...>{}, compiles (and symcute reads it the same way)
    assert results.pop("value_init").ok
    accepted = {k: r.output for k, r in results.items() if r.ok}
    assert not accepted, f"CuTe accepted: {accepted}"
