"""``symcute derive``: record a derivation and print its Markdown proof (or its graph: JSON, GraphML, GEXF, DOT).

``symcute derive`` alone derives the seed's configuration (retile_D for A of
SM80_16x8x16_F16F16F16F16_TN tiled 2x2x1 with SM75_U32x2_LDSM_N, and the
seed's ``upcast<128*4>`` contrast) and prints the proof in English;
``--lang zh`` prints it in the seed's own language.  Subcommands:

- ``retile-d``: the seed's analysis for any MMA atom, atom layout, operand and copy atom;
- ``expr``: any expression of the expression language, step by step;
- ``bank``: bank conflicts of a TiledCopy over a smem layout (witness, certificate, fix);
- ``tv``: the TV layouts of a TiledMMA with their right_inverse facts (GMMA and UMMA atoms too);
- ``tmem``: the same for ``make_tmem_copy`` over a TMEM tensor (SM100 TMEM loads and stores);
- ``catalog``: right_inverse / left_inverse facts of every catalogued MMA atom;
- ``swizzle``: a swizzled smem tile: formula, bit table, GF(2) bijection proof, bank collisions;
- ``gmem``: a parametric (M, K) global A through ``local_tile`` and ``partition_A``: every address, all M and K.
"""

from __future__ import annotations

import argparse
import sys

SEED_HELP = ("With no subcommand: the seed's configuration (operand A of SM80_16x8x16_F16F16F16F16_TN, atom layout "
             "2,2,1, copy atom SM75_U32x2_LDSM_N, half_t, contrast upcast<512>)")


FORMATS = ("md", "json", "graphml", "gexf", "dot")


def _output_options(p, top: bool) -> None:
    """--lang, --format, -o on ``derive`` and on each subcommand (given after the subcommand, they win)."""
    kw = {} if top else {"default": argparse.SUPPRESS}
    p.add_argument("--lang", choices=("en", "zh"), help="language of the proof (default en)",
                   **({"default": "en"} if top else kw))
    p.add_argument("--format", choices=FORMATS,
                   help="md: the Markdown proof (default); json: the derivation graph as networkx node-link JSON; "
                        "graphml, gexf: the graph for graph tools; dot: Graphviz (needs the package pydot)",
                   **({"default": "md"} if top else kw))
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (UTF-8) instead of standard output",
                   **({"default": None} if top else kw))
    p.add_argument("--certificates", metavar="FILE",
                   help="also write the certificate of every verdict of the derivation to FILE (docs/certificates.md; "
                        "'symcute check FILE' re-verifies them)", **({"default": None} if top else kw))


OPERANDS = ("A", "B", "C")   # atoms.operand.OPERANDS (not imported: the parser is built before any layer loads)


def _mma_options(p, mma: str, atom_layout: str, operand: str | None = "A") -> None:
    """--mma and --atom-layout (and --operand, one of A, B, C) of the recipes over a TiledMMA."""
    p.add_argument("--mma", default=mma, help="MMA atom, as spelled in C++")
    p.add_argument("--atom-layout", default=atom_layout, metavar="M,N,K",
                   help=f"atom layout shape (default {atom_layout})")
    if operand is not None:
        p.add_argument("--operand", default=operand, type=str.upper, choices=OPERANDS,
                       help=f"operand (default {operand})")


def _copy_options(p, copy_atom: str, value_type_help: str) -> None:
    p.add_argument("--copy-atom", default=copy_atom, help="copy atom, as spelled in C++")
    p.add_argument("--value-type", default="half_t", help=value_type_help)


