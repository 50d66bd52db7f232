"""Evidence that catalogued atoms' layouts were confirmed on a GPU, and the check that it still applies.

The evidence file (``symcute/hwcheck/data/hw_evidence.json``, written by
``symcute hwcheck --results FILE --evidence-out FILE``) records, per atom, the
fingerprint of the layouts that ran (sha256 of the canonical text of shape,
thr_id, A/B/C layouts and value types) and the verdict.  :func:`check_evidence`
lists every catalogued atom of the covered families whose layouts differ from
what the hardware confirmed, or that has no evidence at all: a catalog change
needs a new hardware run.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import SymcuteError
from .plan import CORRECTIONS, fingerprint
from .report import AGREE, DISAGREE, UNSUPPORTED, Report
from ..atoms.mma_catalog import WARP_ATOMS

FORMAT = "symcute-hwcheck-evidence/1"
EVIDENCE_PATH = Path(__file__).parent / "data" / "hw_evidence.json"


def family(name: str) -> str:
    """The arch family of an atom name: 'SM80' for SM80_16x8x16_F16F16F16F16_TN."""
    return name.split("_", 1)[0]


def evidence_from_reports(reports) -> dict:
    """Evidence of several runs: per atom the row of the first run that has one (tagged with ``run``)."""
    merged = {"format": FORMAT, "runs": [], "covered_families": set(), "atoms": {}, "user_atoms": {}}
    for i, rep in enumerate(reports):
        ev = evidence_from_report(rep, i)
        merged["runs"] += ev["runs"]
        merged["covered_families"] |= set(ev["covered_families"])
        for key in ("atoms", "user_atoms"):
            for name, row in ev[key].items():
                merged[key].setdefault(name, row)
        if ev.get("gmma_sample_n"):
            merged["gmma_sample_n"] = ev["gmma_sample_n"]
    merged["covered_families"] = sorted(merged["covered_families"])
    merged["atoms"] = dict(sorted(merged["atoms"].items()))
    return merged


def evidence_from_report(report: Report, run: int = 0) -> dict:
    """Evidence of a report: per catalogued atom its fingerprint and verdict, user atoms apart.

    The covered families are those of every catalogued mma.sync atom the run has a row for; a run with
    the GMMA sample (every family and source at N = 8 and 256) records that too.
    """
    atoms: dict = {}
    users: dict = {}
    corrected: dict = {}
    specs = {c["label"]: c["atom"] for c in (report.manifest or {}).get("cases", [])}
    for r in report.results:
        row = {"fingerprint": r.fingerprint, "verdict": r.verdict, "types": r.types, "kind": r.kind, "run": run}
        if r.kind in ("user", "corrected") and r.label in specs:
            s = specs[r.label]
            row["layouts"] = {"thr_id": s["thr_id"], "A": s["a_layout"], "B": s["b_layout"], "C": s["c_layout"]}
        if r.verdict in (AGREE, DISAGREE) and r.kind != "upstream":
            row.update(mismatches=r.mismatches, d_elements=r.d_elements, trials=r.trials,
                       conflicts=r.conflicts, sass=sorted(set(r.sass)))
        if r.reason:
            row["note"] = r.reason
        if r.example:
            row["example"] = r.example
        if r.kind == "user":
            users[r.label] = dict(row, instruction=r.instruction)
        elif r.kind == "corrected":
            corrected[r.instruction] = row
        else:
            atoms[r.label] = row
    for name, row in corrected.items():
        if name in atoms:
            atoms[name]["corrected"] = row
    env = report.env
    man = report.manifest or {}
    run = {k: env.get(k) for k in ("device", "cc", "sms", "driver", "driver_cuda", "runtime_cuda", "nvcc", "arch",
                                   "date")}
    run.update(manifest=man.get("id"), seed=man.get("seed"), trials=man.get("trials"))
    ev = {"format": FORMAT, "runs": [run],
          "covered_families": sorted({family(n) for n in atoms if n in WARP_ATOMS}),
          "atoms": dict(sorted(atoms.items())), "user_atoms": users}
    from .api import GMMA_SAMPLE_N, gmma_sample
    if set(gmma_sample()) <= set(atoms):
        ev["gmma_sample_n"] = list(GMMA_SAMPLE_N)
    return ev


def write_evidence(evidence: dict, path) -> None:
    from .. import files
    files.output_dir(Path(path).parent)
    files.write(path, json.dumps(evidence, indent=1, sort_keys=True) + "\n")


def load_evidence(path=None) -> dict:
    """The evidence file shipped with symcute (or the one at ``path``)."""
    p = Path(path) if path is not None else EVIDENCE_PATH
    from .. import jsonread
    from .schema import EVIDENCE_SCHEMA
    from .. import files
    text = files.read(p, f"hwcheck: evidence {p}")
    ev = jsonread.loads(text, f"hwcheck: evidence {p}")
    if isinstance(ev, dict) and ev.get("format") != FORMAT:
        raise SymcuteError(f"hwcheck: {p} is not a {FORMAT} file")
    return jsonread.checked(ev, EVIDENCE_SCHEMA, f"hwcheck: evidence {p}")


def known_defect(name: str) -> bool:
    """True when the catalog or hwcheck's corrections record ``name`` as defined wrongly upstream."""
    atom = WARP_ATOMS.get(name)
    return bool(atom is not None and atom.defects) or any(n == name for n, _op in CORRECTIONS)


