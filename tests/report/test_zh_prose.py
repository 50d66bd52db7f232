"""The Chinese reports are Chinese: no English prose outside code, in the zh rendering of every proofs/ input.

English that reaches a zh report comes from data (a recipe's or the prover's own text recorded as a
string) instead of a template.  The scan below finds it: outside code spans and language-tagged code
blocks, every English word must be a name (CamelCase, ALLCAPS, part of an identifier or a call) or one
of the technical terms the zh templates keep on purpose (ALLOWED).  A new untranslated data string
fails here with its document, line and word.
"""

from __future__ import annotations

import html
import re

import pytest

from symcute import recipes
from symcute.expr import derive_expr
from symcute.report import markdown
from symcute.report.regenerate import PROOFS

# terms the zh templates keep in English on purpose: CuTe's and the hardware's vocabulary (as the seed
# document writes them), formula variables, CuTe's operation names, and proper names (symcute, its package core and command calc)
ALLOWED = frozenset("""
    Atom Copy Tensor tensor atom fragment traits mode shape stride tile tiler retile upcast downcast swizzle tv
    bank lane phase warp warpgroup wavefront smem
    offset addr dim ker cotarget block
    composition complement divide product cast calc
    Nsight Compute symcute core
""".split())

WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str):
    """``(line number, word)`` of each English word of ``text`` (Markdown) that is prose, not code."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        if fence:                                   # a language-tagged block is source code
            continue
        s = html.unescape(re.sub(r"`[^`]*`", " ", line).replace("\\", ""))
        for m in WORD.finditer(s):
            w = m.group(0)
            before = s[m.start() - 1] if m.start() else " "
            after = s[m.end()] if m.end() < len(s) else " "
            colon_code = after == ":" and s[m.end() + 1:m.end() + 2] not in (" ", "")   # x::y, (4,8):(8,1)
            if before in "_:.>[/" or before.isdigit() or after in "_(<[./" or after.isdigit() or colon_code \
                    or (before == "(" and after == ")"):
                continue                            # part of an identifier, a call, a path or an index
            if before == "(" and m.start() >= 2 and (s[m.start() - 2].isalnum() or s[m.start() - 2] == "_") \
                    or s[m.end():].lstrip().startswith("=") and not s[:m.start()].rstrip()[-1:].isalpha():
                continue                            # a call's first argument (f(x, y)), a formula's variable
            if not (w.islower() or (w[0].isupper() and w[1:].islower())):
                continue                            # CamelCase and ALLCAPS are names (CuTe, TiledCopy, MMA)
            if not re.search("[aeiouy]", w, re.I):
                continue                            # no vowel: a sub-axis or a variable (wm, bk, frg, tv)
            yield number, w


# expressions of `symcute derive expr` whose steps record details, conjunctions and several methods
EXPRESSIONS = ("complement(make_layout((4,8),(8,1)), 64)", "logical_product(make_layout(4,1), make_layout(2,4))",
               "left_inverse(make_layout((4,8),(0,1)))", "upcast<2>(make_layout((4,8),(1,4)))",
               "zipped_divide(make_layout((8,8),(8,1)), make_tile(make_layout(2,1), make_layout(4,1)))")


def zh_documents():
    """``(name, Markdown)``: the zh rendering of every distinct recipe input of proofs/ (en-only ones too), and of
    a few expressions."""
    seen, out = set(), []
    for name, recipe, kwargs, lang in PROOFS:
        kw = recipes.SEED if kwargs == "SEED" else kwargs
        key = (recipe, repr(sorted(kw.items())))
        if lang == "svg" or key in seen:
            continue
        seen.add(key)
        out.append((name.split(".")[0] + ".zh.md", markdown(getattr(recipes, recipe)(**kw), "zh")))
    out += [(f"derive expr {e!r}", markdown(derive_expr(e), "zh")) for e in EXPRESSIONS]
    return out


@pytest.fixture(scope="module")
def documents():
    return zh_documents()


def test_the_scan_finds_english_prose_and_passes_code_and_names():
    text = ("swizzle 作用于字节地址（the swizzle acts on bytes）\n"
            "`an English code span`，TiledCopy 与 MMA Atom，make_layout(shape)，docs/memory.md\n"
            "```cpp\nauto layout = make_layout(shape);  // English comment\n```\n"
            "```\noffset(t, v) = 8*t0\nbyte address = 2 * offset\n```\n"
            "| bit 0 | `c_0` |\n- gaps: `((1,1),(1,8))`，Layout::with_shape 与 (4,8):(8,1)\n")
    found = [(n, w) for n, w in english_words(text) if w not in ALLOWED]
    assert [w for _, w in found] == ["the", "acts", "on", "bytes", "byte", "address", "bit", "gaps"]
    assert {n for n, _ in found} == {1, 8, 10, 11}


def test_zh_reports_have_no_english_prose(documents):
    found = [f"{name}:{n}: {w!r} in {text.splitlines()[n - 1].strip()[:120]!r}"
             for name, text in documents for n, w in english_words(text) if w not in ALLOWED]
    assert not found, "English prose in the zh reports (word it in report/templates):\n" + "\n".join(found)


def test_the_scan_covers_every_recipe_of_the_proofs(documents):
    names = {name for name, _ in documents}
    # the en-only proofs are rendered in zh too
    assert {"catalog_inverses.zh.md", "sm90_gmma_64x64x16_RS_2x1x1.zh.md", "swizzle_sw333_8x64.zh.md"} <= names
    assert len(documents) == len({(r, repr(k)) for _, r, k, lang in PROOFS if lang != "svg"}) + len(EXPRESSIONS)
