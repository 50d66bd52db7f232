"""One dispatch for CuTe's overloaded free functions: ``@operation(rule)`` and ``op.register(*types)``.

CuTe overloads each operation on its argument types: ``coalesce(Layout)`` in
``layout.hpp``, ``coalesce(ComposedLayout)`` in ``layout_composed.hpp``,
``right_inverse(Swizzle)`` in ``swizzle_layout.hpp``.  symcute mirrors that with
this one mechanism (in the style of SymPy's dispatchers).  The decorated
function is the public operation and its body the ``Layout`` overload (which
also takes ints and tuples where CuTe does); other overloads are registered
where they are defined (``core/layout_composed.py``, ``core/swizzle_layout.py``)::

    @operation("coalesce")
    def coalesce(layout, profile=None): ...            # Layout

    @coalesce.register(ComposedLayout)
    def _(layout, profile=None): ...                   # A o O o coalesce(B)

    @composition.register(Layout, Swizzle)             # a pair: the types of two arguments
    def _(lhs, rhs): ...

Dispatch reads the type of argument ``on`` (0 unless given), and of the one
after it for pair overloads.  A pair overload wins over a one-type overload,
which wins over the body; types resolve along their MRO, and the choice is
cached per type.  With a ``rule``, the public call is one derivation step
whatever overload runs: overloads are plain functions, and one that recurses
into its own operation calls ``op.dispatch`` (the same resolution, unrecorded),
so a swizzled ``upcast`` is one ``upcast`` step, not two.
"""

from __future__ import annotations

import functools

from .hook import arithmetic_stride_failure, current, failure
from ..errors import LayoutError


# Set by layout.py when the first layout with an arithmetic-tuple stride is built: refuses a traced
# operation's arguments CuTe cannot take whatever the overload; None (free) until then.
argument_check = None


def operation(rule: str | None = None, *, on: int = 0, leaf: bool = False):
    """Make the decorated function (the ``Layout`` overload) a public operation with overloads by type.

    ``leaf``: as ``hook.traced``'s (a constructor or accessor leaves a RecursionError to its caller).
    """
    caught = ZeroDivisionError if leaf else (RecursionError, ZeroDivisionError)

    def deco(default):
        singles: dict = {}
        pairs: dict = {}
        cache: dict = {}

        def resolve(key):
            t0, t1 = key if type(key) is tuple else (key, None)
            if t1 is not None:
                for a in t0.__mro__:
                    for b in t1.__mro__:
                        fn = pairs.get((a, b))
                        if fn is not None:
                            return fn
            for a in t0.__mro__:
                fn = singles.get(a)
                if fn is not None:
                    return fn
            return default

        def choose(args):
            if len(args) <= on:
                return default
            key = type(args[on])
            if pairs and len(args) > on + 1:
                key = (key, type(args[on + 1]))
            fn = cache.get(key)
            if fn is None:
                fn = cache[key] = resolve(key)
            return fn

        @functools.wraps(default)
        def dispatch(*args, **kwargs):
            return choose(args)(*args, **kwargs)

        if rule is None:
            public = dispatch
        else:
            @functools.wraps(default)
            def public(*args, **kwargs):
                rec = current.get()
                if argument_check is not None and not leaf:  # structural steps take them, as CuTe does
                    argument_check(rule, args)
                try:
                    if rec is None:
                        return choose(args)(*args, **kwargs)
                    return rec.call(rule, dispatch, args, kwargs)
                except caught as e:
                    raise failure(rule, args, e) from None
                except LayoutError as e:
                    if getattr(e, "arithmetic_stride", False):
                        raise arithmetic_stride_failure(rule, args, e) from None
                    raise
            public.rule = rule

        def register(*types):
            """Register the decorated function as the overload for argument types ``types`` (one or two)."""
            if not 1 <= len(types) <= 2 or not all(isinstance(t, type) for t in types):
                raise TypeError(f"{default.__name__}.register takes one or two types, got {types!r}")

            def add(fn):
                (singles if len(types) == 1 else pairs)[types[0] if len(types) == 1 else types] = fn
                cache.clear()
                return fn
            return add

        def overloads() -> dict:
            """Registered argument types -> overload (the body, for ``Layout``, is not listed)."""
            return {**{(t,): fn for t, fn in singles.items()}, **pairs}

        public.register = register
        public.dispatch = dispatch
        public.overloads = overloads
        dispatch.register = register
        return public
    return deco


def member(*classes, name: str | None = None, static: bool = False):
    """Define a CuTe member function of ``classes`` next to the free function it calls.

    ``Layout::compose`` is ``composition``, ``Layout::tile`` is ``tiled_divide``:
    they are defined in those operations' modules, which import ``layout.py``,
    so that ``layout.py`` imports nothing above itself (no cycle inside core).
    """
    def deco(fn):
        for cls in classes:
            setattr(cls, name or fn.__name__, staticmethod(fn) if static else fn)
        return fn
    return deco
