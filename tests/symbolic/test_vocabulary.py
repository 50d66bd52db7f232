"""The prover's answers are typed: verdicts, methods, certificate columns and marks, counterexample keys.

Their values are the serialised text (``Proof.to_json`` and ``str(proof)`` are unchanged), and reading a
proof back from JSON gives the same members, so a report renders a re-imported proof as the original.
"""

from symcute import Layout
from symcute.symbolic.proof import Proof
from symcute.symbolic.prover import is_injective, is_surjective, prove, prove_right_inverse
from symcute.symbolic.vocabulary import (
    Cell, Column, CounterexampleKey as Key, Labelled, Method, Verdict, read_cell, read_column, read_key, side_key)


def _roundtrip(p: Proof) -> Proof:
    return Proof.from_json(p.to_json())


def test_an_equality_certificate_is_typed_and_reads_back_the_same():
    F = Layout(((4, 8), 2), ((1, 4), 32))
    p = prove_right_inverse(F, labels=("F", "G"))
    assert p.verdict is Verdict.PROVED and p.method is Method.REFINEMENT
    header = p.certificate.table.header
    assert header[:3] == (Column.DIGIT, Column.EXTENT, Column.WEIGHT) and header[5] is Column.AGREES
    assert all(r[5] is Cell.OK for r in p.certificate.table.rows)
    via = header[6]
    assert isinstance(via, Labelled) and via.kind is Column.VIA and via.label == "F(G(i))"
    back = _roundtrip(p)
    assert back.certificate.table.header == header
    assert [type(h) for h in back.certificate.table.header] == [type(h) for h in header]
    assert back.certificate.table.header[6].label == "F(G(i))"
    assert back.to_dict() == p.to_dict() and str(back) == str(p)


def test_refutations_carry_typed_keys_and_marks():
    p = prove(Layout((2, 2), (1, 2)), Layout((2, 2), (2, 1)), labels=("A", "B"))
    assert p.verdict is Verdict.REFUTED
    keys = list(p.counterexample)
    assert keys[0] is Key.INDEX and Key.DIGIT in keys
    assert Cell.DIFFERS in [r[5] for r in p.certificate.table.rows]
    assert list(_roundtrip(p).counterexample) == keys
    inj = is_injective(Layout((2, 4), (2, 1)))
    assert inj.refuted and set(inj.counterexample) >= {Key.INDICES, Key.VALUE}
    assert Cell.FAILS in [r[4] for r in inj.certificate.table.rows]
    sur = is_surjective(Layout((2, 2), (1, 4)), 8)
    assert sur.refuted and list(sur.counterexample) == [Key.MISSING_VALUE]
    assert sur.certificate.table.header[-1] is Column.WITHIN_COVER and sur.certificate.table.rows[-1][-1] is Cell.GAP


def test_members_print_as_their_serialised_text():
    assert str(Verdict.PROVED) == f"{Verdict.PROVED}" == "proved" and Verdict.PROVED == "proved"
    assert str(Column.ABOVE_SPAN) == "|stride| > span"
    assert Labelled(Key.STEPS, "G(F(x))") == "G(F(x)) steps"
    assert read_column("via (F(G(i)))") == Labelled(Column.VIA, "F(G(i))")
    assert read_column("digit") is Column.DIGIT and read_column("F(G(i))") == "F(G(i))"
    assert read_cell("DIFFERS") is Cell.DIFFERS and read_key("size(lhs)").kind is Key.SIZE
    assert read_column("via ()") == "via ()"     # an empty label is no labelled column
    assert read_column("4*weight") == Labelled(Column.TIMES_WEIGHT, "4") and read_column("mod 8").label == "8"
    assert read_cell("in block") is Cell.IN_BLOCK and read_cell("block") is Cell.BLOCK


def test_a_conjunction_keeps_its_joined_methods_as_text():
    p = Proof("both", "proved", "chain+refinement")
    assert p.verdict is Verdict.PROVED and p.method == "chain+refinement" and not isinstance(p.method, Method)


def _typed(keys) -> bool:
    return all(isinstance(k, (Key, Labelled)) for k in keys)


