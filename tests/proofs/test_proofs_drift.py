"""proofs/ holds generated documents: regenerating them must give the committed bytes exactly."""

from pathlib import Path

from symcute.report.regenerate import PROOFS, regenerate

ROOT = Path(__file__).resolve().parents[2] / "proofs"


def test_committed_proofs_are_exactly_the_generated_ones(tmp_path):
    written = regenerate(tmp_path)
    assert sorted(Path(p).name for p in written) == sorted(name for name, *_ in PROOFS)
    committed = sorted(p.name for p in list(ROOT.glob("*.md")) + list(ROOT.glob("*.svg")))
    assert committed == sorted(name for name, *_ in PROOFS), "proofs/ has files the regenerator does not make"
    drift = [name for name, *_ in PROOFS if (tmp_path / name).read_bytes() != (ROOT / name).read_bytes()]
    assert not drift, (f"proofs drifted from the generator: {drift}; run "
                       f"`python -m symcute.report.regenerate proofs` and review the diff")
