"""Generate symcute/atoms/copy_sm100_data.py from CuTe 4.2's headers (run by hand; the output is committed).

Reads every ``struct Copy_Traits<Op>`` specialisation of
``cute/atom/copy_traits_sm100.hpp`` (ThrID, ValID, SrcLayout, DstLayout,
RefLayout as C++ layout *types*), turns each type into CuTe's printed notation
(``Layout<Shape<_32,_32>,Stride<_1,TMEM::DP_b>>`` -> ``(32,32):(1,2097152)``;
a missing Stride is CuTe's compact column-major default), and takes the PTX
instruction each op issues from ``cute/arch/copy_sm100.hpp``.  The generated
module is plain data; the differential suite (tests/differential) checks every
row against CuTe compiled with g++.

    PYTHONPATH=. python tools/gen_copy_sm100.py > symcute/atoms/copy_sm100_data.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import cutlass_library

INCLUDE = Path(cutlass_library.__file__).parent / "source" / "include"
TRAITS = INCLUDE / "cute/atom/copy_traits_sm100.hpp"
ARCH = INCLUDE / "cute/arch/copy_sm100.hpp"
CONSTANTS = {"TMEM::DP_b": 1 << 21, "_DP": 1 << 21}

_TOK = re.compile(r"\s*(?:(?P<id>[A-Za-z_][A-Za-z_0-9:]*(?:\{\})?)|(?P<num>\d+)|(?P<op>[<>,*]))")


def tokens(text: str) -> list:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOK.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"cannot read {text[pos:]!r}")
        out.append(m.group(m.lastgroup))
        pos = m.end()
    return out


class Reader:
    def __init__(self, text: str, env: dict):
        self.t, self.i, self.env = tokens(text), 0, env

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.t[self.i]
        if want is not None and tok != want:
            raise ValueError(f"expected {want} got {tok} in {self.t}")
        self.i += 1
        return tok

    def value(self):
        """An int, a tuple, or a layout (shape, stride)."""
        tok = self.take()
        if tok in ("Shape", "Stride", "cute::Shape", "cute::Stride"):
            self.take("<")
            items = [self.value()]
            while self.peek() == ",":
                self.take(",")
                items.append(self.value())
            self.take(">")
            return tuple(items)
        if tok in ("Layout", "cute::Layout"):
            self.take("<")
            shape = self.value()
            stride = None
            if self.peek() == ",":
                self.take(",")
                stride = self.value()
            self.take(">")
            return ("layout", shape, stride)
        if tok == "Int":
            self.take("<")
            v = self.product()
            self.take(">")
            return v
        if re.fullmatch(r"_\d+", tok):
            return int(tok[1:])
        if tok in self.env:
            return self.env[tok]
        raise ValueError(f"unknown token {tok!r}")

    def product(self):
        v = self.atom()
        while self.peek() == "*":
            self.take("*")
            v *= self.atom()
        return v

    def atom(self):
        tok = self.take()
        if tok.isdigit():
            return int(tok)
        key = tok[:-2] if tok.endswith("{}") else tok
        if key in self.env:
            return self.env[key]
        raise ValueError(f"unknown constant {tok!r}")


def compact_col_major(shape):
    def go(s, p):
        if isinstance(s, tuple):
            out = []
            for x in s:
                d, p = go(x, p)
                out.append(d)
            return tuple(out), p
        return (0 if s == 1 else p), p * s
    return go(shape, 1)[0]


def fmt(x) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(fmt(v) for v in x) + ")"
    return str(x)


def layout_text(v) -> str:
    _, shape, stride = v
    if stride is None:
        stride = compact_col_major(shape)
    return f"{fmt(shape)}:{fmt(stride)}"


def traits_blocks(text: str):
    for m in re.finditer(r"struct Copy_Traits<(\w+)>\s*\{(.*?)\n\};", text, re.S):
        yield m.group(1), m.group(2)


def ptx_of(arch_text: str) -> dict:
    out = {}
    for m in re.finditer(r"struct (SM100_\w+)\s*(?::[^{]*)?\{(.*?)\n\};", arch_text, re.S):
        asm = re.search(r'asm volatile\s*\(\s*"([^"]*)', m.group(2))
        if asm:
            out[m.group(1)] = " ".join(asm.group(1).replace("\\n", " ").replace("\\t", " ").split()).split(" [")[0] \
                .split(" {")[0].strip()
    return out


def main() -> None:
    text = TRAITS.read_text()
    ptx = ptx_of(ARCH.read_text())
    rows, done = [], {}
    for name, body in traits_blocks(text):
        env = dict(CONSTANTS)
        fields = {}
        for alias, rhs in re.findall(r"using (\w+)\s*=\s*([^;]*);", body):
            rhs = " ".join(rhs.split())
            ref = re.fullmatch(r"typename Copy_Traits<(\w+)>::(\w+)", rhs)
            if ref:
                fields[alias] = done[ref.group(1)][ref.group(2)]
                continue
            if rhs in fields:
                fields[alias] = fields[rhs]
                continue
            v = Reader(rhs, env).value()
            if isinstance(v, tuple) and v and v[0] == "layout":
                fields[alias] = layout_text(v)
            else:
                env[alias] = v
        done[name] = fields
        rows.append((name, fields.get("ThrID"), fields.get("ValID"), fields["SrcLayout"], fields["DstLayout"],
                     fields["RefLayout"], ptx.get(name, "")))
    w = sys.stdout.write
    w('"""Generated by tools/gen_copy_sm100.py from CuTe 4.2 (nvidia-cutlass 4.2.0.0): do not edit by hand.\n\n'
      "Every ``Copy_Traits<Op>`` of ``cute/atom/copy_traits_sm100.hpp``: (name, ThrID, ValID or None,\n"
      "SrcLayout, DstLayout, RefLayout) in bits, and the PTX instruction of ``cute/arch/copy_sm100.hpp``.\n"
      '"""\n\nHEADER = "cute/atom/copy_traits_sm100.hpp"\nCUTLASS = "4.2.0.0"\n\nROWS = (\n')
    for r in rows:
        w(f"    {r!r},\n")
    w(")\n")


if __name__ == "__main__":
    main()