def test_a_side_labelled_like_a_key_keeps_its_own_entry():
    # the sides are labelled "digit" and "index", two of the prover's own keys: each entry keeps its value
    A, B = Layout((2, 2), (1, 2)), Layout((2, 2), (2, 1))
    p = prove(A, B, labels=("digit", "index"))
    ce = p.counterexample
    q = ce[Key.INDEX]
    assert A(q) != B(q) and ce[side_key("digit")] == A(q) and ce[side_key("index")] == B(q)
    assert ce[Key.DIGIT].startswith("x0=1") and q == 1
    assert side_key("digit") == "side digit" and side_key("digit").label == "digit"
    assert side_key("digit") != Key.DIGIT and side_key("index") != Key.INDEX
    assert len({str(k) for k in ce}) == len(ce) == 5       # distinct in JSON too
    back = _roundtrip(p)
    assert back.counterexample == ce and [type(k) for k in back.counterexample] == [type(k) for k in ce]
    # an ordinary label is the key's text itself, so the JSON of every earlier proof is unchanged
    p = prove(A, B, labels=("F", "G"))
    assert list(p.counterexample)[2:4] == ["F", "G"] and p.counterexample["F"] == A(1)
    assert list(p.counterexample)[2].kind is Key.SIDE


def test_side_keys_read_back_as_they_were_written():
    for label in ("F(G(i))", "digit", "v", "x steps", "size(F)", "side digit", "side x", "i"):
        k = side_key(label)
        back = read_key(str(k))
        assert back == k and back.kind is k.kind and back.label == label, label
    assert side_key("x steps").kind is Key.SIDE_NAMED and side_key("side x").kind is Key.SIDE


def test_contract_claim_and_block_counterexamples_have_only_typed_keys():
    from symcute.symbolic import claim as C, claims, contracts
    R = Layout((2, 2), (2, 1))                          # R(1) = 2, R(2) = 1: not increasing
    p = contracts._ordered(R, None)
    assert p.refuted and list(p.counterexample) == [Key.INDEX, Key.PREVIOUS_OF_R, Key.VALUE_OF_R]
    p = contracts._disjoint_from(Layout(4, 1), Layout(2, 2), None)
    assert p.refuted and list(p.counterexample) == [Key.INDEX, Key.VALUE_OF_R, Key.INDEX_OF_L]
    p = claims.images_disjoint(Layout(8, 2), Layout(4, 4))
    assert p.refuted and list(p.counterexample) == [Key.INDEX_OF_A, Key.INDEX_OF_B, Key.VALUE]
    F = sym_formula()
    p = C.forall("t", C.contiguous(F)).prove()
    assert p.refuted and _typed(p.counterexample) and {Key.BLOCK_START, Key.START_VALUE, Key.EXPECTED,
                                                         Key.FIXED_DIGITS, Key.OTHER_DIGITS} <= set(p.counterexample)
    p = C.vector(Layout((64, 8), (8, 1)), Layout((8, 64), (64, 1)), 8).prove()
    assert p.refuted and {Key.THREAD, Key.THREAD_VALUE} <= set(p.counterexample) and _typed(p.counterexample)
    for q in (p, _roundtrip(p)):
        assert q.counterexample["thread"] == p.counterexample[Key.THREAD]     # the text still finds the entry


def sym_formula():
    import symcute.symbolic as sym
    return sym.formula(Layout(((4, 8), (2, 2)), ((2, 8), (1, 64))), (("t0", "t1"), ("v0", "v1")))


def test_a_proof_built_with_text_keys_gets_typed_keys():
    p = Proof("x", "refuted", "exhaustive", counterexample={"index": 3, "F": 5, "F steps": "F(3) = 5"})
    assert list(p.counterexample) == [Key.INDEX, side_key("F"), Labelled(Key.STEPS, "F")]
    assert list(p.counterexample)[2].kind is Key.STEPS


def test_parametric_answers_in_the_provers_verdicts():
    import sympy
    import symcute
    from symcute.symbolic import parametric as P
    from symcute.symbolic.parametric import conditions, prover as R
    assert symcute.Verdict is Verdict and symcute.Method is Method
    assert not hasattr(conditions, "Decision") and not hasattr(P, "Verdict") and not hasattr(P, "Decision")
    ps = P.params("M K", multiple_of={"M": 128})
    v = ps.decide(sympy.Eq(sympy.Mod(ps.inner(ps["K"]), 2), 0))
    assert isinstance(v, P.FactVerdict) and v.verdict is Verdict.REFUTED and v.witness["K"] % 2
    assert ps.decide(sympy.Eq(sympy.Mod(ps.inner(ps["M"]), 64), 0)).verdict is Verdict.PROVED
    M, K = ps["M"], ps["K"]
    A = P.layout((M, K), (K, 1), ps)
    p = R.prove_equal(A, A)
    assert p.verdict is Verdict.PROVED and p.proved and str(p).endswith(": proved (" + p.method + ")")
    q = R.prove_equal(A, P.layout((M, K), (1, M), ps))
    assert q.verdict is Verdict.REFUTED and q.refuted and q.verdict == "refuted"
