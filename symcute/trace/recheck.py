"""Re-check a derivation read from JSON: recompute what core and the prover can, refuse what disagrees.

A document is data someone may have edited.  Before a report shows its values
next to the word *proved*, every step is checked again:

* a step of a core operation (its rule names a public ``symcute`` function
  such as ``right_inverse``, or ``Layout.with_shape``) whose inputs are core
  values (layouts, ints, tuples, ``_``) is run again on the inputs as read
  back; its result, its recorded intermediates (``details``) and its failure,
  if it failed, must be what core gives now;
* a ``formula`` step: the formula read back must be the formula of its input
  layout, with the same text and digit table;
* a ``prove_*`` step whose claim can be rebuilt from the graph is proved
  again and its verdict must agree (also the verdict the step's details and
  the proof JSON state);
* anything else (tables of facts, atom objects, steps of other rules) is
  listed under ``not_rechecked`` with the reason; a report of an imported
  derivation says which values were not re-checked.

A disagreement is a :class:`SymcuteError` naming the node, the rule, the
recomputed value and the document's.
"""

from __future__ import annotations

import inspect
import json

from ..core.composed import ComposedLayout
from ..core.layout import Layout, Underscore
from ..errors import SymcuteError
from .values import describe


def _core_value(x) -> bool:
    if isinstance(x, tuple):
        return all(_core_value(v) for v in x)
    return x is None or isinstance(x, (Layout, ComposedLayout, Underscore)) or (
        isinstance(x, int) and not isinstance(x, bool))


def operation(rule: str, inputs=()):
    """The traced public core function recorded under ``rule`` (with these argument names), or ``None``."""
    from .. import core
    from .derivation import make_tuple
    if rule == "make_tuple":
        return make_tuple
    if rule == "get" and "self" in inputs:   # L[i], Layout.__getitem__
        return Layout.__getitem__
    fn = getattr(core, rule, None)
    if fn is None:
        fn = getattr(Layout, rule, None)
    return fn if callable(fn) and getattr(fn, "rule", None) == rule else None


def _call_args(fn, inputs: dict):
    """Positional and keyword arguments from the argument names a step recorded (``trace.derivation._bind``)."""
    sig = inspect.signature(fn)
    args, kwargs, used = [], {}, set()
    for p in sig.parameters.values():
        if p.kind == inspect.Parameter.VAR_POSITIONAL:
            i = 0
            while f"{p.name}{i}" in inputs:
                args.append(inputs[f"{p.name}{i}"])
                used.add(f"{p.name}{i}")
                i += 1
        elif p.name in inputs:
            used.add(p.name)
            if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) and not kwargs:
                args.append(inputs[p.name])
            else:
                kwargs[p.name] = inputs[p.name]
        elif p.default is inspect.Parameter.empty and p.kind != inspect.Parameter.VAR_KEYWORD:
            return None
    if set(inputs) - used:
        return None
    return args, kwargs


# How a derivation that names a recipe is made again from its configuration: filled by the recipes
# layer when it loads (``recipes.rederive``), since this layer is below the recipes it would call.
_REDERIVERS: list = []


def register_rederivation(rederive) -> None:
    """``rederive(config)`` gives the derivation a recipe makes from ``config``, or ``None`` for none it knows."""
    if rederive not in _REDERIVERS:
        _REDERIVERS.append(rederive)


def rederivation(config: dict):
    """The derivation made again from ``config`` by a registered recipe, or ``None`` (no recipe, or not loaded)."""
    for rederive in _REDERIVERS:
        again = rederive(config)
        if again is not None:
            return again
    return None


def recheck(d, source: str = "derivation JSON") -> dict:
    """Re-check the imported derivation ``d`` in place; the counts and the list of what was not re-checked.

    A derivation whose configuration names a recipe this process has loaded is
    derived again and must be the same document (:func:`rederive_and_compare`):
    everything it prints is then re-checked, ``rederived`` says how many steps.
    Each step is first re-checked alone (:func:`check_step`); without a loaded
    recipe ``not_rechecked`` lists the steps that could not be.
    """
    report = {"values": 0, "formulas": 0, "verdicts": 0, "not_rechecked": [], "rederived": 0}
    for step in d.steps(structural=True):
        inputs = {name: d.graph.nodes[node].get("obj") for name, node in step.inputs.items()}
        fn = operation(step.rule, inputs)
        if fn is not None and not all(_core_value(v) for v in inputs.values()):
            report["not_rechecked"].append((step.node, step.rule, "inputs that are not core values"))
            continue
        kind = check_step(d, step, fn, inputs, f"{source}: step {step.node} ({step.rule})")
        if kind in report:
            report[kind] += 1
        else:
            report["not_rechecked"].append((step.node, step.rule, kind))
    # step by step first (its messages name the step and core's value), then the whole document
    return rederive_and_compare(d, source) or report


