"""The rule catalog is data (trace); its statements in words are the report's templates, en and zh aligned."""

import dataclasses

import symcute.recipes  # noqa: F401  (registers the recipes' own rules)
from symcute.report.templates import Text
from symcute.report.templates.rules_en import STATEMENTS as EN
from symcute.report.templates.rules_zh import STATEMENTS as ZH
from symcute.trace.rules import RULES, Rule


def test_every_rule_has_a_statement_in_both_languages_and_no_statement_lacks_a_rule():
    assert set(EN) == set(ZH) == set(RULES)
    assert all(EN[k].strip() and ZH[k].strip() for k in RULES)


def test_the_catalog_holds_no_wording():
    assert [f.name for f in dataclasses.fields(Rule)] == ["id", "source", "function", "guarantees", "origin"]


def test_a_statement_in_each_language_and_the_fallbacks():
    assert Text("zh").rule("coalesce").startswith("从最后一个 mode 向前合并")
    assert Text("en").rule("coalesce").startswith("Merge modes that are contiguous")
    assert Text("zh").rule("no_such_rule") == Text("en").rule("no_such_rule") == "CuTe's no_such_rule."
