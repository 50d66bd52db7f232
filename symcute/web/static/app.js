// symcute explorer: reads the inputs from the URL, asks the server, draws the answers.
// Every value is put on the page as text (textContent, SVG text nodes): nothing the server or the
// user typed is ever parsed as HTML.  No inline script (the page's CSP forbids it).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
// CuTe's SVGColor_TV palette (print_svg.hpp), by thread % 8
const TV = ["175,175,255", "175,255,175", "255,255,175", "255,175,175",
            "210,210,255", "210,255,210", "255,255,210", "255,210,210"];
const FIELDS = {expr: "e", lets: "l", params: "p", claim: "c", smem: "s", copy: "ca", mma: "mma",
                "atom-layout": "al", operand: "op", "value-type": "vt", kernel: "k"};
let lastSvg = null, lastMarkdown = "", lastKind = null;

function $(id) { return document.getElementById(id); }
function lines(id) { return $(id).value.split("\n").map(s => s.trim()).filter(s => s.length > 0); }
function setText(id, text) { $(id).textContent = text == null ? "" : String(text); }

async function post(endpoint, body) {
  const r = await fetch("/api/" + endpoint, {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify(body)});
  let data;
  try { data = await r.json(); } catch (e) { data = {error: "the server answered " + r.status}; }
  return data;
}

function permalink() {
  const q = new URLSearchParams();
  for (const [id, key] of Object.entries(FIELDS)) {
    const el = $(id);
    if (id === "lets" || id === "params") { for (const v of lines(id)) q.append(key, v); }
    else if (el.value.trim() && el.value !== el.defaultValue) q.set(key, el.value.trim());
  }
  const url = "?" + q.toString();
  $("permalink").href = url;
  history.replaceState(null, "", url);
}

function readLink() {
  const q = new URLSearchParams(location.search);
  for (const [id, key] of Object.entries(FIELDS)) {
    if (id === "lets" || id === "params") { const v = q.getAll(key); if (v.length) $(id).value = v.join("\n"); }
    else if (q.has(key)) $(id).value = q.get(key);
  }
  return q;
}

// --- pictures ---------------------------------------------------------------------------------------

function cellColour(c, mode) {
  if (mode === "bank") return "hsl(" + (c.bank * 360 / 32) + ",70%,78%)";
  if (c.t !== undefined) return "rgb(" + TV[c.t % 8] + ")";
  const g = 255 - 12 * (((c.i % 8) + 8) % 8);
  return "rgb(" + g + "," + g + "," + g + ")";
}

function label(c) {
  if (c.t !== undefined && c.i === undefined) return ["T" + c.t, "V" + c.v];
  if (c.bank !== undefined) return [String(c.i), "b" + c.bank];
  return [String(c.i)];
}

function tipText(c) {
  const parts = ["(m,n) = (" + c.m + "," + c.n + ")"];
  if (c.i !== undefined) parts.push("index " + c.i);
  if (c.t !== undefined) parts.push("thread " + c.t + ", value " + c.v);
  if (c.addr !== undefined) parts.push("byte address " + c.addr);
  if (c.bank !== undefined) parts.push("bank " + c.bank);
  return parts.join("; ");
}

function drawPanel(panel, mode) {
  const size = panel.rows * panel.cols > 1024 ? 16 : 28;
  const pad = 20;
  const w = pad + panel.cols * size, h = pad + panel.rows * size;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("xmlns", SVG_NS);
  svg.setAttribute("width", w); svg.setAttribute("height", h);
  svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  svg.classList.add("grid");
  for (const c of panel.cells) {
    const g = document.createElementNS(SVG_NS, "g");
    g.classList.add("cell");
    if (c.t !== undefined) g.dataset.thread = c.t;
    g.dataset.tip = tipText(c);
    const r = document.createElementNS(SVG_NS, "rect");
    r.setAttribute("x", pad + c.n * size); r.setAttribute("y", pad + c.m * size);
    r.setAttribute("width", size); r.setAttribute("height", size);
    r.setAttribute("fill", cellColour(c, mode)); r.setAttribute("stroke", "black");
    g.appendChild(r);
    const texts = size >= 28 ? label(c) : [];
    texts.forEach((t, k) => {
      const tx = document.createElementNS(SVG_NS, "text");
      tx.setAttribute("x", pad + c.n * size + size / 2);
      tx.setAttribute("y", pad + c.m * size + (texts.length === 1 ? size / 2 + 3 : size * (k + 1) / 3 + 2));
      tx.setAttribute("text-anchor", "middle"); tx.setAttribute("font-size", "8");
      tx.textContent = t;
      g.appendChild(tx);
    });
    svg.appendChild(g);
  }
  for (let m = 0; m < panel.rows && size >= 16; m++) axisLabel(svg, 2, pad + m * size + size / 2 + 3, m);
  for (let n = 0; n < panel.cols && size >= 16; n++) axisLabel(svg, pad + n * size + size / 2 - 3, 12, n);
  return svg;
}

