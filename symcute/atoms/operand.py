"""The operands of an MMA: which modes of ``(M, N, K)`` each one spans, and the names of its tile axes.

CuTe's ``TiledMMA::thrfrg_A/B/C`` (``cute/atom/mma_atom.hpp``) partition A over ``(M, K)``, B over
``(N, K)`` and C over ``(M, N)``; ``get_layoutA_TV`` and ``get_layoutB_TV`` then broadcast A over the
N threads and B over the M threads (their ``(ThrM,ThrN):(1,0)`` / ``(0,1)`` tiles), while C is reduced
over K and broadcast over nothing.  This is the one table of those facts: every layer reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import LayoutError


@dataclass(frozen=True)
class Operand:
    """One operand of an MMA.

    ``modes``: the two modes of ``(M, N, K)`` its tile spans, rows first (A: ``(0, 2)``).
    ``axes``: the lower-case names of those modes (A: ``("m", "k")``).
    ``broadcast``: the mode of ``(M, N, K)`` whose threads all hold the same values of it, or None
    (A: ``1``, the N threads; C: None).
    """
    name: str
    modes: tuple
    axes: tuple
    broadcast: int | None

    def tile_shape(self, mnk) -> tuple:
        """The tile's ``(rows, cols)`` out of an ``(M, N, K)`` triple: ``(M, K)`` for A."""
        return (mnk[self.modes[0]], mnk[self.modes[1]])

    def thread_coord(self, v, m, n, k) -> tuple:
        """``(v, (m, k))`` for A: the thread coordinate that slices ``thrfrg_A``'s thread mode."""
        mnk = (m, n, k)
        return (v, (mnk[self.modes[0]], mnk[self.modes[1]]))

    @property
    def rest_axes(self) -> tuple:
        """The names of the tile's Rest modes after partitioning: ``("rm", "rk")`` for A."""
        return tuple("r" + a for a in self.axes)


OPERANDS = {
    "A": Operand("A", (0, 2), ("m", "k"), 1),
    "B": Operand("B", (1, 2), ("n", "k"), 0),
    "C": Operand("C", (0, 1), ("m", "n"), None),
}


def get_operand(name) -> Operand:
    """The operand named ``name`` (``"a"`` reads as ``"A"``).

    @pre name is one of A, B, C (either case); otherwise LayoutError names it
    """
    key = name.upper() if isinstance(name, str) else name
    try:
        return OPERANDS[key]
    except (KeyError, TypeError):
        raise LayoutError(f"operand must be A, B or C, got {name!r}") from None
