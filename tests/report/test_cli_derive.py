"""``symcute derive``: the seed by default, the subcommands, formats, output files, one-line errors."""

import json

import pytest

from symcute.report import markdown
from symcute.trace import Derivation
from symcute.recipes import SEED, derive_retile

from ..cli_runner import run_cli_process
from .seedfacts import has

F_TEXT = "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"


def test_bare_derive_prints_the_seed_proof_in_english(cli):
    code, out, err = cli("derive")
    assert code == 0 and err == ""
    assert out == markdown(derive_retile(**SEED), "en")
    assert has(out, "G = (8,2,2,2,4,2):(4,256,32,128,1,512)")


def test_lang_zh_is_the_seed_language(cli):
    code, out, _ = cli("derive", "--lang", "zh")
    assert code == 0 and out == markdown(derive_retile(**SEED), "zh")
    code2, out2, _ = cli("derive", "retile-d", "--contrast", "512", "--lang", "zh")
    assert code2 == 0 and out2 == out   # the seed's configuration, spelled in full


def test_retile_d_full_spelling(cli):
    code, out, _ = cli("derive", "retile-d", "--mma", "SM80_16x8x16_F16F16F16F16_TN", "--atom-layout",
                       "2,2,1", "--operand", "A", "--copy-atom", "SM75_U32x2_LDSM_N", "--values", "8")
    assert code == 0
    assert has(out, "H = ((8,2,2),(2,4,2)):((4,256,32),(128,1,512))")
    assert "Contrast" not in out            # only with --contrast
    code, out, _ = cli("derive", "retile-d", "--operand", "b")
    assert code == 0 and "operand B" in out and has(out, "Tiler_MN = (16,16)")


def test_values_overrides_V(cli):
    code, out, _ = cli("derive", "retile-d", "--values", "4")
    assert code == 0 and has(out, "V = size<0>(tCrA) = 4") and "upcast<512>" in out


def test_json_is_the_derivation_graph(cli, tmp_path):
    code, out, _ = cli("derive", "--format", "json")
    assert code == 0
    d = Derivation.from_json(out)
    assert d.text(d.labelled("G")) == "(8,2,2,2,4,2):(4,256,32,128,1,512)"
    assert json.loads(out)["graph"]["config"]["recipe"] == "retile-d"
    target = tmp_path / "seed.md"
    code, out, _ = cli("derive", "--lang", "zh", "-o", str(target))
    assert code == 0 and out == ""
    assert target.read_text(encoding="utf-8") == markdown(derive_retile(**SEED), "zh")


def test_expr_subcommand(cli):
    code, out, _ = cli("derive", "expr", "upcast<1024>(right_inverse(F).with_shape(32,16))",
                       "--let", f"F={F_TEXT}", "--name", "F=((t0,t1,wm,wn),((v0,v1,v2),(a,b)))")
    assert code == 0
    assert has(out, "4*t1 + 256*v1 + 32*wm + 128*v0 + t0 + 512*v2")
    assert has(out, "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))")
    assert has(out, "F(R1(i)) == i for every 0 <= i < 512: proved")
    # the call form of the template argument is the same expression
    code2, out2, _ = cli("derive", "expr", "upcast(right_inverse(F).with_shape(32,16), 1024)",
                         "--let", f"F={F_TEXT}", "--name", "F=((t0,t1,wm,wn),((v0,v1,v2),(a,b)))")
    assert code2 == 0 and has(out2, "((1,1,1),(1,1,1)):((1,1,1),(1,1,1))")


def test_tv_and_catalog_subcommands(cli):
    code, out, _ = cli("derive", "tv", "--mma", "SM80_16x8x16_F16F16F16F16_TN", "--atom-layout", "2,2,1",
                       "--operand", "A")
    assert code == 0 and has(out, "G_A = right_inverse(F_A) = (8,2,2,2,4,2):(4,256,32,128,1,512)")
    code, out, _ = cli("derive", "catalog", "--filter", "SM80_16x8x16_F16F16F16F16_TN")
    assert code == 0 and "SM80_16x8x16_F16F16F16F16_TN" in out


@pytest.mark.parametrize("argv, needle", [
    (["derive", "retile-d", "--mma", "SM80_NOPE"], "unknown MMA atom"),
    (["derive", "retile-d", "--atom-layout", "2,x"], "atom layout"),
    (["derive", "retile-d", "--copy-atom", "NOPE_COPY"], "NOPE_COPY"),
    (["derive", "retile-d", "--values", "0"], "value count"),
    (["derive", "expr", "right_inverse(F"], ""),
    (["derive", "expr", "right_inverse(F)", "--name", "F=(a,b)"], "no --let"),
    (["derive", "--lang", "fr"], "invalid choice"),
])
def test_errors_are_one_line_exit_2(cli, argv, needle):
    code, out, err = cli(*argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_python_m_symcute_derive_runs_in_a_fresh_process():
    code, out, err = run_cli_process("derive")
    assert code == 0 and err == ""
    assert out == markdown(derive_retile(**SEED), "en")


def test_regenerate_proofs_option_writes_the_documents(cli, tmp_path, monkeypatch):
    from symcute.report import regenerate
    monkeypatch.setattr(regenerate, "PROOFS", regenerate.PROOFS[:2])   # the seed, en and zh
    code, out, _ = cli("derive", "--regenerate-proofs", str(tmp_path / "p"))
    assert code == 0 and out.split() == [str(tmp_path / "p" / n) for n in
                                         ("seed.en.md", "seed.zh.md", "seed.certificates.json")]
    assert (tmp_path / "p" / "seed.zh.md").read_text(encoding="utf-8") == markdown(derive_retile(**SEED), "zh")


def test_graph_formats(cli, monkeypatch):
    code, out, err = cli("derive", "expr", "right_inverse((4,8):(8,1))", "--format", "graphml")
    assert code == 0 and err == "" and out.startswith("<graphml")
    d = Derivation.from_graphml(out)
    assert d.text(d.labelled("result")) == "(8,4):(4,1)"
    code, out, _ = cli("derive", "expr", "right_inverse((4,8):(8,1))", "--format", "gexf")
    assert code == 0 and "<gexf" in out
    import sys
    monkeypatch.setitem(sys.modules, "pydot", None)     # DOT needs pydot: without it, one line and exit 2
    code, out, err = cli("derive", "--format", "dot")
    assert code == 2 and out == "" and err.count("\n") == 1 and "pydot" in err


def test_an_unknown_format_is_one_line_and_exit_2():
    code, out, err = run_cli_process("derive", "--format", "xml")
    assert code == 2 and out == "" and err.count("\n") == 1 and "graphml" in err
