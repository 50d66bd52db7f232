"""A check renders the prover's typed answer: its own columns through templates (en and zh), labels as code."""

from types import SimpleNamespace

import pytest

from symcute import Layout
from symcute.recipes.records import ProofDetails
from symcute.report.common import check
from symcute.report.templates import Text
from symcute.symbolic.proof import Proof
from symcute.symbolic.prover import is_injective, prove


def _step(proof):
    """A proof step with no claim template of its own: the check words the prover's statement."""
    return SimpleNamespace(details=ProofDetails(None, (), proof.verdict, proof.method, None).to_details())


def test_own_columns_are_translated_and_labels_are_code_even_when_they_read_like_a_column():
    # the sides are labelled "name" and "weight": words the report also translates as column names
    p = prove(Layout((2, 2), (1, 2)), Layout((2, 2), (2, 1)), labels=("name", "weight"))
    for lang, head, differs in (("en", "| digit | extent | weight | `name` | `weight` |  |", "differs"),
                                ("zh", "| 数位 | 大小 | 权重 | `name` | `weight` |  |", "不同")):
        lines = check(Text(lang), _step(p), p).splitlines()
        assert lines[-4] == head and differs in lines[-1]
        assert any(ln.startswith("- `name`") and ln.endswith("`1`") for ln in lines)
        assert any(ln.startswith("- `weight`") and ln.endswith("`2`") for ln in lines)
    # read back from JSON (whose text is unchanged), the sides' columns stay labels: the same document
    back = Proof.from_json(p.to_json())
    assert check(Text("en"), _step(back), back) == check(Text("en"), _step(p), p)


def test_injectivity_chain_reads_stride_and_its_marks():
    p = is_injective(Layout((2, 4), (2, 1)))
    en, zh = check(Text("en"), _step(p), p), check(Text("zh"), _step(p), p)
    assert "| digit | extent | stride | span below | stride > span |" in en and "fails" in en
    assert "stride > 跨度" in zh and "不成立" in zh and "two inputs" in en


def test_every_counterexample_key_renders_through_its_template_in_both_languages():
    from symcute.report.common import KEY_TEMPLATES, LABELLED_KEY_TEMPLATES, _key
    from symcute.symbolic.vocabulary import CounterexampleKey as Key, Labelled, side_key
    for lang in ("en", "zh"):
        t = Text(lang)
        for k in Key:
            if "{}" in k.value:
                assert k in LABELLED_KEY_TEMPLATES or k is Key.SIDE, k
                continue
            assert t.has(KEY_TEMPLATES[k]) and "`" + k.value + "`" != _key(t, k), (lang, k)
        assert _key(t, side_key("F(G(i))")) == "`F(G(i))`"                  # a label is code
        assert _key(t, Labelled(Key.SIZE, "R")) == t("ce_size", what="`R`")
    assert _key(Text("en"), side_key("digit")) == "side `digit`" and _key(Text("zh"), side_key("digit")) == "一侧 `digit`"
    with pytest.raises(TypeError):
        _key(Text("en"), "index")                                           # a bare text key: nobody typed it


def test_a_side_labelled_digit_is_rendered_beside_the_digit_entry():
    p = prove(Layout((2, 2), (1, 2)), Layout((2, 2), (2, 1)), labels=("digit", "index"))
    en = check(Text("en"), _step(p), p)
    assert "- input index: `1`" in en and "- side `digit`: `1`" in en and "- side `index`: `2`" in en
    back = Proof.from_json(p.to_json())
    assert check(Text("zh"), _step(back), back) == check(Text("zh"), _step(p), p)


def test_value_is_a_common_value_only_where_two_inputs_collide():
    from symcute.symbolic import claims
    collide = claims.images_disjoint(Layout(8, 2), Layout(4, 4))          # a(x) == b(y): the common value
    alone = claims.image_contains(Layout(8, 1), Layout(4, 3))              # a value of a that b misses
    assert collide.refuted and alone.refuted
    for lang, common, one in (("en", "- common value: ", "- value: "), ("zh", "- 共同的值：", "- 值：")):
        assert common in check(Text(lang), _step(collide), collide) and one not in check(Text(lang), _step(collide), collide)
        assert one in check(Text(lang), _step(alone), alone) and common not in check(Text(lang), _step(alone), alone)
