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


def test_how_a_fact_was_decided_is_a_reason_phrase_worded_in_both_languages():
    import sympy
    from symcute.report.templates import Text
    from symcute.symbolic import parametric as P
    from symcute.symbolic.vocabulary import Phrase, Reason
    ps = P.params("M K", multiple_of={"M": 128})
    m, k = ps.inner(ps["M"]), ps.inner(ps["K"])
    answers = {Reason.FACT_EVALUATION: ps.decide(sympy.true), Reason.FACT_POLYNOMIAL: ps.decide(m + k >= 2),
               Reason.FACT_Z3: ps.decide(sympy.Ne(k * k, 2)),
               Reason.FACT_Z3_MODEL: ps.decide(sympy.Eq(sympy.Mod(k, 2), 0))}
    for reason, v in answers.items():
        assert isinstance(v.how, Phrase) and v.how.kind is reason and v.how == reason.value, (reason, v)
    assert Text("en").phrase(answers[Reason.FACT_Z3_MODEL].how) == "z3 model, re-evaluated"
    assert Text("zh").phrase(answers[Reason.FACT_Z3_MODEL].how) == "z3 模型，已重新求值"
# --- phrases: statements, reasons, conditions, queries ------------------------------------------------

import ast
import json
import pathlib

import pytest

from symcute.symbolic import claims, contracts, exact
from symcute.symbolic.linear import Compose
from symcute.symbolic.vocabulary import (
    Condition, Count, Phrase, PHRASE_KINDS, Query, Reason, Statement, read_phrase)


def _kinds(p: Proof) -> list:
    out = [p.statement, p.reason]
    return out + list(p.certificate.conditions if p.certificate else ())


def test_a_statement_reason_and_conditions_are_phrases_with_their_text_unchanged():
    p = is_injective(Layout((2, 4), (2, 1)))
    s = p.statement
    assert isinstance(s, Phrase) and s.kind is Statement.INJECTIVE and s.args == {"a": "(2,4):(2,1)", "n": 8}
    assert s == "(2,4):(2,1) is injective on [0, 8)"     # the text str(proof) and JSON carried untyped
    assert p.reason.kind is Reason.SAME_VALUE and p.reason.args == {"digit": "x0", "other": "x1", "k": 2}
    assert [c.kind for c in p.certificate.conditions] == [Condition.CHAIN_INJECTIVE]
    d = json.loads(p.to_json())
    assert d["statement"] == str(s) and d["reason"] == str(p.reason)
    assert d["certificate"]["conditions"] == [Condition.CHAIN_INJECTIVE.value]
    back = _roundtrip(p)
    assert [(x.kind, x.args) for x in _kinds(back)] == [(x.kind, x.args) for x in _kinds(p)]


def test_an_undecided_reason_is_the_chain_of_each_back_ends_clause_and_reads_back_as_that_chain():
    old = exact.set_enabled(False)
    try:
        p = prove(Compose(Layout((4, 2), (1, 4)), Layout((2, 3), (3, 1))), Layout(6, 1), limit=0)
    finally:
        exact.set_enabled(old)
    assert p.verdict is Verdict.UNKNOWN

    def chain(r):
        kinds = []
        while isinstance(r, Phrase):
            kinds.append(r.kind)
            r = r.args.get("why")
        return kinds
    want = [Reason.OVER_LIMIT, Reason.EXACT_UNDECIDED, Reason.NO_F2_VIEW, Reason.CARRIES]
    assert chain(p.reason) == want
    assert p.reason.args["why"].args["evidence"].kind is Reason.EXACT_OFF
    assert p.reason.args["n"] == 6 and p.reason.args["limit"] == 0
    back = _roundtrip(p)
    assert chain(back.reason) == want and back.reason == p.reason
    assert back.reason.args["why"].args["why"].args["why"].args == \
        {"digit": "x0", "layout": "(4,2):(1,4)", "span": 6, "extent": 4}


