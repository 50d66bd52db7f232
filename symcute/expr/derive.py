"""Any expression of the expression language, step by step, with a formula and a check per step."""

from __future__ import annotations

from .. import symbolic as sym
from ..core import int_tuple as it
from ..errors import SymcuteError
from ..trace.derivation import Derivation
from ..recipes.records_expr import Binding, Bindings, ExprFormula
from ..recipes.steps import add_formula, add_proof, add_table, cute
from . import language

def derive_expr(text: str, lets: dict | None = None, names: dict | None = None) -> Derivation:
    """Evaluate an expression of the expression language under a derivation, with a formula and checks per step.

    ``lets``: variable -> value (a value, or expression text evaluated first,
    unrecorded); ``names``: variable -> names tree (text or tuples) for a
    layout variable.  Each top-level step of the evaluation gets the formula
    of its result, named after its inputs' sub-axes where the symbolic layer
    can follow them (default names otherwise), and the identity its rule
    guarantees is proved: ``L(R(i)) == i`` for right_inverse, ``R(L(x)) == x``
    for left_inverse, equality as functions for with_shape and coalesce,
    ``result(c) == lhs(rhs(c))`` for composition.
    """
    from ..core.layout import Layout as _Layout
    from ..symbolic.names import parse_names
    if not isinstance(text, str) or not text.strip():
        raise SymcuteError("derive expr: the expression is empty")
    lets = dict(lets or {})
    names = dict(names or {})
    env, shown = {}, []
    for var, value in lets.items():
        val = language.parse_expr_text(value).evaluate(env) if isinstance(value, str) else value
        env[var] = val
    formulas = {}
    for var, tree in names.items():
        if var not in env:
            raise SymcuteError(f"derive expr: names given for {var!r}, which no --let binds")
        if not isinstance(env[var], _Layout):
            raise SymcuteError(f"derive expr: {var} = {env[var]} is not a layout; only layouts take names")
        tree = parse_names(tree) if isinstance(tree, str) else tree
        formulas[var] = sym.formula(env[var], tree)
    for var, val in env.items():
        shown.append(Binding(var, str(val), _names_text(formulas[var]) if var in formulas else None))
    d = Derivation(f"derive expr: {text}", recipe="expr", expression=text,
                   lets={k: str(v) for k, v in env.items()},
                   names={k: _names_text(f) for k, f in formulas.items()})
    with d:
        for var, val in env.items():
            d.label(val, var)
        parsed = language.parse_expr_text(text)
        result = parsed.evaluate(env)
        d.label(result, "result")
    steps = d.steps(top_level_only=True)
    for k, step in enumerate(steps, 1):   # intermediate results are named R1, R2, ... in the report
        if step.output is not None and "label" not in d.graph.nodes[step.output]:
            d.graph.nodes[step.output]["label"] = f"R{k}"
    known = {d.labelled(v): f for v, f in formulas.items()}
    add_table(d, "bindings", **Bindings(tuple(shown), describe_value(result)).to_details())
    for k, step in enumerate(steps, 1):
        _explain_step(d, step, k, known)
    return d


def _names_text(f) -> str:
    from ..symbolic.names import format_names
    return format_names(f.names)


def describe_value(x) -> str:
    if isinstance(x, (tuple, list)):
        return cute(x)
    return str(x)


_SYM_OPS = {"right_inverse": ("right_inverse", ("layout",)), "left_inverse": ("left_inverse", ("layout",)),
            "coalesce": ("coalesce", ("layout", "profile")), "complement": ("complement", ("layout", "cotarget")),
            "upcast": ("upcast", ("layout", "n")), "downcast": ("downcast", ("layout", "n")),
            "composition": ("composition", ("lhs", "rhs")), "logical_divide": ("logical_divide", ("layout", "tiler")),
            "zipped_divide": ("zipped_divide", ("layout", "tiler")),
            "logical_product": ("logical_product", ("block", "tiler"))}


def _explain_step(d: Derivation, step, k: int, known: dict) -> None:
    """The formula of a step's result (names followed through the symbolic layer) and its guaranteed identity."""
    out = d.obj(step.output) if step.output is not None else None
    if not _has_formula(out):
        return

    def f_of(node):
        if node in known:
            return known[node]
        obj = d.obj(node)
        return sym.formula(obj) if _has_formula(obj) else obj

    with d.paused():
        args = {name: f_of(node) for name, node in step.inputs.items()}
        f = None
        try:
            if step.rule in ("get_layoutA_TV", "get_layoutB_TV", "get_layoutC_TV") and "self" in step.inputs:
                # the atoms layer names a TiledMMA's TV layouts (t0, t1, wm, wn | v0, v1, ...)
                f = sym.formula(out, d.obj(step.inputs["self"]).layout_TV_names(step.rule[10]))
            elif step.rule in _SYM_OPS:
                fn_name, params = _SYM_OPS[step.rule]
                fn = getattr(sym.ops, fn_name, None) or getattr(sym, fn_name)   # the contract is its own step
                call = [args[p] for p in params if p in args]
                f = fn(*call)
            elif step.rule == "with_shape":
                shape = tuple(args[n] for n in sorted(a for a in args if a.startswith("shape")))
                f = sym.with_shape(args["self"], *shape)
        except (SymcuteError, AssertionError, TypeError, KeyError, AttributeError):
            f = None   # no symbolic counterpart for these inputs: default names below
        if f is None or f.layout != out:
            f = sym.formula(out)
    known[step.output] = f
    add_formula(d, out, f, d.graph.nodes[step.output]["label"], **ExprFormula(k, step.rule).to_details())
    _step_check(d, step, k, args, f)
    _contract_check(d, step, k)


