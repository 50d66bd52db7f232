"""proofs/ holds generated documents: regenerating them must give the committed bytes exactly."""

from pathlib import Path

from symcute.report.regenerate import file_names, regenerate

ROOT = Path(__file__).resolve().parents[2] / "proofs"


def test_committed_proofs_are_exactly_the_generated_ones(tmp_path):
    written = regenerate(tmp_path)
    assert sorted(Path(p).name for p in written) == sorted(file_names())
    committed = sorted(p.name for p in ROOT.iterdir() if p.suffix in (".md", ".svg", ".json"))
    assert committed == sorted(file_names()), "proofs/ has files the regenerator does not make"
    drift = [name for name in file_names() if (tmp_path / name).read_bytes() != (ROOT / name).read_bytes()]
    assert not drift, (f"proofs drifted from the generator: {drift}; run "
                       f"`python -m symcute.report.regenerate proofs` and review the diff")
