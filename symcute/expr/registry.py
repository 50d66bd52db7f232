"""The expression language's registry: every function, method and C++ value it can call, by name.

One explicit table, filled by the registration modules of this package
(``core_functions``, ``atom_functions``, ``symbolic_functions``,
``picture_functions``), which ``symcute.expr`` imports in that order.  The
layers below know nothing of the language: they are called through this table.

- functions: ``name(...)``; template arguments are appended to the call's
  arguments, so ``upcast<1024>(L)`` and ``upcast(L, 1024)`` are one call;
- C++ values: ``Name<targs>{}`` is the function registered as ``"Name{}"``;
- methods: ``value.name(...)`` on values of a registered type (or a subclass).
"""

from __future__ import annotations

from typing import Callable


class Registry:
    """Names -> callables for the expression language (functions, ``Name{}`` values, methods)."""

    def __init__(self):
        self.functions: dict[str, Callable] = {}
        self.methods: dict[tuple[type, str], Callable] = {}

    def register_function(self, name: str, fn: Callable) -> None:
        """Make ``fn`` callable as ``name(...)`` (``"Name{}"``: as the C++ value ``Name<targs>{}``)."""
        self.functions[name] = fn

    def register_method(self, cls: type, name: str, fn: Callable) -> None:
        """Make ``value.name(...)`` callable on values of type ``cls`` as ``fn(value, ...)``."""
        self.methods[(cls, name)] = fn

    def function(self, name: str) -> Callable | None:
        return self.functions.get(name)

    def method(self, cls: type, name: str) -> Callable | None:
        """The method ``name`` of ``cls`` or of its nearest registered base class."""
        for base in cls.__mro__:
            fn = self.methods.get((base, name))
            if fn is not None:
                return fn
        return None

    def names(self) -> list[str]:
        return sorted(self.functions)


REGISTRY = Registry()
register_function = REGISTRY.register_function
register_method = REGISTRY.register_method
