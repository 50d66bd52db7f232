"""The prover's statements, reasons, conditions and queries are data (symbolic); their words are the report's
templates, en and zh aligned, one per member."""

import string
from types import SimpleNamespace

from symcute import Layout
from symcute.recipes.records import ProofDetails
from symcute.report.common import check
from symcute.report.templates import Text
from symcute.report.templates.phrases_en import PHRASES as EN
from symcute.report.templates.phrases_zh import PHRASES as ZH
from symcute.symbolic import claims, exact
from symcute.symbolic.linear import Compose
from symcute.symbolic.proof import Proof
from symcute.symbolic.prover import is_injective, prove
from symcute.symbolic.vocabulary import PHRASE_KINDS, Phrase, Reason, Statement


def _fields(template: str) -> set:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def test_every_phrase_has_a_template_in_both_languages_with_the_members_fields():
    members = [m for kind in PHRASE_KINDS for m in kind]
    assert set(EN) == set(ZH) == set(members)
    for m in members:
        assert _fields(EN[m]) == _fields(ZH[m]) == _fields(m.value), m
    # only the phrases that are formulas read the same in both languages
    assert {m for m in members if ZH[m] == EN[m]} == {Statement.COMPLEMENT_SIZE, Statement.SAME_IMAGE, Reason.MEET,
                                                       Reason.BASE_VALUE, Reason.F2_CONSTANT, Statement.PARAM_FORMULA}


def _unknown():
    old = exact.set_enabled(False)
    try:
        return prove(Compose(Layout((4, 2), (1, 4)), Layout((2, 3), (3, 1))), Layout(6, 1), limit=0)
    finally:
        exact.set_enabled(old)


def test_a_nested_reason_is_worded_clause_by_clause_in_the_language():
    p = _unknown()
    zh, en = Text("zh").phrase(p.reason), Text("en").phrase(p.reason)
    assert "精确后端已关闭" in zh and "穷举上限" in zh and "进位溢出" in zh
    assert "exceeds" not in zh and "did not decide" not in zh
    assert "the exact back-ends are off" in en and "exceeds the exhaustive limit `0`" in en
    # read back from JSON (the text is unchanged), the same words
    back = Proof.from_json(p.to_json())
    assert Text("zh").phrase(back.reason) == zh and Text("en").phrase(back.reason) == en


def test_arguments_are_code_and_the_template_is_escaped():
    p = Phrase(Statement.INJECTIVE, a="*x*|y", n=8)
    assert Text("en").phrase(p) == r"`*x*|y` is injective on \[0, `8`)"
    assert Text("zh").phrase(p) == r"`*x*|y` 在 \[0, `8`) 上是单射"
    # plain text (a phrase read back from a document of an older symcute, an error's message) is escaped
    assert Text("zh").phrase("a *b*") == r"a \*b\*"


def _step(proof):
    """A proof step with no claim template of its own: the check words the prover's statement."""
    return SimpleNamespace(details=ProofDetails(None, (), proof.verdict, proof.method, None).to_details())


def test_a_check_without_a_claim_template_words_the_statement_and_the_query_in_the_language():
    p = claims.images_disjoint(Layout(1 << 20, 2), Layout(1 << 20, 2))   # decided by Z3: a query cell
    zh = check(Text("zh"), _step(p), p)
    assert "的像与" in zh and "不相交" in zh and "一个公共值" in zh
    assert "are disjoint" not in zh and "a common value" not in zh
    en = check(Text("en"), _step(p), p)
    assert "are disjoint" in en and "a common value" in en
    inj = is_injective(Layout((2, 4), (2, 1)))
    assert check(Text("zh"), _step(inj), inj).startswith("**检查。** `(2,4):(2,1)` 在 \\[0, `8`) 上是单射：")


def test_the_reason_kinds_the_report_words_are_the_provers():
    assert Reason.NOT_INJECTIVE in ZH and ZH[Reason.NOT_INJECTIVE] == "不是单射：{why}"


def test_the_parametric_provers_arguments_are_worded_in_the_gmem_document():
    from symcute.recipes import derive_gmem
    from symcute.report import markdown
    from symcute.symbolic.parametric import prover as R
    from symcute.trace.derivation import Derivation
    d = derive_gmem()
    zh, en = markdown(d, "zh"), markdown(d, "en")
    assert "子轴与参数上的多项式恒等式" in zh and "polynomial identity" not in zh
    assert "polynomial identity over the sub-axes and parameters" in en
    # the same words from the derivation read back from JSON (the check lines: each ends with its argument)
    back = Derivation.from_json(d.to_json())
    for doc, again in ((zh, markdown(back, "zh")), (en, markdown(back, "en"))):
        checks = [ln for ln in doc.splitlines() if "**" in ln and ln.startswith("- ")]
        assert len(checks) >= 5 and checks == [ln for ln in again.splitlines() if "**" in ln and ln.startswith("- ")]
    assert R.ParamProof.__dataclass_fields__["method"].type == "str"   # a Phrase is a str: callers keep working