def rederive_and_compare(d, source: str):
    """Derive ``d``'s recipe again from its configuration and require the same document, node for node.

    ``None`` when ``d`` names no recipe a loaded layer can derive; else the
    counts of what was re-checked (every step, value, formula and verdict).
    A difference is a SymcuteError naming the first node and attribute that
    differ: a tampered document (or one written by another symcute version:
    derive it again) is refused, never rendered.
    """
    from .export import to_document
    if not isinstance(d.config.get("recipe"), str):
        return None
    try:
        again = rederivation(d.config)
    except SymcuteError as e:
        raise SymcuteError(f"{source}: the document's configuration cannot be derived again: {e}") from None
    if again is None:
        return None
    mine, theirs = to_document(d), to_document(again)
    _same_document(theirs, mine, source)
    steps = [n for n in mine["nodes"] if n["role"] == "step"]
    return {"values": sum(1 for n in mine["nodes"] if n["role"] == "value"),
            "formulas": sum(1 for n in steps if n["rule"] == "formula"),
            "verdicts": sum(1 for n in steps if "claim" in n.get("details", {})),
            "not_rechecked": [], "rederived": len(steps)}


def _same_document(expected: dict, got: dict, source: str) -> None:
    """A SymcuteError naming the first difference between the re-derived document and the file's."""
    if expected["graph"] != got["graph"]:
        keys = sorted(k for k in set(expected["graph"]) | set(got["graph"])
                      if expected["graph"].get(k) != got["graph"].get(k))
        raise SymcuteError(f"{source}: the derivation's {', '.join(keys)} differ from what its recipe derives")
    want = {n["id"]: n for n in expected["nodes"]}
    have = {n["id"]: n for n in got["nodes"]}
    for node in sorted(set(want) | set(have), key=lambda n: (want.get(n) or have[n])["order"]):
        if node not in have:
            raise SymcuteError(f"{source}: node {node} ({_what(want[node])}) is missing: its recipe derives it")
        if node not in want:
            raise SymcuteError(f"{source}: node {node} ({_what(have[node])}) is not one its recipe derives")
        a, b = want[node], have[node]
        if a != b:
            key = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[0]
            raise SymcuteError(f"{source}: node {node} ({_what(a)}): its {key} is not what its recipe derives "
                               f"(the file: {_bounded(b.get(key))}; derived again: {_bounded(a.get(key))})")
    edges = lambda doc: sorted((e["source"], e["target"], e.get("arg")) for e in doc["edges"])  # noqa: E731
    if edges(expected) != edges(got):
        diff = sorted(set(edges(expected)) ^ set(edges(got)))[0]
        raise SymcuteError(f"{source}: the edge {diff[0]} -> {diff[1]} differs from what its recipe derives")


def _what(node: dict) -> str:
    return f"step {node['rule']}" if node.get("role") == "step" else f"value {node.get('label') or node.get('kind')}"


def _bounded(x, limit: int = 160) -> str:
    text = json.dumps(x, sort_keys=True) if not isinstance(x, str) else x
    return text if len(text) <= limit else text[:limit] + "..."


def replay(d) -> dict:
    """Re-evaluate every step of an in-memory derivation from its input values (a SymcuteError on a mismatch).

    A step recorded from a traced operation runs that operation again (unrecorded)
    on its input nodes' values and must give its output node's value (or fail
    with the same error); recipe steps are checked as :func:`recheck` checks
    them (formulas, evaluations, prover verdicts).  Returns the counts and
    ``not_replayed``: ``(node, rule, why)`` for what has no re-evaluation
    (tables of facts, which produce no value).
    """
    report = {"values": 0, "formulas": 0, "verdicts": 0, "not_replayed": []}
    for step in d.steps(structural=True):
        inputs = {name: d.graph.nodes[node].get("obj") for name, node in step.inputs.items()}
        fn = d.graph.nodes[step.node].get("fn")
        if fn is None:   # read from a file: the traced operation by its rule, as recheck finds it
            fn = operation(step.rule, inputs)
            if fn is not None and not all(_core_value(v) for v in inputs.values()):
                report["not_replayed"].append((step.node, step.rule, "inputs that are not core values"))
                continue
        kind = check_step(d, step, fn, inputs, f"{d.title or 'derivation'}: step {step.node} ({step.rule})")
        if kind in report:
            report[kind] += 1
        else:
            report["not_replayed"].append((step.node, step.rule, kind))
    return report


