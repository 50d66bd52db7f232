"""Regenerate the committed proofs: ``python -m symcute.report.regenerate [DIR]`` (default ``proofs``).

Each document is a recipe of ``symcute.recipes`` rendered by
``symcute.report.markdown``; ``tests/proofs`` regenerates them into a
temporary folder and fails on any difference from the committed files.
Beside the documents of each derivation lies ``<stem>.certificates.json``: the certificate of every
verdict the derivation holds (docs/certificates.md), which ``symcute check`` re-verifies; a verdict the
format does not state (a contract, a parametric claim), or one a table keeps as text without its Proof (the
catalog's cells, the global-memory derivation's parametric checks), is listed under ``not_stated``, never
dropped silently.
"""

from __future__ import annotations

import sys

_GMMA_BANK = {"mma": "SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "atom_layout": (1, 1, 1),
              "smem": "GMMA::Layout_K_SW128_Atom@64x64"}

# (file name, recipe, keyword arguments, language; "svg": the recipe's lanes-vs-banks picture)
PROOFS = [
    ("seed.en.md", "derive_retile", "SEED", "en"),
    ("seed.zh.md", "derive_retile", "SEED", "zh"),
    ("sm80_16x8x16_2x2x1_B.en.md", "derive_retile",
     {"mma": "SM80_16x8x16_F16F16F16F16_TN", "atom_layout": (2, 2, 1), "operand": "B",
      "copy_atom": "SM75_U32x2_LDSM_N", "value_type": "half_t"}, "en"),
    ("sm80_16x8x16_2x2x1_C.en.md", "derive_retile",
     {"mma": "SM80_16x8x16_F16F16F16F16_TN", "atom_layout": (2, 2, 1), "operand": "C",
      "copy_atom": "UniversalCopy<uint32_t>", "value_type": "half_t"}, "en"),
    ("sm75_16x8x8_2x2x1_A.en.md", "derive_retile",
     {"mma": "SM75_16x8x8_F32F16F16F32_TN", "atom_layout": (2, 2, 1), "operand": "A",
      "copy_atom": "SM75_U32x1_LDSM_N", "value_type": "half_t"}, "en"),
    ("sm90_gmma_64x64x16_RS_2x1x1.en.md", "derive_tv",
     {"mma": "SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "atom_layout": (2, 1, 1)}, "en"),
    ("sm100_umma_128x256x16_SS.en.md", "derive_tv",
     {"mma": "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
      "atom_layout": (1, 1, 1)}, "en"),
    ("sm100_tmem_load_32dp32b32x.en.md", "derive_tv_copy",
     {"copy_atom": "SM100_TMEM_LOAD_32dp32b32x", "tmem": "(128,32):(65536,1)", "value_type": "float"}, "en"),
    ("sm100_tmem_load_32dp32b32x.zh.md", "derive_tv_copy",
     {"copy_atom": "SM100_TMEM_LOAD_32dp32b32x", "tmem": "(128,32):(65536,1)", "value_type": "float"}, "zh"),
    ("catalog_inverses.en.md", "derive_catalog", {}, "en"),
    ("gmem_sm80_16x8x16_2x2x1_A.en.md", "derive_gmem", {}, "en"),
    ("gmem_sm80_16x8x16_2x2x1_A.zh.md", "derive_gmem", {}, "zh"),
    ("swizzle_sw343_8x64.en.md", "derive_swizzle", {"layout": "Sw<3,4,3> o 0 o (8,64):(64,1)", "names": ("r", "c")},
     "en"),
    ("swizzle_sw343_8x64.zh.md", "derive_swizzle", {"layout": "Sw<3,4,3> o 0 o (8,64):(64,1)", "names": ("r", "c")},
     "zh"),
    ("swizzle_sw333_8x64.en.md", "derive_swizzle", {"layout": "Sw<3,3,3> o 0 o (8,64):(64,1)", "names": ("r", "c")},
     "en"),
    # bank conflicts: the unswizzled SM80 ldmatrix read, the same with CuTe's swizzle, an SM90 GMMA smem tile
    ("bank_sm80_ldsm_unswizzled.en.md", "derive_bank", {"smem": "(32,64):(64,1)"}, "en"),
    ("bank_sm80_ldsm_unswizzled.zh.md", "derive_bank", {"smem": "(32,64):(64,1)"}, "zh"),
    ("bank_sm80_ldsm_unswizzled.svg", "derive_bank", {"smem": "(32,64):(64,1)"}, "svg"),
    ("bank_sm80_ldsm_sw333.en.md", "derive_bank", {"smem": "Sw<3,3,3> o 0 o (32,64):(64,1)"}, "en"),
    ("bank_sm80_ldsm_sw333.zh.md", "derive_bank", {"smem": "Sw<3,3,3> o 0 o (32,64):(64,1)"}, "zh"),
    ("bank_sm80_ldsm_sw333.svg", "derive_bank", {"smem": "Sw<3,3,3> o 0 o (32,64):(64,1)"}, "svg"),
    ("bank_sm90_gmma_k_sw128.en.md", "derive_bank", _GMMA_BANK, "en"),
    ("bank_sm90_gmma_k_sw128.zh.md", "derive_bank", _GMMA_BANK, "zh"),
]


def _derivation(recipe, kwargs, cache: dict):
    from .. import recipes
    kw = recipes.SEED if kwargs == "SEED" else kwargs
    key = (recipe, repr(sorted(kw.items())))
    if key not in cache:
        cache[key] = getattr(recipes, recipe)(**kw)
    return key


def documents(cache=None):
    """``(file name, Markdown)`` of every committed proof, in order (``cache``: derivations already made)."""
    from . import markdown
    cache = {} if cache is None else cache
    for name, recipe, kwargs, lang in PROOFS:
        key = _derivation(recipe, kwargs, cache)
        if lang == "svg":
            from .bank import picture
            yield name, picture(cache[key])
        else:
            yield name, markdown(cache[key], lang)


def stem(name: str) -> str:
    """The derivation's part of a document name: ``seed.en.md`` and ``seed.zh.md`` share ``seed``."""
    return name.split(".")[0]


def _proofs(x, depth=0):
    """Every Proof held in a derivation node's data (records, lists and dicts, walked to a small depth)."""
    import dataclasses
    from ..symbolic.proof import Proof
    if isinstance(x, Proof):
        yield x
    elif depth < 6 and dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            yield from _proofs(getattr(x, f.name), depth + 1)
    elif depth < 6 and isinstance(x, (list, tuple)):
        for v in x:
            yield from _proofs(v, depth + 1)
    elif depth < 6 and isinstance(x, dict):
        for v in x.values():
            yield from _proofs(v, depth + 1)


def _kept_verdicts(x, path: str, depth: int = 0):
    """``(path, verdict)`` of every proved/refuted verdict a table holds as text (a record whose decision kept
    no Proof: a parametric claim, a catalog cell), named by its table kind, its ``claim`` and its field."""
    if isinstance(x, str) and x in ("proved", "refuted"):
        yield path, x
    elif depth < 8 and isinstance(x, dict):
        name = x.get("claim") if isinstance(x.get("claim"), str) else x.get("kind") if depth == 0 else None
        for k, v in x.items():
            if k not in ("kind", "claim"):
                yield from _kept_verdicts(v, f"{path} {name}".strip() + f".{k}" if name else f"{path}.{k}", depth + 1)
    elif depth < 8 and isinstance(x, (list, tuple)):
        for v in x:
            yield from _kept_verdicts(v, path, depth + 1)


def certificates(derivation) -> str:
    """The certificate file of a derivation: every verdict's certificate, in graph order, as JSON text.
    A verdict without one is listed under ``not_stated``: a Proof whose claim the format does not state, and,
    in a derivation that holds no Proof, each verdict its tables keep as text (one line per field, counted)."""
    import json
    from collections import Counter
    certs, not_stated, seen, kept = [], [], set(), Counter()
    for _node, data in derivation.graph.nodes(data=True):
        kept.update(_kept_verdicts(data.get("details"), ""))
        for value in data.values():
            for p in _proofs(value):
                if id(p) in seen or p.verdict == "unknown":
                    continue
                seen.add(id(p))
                if p.claim is None:
                    not_stated.append(str(p.statement))
                else:
                    certs.append(p.certificate_file())
    if seen:   # the tables' verdicts summarise the Proofs the derivation holds
        kept.clear()
    not_stated += [f"{path.lstrip('.')}: {verdict}" + (f" ({n} verdicts)" if n > 1 else "") +
                   ": the table keeps the verdict, not its proof (no certificate)" for (path, verdict), n in kept.items()]
    return json.dumps({"certificates": certs, "not_stated": not_stated}, indent=1, ensure_ascii=False) + "\n"


def certificate_files(cache=None):
    """``(file name, JSON)`` of every derivation behind a committed document (one file per stem)."""
    cache = {} if cache is None else cache
    done = set()
    for name, recipe, kwargs, _lang in PROOFS:
        if stem(name) in done:
            continue
        done.add(stem(name))
        yield f"{stem(name)}.certificates.json", certificates(cache[_derivation(recipe, kwargs, cache)])


def file_names() -> list:
    """Every file regenerate writes: the documents, and one certificate file per derivation."""
    return [name for name, *_ in PROOFS] + sorted({f"{stem(name)}.certificates.json" for name, *_ in PROOFS})


def regenerate(folder) -> list:
    """Write every proof into ``folder`` (created if needed); returns the paths written."""
    from .. import files
    out = files.output_dir(folder)
    written = []
    cache = {}
    for name, text in list(documents(cache)) + list(certificate_files(cache)):
        path = out / name
        files.write(path, text)   # atomic; a link named like a proof is replaced, not written through
        written.append(str(path))
    return written


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for path in regenerate(argv[0] if argv else "proofs"):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
