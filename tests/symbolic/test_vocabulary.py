"""The prover's answers are typed: verdicts, methods, certificate columns and marks, counterexample keys.

Their values are the serialised text (``Proof.to_json`` and ``str(proof)`` are unchanged), and reading a
proof back from JSON gives the same members, so a report renders a re-imported proof as the original.
"""

from symcute import Layout
from symcute.symbolic.proof import Proof
from symcute.symbolic.prover import is_injective, is_surjective, prove, prove_right_inverse
from symcute.symbolic.vocabulary import (
    Cell, Column, CounterexampleKey as Key, Labelled, Method, Verdict, read_cell, read_column, read_key)


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