def test_a_contract_names_cutes_value_and_its_claim_as_data():
    p = contracts.contract("composition", Layout((4, 6, 8), (2, 3, 5)), Layout(6, 3))   # CUTLASS #3177
    s = p.statement
    assert s.kind is Statement.CONTRACT and s.args["call"] == "composition((4,6,8):(2,3,5), 6:3)"
    assert s.args["result"] == "(2,3):(6,3)" and s.args["claim"].kind is Statement.COMPOSES
    assert p.refuted and p.reason.kind is Reason.FIRST_DIFFERENCE and p.reason.args == {"index": 2}
    # a divide's single part is named by the whole call, with the part's own claim (no text surgery)
    d = contracts.contract("logical_divide", Layout((4, 8), (1, 4)), Layout(2, 1))
    assert d.statement.kind is Statement.CONTRACT and d.statement.args["claim"].kind is Statement.DIVIDES
    assert str(d.statement) == "logical_divide((4,8):(1,4), 2:1) = (2,16):(1,2): D(c) == L(B(c)) for all " \
                               "0 <= c < 32, B = (2,16):(1,2)"
    back = _roundtrip(d)
    assert back.statement.kind is Statement.CONTRACT and back.statement.args["claim"].args == {"n": 32, "B": "(2,16):(1,2)"}


def test_an_exact_query_is_a_phrase_in_its_certificate_and_reads_back(solvers_only):
    p = claims.images_disjoint(Layout(1 << 20, 2), Layout(1 << 20, 2))
    assert p.refuted and p.method is Method.Z3
    query = p.certificate.table.rows[0][0]
    assert isinstance(query, Phrase) and query.kind is Query.COMMON_VALUE
    assert _roundtrip(p).certificate.table.rows[0][0].kind is Query.COMMON_VALUE


def test_reading_back_keeps_numbers_numbers_and_refuses_a_reading_that_puts_text_in_one():
    # "the largest value is {top}" would read the whole reason with top = "48: outside [0, 4)"
    r = read_phrase("the largest value is 48: outside [0, 4)", (Reason,))
    assert r.kind is Reason.OUTSIDE_TARGET and r.args["n"] == 4
    assert r.args["why"].kind is Reason.LARGEST_VALUE and r.args["why"].args == {"top": 48}
    big = read_phrase("evaluated at all 2^24 inputs", (Condition,))
    assert big.args["n"] == 1 << 24 and isinstance(big.args["n"], Count) and str(big) == "evaluated at all 2^24 inputs"
    # an error's text as a reason's "why" stays text: "formula: ..." is no "{part}: {why}" (a part is a claim)
    why = "formula: layout (-1,8):(0,1) has an extent -1 < 1"
    r = read_phrase(f"{why}; no GF(2) view either: (1,8,1):(3,-1,16): sub-axis mode 1 has the negative stride -1",
                    (Reason,))
    assert r.kind is Reason.NO_F2_VIEW and r.args["why"] == why and not isinstance(r.args["why"], Phrase)
    assert read_phrase("no such sentence", PHRASE_KINDS) == "no such sentence"
    assert not isinstance(read_phrase("no such sentence", PHRASE_KINDS), Phrase)


def test_phrases_are_unique_pickle_and_print_as_their_text():
    import pickle
    for kind in PHRASE_KINDS:
        assert len({m.value for m in kind}) == len(kind)
    p = Phrase(Reason.NOT_INJECTIVE, why=Phrase(Reason.COLLISION))
    q = pickle.loads(pickle.dumps(p))
    assert q == p == "not injective: two inputs with the same value" and q.args["why"].kind is Reason.COLLISION
    assert f"{Count(1 << 20)}" == "2^20" and str(Count(1000)) == "1000" and Count(1 << 20) == 1 << 20


SYMBOLIC = pathlib.Path(__file__).parents[2] / "symcute" / "symbolic"


