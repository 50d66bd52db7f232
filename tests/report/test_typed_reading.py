"""The renderers read the recipes' tables, formula steps, worked examples and proof steps through their
records only.

Each of these steps' details is handed to the renderer sealed: indexing it (``details["mma"]``,
``.get``, iterating) raises, and only ``Record.from_details`` may open it.  A renderer that went back
to reading a raw dict fails here; the documents must come out exactly as from the plain details.
"""

from __future__ import annotations

import dataclasses

import pytest

from symcute.expr import derive_expr
from symcute.recipes import SEED, derive_bank, derive_catalog, derive_gmem, derive_retile, derive_swizzle, derive_tv
from symcute.recipes import records
from symcute.report import markdown
from symcute.report.view import View

SEALED_RULES = ("table", "formula", "evaluate")   # and every proof step (its details hold a "claim")


class Sealed(dict):
    """Details a renderer may only open through a record (their keys may be listed, not their values read)."""

    def _refuse(self, *args, **kwargs):
        raise AssertionError("a renderer read a recipe step's details as a raw dict")

    __getitem__ = get = items = values = pop = setdefault = copy = _refuse


def _opened(details):
    return dict(dict.items(details)) if isinstance(details, Sealed) else details


def _seal(step):
    return step if isinstance(step.details, Sealed) else dataclasses.replace(step, details=Sealed(step.details))


@pytest.fixture
def sealed(monkeypatch):
    init, find, from_details = View.__init__, View.find, records.Record.from_details.__func__

    def sealed_init(self, derivation):
        init(self, derivation)
        self.top = [_seal(s) if "claim" in s.details else s for s in self.top]   # proof steps: ProofDetails

    def sealed_find(self, rule, **match):
        found = find(self, rule, **match)
        return [_seal(s) if rule in SEALED_RULES else s for s in found]
    monkeypatch.setattr(View, "__init__", sealed_init)
    monkeypatch.setattr(View, "find", sealed_find)
    monkeypatch.setattr(records.Record, "from_details", classmethod(lambda cls, d: from_details(cls, _opened(d))))


def test_sealed_details_refuse_raw_reading():
    s = Sealed({"mma": "x"})
    assert "mma" in s
    with pytest.raises(AssertionError, match="raw dict"):
        s["mma"]
    with pytest.raises(AssertionError, match="raw dict"):
        s.get("mma")
    with pytest.raises(AssertionError, match="raw dict"):
        dict(s.items())


CASES = {
    "seed": lambda: derive_retile(**SEED),
    "retile_B_permuted": lambda: derive_retile(operand="B", copy_atom="SM75_U32x4_LDSM_N", permutation=(32, 32, 16)),
    "retile_C": lambda: derive_retile(operand="C", copy_atom="UniversalCopy<uint32_t>"),
    "gmem": derive_gmem,
    "tv": lambda: derive_tv("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), ("A", "B")),
    "bank": lambda: derive_bank(smem="Sw<3,3,3> o 0 o (32,64):(64,1)"),
    "swizzle": lambda: derive_swizzle("Sw<3,4,3> o 0 o (8,64):(64,1)", names=("r", "c")),
    "catalog": lambda: derive_catalog(filter="SM90_64x8x16_F16F16F16_SS"),
    "expr": lambda: derive_expr("right_inverse(L)", lets={"L": "(4,2):(2,1)"}, names={"L": "(a,b)"}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_renderer_reads_only_records(name, request):
    d = CASES[name]()
    assert any("claim" in s.details for s in d.steps(top_level_only=True)) or name in ("bank", "catalog", "gmem")
    plain = {lang: markdown(d, lang) for lang in ("en", "zh")}
    request.getfixturevalue("sealed")
    for lang in ("en", "zh"):
        assert markdown(d, lang) == plain[lang], lang


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_derivation_read_back_from_json_renders_the_same_document(name):
    from symcute.trace import Derivation
    d = CASES[name]()
    back = Derivation.from_json(d.to_json())
    for lang in ("en", "zh"):
        # the same document, then the note of what was re-checked on reading (JSON sorts a witness's keys:
        # the records put them back in the recipe's order)
        again = markdown(back, lang)
        assert again.startswith(markdown(d, lang)) and len(again) > len(markdown(d, lang)), lang