def check_evidence(evidence: dict, catalog: dict | None = None) -> list[str]:
    """Problems with the evidence for the catalog: one line per atom (empty when all is confirmed).

    * an atom of a covered family with no evidence;
    * an atom whose fingerprint differs from the one the hardware run checked;
    * an atom that disagreed with the hardware and is not a known upstream defect,
      or a known defect whose corrected layout did not agree;
    * an atom recorded neither as run nor as unsupported.
    """
    catalog = WARP_ATOMS if catalog is None else catalog
    covered = set(evidence.get("covered_families", []))
    recorded = evidence.get("atoms", {})
    problems = []
    for name, atom in catalog.items():
        if family(name) not in covered:
            continue
        row = recorded.get(name)
        if row is None:
            problems.append(f"{name}: no hardware evidence (run symcute hwcheck on a GPU and refresh "
                            f"{EVIDENCE_PATH.name})")
            continue
        fp = fingerprint(atom)
        if row.get("fingerprint") != fp:
            problems.append(f"{name}: layouts changed since the hardware run (evidence {row.get('fingerprint', '')[:12]}, "
                            f"catalog {fp[:12]}): re-run symcute hwcheck")
            continue
        verdict = row.get("verdict")
        if verdict == DISAGREE:
            if not known_defect(name):
                problems.append(f"{name}: disagrees with the hardware and is not a known upstream defect")
            elif row.get("corrected", {}).get("verdict") not in (AGREE, None):
                problems.append(f"{name}: its corrected layout did not agree with the hardware either")
        elif verdict not in (AGREE, UNSUPPORTED):
            problems.append(f"{name}: recorded verdict {verdict!r} (neither agree, disagree nor unsupported)")
    if evidence.get("gmma_sample_n") and catalog is WARP_ATOMS:
        problems += _check_gmma(evidence)
    return problems


def _check_gmma(evidence: dict) -> list[str]:
    """The GMMA sample: each recorded atom still has the layouts that ran, and the sample is complete."""
    from .api import gmma_sample
    from ..atoms.mma_lookup import mma_atom
    recorded = evidence["atoms"]
    problems = []
    for name in gmma_sample(tuple(evidence["gmma_sample_n"])):
        row = recorded.get(name)
        if row is None:
            problems.append(f"{name}: no hardware evidence for this GMMA family/source/N")
        elif row.get("fingerprint") != fingerprint(mma_atom(name)):
            problems.append(f"{name}: layouts changed since the hardware run: re-run symcute hwcheck --gmma")
        elif row.get("verdict") != AGREE:
            problems.append(f"{name}: recorded verdict {row.get('verdict')!r}")
    return problems
