"""Kernel-dimension certificates for F2-linear lane addresses.

When the byte addresses of one phase are an affine map of the lane bits over
F2 (``addr(l) = addr(0) XOR sum_i l_i * addr(2^i)``), lanes share a bank
exactly when their difference lies in the kernel of the bank map
``A_bank`` (address bits 2..6), and share a word exactly when it lies in the
kernel of ``A_word`` (bits 2 and up).  Every bank then serves
``2^(dim ker A_bank - dim ker A_word)`` distinct words: that is the phase's
wavefront count, a certificate checkable by hand.

The certificate is attached only after the linearity itself is checked on
every lane; otherwise the result says that the exact per-lane count was the
method.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .shared import BankMethod


@dataclass(frozen=True)
class KernelCertificate:
    """Per phase of the checked instruction: lane-bit images and the two kernel dimensions."""
    instruction: int                # which instruction of warp 0
    phase_bits: tuple               # the lane bits varying within a phase (e.g. (0, 1, 2, 3, 4))
    images: tuple                   # byte address XOR-offset of each lane bit
    dim_ker_bank: int
    dim_ker_word: int

    @property
    def wavefronts(self) -> int:
        return 1 << (self.dim_ker_bank - self.dim_ker_word)


def certify(result):
    """``result`` with a KernelCertificate for its worst instruction when its addresses are F2-linear.

    Uses symcute.symbolic's F2 module when present; without it the exact count stands alone.
    """
    try:
        from ..symbolic import f2  # noqa: F401  (present on main since issue 13)
    except ImportError:
        return result
    from .f2cert import kernel_certificate
    cert = kernel_certificate(result)
    return replace(result, certificate=cert, method=BankMethod.EXACT_CERTIFIED if cert is not None else result.method)