def check_step(d, step, fn, inputs: dict, where: str) -> str:
    """Check one step against its inputs: "values", "formulas", "verdicts", or why it could not be checked."""
    from .derivation import Derivation
    from .. import jsonread
    g = d.graph
    stored_out = g.nodes[step.output]["text"] if step.output else None
    if fn is not None:
        call = _call_args(fn, inputs)
        if call is None:
            return "its argument names fit no call"
        scratch = Derivation("recheck")
        try:
            with scratch:
                out, error = fn(*call[0], **call[1]), None
        except SymcuteError as e:
            out, error = None, str(e)
        if (error is None) != (step.error is None):
            said = "fails" if step.error is not None else "gives " + str(stored_out)
            got = f"fails ({error})" if error is not None else "gives " + describe(out)["text"]
            raise SymcuteError(f"{where}: the document says it {said}, but core {got} on its inputs")
        if error is None:
            text = describe(out)["text"]
            if step.output is None or text != stored_out:
                raise SymcuteError(f"{where}: core gives {text} on its inputs, the document says {stored_out}")
            top = [s for s in scratch.steps(top_level_only=True, structural=True) if s.rule == step.rule]
            if top and _json(top[-1].details) != _json(step.details):
                raise SymcuteError(f"{where}: its recorded intermediates differ from core's")
        return "values"
    if step.rule == "formula" and step.output is not None:
        _check_formula(d, step, inputs, where)
        return "formulas"
    if step.rule == "evaluate" and isinstance(inputs.get("layout"), Layout) and step.output is not None:
        # a composite G(F(x)) records G's step with x as "at" and F(x) as "inner"
        at = _tuples(step.details["inner"] if "inner" in step.details else step.details.get("at"))
        value = g.nodes[step.output].get("obj")
        got = inputs["layout"](at)
        if got != value or step.details.get("value", value) != value:
            raise SymcuteError(f"{where}: {inputs['layout']} at {at} is {got}, "
                               f"the document says {step.details.get('value', value)}")
        return "values"
    if (step.rule.startswith("prove_") or step.rule in _PREDICATES) and step.output is not None:
        if _reprove(d, step, inputs, where, jsonread):
            return "verdicts"
        return "the claim cannot be rebuilt from the graph"
    if step.output is None and step.error is None:
        return "a table of facts: it produces no value"
    return "no core operation recomputes it"


_PREDICATES = ("is_injective", "is_surjective", "is_bijective")


def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


def _json(x):
    from .derivation import _jsonable
    return json.dumps(_jsonable(x), sort_keys=True)


def _check_formula(d, step, inputs, where) -> None:
    from ..symbolic.formula import Formula
    layout = inputs.get("layout")
    obj = d.graph.nodes[step.output].get("obj")
    f = Formula.from_json(obj if isinstance(obj, dict) else d.graph.nodes[step.output]["text"])
    if not isinstance(layout, Layout) or str(f.layout) != str(layout):
        raise SymcuteError(f"{where}: the formula is of {f.layout}, not of its input {layout}")
    # Formula.from_json checked its digits against the layout (weights and strides); the text must be its own
    if str(step.details.get("text", str(f))) != str(f):
        raise SymcuteError(f"{where}: the formula text {step.details.get('text')!r} is not the formula {f} "
                           f"of {layout}")


def _term(d, node):
    """The value of a node as a prover term (a Formula step's output is its Formula)."""
    from ..symbolic.formula import Formula
    obj = d.graph.nodes[node].get("obj")
    kind = d.graph.nodes[node].get("kind")
    if kind == "Formula":
        return Formula.from_json(obj if isinstance(obj, dict) else d.graph.nodes[node]["text"])
    return obj if isinstance(obj, (Layout, ComposedLayout)) else None


