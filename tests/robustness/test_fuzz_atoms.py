"""Fuzz atom names: ``symcute.mma_atom`` and ``symcute.copy_atom`` (with value types)."""

from hypothesis import given, strategies as st

import symcute

from .harness import fuzz_settings, outcome
from .hostile import COPY_SEEDS, HOSTILE, MMA_SEEDS, VALUE_TYPES, mutated, text_inputs

POOL = HOSTILE + ["MMA_Atom", "Copy_Atom", "Copy_Traits", "MMA_Traits", "cute", "GMMA::Major::K", "GMMA::Major::MN",
                  "uint128_t", "half_t", "SM80", "SM90", "_TN", "x16", "F16F16F16F16", "<", ">", "{}", ","]


def _mma(text):
    atom = symcute.mma_atom(text)
    str(atom)
    return atom


def _copy(text, value_type):
    atom = symcute.copy_atom(text, value_type)
    str(atom)
    return atom


@fuzz_settings(ci=300)
@given(text_inputs(MMA_SEEDS, POOL))
def test_mma_atom_names(text):
    outcome("mma_atom", _mma, text)


@fuzz_settings(ci=300)
@given(text_inputs(COPY_SEEDS, POOL),
       st.none() | st.sampled_from(VALUE_TYPES) | mutated(VALUE_TYPES, POOL) | st.integers(-8, 1 << 70))
def test_copy_atom_names(text, value_type):
    outcome("copy_atom", _copy, text, value_type)