# the contracts _step_check already proves as they are (the same claim, by the same prover)
_PROVED_BY_STEP_CHECK = ("right_inverse", "coalesce")


def _contract_check(d: Derivation, step, k: int) -> None:
    """The step's CuTe contract (symcute.symbolic.contracts), bounded as calc's quick check; no step when the
    check has nothing to say (no contract, an argument form it does not take, past its time bound)."""
    from .. import core
    from ..core.layout import Layout as _Layout
    from ..symbolic.contracts import CONTRACT_OPS, evaluate_checked
    rule = step.rule
    if rule not in CONTRACT_OPS or rule in _PROVED_BY_STEP_CHECK or step.output is None:
        return
    values = [d.obj(node) for node in step.inputs.values()]
    if rule == "composition" and all(isinstance(v, _Layout) for v in values):
        return   # _step_check proves result(c) == lhs(rhs(c)): composition's contract itself
    fn = getattr(core, rule, None)
    if fn is None or any(v is d.obj(step.output) for v in values):
        return   # no core function; or CuTe returns its input itself (logical_divide(L, _)): nothing to check
    with d.paused():
        try:
            value, p = evaluate_checked(lambda: fn(*values))
        except SymcuteError:
            return
    if p is None or value != d.obj(step.output) or any(value is v for v in values):
        # an operation that returns its input itself (logical_divide(L, _)): the contract says "the same
        # function", and the proof's result would be linked to the input node, not to this step
        return
    label = d.graph.nodes[step.output]["label"]
    add_proof(d, "prove_contract", p, {"result": d.ref(step.output)}, [label, rule], "contract",
              _size_or_none(value), step=k)


def _size_or_none(v):
    try:
        return v.size()
    except (AttributeError, TypeError, SymcuteError):
        return None


def _has_formula(x) -> bool:
    """A layout with integer strides, or a swizzle over one (its formula shows the XOR)."""
    from ..core.composed import ComposedLayout
    from ..core.layout import Layout as _Layout
    while isinstance(x, ComposedLayout):
        x = x.inner
    return isinstance(x, _Layout) and _int_strides(x)


def _int_strides(layout) -> bool:
    return all(isinstance(x, int) and not isinstance(x, bool) for x in it.flatten_to_tuple(layout.stride))


def _step_check(d: Derivation, step, k: int, args: dict, f) -> None:
    from ..symbolic import Compose
    from ..symbolic.formula import Formula
    rule, label = step.rule, d.graph.nodes[step.output]["label"]

    def name_of(key):
        return d.graph.nodes[step.inputs[key]].get("label", "L")
    with d.paused():
        try:
            if rule == "right_inverse" and isinstance(args.get("layout"), Formula):
                L = args["layout"]
                lab = [name_of("layout"), label]
                p, claim, n = sym.prove_right_inverse(L, f, labels=tuple(lab)), "right_inverse", f.size()
            elif rule == "left_inverse" and isinstance(args.get("layout"), Formula):
                L = args["layout"]
                lab = [name_of("layout"), label]
                p, claim, n = sym.prove_left_inverse(L, f, labels=tuple(lab)), "left_inverse", L.size()
            elif rule in ("with_shape", "coalesce") and isinstance(args.get("self", args.get("layout")), Formula):
                L = args.get("self", args.get("layout"))
                if L.size() != f.size():
                    return
                lab = [label, name_of("self" if "self" in step.inputs else "layout")]
                p, claim, n = sym.prove(f, L, labels=tuple(lab)), "equal", f.size()
            elif rule == "composition" and isinstance(args.get("lhs"), Formula) and isinstance(args.get("rhs"), Formula):
                both = f"{name_of('lhs')}∘{name_of('rhs')}"
                p = sym.prove(f, Compose(args["lhs"], args["rhs"]), labels=(label, both))
                claim, lab, n = "equal", [label, both], f.size()
            else:
                return
        except SymcuteError:
            return
    rid = {"right_inverse": "prove_right_inverse", "left_inverse": "prove_left_inverse"}.get(claim, "prove_equal")
    add_proof(d, rid, p, {"result": d.ref(step.output)}, lab, claim, n, step=k)


def _rederive(config: dict) -> Derivation:
    """``derive expr`` made again from a document's configuration (its lets and names are the texts it wrote)."""
    return derive_expr(config["expression"], config["lets"], config["names"])


def _register() -> None:
    from ..recipes.rederive import register
    register("expr", _rederive)


_register()
