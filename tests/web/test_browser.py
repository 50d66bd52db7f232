"""The explorer in a real browser: Debian's chromium, driven by Playwright (no browser download), against
``symcute serve`` started as a process.  Screenshots go to test-artifacts/web/ and must not be blank.

Where chromium is missing the tests are skipped, except under CI (``CI`` set), where .ci/run installs it
and a missing browser is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import urllib.parse
from pathlib import Path

import pytest

from ..cli_runner import start_cli_process

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

if CHROMIUM is None:
    if os.environ.get("CI"):
        raise RuntimeError("CI: the browser tests need Debian's chromium (.ci/run installs it)")
    pytest.skip("no chromium on this machine (apt-get install chromium)", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture(scope="module")
def server():
    p = start_cli_process("serve", "--port", "0", "--workers", "2")
    line = p.stdout.readline()
    m = re.search(r"(http://\S+/)", line)
    if m is None:
        p.kill()
        raise AssertionError(f"symcute serve printed {line!r}, stderr {p.stderr.read()!r}")
    yield m.group(1)
    p.terminate()
    p.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    context.close()
    assert not [e for e in errors if "Content Security Policy" in e or "TypeError" in e], errors


def shot(page, name: str) -> Path:
    """A screenshot kept as an artefact; it must hold more than a blank page's few colours."""
    from PIL import Image
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    colours = Image.open(path).convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is None or len(colours) > 16, f"{path}: blank ({len(colours)} colours)"
    return path


def test_type_an_expression_and_see_value_svg_and_tooltip(page, server):
    page.goto(server)
    page.fill("#expr", "(4,8):(8,1)")
    page.click("#run")
    expect(page.locator("#value")).to_have_text("(4,8):(8,1)")
    assert page.inner_text("#formula") == "8*x0 + x1"
    cells = page.locator("#panels g.cell")
    assert cells.count() == 32
    cells.nth(8 * 2 + 3).hover()      # the cell (2, 3)
    tip = page.locator("#tip")
    assert tip.is_visible() and tip.inner_text() == "(m,n) = (2,3); index 19"
    shot(page, "layout")


def test_tiled_mma_threads_highlight_and_permalink(page, server):
    expr = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})"
    page.goto(server + "?" + urllib.parse.urlencode({"e": expr}))   # a permalink runs on load
    page.wait_for_selector("#panels figure")
    assert page.locator("#panels figure").count() == 3
    first = page.locator("#panels g.cell[data-thread='37']").first
    first.click()
    owned = page.locator("#panels g.cell.owned")
    assert owned.count() > 0 and owned.count() == page.locator("#panels g.cell[data-thread='37']").count()
    assert "thread 37" in first.get_attribute("data-tip")
    link = page.get_attribute("#permalink", "href")
    assert urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["e"] == [expr]
    shot(page, "tiled_mma")


def test_an_error_is_one_line(page, server):
    page.goto(server)
    page.fill("#expr", "right_invers((4,8):(8,1))")
    page.click("#run")
    expect(page.locator("#error")).not_to_be_empty()
    text = page.inner_text("#error")
    assert "\n" not in text and "right_inverse" in text
    assert page.inner_text("#value") == ""


def test_markup_in_input_renders_as_text(page, server):
    page.goto(server)
    page.fill("#expr", "L")
    page.fill("#lets", "L=<img src=x onerror=alert(1)>")
    page.click("#run")
    expect(page.locator("#error")).not_to_be_empty()
    assert page.locator("img").count() == 0 and "<img" in page.inner_text("#error")


def test_prove_box(page, server):
    page.goto(server + "?" + urllib.parse.urlencode({"l": "L=(4,8):(8,2)", "c": "injective(L)"}))
    expect(page.locator("#proof")).not_to_be_empty()
    assert page.get_attribute("#proof", "data-verdict") == "refuted"
    assert "counterexample" in page.inner_text("#proof")


def test_bank_view_after_switching_the_swizzle(page, server):
    page.goto(server)
    page.fill("#smem", "(32,64):(64,1)")
    page.click("#bank")
    page.wait_for_selector("#bank-summary tr")
    before = page.inner_text("#bank-summary")
    assert "448 conflicts" in before
    shot(page, "bank_unswizzled")
    page.fill("#smem", "Sw<3,3,3> o 0 o (32,64):(64,1)")
    page.click("#bank")
    expect(page.locator("#bank-summary")).to_contain_text("; 0 conflicts")
    page.locator("#bank-panels g.cell").nth(8).hover()
    assert "bank" in page.inner_text("#tip")
    shot(page, "bank_swizzled")


def test_kernel_check_highlights_the_counterexample_thread(page, server):
    nt = (ROOT / "examples" / "kernels" / "sgemm_sm80_nt.toml").read_text()
    bad = nt.replace("Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]",
                     "Layout<Shape<_32,_8>,Stride<_1,_0>>{}, Layout<Shape<_4,_1>>{})\"\npredicate = false\n\n[b]", 1)
    page.goto(server)
    page.fill("#kernel", bad)
    page.click("#check")
    expect(page.locator("#kernel-claims tr[data-verdict=refuted]").first).to_be_visible()
    row = page.locator("#kernel-claims tr").filter(has=page.locator("td:first-child", has_text="a.load"))
    assert "refuted" in row.inner_text()
    owned = page.locator("#kernel-panels g.cell.owned")
    expect(owned.first).to_be_visible()
    thread = owned.first.get_attribute("data-thread")
    assert f'"thread":{thread},' in row.inner_text()
    shot(page, "kernel_refuted")


def test_copy_as_markdown_gives_the_derivation(page, server):
    page.goto(server + "?" + urllib.parse.urlencode({"e": "right_inverse(L)", "l": "L=(4,8):(8,1)"}))
    expect(page.locator("#value")).to_have_text("(8,4):(4,1)")
    page.click("#copy-md")
    expect(page.locator("#copy-md")).to_have_attribute("data-copied", re.compile(r"right_inverse"))