def _reprove(d, step, inputs, where, jsonread) -> bool:
    from .. import symbolic as sym
    from ..symbolic import Compose
    from ..symbolic.proof import Proof
    stored = Proof.from_json(d.graph.nodes[step.output]["text"])
    node = {name: n for name, n in step.inputs.items()}
    terms = {name: _term(d, n) for name, n in node.items()}
    claim, domain = step.details.get("claim"), step.details.get("domain")
    proof = None
    if step.rule in _PREDICATES and terms.get("L") is not None:
        target = step.details.get("target")
        if step.rule == "is_injective":
            proof = sym.is_injective(terms["L"])
        elif isinstance(target, int) and not isinstance(target, bool):
            proof = getattr(sym, step.rule)(terms["L"], target)
    elif step.rule in ("prove_right_inverse", "prove_left_inverse") and terms.get("L") is not None \
            and terms.get("R") is not None:
        fn = sym.prove_right_inverse if step.rule == "prove_right_inverse" else sym.prove_left_inverse
        proof = fn(terms["L"], terms["R"])
    elif step.rule == "prove_equal" and terms.get("lhs") is not None and terms.get("rhs") is not None:
        proof = sym.prove(terms["lhs"], terms["rhs"], domain=domain if isinstance(domain, int) else None)
    elif set(node) == {"result"}:
        # a claim about the step that produced `result` (the expr recipe): rebuild it from that step
        producer = [s for s in d.steps() if s.output == node["result"] and operation(s.rule)]
        if producer:
            src = producer[-1]
            args = {k: _term(d, v) or d.graph.nodes[v].get("obj") for k, v in src.inputs.items()}
            result = _term(d, node["result"])
            try:
                if src.rule == "right_inverse" and claim == "right_inverse":
                    proof = sym.prove_right_inverse(args["layout"], result)
                elif src.rule == "left_inverse" and claim == "left_inverse":
                    proof = sym.prove_left_inverse(args["layout"], result)
                elif src.rule in ("with_shape", "coalesce") and claim == "equal":
                    proof = sym.prove(result, args.get("self", args.get("layout")))
                elif src.rule == "composition" and claim == "equal":
                    proof = sym.prove(result, Compose(args["lhs"], args["rhs"]))
                elif claim == "contract":   # the step's CuTe contract, as bounded as when it was recorded
                    from ..symbolic import exact
                    from ..symbolic.contracts import contract
                    with exact.time_budget(1000, 2.0):
                        proof = contract(src.rule, *[d.graph.nodes[v].get("obj") for v in src.inputs.values()],
                                         limit=1 << 12)
            except (KeyError, TypeError):
                proof = None
    if proof is None:
        return False
    said = {stored.verdict, str(step.details.get("verdict", stored.verdict))}
    if said != {proof.verdict}:
        raise SymcuteError(f"{where}: the document says {' / '.join(sorted(said))}, "
                           f"but the prover answers {proof.verdict}")
    # re-proved over the graph's values, whose digit names may differ from the recipe's formulas: the
    # certificate rows and counterexample are checked by re-deriving the recipe (rederive_and_compare)
    if {str(stored.method), str(step.details.get("method", stored.method))} != {str(proof.method)}:
        raise SymcuteError(f"{where}: the document says the method is {step.details.get('method')!r}, "
                           f"the prover used {proof.method}")
    _check_claim_fields(step, terms, where)
    return True


# the operand a proof step's domain [0, n) counts: what the claim quantifies over
_DOMAIN_OF = {"is_injective": "L", "is_surjective": "L", "is_bijective": "L", "prove_right_inverse": "R",
              "prove_left_inverse": "L", "prove_equal": "lhs"}


def _size(term):
    layout = getattr(term, "layout", term)
    size = getattr(layout, "size", None)
    return size() if callable(size) else None


def _check_claim_fields(step, terms, where) -> None:
    """The domain a report words the claim with must be the one the prover re-decided it on."""
    det = step.details
    over = _DOMAIN_OF.get(step.rule)
    if over is not None and not (step.rule == "prove_equal" and isinstance(det.get("domain"), int)):
        n = _size(terms.get(over))
        if n is not None and det.get("domain") != n:
            raise SymcuteError(f"{where}: the document's domain is [0, {_bounded(det.get('domain'))}), "
                               f"but the claim is about {over}'s {n} inputs")
    # the labels are the recipe's names for its operands ("retile: with_shape"): its re-derivation checks them
