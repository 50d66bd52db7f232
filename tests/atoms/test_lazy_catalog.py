"""The atom catalog is looked up lazily: importing the layers above it parses no atom, a lookup builds the one named."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CATALOG_DATA = ("symcute.atoms.mma_catalog", "symcute.atoms.mma_gmma", "symcute.atoms.mma_gmma_sparse",
                "symcute.atoms.mma_umma", "symcute.atoms.mma_sm120", "symcute.atoms.copy_sm100_data")


def _fresh(code: str) -> str:
    """stdout of ``code`` run in a fresh interpreter (the modules this process imported do not count)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}   # this tree's symcute, whatever is installed
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=env).stdout.strip()


def test_importing_the_expression_language_reads_no_catalog_data():
    loaded = _fresh(f"import sys, symcute.expr, symcute.atoms\nprint(sorted(m for m in {CATALOG_DATA!r} "
                    f"if m in sys.modules))")
    assert loaded == "[]"


def test_a_lookup_builds_only_the_atom_it_names():
    out = _fresh("from symcute.atoms import mma_atom, copy_atom\n"
                 "from symcute.atoms import mma_catalog, copy_catalog\n"
                 "a = mma_atom('SM80_16x8x16_F16F16F16F16_TN')\n"
                 "c = copy_atom('SM75_U32x2_LDSM_N', 'half_t')\n"
                 "print(sorted(mma_catalog._BUILT), sorted(copy_catalog._BUILT), a is mma_catalog.WARP_ATOMS[a.name])")
    assert out == "['SM80_16x8x16_F16F16F16F16_TN'] ['SM75_U32x2_LDSM_N'] True"


def test_an_expression_naming_an_atom_finds_it_and_a_typo_is_still_suggested():
    out = _fresh("from symcute.expr import evaluate\n"
                 "from symcute.errors import SymcuteError\n"
                 "print(evaluate('SM80_16x8x16_F16F16F16F16_TN{}').shape_mnk)\n"
                 "try:\n    evaluate('make_tiled_mma(SM80_16x8x16_F16F16F16F16_TM{})')\n"
                 "except SymcuteError as e:\n    print(e)\n")
    value, error = out.splitlines()
    assert value == "(16, 8, 16)"
    assert "SM80_16x8x16_F16F16F16F16_TN" in error and "did you mean" in error
