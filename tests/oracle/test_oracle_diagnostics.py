"""Reading g++'s messages and the program's output, on canned text (no compiler needed)."""

from __future__ import annotations

from symcute.oracle import diagnostics as diag
from symcute.oracle import program

HDR = "/site-packages/cutlass_library/source/include/cute"

# Shapes of real g++ 12 output (trimmed): a static_assert reached from case 0,
# a stray brace in case 3 right after it (no new context line!), an
# undeclared name in case 4, and a second error in the same instantiation.
STDERR = f"""\
In file included from {HDR}/tensor_impl.hpp:44,
                 from /cache/symcute_oracle.hpp:2:
{HDR}/layout.hpp: In instantiation of 'cute::detail::composition_impl<...>::<lambda(const auto:114&, auto:115)>':
{HDR}/algorithm/tuple_algorithms.hpp:379:17:   required from 'constexpr auto cute::detail::FoldAdaptor<Fn, Val>::operator|(X&&)'
{HDR}/layout.hpp:1140:34:   required from 'constexpr auto cute::composition(const Layout<ShapeA, StrideA>&, const Layout<ShapeB, StrideB>&)'
symcute-case-0:2:24:   required from here
{HDR}/config.hpp:126:64: error: static assertion failed: Stride Divisibility Condition
  126 | #define CUTE_STATIC_ASSERT_V(x,...) static_assert(decltype(x)::value, ##__VA_ARGS__)
      |                                                                ^~~~~
{HDR}/layout.hpp:1077:22: note: in expansion of macro 'CUTE_STATIC_ASSERT_V'
symcute-case-7:1:1: note: a note pointing at another case does not blame it
{HDR}/layout.hpp:1080:5: error: a second error in the same instantiation
symcute-case-3:3:1: error: expected declaration before '}}' token
symcute-case-4: In function 'void symcute_run_4()':
symcute-case-4:2:7: error: 'no_such' was not declared in this scope
{HDR}/layout.hpp: In instantiation of 'cute::complement<...>':
symcute-case-5:2:9:   required from here
{HDR}/layout.hpp:1203:15: error: static assertion failed
g++: fatal error: Killed signal terminated program cc1plus
"""


def test_errors_are_grouped_by_the_case_that_caused_them():
    grouped = diag.attribute(STDERR)
    assert sorted(k for k in grouped if k is not None) == [0, 3, 4, 5]
    assert [d.condition for d in grouped[0]] == ["Stride Divisibility Condition", None]
    assert grouped[3][0].message == "expected declaration before '}' token"
    assert grouped[4][0].message == "'no_such' was not declared in this scope"
    assert grouped[None][0].message == "Killed signal terminated program cc1plus"


def test_notes_and_source_lines_are_kept_but_never_blame():
    grouped = diag.attribute(STDERR)
    assert 7 not in grouped
    first = grouped[0][0]
    assert any("in expansion of macro" in note for note in first.notes)
    assert "required from here" in first.text()
    assert not any("^~~" in line for line in first.text().splitlines())


def test_a_static_assert_without_text_still_has_a_condition():
    assert diag.attribute(STDERR)[5][0].condition == "static assertion failed"


def test_summary_prefers_the_static_assert():
    found = diag.parse("symcute-case-0:2:1: error: first\nx.hpp:1:1: error: static assertion failed: Why\n")
    assert diag.summary(found) == "static assertion failed: Why"
    assert diag.summary([]) == "compilation failed"


def test_normalize_removes_only_static_int_underscores():
    assert program.normalize("((_4,_8),_2):((_1,_4),_32)") == "((4,8),2):((1,4),32)"
    assert program.normalize("(_4:_1,_8:_2,_)") == "(4:1,8:2,_)"
    assert program.normalize("_-1@_0") == "-1@0"
    assert program.normalize("SM80_16x8x16_F32F16F16F32_TN  \n\n") == "SM80_16x8x16_F32F16F16F32_TN"


def test_render_gives_every_case_its_own_line_file():
    source = program.render(["print(1);", "print(2);"], preamble="int helper();")
    assert '#line 1 "symcute-case-0"' in source and '#line 1 "symcute-case-1"' in source
    assert '#line 1 "symcute-preamble"' in source
    assert "symcute_run_0, symcute_run_1, nullptr" in source


def test_split_output_reads_markers_and_statuses():
    out = (
        "\x1esymcute-begin 0\x1e\n_8:_1\n\x1esymcute-end 0 0 0\x1e\n"
        "\x1esymcute-begin 1\x1e\nbefore\n\x1esymcute-end 1 8 -1\x1e\n"
        "\x1esymcute-begin 2\x1e\npartial"
    )
    assert program.split_output(out) == {0: ("_8:_1", 0, 0), 1: ("before", 8, -1)}
    assert program.last_started(out) == 2