def register(sub) -> None:
    p = sub.add_parser("derive", help="derive a configuration and print its Markdown proof",
                       description="Record a chain of CuTe operations and print a Markdown proof of it. "
                                   + SEED_HELP + ".")
    _output_options(p, top=True)
    p.add_argument("--regenerate-proofs", metavar="DIR",
                   help="write every committed proof of proofs/ into DIR and exit")
    p.set_defaults(handler=run, what=None)
    whats = p.add_subparsers(dest="what", metavar="WHAT", parser_class=type(p))

    r = whats.add_parser("retile-d", help="the retile_D analysis of one operand of a TiledMMA",
                         description="get_layoutX_TV, right_inverse, with_shape(Tiler_MN), upcast<TiledNumThr*V>, "
                                     "retile: every intermediate value, named sub-axes, checks.")
    _mma_options(r, "SM80_16x8x16_F16F16F16F16_TN", "2,2,1")
    _copy_options(r, "SM75_U32x2_LDSM_N", "value type of the copy atom (default half_t)")
    r.add_argument("--values", type=int, metavar="V",
                   help="the fragment's value count V = size<0>(fragment) (default: thread 0's fragment)")
    r.add_argument("--contrast", type=int, metavar="N", help="also show upcast<N>(H) for comparison")
    r.add_argument("--permutation", metavar="M,N,K",
                   help="the TiledMMA's PermutationMNK as tile extents (CuTe's Tile<_M,_N,_K>), e.g. 32,32,16")
    _output_options(r, top=False)

    e = whats.add_parser("expr", help="an expression of CuTe calls, step by step",
                         description="Evaluate an expression (symcute's own parser, never an evaluator), recording "
                                     "each operation; each step gets its formula and the identity its rule "
                                     "guarantees, proved. Example: symcute derive expr "
                                     "'upcast<1024>(right_inverse(F).with_shape(32,16))' --let F='...' "
                                     "--name F='((t0,t1,wm,wn),((v0,v1,v2),(a,b)))'")
    e.add_argument("expr", help="the expression")
    e.add_argument("--let", action="append", default=[], metavar="NAME=VALUE", help="bind NAME; repeatable")
    e.add_argument("--name", action="append", default=[], metavar="VAR=TREE",
                   help="name the sub-axes of layout variable VAR; repeatable")
    _output_options(e, top=False)

    t = whats.add_parser("tv", help="the TV layouts of a TiledMMA and their right_inverse facts",
                         description="For each operand: the TV layout, its named sub-axes, broadcasts, right "
                                     "inverse, and the inverse identities checked (any catalogued atom, GMMA too).")
    _mma_options(t, "SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "1,1,1", operand=None)
    t.add_argument("--operand", action="append", type=str.upper, choices=OPERANDS,
                   help="operand; repeatable (default A, B and C)")
    _output_options(t, top=False)

    g = whats.add_parser("gmem", help="a parametric (M, K) A through local_tile and partition_A: every address",
                         description="A row-major global A of run-time extents M and K, tiled by local_tile into "
                                     "CTA tiles and partitioned by a TiledMMA's partition_A: the address of every "
                                     "(thread, value) of every tile over named sub-axes, with claims decided for "
                                     "every admissible M and K.")
    _mma_options(g, "SM80_16x8x16_F16F16F16F16_TN", "2,2,1", operand=None)
    g.add_argument("--tile", default="128,32", metavar="BM,BK", help="the CTA tile (default 128,32)")
    g.add_argument("--param", action="append", default=[], metavar="NAME:DIVISOR",
                   help="side condition on M or K (default M:BM, K:BK: full tiles); repeatable")
    _output_options(g, top=False)
    b = whats.add_parser("bank", help="bank conflicts of a TiledCopy over a smem layout, every lane explained",
                         description="Address and bank formulas over named sub-axes, the per-phase bank table, the "
                                     "conflict witness, the exact totals (with an F2 certificate where it applies) "
                                     "and the best swizzle.")
    _mma_options(b, "SM80_16x8x16_F16F16F16F16_TN", "2,2,1")
    _copy_options(b, "SM75_U32x4_LDSM_N", "value type (default half_t)")
    b.add_argument("--smem", default="(32,64):(64,1)", help="smem layout (CuTe notation or GMMA::Layout_*_Atom[@MxN])")
    b.add_argument("--side", type=str.upper, choices=("S", "D"), help="the shared-memory side (default: the atom's)")
    _output_options(b, top=False)

    m = whats.add_parser("tmem", help="the TV layouts of make_tmem_copy (SM100 TMEM load/store) and their inverses",
                         description="make_tmem_copy(Copy_Atom<ATOM, T>, a TMEM tensor LAYOUT of T): the source and "
                                     "destination TV layouts with named sub-axes, broadcasts, right inverses and "
                                     "the inverse identities checked.")
    m.add_argument("--copy-atom", default="SM100_TMEM_LOAD_32dp32b32x", help="TMEM copy atom, as spelled in C++")
    m.add_argument("--tmem", default="(128,32):(65536,1)", metavar="LAYOUT",
                   help="the TMEM tensor's layout in T addressing (default (128,32):(65536,1): 128 lanes x 32 "
                        "columns of 32-bit values)")
    m.add_argument("--value-type", default="float", help="value type T (default float)")
    _output_options(m, top=False)

    w = whats.add_parser("swizzle", help="a swizzled smem tile: formula, bit table, GF(2) proof, bank collisions",
                         description="A swizzled shared-memory tile Sw<B,M,S> o O o (rows, columns): its formula "
                                     "and bit table with and without the swizzle, the GF(2) bijection proof, and "
                                     "the rows whose elements of one column share a bank (the kernel of the bank "
                                     "bits over GF(2)).")
    w.add_argument("layout", nargs="?", default="Sw<3,4,3> o 0 o (8,64):(64,1)",
                   help="the tile (CuTe notation or an expression; default Sw<3,4,3> o 0 o (8,64):(64,1))")
    w.add_argument("--names", metavar="TREE",
                   help="names of the tile's modes (default (r,c) for two plain modes, else mode-path names)")
    w.add_argument("--element-bits", type=int, default=16, help="bits of one element (default 16)")
    w.add_argument("--column", type=int, default=0, help="the column whose banks are compared (default 0)")
    _output_options(w, top=False)

    c = whats.add_parser("catalog", help="right_inverse / left_inverse facts of every catalogued MMA atom")
    c.add_argument("--filter", metavar="TEXT", help="only atoms whose name or PTX contains TEXT")
    c.add_argument("--arch", metavar="SM", help="only atoms of this architecture (sm80, sm90, ...)")
    c.add_argument("--quiet", "-q", action="store_true", help="no progress bar on the terminal")
    _output_options(c, top=False)


def _names(items: list) -> dict:
    from ..errors import ParseError
    out = {}
    for item in items:
        var, sep, tree = item.partition("=")
        var = var.strip()
        if not sep or not var.isidentifier():
            raise ParseError(f"--name expects VAR=TREE with VAR an identifier, got {item!r}")
        out[var] = tree
    return out


def _tile(text: str) -> tuple:
    from ..errors import ParseError
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ParseError(f"--tile expects BM,BK (two positive integers), got {text!r}")
    return tuple(int(p) for p in parts)


def _side_conditions(decls: list) -> dict | None:
    from ..errors import ParseError
    from ..symbolic.parametric import parse_declaration
    out = {}
    for d in decls:
        name, div = parse_declaration(d)
        if name not in ("M", "K") or div is None:
            raise ParseError(f"--param {d!r}: expected M:DIVISOR or K:DIVISOR")
        out[name] = div
    return out or None


def derivation_for(args):
    """The derivation the arguments ask for."""
    from .. import recipes
    if args.what is None:
        return recipes.derive_retile(**recipes.SEED)
    if args.what == "retile-d":
        return recipes.derive_retile(args.mma, args.atom_layout, args.operand, args.copy_atom, args.value_type,
                                     args.values, args.contrast, args.permutation)
    if args.what == "expr":
        from ..expr.bindings import parse_lets
        from ..expr import derive_expr
        return derive_expr(args.expr, parse_lets(args.let), _names(args.name))
    if args.what == "gmem":
        return recipes.derive_gmem(args.mma, args.atom_layout, _tile(args.tile), _side_conditions(args.param))
    if args.what == "bank":
        return recipes.derive_bank(args.mma, args.atom_layout, args.operand, args.copy_atom, args.value_type,
                                   args.smem, side=args.side)
    if args.what == "tv":
        return recipes.derive_tv(args.mma, args.atom_layout, tuple(args.operand or OPERANDS))
    if args.what == "swizzle":
        from ..expr import evaluate
        from ..symbolic.names import parse_names
        return recipes.derive_swizzle(evaluate(args.layout), parse_names(args.names) if args.names else None,
                                      args.element_bits, args.column)
    if args.what == "tmem":
        return recipes.derive_tv_copy(args.copy_atom, args.tmem, args.value_type)
    from .progress import Bar
    with Bar("derive catalog", enabled=not args.quiet) as bar:
        return recipes.derive_catalog(args.filter, args.arch, progress=bar)


def run(args) -> int:
    if args.regenerate_proofs:
        from ..report.regenerate import regenerate
        from .files import writing
        with writing(f"cannot write into {args.regenerate_proofs}"):
            for path in regenerate(args.regenerate_proofs):
                print(path)
        return 0
    d = derivation_for(args)
    if args.certificates:
        from .. import files
        from ..report.regenerate import certificates
        files.write(args.certificates, certificates(d))
    if args.format == "json":
        text = d.to_json() + "\n"
    elif args.format in ("graphml", "gexf", "dot"):
        text = getattr(d, f"to_{args.format}")()
    else:
        from ..report import markdown
        text = markdown(d, args.lang)
    if args.output:
        from .. import files
        files.write(args.output, text)   # atomic, mode 0644; a link at the path is replaced, not written through
    else:
        out = getattr(sys.stdout, "buffer", None)
        if out is None:      # a text-only stream (some embedders)
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            out.write(text.encode("utf-8"))
            out.flush()
    return 0
