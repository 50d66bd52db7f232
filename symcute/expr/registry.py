"""The expression language's registry: every function, method and C++ value it can call, by name.

One explicit table, filled by the registration modules of this package
(``core_functions``, ``atom_functions``, ``symbolic_functions``,
``picture_functions``), which ``symcute.expr`` imports in that order.  The
layers below know nothing of the language: they are called through this table.

- functions: ``name(...)``; template arguments are appended to the call's
  arguments, so ``upcast<1024>(L)`` and ``upcast(L, 1024)`` are one call;
- C++ values: ``Name<targs>{}`` is the function registered as ``"Name{}"`` (the atom catalog's are
  registered lazily: their names are listed, and each function made, on the first lookup that needs them);
- methods: ``value.name(...)`` on values of a registered type (or a subclass);
- type names: the bare C++ types an expression may name (``half_t``, an atom's
  operation, ``GMMA::Major::K``): a name that is neither one of them nor a
  variable is a typo, refused with a "did you mean";
- identifiers: the functions that take free identifiers as arguments (the
  sub-axis names of ``formula(L, (t0,t1))``).
"""

from __future__ import annotations

import difflib
from typing import Callable, Iterable


class Registry:
    """Names -> callables for the expression language (functions, ``Name{}`` values, methods)."""

    def __init__(self):
        self.functions: dict[str, Callable] = {}
        self.methods: dict[tuple[type, str], Callable] = {}
        self.type_names: set[str] = set()
        self.type_name_tests: list[Callable[[str], bool]] = []
        self.type_name_lists: list[Callable[[], Iterable[str]]] = []
        self.takes_identifiers: set[str] = set()
        # (names, make): functions registered lazily, for tables too large to register at import (the atom
        # catalog's ``Name{}`` values); ``names()`` lists them and ``make(name)`` builds one, on first use
        self.lazy: list[tuple[Callable[[], Iterable[str]], Callable[[str], Callable]]] = []
        self._lazy_names: list[frozenset[str] | None] = []

    def register_function(self, name: str, fn: Callable, identifiers: bool = False) -> None:
        """Make ``fn`` callable as ``name(...)`` (``"Name{}"``: as the C++ value ``Name<targs>{}``).

        ``identifiers``: the function takes free identifiers (names it has never seen) as arguments, or
        type names it looks up and refuses itself (an atom's own did-you-mean).
        """
        self.functions[name] = fn
        if identifiers:
            self.takes_identifiers.add(name)
        else:
            self.takes_identifiers.discard(name)

    def register_lazy_functions(self, names: Callable[[], Iterable[str]], make: Callable[[str], Callable]) -> None:
        """Make every name that ``names()`` lists callable, ``make(name)`` being its function: neither is
        called before a name the eager table lacks is looked up (or a did-you-mean or listing asks)."""
        self.lazy.append((names, make))
        self._lazy_names.append(None)

    def _lazy_table(self, i: int) -> frozenset[str]:
        if self._lazy_names[i] is None:
            self._lazy_names[i] = frozenset(self.lazy[i][0]())
        return self._lazy_names[i]

    def _all_function_names(self) -> set[str]:
        names = set(self.functions)
        for i in range(len(self.lazy)):
            names |= self._lazy_table(i)
        return names

    def register_type_names(self, names: Iterable[str] = (), test: Callable[[str], bool] | None = None,
                            listed: Callable[[], Iterable[str]] | None = None) -> None:
        """Make bare C++ type names known: the ``names`` given, and every name ``test`` accepts; ``listed()``
        names the ones ``test`` knows for a did-you-mean (called only when a suggestion is asked for)."""
        self.type_names.update(names)
        if test is not None:
            self.type_name_tests.append(test)
        if listed is not None:
            self.type_name_lists.append(listed)

    def is_type_name(self, name: str) -> bool:
        return name in self.type_names or any(test(name) for test in self.type_name_tests)

    def suggest(self, name: str, extra: Iterable[str] = ()) -> str:
        """`` (did you mean X, Y?)`` for the closest known names, or ``""`` when none is close."""
        pool = set(self.type_names) | {n.removesuffix("{}") for n in self._all_function_names()} | set(extra)
        for listed in self.type_name_lists:
            pool.update(listed())
        close = difflib.get_close_matches(name, sorted(pool), n=3, cutoff=0.6)
        return f" (did you mean {', '.join(close)}?)" if close else ""

    def register_method(self, cls: type, name: str, fn: Callable) -> None:
        """Make ``value.name(...)`` callable on values of type ``cls`` as ``fn(value, ...)``."""
        self.methods[(cls, name)] = fn

    def function(self, name: str) -> Callable | None:
        fn = self.functions.get(name)
        if fn is None:
            for i, (_names, make) in enumerate(self.lazy):
                if name in self._lazy_table(i):
                    fn = self.functions[name] = make(name)
                    break
        return fn

    def method(self, cls: type, name: str) -> Callable | None:
        """The method ``name`` of ``cls`` or of its nearest registered base class."""
        for base in cls.__mro__:
            fn = self.methods.get((base, name))
            if fn is not None:
                return fn
        return None

    def suggest_method(self, cls: type, name: str) -> str:
        """`` (did you mean X?)`` among the methods of ``cls`` and its bases."""
        pool = sorted({m for base, m in self.methods if base in cls.__mro__})
        close = difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
        return f" (did you mean {', '.join(close)}?)" if close else ""

    def names(self) -> list[str]:
        return sorted(self._all_function_names())


REGISTRY = Registry()
register_function = REGISTRY.register_function
register_method = REGISTRY.register_method