function axisLabel(svg, x, y, text) {
  const t = document.createElementNS(SVG_NS, "text");
  t.setAttribute("x", x); t.setAttribute("y", y); t.setAttribute("font-size", "8");
  t.textContent = String(text);
  svg.appendChild(t);
}

function showPanels(containerId, panels, mode) {
  const box = $(containerId);
  box.replaceChildren();
  for (const p of panels) {
    const fig = document.createElement("figure");
    const cap = document.createElement("figcaption");
    cap.textContent = p.title + " (" + p.rows + " x " + p.cols + ")";
    fig.appendChild(cap);
    fig.appendChild(drawPanel(p, mode));
    box.appendChild(fig);
  }
}

function hover(ev) {
  const g = ev.target.closest && ev.target.closest("g.cell");
  const tip = $("tip");
  if (!g) { tip.hidden = true; return; }
  tip.textContent = g.dataset.tip;
  tip.style.left = (ev.pageX + 12) + "px"; tip.style.top = (ev.pageY + 12) + "px";
  tip.hidden = false;
}

function select(ev) {
  const g = ev.target.closest && ev.target.closest("g.cell");
  document.querySelectorAll("g.cell.owned").forEach(x => x.classList.remove("owned"));
  if (!g || g.dataset.thread === undefined) return;
  const t = g.dataset.thread;
  document.querySelectorAll('g.cell[data-thread="' + CSS.escape(t) + '"]').forEach(x => x.classList.add("owned"));
}

// --- the three boxes --------------------------------------------------------------------------------

async function runEval() {
  const expr = $("expr").value.trim();
  if (!expr) return;
  permalink();
  setText("error", "");
  const d = await post("eval", {expr: expr, let: lines("lets"), param: lines("params")});
  for (const id of ["value", "cpp", "dsl", "formula", "table", "warning", "note"]) setText(id, "");
  $("panels").replaceChildren();
  if (d.error) { setText("error", d.error); return; }
  setText("value", d.value);
  setText("cpp", d.cpp); setText("dsl", d.dsl);
  setText("formula", d.formula); setText("table", d.table);
  setText("warning", d.warning ? "warning: " + d.warning : "");
  setText("note", [d.note, d.conditions.length ? "for " + d.conditions.join("; ") : null].filter(x => x).join(" "));
  showPanels("panels", d.panels, "tv");
  const svgs = document.querySelectorAll("#panels svg");
  lastSvg = d.svg || (svgs.length ? new XMLSerializer().serializeToString(svgs[0]) : null);
  lastKind = "eval";
  lastMarkdown = "`" + expr + "`\n\n```text\n" + d.value + "\n```\n" +
    (d.formula ? "\nformula: `" + d.formula + "`\n\n```text\n" + d.table + "\n```\n" : "");
}

async function runProve() {
  const claim = $("claim").value.trim();
  if (!claim) return;
  permalink();
  setText("prove-error", ""); setText("proof", "");
  const d = await post("prove", {claim: claim, let: lines("lets")});
  if (d.error) { setText("prove-error", d.error); return; }
  setText("proof", d.text);
  $("proof").dataset.verdict = d.verdict;
  lastMarkdown = d.markdown;
  lastKind = "prove";
}

