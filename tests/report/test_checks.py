"""A check renders the prover's typed answer: its own columns through templates (en and zh), labels as code."""

from types import SimpleNamespace

from symcute import Layout
from symcute.report.common import check
from symcute.report.templates import Text
from symcute.symbolic.proof import Proof
from symcute.symbolic.prover import is_injective, prove


def _step(**details):
    return SimpleNamespace(details={"claim": "", **details})


def test_own_columns_are_translated_and_labels_are_code_even_when_they_read_like_a_column():
    # the sides are labelled "name" and "weight": words the report also translates as column names
    p = prove(Layout((2, 2), (1, 2)), Layout((2, 2), (2, 1)), labels=("name", "weight"))
    for lang, head, differs in (("en", "| digit | extent | weight | `name` | `weight` |  |", "differs"),
                                ("zh", "| 数位 | 大小 | 权重 | `name` | `weight` |  |", "不同")):
        lines = check(Text(lang), _step(), p).splitlines()
        assert lines[-4] == head and differs in lines[-1]
        assert any(ln.startswith("- `name`") and ln.endswith("`1`") for ln in lines)
        assert any(ln.startswith("- `weight`") and ln.endswith("`2`") for ln in lines)
    # read back from JSON (whose text is unchanged), the sides' columns stay labels: the same document
    back = Proof.from_json(p.to_json())
    assert check(Text("en"), _step(), back) == check(Text("en"), _step(), p)


def test_injectivity_chain_reads_stride_and_its_marks():
    p = is_injective(Layout((2, 4), (2, 1)))
    en, zh = check(Text("en"), _step(), p), check(Text("zh"), _step(), p)
    assert "| digit | extent | stride | span below | stride > span |" in en and "fails" in en
    assert "stride > 跨度" in zh and "不成立" in zh and "two inputs" in en