def _sentences(node) -> bool:
    """An f-string, a non-empty string literal, or a string built with + (a sentence in code)."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _sentences(node.left) or _sentences(node.right)
    if isinstance(node, ast.IfExp):
        return _sentences(node.body) or _sentences(node.orelse)
    return False


def test_no_prover_builds_a_statement_reason_or_condition_from_a_sentence():
    found, calls = [], 0
    for path in sorted(SYMBOLIC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name, args = node.func.id, list(node.args)
            checked = []
            if name == "Proof":
                checked = args[:1] + args[5:6] + [k.value for k in node.keywords if k.arg in ("statement", "reason")]
            elif name == "ParamProof":   # the parametric prover: its claim and the argument that decided it
                checked = args[:1] + args[2:3] + [k.value for k in node.keywords if k.arg in ("claim", "method")]
            elif name == "Certificate" and len(args) >= 3 and isinstance(args[2], (ast.Tuple, ast.List)):
                checked = list(args[2].elts)
            elif name == "NotLinear":
                checked = args
            calls += name in ("Proof", "ParamProof")
            found += [f"{path.name}:{node.lineno} {name}" for a in checked if _sentences(a)]
    assert found == [] and calls > 100   # every prover module was read, the parametric one too


def test_the_scan_sees_a_sentence():
    tree = ast.parse('Proof(f"{a} is injective", "proved", "chain", reason="because")')
    call = tree.body[0].value
    assert _sentences(call.args[0]) and _sentences(call.keywords[0].value)


def test_a_recast_contracts_counterexample_reads_back_the_same_text():
    # downcast<2>((8,1,4):(8,1,1)) breaks "the same memory": its value lists came back from JSON as tuples
    p = contracts.contract("downcast", Layout((8, 1, 4), (8, 1, 1)), 2)
    assert p.refuted
    back = _roundtrip(p)
    assert str(back) == str(p) and back.to_dict() == p.to_dict()


def test_a_conjunctions_part_verdicts_and_methods_read_back_as_members():
    p = contracts.contract("upcast", Layout((4, 8), (1, 4)), 2)
    header = p.certificate.table.header
    assert header == (Column.PART, Column.VERDICT, Column.METHOD)
    back = _roundtrip(p)
    for row, again in zip(p.certificate.table.rows, back.certificate.table.rows):
        assert row[1] is again[1] and isinstance(again[1], Verdict)
        assert again[2] == row[2] and type(again[2]) is type(row[2])
        assert again[0].kind is row[0].kind


@pytest.mark.parametrize("text", [": " * 900, "a: " * 600 + "b", "[0, 7) is not a box of " * 60,
                                  "(" * 1000 + ")" * 1000, ": " * 5000])
def test_reading_hostile_text_back_is_bounded(text):
    # A derivation file is untrusted: reading its statements back is a search over splits, which hostile
    # text (many ": ") makes super-linear.  The search stops after PHRASE_WORK steps (or does not start past
    # MAX_PHRASE_TEXT characters) and the text stays plain text with the same words.
    from symcute.symbolic import vocabulary
    vocabulary._best.cache_clear()
    read = vocabulary.read_phrase(text)
    assert read == text and vocabulary._work[0] <= vocabulary.PHRASE_WORK + 1


def test_reading_a_real_proof_back_stays_typed_under_the_work_bound():
    from symcute.symbolic import vocabulary
    p = is_injective(Layout.parse("((4,8),(2,2)):((1,4),(64,32))"))
    vocabulary._best.cache_clear()
    back = Proof.from_dict(json.loads(json.dumps(p.to_dict())))
    assert isinstance(back.statement, vocabulary.Phrase) and back.statement == p.statement
    assert vocabulary._work[0] < vocabulary.PHRASE_WORK // 10
def test_a_failing_part_of_a_contract_reads_back_as_that_part_and_its_reason():
    # the reason "<tile part's claim>: <why>" contains ": " inside the part too: a part is a claim, so the
    # reading that splits inside it (a layout text where a claim belongs) is refused
    p = contracts.contract("logical_product", Layout((3, 4, 2), (0, 1, 16)), Layout((3, 8, 2), (4, 0, -1)))
    assert p.refuted and p.reason.kind is Reason.PART_FAILS
    assert p.reason.args["part"].kind is Statement.TILE_PART
    back = _roundtrip(p)
    assert back.reason.kind is Reason.PART_FAILS and back.reason.args == p.reason.args


def test_every_phrase_reads_back_as_itself_from_its_text():
    # each member filled with typical arguments: numbers, a claim where a claim belongs, a nested reason,
    # a back-end's name, a label
    import string
    from symcute.symbolic import vocabulary as V

    def sample(field, k):
        if field in V.NUMBER_FIELDS:
            return 7 + k
        if field in V.ALWAYS_STATEMENTS:
            return Phrase(Statement.INJECTIVE, a="(4,2):(1,4)", n=8)
        if field in V.CHOICE_FIELDS:
            return sorted(V.CHOICE_FIELDS[field])[0]
        if field in V.PHRASE_FIELDS:
            return Phrase(Reason.NOT_HIT, y=3)
        return f"t{k}"
    for kind in PHRASE_KINDS:
        for m in kind:
            fields = list(dict.fromkeys(f for _, f, _, _ in string.Formatter().parse(m.value) if f is not None))
            p = Phrase(m, **{f: sample(f, k) for k, f in enumerate(fields)})
            r = read_phrase(str(p), (kind,))
            assert isinstance(r, Phrase) and r.kind is m and r.args == p.args, (m, str(p))