async function runBank() {
  const smem = $("smem").value.trim();
  if (!smem) return;
  permalink();
  setText("bank-error", "");
  $("bank-summary").replaceChildren(); $("bank-panels").replaceChildren();
  const d = await post("bank", {smem: smem, copy: $("copy").value.trim(), mma: $("mma").value.trim(),
                                atom_layout: $("atom-layout").value.trim(), operand: $("operand").value.trim(),
                                value_type: $("value-type").value.trim()});
  if (d.error) { setText("bank-error", d.error); return; }
  const table = $("bank-summary");
  for (const [k, v] of d.summary) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = k;
    const td = document.createElement("td"); td.textContent = v;
    tr.append(th, td); table.appendChild(tr);
  }
  const tr = document.createElement("tr");
  const th = document.createElement("th"); th.textContent = "per instruction (warp, instruction, wavefronts, ideal)";
  const td = document.createElement("td");
  td.textContent = d.per_instruction.map(r => "(" + r.join(",") + ")").join(" ");
  tr.append(th, td); table.appendChild(tr);
  for (const ph of d.worst.phases) {
    const r = document.createElement("tr");
    const h = document.createElement("th");
    h.textContent = "warp " + d.worst.warp + ", instruction " + d.worst.instruction + ", phase " + ph.phase;
    const v = document.createElement("td");
    v.textContent = ph.wavefronts + " wavefronts (ideal " + ph.ideal + "); lanes " + ph.lanes.join(",") +
      "; worst bank " + ph.bank + " hit by lanes " + ph.bank_lanes.map(x => x.join("+")).join(", ");
    r.append(h, v); table.appendChild(r);
  }
  showPanels("bank-panels", d.panels, "bank");
  lastSvg = d.svg;
  lastKind = "bank";
}

async function runKernel() {
  const toml = $("kernel").value;
  if (!toml.trim()) return;
  permalink();
  setText("kernel-error", "");
  $("kernel-claims").replaceChildren(); $("kernel-panels").replaceChildren();
  const d = await post("kernel", {toml: toml});
  if (d.error) { setText("kernel-error", d.error); return; }
  const table = $("kernel-claims");
  for (const [id, c] of Object.entries(d.claims)) {
    const tr = document.createElement("tr");
    tr.dataset.verdict = c.verdict;
    const cells = [id, c.verdict, (c.conditions || []).join(", "),
                   c.counterexample ? JSON.stringify(c.counterexample) : "", c.link || "", c.fix || ""];
    for (const text of cells) { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }
    table.appendChild(tr);
  }
  showPanels("kernel-panels", d.panels, "tv");
  if (d.highlight !== null && d.highlight !== undefined) {
    document.querySelectorAll('#kernel-panels g.cell[data-thread="' + CSS.escape(String(d.highlight)) + '"]')
      .forEach(x => x.classList.add("owned"));
  }
  lastMarkdown = "| claim | verdict | conditions |\n| --- | --- | --- |\n" + Object.entries(d.claims)
    .map(([id, c]) => "| " + id + " | " + c.verdict + " | " + (c.conditions || []).join(", ") + " |").join("\n") + "\n";
  lastKind = "kernel";
}

function download() {
  if (!lastSvg) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([lastSvg], {type: "image/svg+xml"}));
  a.download = "symcute.svg";
  a.click();
}

async function copyMarkdown() {
  const expr = $("expr").value.trim();
  if (lastKind === "eval" && expr) {   // the expression's proof: symcute derive expr, step by step
    const d = await post("derive", {expr: expr, let: lines("lets")});
    if (d.error) { setText("error", d.error); return; }
    lastMarkdown = d.markdown;
  }
  if (!lastMarkdown) return;
  try { await navigator.clipboard.writeText(lastMarkdown); } catch (e) { /* a page without clipboard rights */ }
  $("copy-md").dataset.copied = lastMarkdown;
}

document.addEventListener("DOMContentLoaded", () => {
  $("run").addEventListener("click", runEval);
  $("prove").addEventListener("click", runProve);
  $("bank").addEventListener("click", runBank);
  $("check").addEventListener("click", runKernel);
  $("download-svg").addEventListener("click", download);
  $("copy-md").addEventListener("click", copyMarkdown);
  document.addEventListener("mousemove", hover);
  document.addEventListener("click", select);
  const q = readLink();
  permalink();
  if (q.has("e")) runEval();
  if (q.has("c")) runProve();
  if (q.has("s")) runBank();
  if (q.has("k")) runKernel();
});
