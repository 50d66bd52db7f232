"""Bit widths of CuTe's value types (``sizeof_bits``), by the names used in CuTe code."""

from __future__ import annotations

from ..errors import LayoutError

_BITS = {
    "bool": 8, "uint1b_t": 1, "bin1_t": 1, "int2b_t": 2, "uint2b_t": 2,
    "int4b_t": 4, "uint4b_t": 4, "float_e2m1_t": 4, "float_e2m3_t": 6, "float_e3m2_t": 6,
    "int8_t": 8, "uint8_t": 8, "char": 8, "signed char": 8, "unsigned char": 8,
    "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8, "float_ue4m3_t": 8,
    "int16_t": 16, "uint16_t": 16, "short": 16, "half_t": 16, "half": 16, "__half": 16,
    "bfloat16_t": 16, "__nv_bfloat16": 16,
    "int32_t": 32, "uint32_t": 32, "int": 32, "unsigned": 32, "float": 32, "tfloat32_t": 32,
    "int64_t": 64, "uint64_t": 64, "double": 64, "complex<float>": 64, "complex<half_t>": 32,
    "uint128_t": 128, "complex<double>": 128,
}


def sizeof_bits(type_name) -> int:
    """``sizeof_bits<T>`` for a type name (``cutlass::`` / ``cute::`` prefixes and spaces ignored)."""
    if isinstance(type_name, int) and not isinstance(type_name, bool):
        if type_name <= 0:
            raise LayoutError(f"a value type must have a positive bit width, got {type_name}")
        return type_name
    if not isinstance(type_name, str):
        raise LayoutError(f"value type {type_name!r} is not a type name or a bit width")
    key = type_name.replace("cutlass::", "").replace("cute::", "").replace("std::", "").strip()
    key = " ".join(key.split()).replace("< ", "<").replace(" >", ">")
    if key not in _BITS:
        raise LayoutError(f"unknown value type {type_name!r}; known: {', '.join(sorted(_BITS))}")
    return _BITS[key]


def known_types() -> list[str]:
    return sorted(_BITS)
