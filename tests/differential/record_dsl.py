"""Record what CuTe DSL prints for symcute's to_dsl spellings (tests/data/dsl_printed.jsonl).

Run by hand where ``nvidia-cutlass-dsl`` is installed (it is no dependency of symcute; it runs on a
CPU): ``PYTHONPATH=. python tests/differential/record_dsl.py``.  Each record holds the spelling symcute
wrote, the text CuTe DSL's ``print`` showed for the value the spelling builds, and its MLIR type;
tests/differential/test_code_vs_cute.py reads them back.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cutlass.cute as cute  # noqa: E402

from symcute import to_dsl  # noqa: E402
from tests.differential.code_corpus import dsl_corpus  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data" / "dsl_printed.jsonl"


def main() -> None:
    spellings = [to_dsl(v) for v in dsl_corpus()]
    # symcute's spellings go into a generated module verbatim (the jit reads its source; it refuses eval)
    lines = ["import cutlass.cute as cute", "", "@cute.jit", "def show():"]
    for s in spellings:
        lines += [f"    v = {s}", "    print(v)", "    print(v.type)"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dsl_spellings.py"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        spec = importlib.util.spec_from_file_location("dsl_spellings", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            module.show()
    printed = out.getvalue().splitlines()
    assert len(printed) == 2 * len(spellings), "unexpected output from CuTe DSL"
    records = [{"dsl": s, "printed": printed[2 * i], "type": printed[2 * i + 1]} for i, s in enumerate(spellings)]
    OUT.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    print(f"wrote {len(records)} records to {OUT}")


if __name__ == "__main__":
    main()
