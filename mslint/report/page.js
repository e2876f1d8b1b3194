"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const sources = JSON.parse(document.getElementById("report-sources").textContent);
  const entries = data.entries;
  const RANK = { compiles: 0, "no-finding": 1, warnings: 2, "falls-back": 3, fails: 4 };
  const SEVERITY = { info: 0, warning: 1, error: 2 };
  const LABEL = { compiles: "compiles", "no-finding": "no finding", warnings: "warnings", "falls-back": "falls back", fails: "fails" };
  const verifiedShown = entries.some((e) => e.verified);
  const compared = Boolean(data.compare);
  const state = { sort: "strict", descending: true, open: -1 };
  const $ = (id) => document.getElementById(id);
  const relative = (path) => (data.root && path.startsWith(data.root + "/") ? path.slice(data.root.length + 1) : path);
  const rows = $("rows");

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function statusHtml(level) {
    if (!level) return "";
    const known = level.status in LABEL;
    let text = LABEL[level.status] || level.status;
    if (level.lines) text += ` at ${level.lines} line${level.lines === 1 ? "" : "s"}`;
    return `<span class="status ${known ? level.status : "other"}" data-status="${escapeHtml(level.status)}">${escapeHtml(text)}</span>`;
  }

  function verifiedHtml(entry) {
    if (!entry.verified) return "";
    return ["strict", "lax"]
      .filter((level) => entry.verified[level])
      .map((level) => `<span class="level">${level.toUpperCase()} ${statusHtml(entry.verified[level])}</span>`)
      .join(" ");
  }

  function changeHtml(entry) {
    if (!entry.change) return "";
    if (entry.change.kind === "new") return '<span class="badge" data-change="new">new</span>';
    return `<span class="badge" data-change="status" title="was STRICT ${escapeHtml(entry.change.was_strict)}, LAX ${escapeHtml(entry.change.was_lax)}">changed</span>`;
  }

  function newFindings(entry) {
    return entry.findings.filter((i) => data.findings[i].new).length;
  }

  function fillSelect(id, values, label) {
    const select = $(id);
    for (const value of values) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label ? label(value) : value;
      select.appendChild(option);
    }
    select.addEventListener("change", render);
  }

  fillSelect("filter-strict", ["fails", "warnings", "no-finding", "compiles"], (s) => LABEL[s]);
  fillSelect("filter-lax", ["fails", "falls-back", "warnings", "no-finding", "compiles"], (s) => LABEL[s]);
  fillSelect("filter-rule", data.summary.by_rule.map((r) => r.symbol), (s) => s);
  fillSelect("filter-folder", [...new Set(entries.map((e) => e.folder))].sort(), (f) => relative(f + "/").replace(/\/$/, "") || ".");
  $("filter-text").addEventListener("input", render);
  $("filter-changed").addEventListener("change", render);
  $("changed-filter").hidden = !compared;
  $("filters").addEventListener("submit", (event) => event.preventDefault());
  if (!verifiedShown) document.querySelector('th[data-sort="verified"]').hidden = true;

  function matches(entry) {
    const strict = $("filter-strict").value, lax = $("filter-lax").value, rule = $("filter-rule").value;
    const folder = $("filter-folder").value, text = $("filter-text").value.toLowerCase();
    return (
      (!strict || entry.strict.status === strict) &&
      (!lax || entry.lax.status === lax) &&
      (!rule || rule in entry.rules) &&
      (!folder || entry.folder === folder) &&
      (!text || entry.name.toLowerCase().includes(text) || relative(entry.path).toLowerCase().includes(text)) &&
      (!$("filter-changed").checked || Boolean(entry.change) || newFindings(entry) > 0)
    );
  }

  const KEYS = {
    name: (e) => e.name.toLowerCase(),
    path: (e) => e.path + ":" + String(e.line).padStart(7, "0"),
    strict: (e) => RANK[e.strict.status] * 1e6 + e.strict.lines,
    lax: (e) => RANK[e.lax.status] * 1e6 + e.lax.lines,
    findings: (e) => e.findings.length,
    verified: (e) => (e.verified ? ["strict", "lax"].map((l) => (e.verified[l] ? RANK[e.verified[l].status] ?? -1 : -2)).join() : ""),
  };

  function render() {
    const key = KEYS[state.sort];
    const order = entries.map((e, i) => i).filter((i) => matches(entries[i]));
    order.sort((a, b) => {
      const ka = key(entries[a]), kb = key(entries[b]);
      const c = ka < kb ? -1 : ka > kb ? 1 : a - b;
      return state.descending ? -c : c;
    });
    rows.innerHTML = order.map(rowHtml).join("");
    $("shown").textContent = `${order.length} of ${entries.length} entries`;
    for (const th of document.querySelectorAll("th[data-sort]")) {
      th.classList.toggle("sorted-asc", th.dataset.sort === state.sort && !state.descending);
      th.classList.toggle("sorted-desc", th.dataset.sort === state.sort && state.descending);
    }
  }

  function rowHtml(i) {
    const e = entries[i];
    const added = newFindings(e);
    const rules = Object.entries(e.rules).map(([s, n]) => `<span class="rule">${escapeHtml(s)}&nbsp;${n}</span>`).join(", ");
    return (
      `<tr data-index="${i}" tabindex="0"${i === state.open ? ' class="open"' : ""}>` +
      `<td class="name">${escapeHtml(e.name)}${changeHtml(e)}</td>` +
      `<td class="file">${escapeHtml(relative(e.path))}:${e.line}</td>` +
      `<td class="strict">${statusHtml(e.strict)}</td><td class="lax">${statusHtml(e.lax)}</td>` +
      `<td class="count">${e.findings.length}${added ? ` <span class="badge" data-change="findings">+${added}</span>` : ""}</td>` +
      `<td class="rules">${rules}</td>` +
      (verifiedShown ? `<td class="verified">${verifiedHtml(e)}</td>` : "") +
      "</tr>"
    );
  }

  for (const th of document.querySelectorAll("th[data-sort]")) {
    th.addEventListener("click", () => {
      state.descending = state.sort === th.dataset.sort ? !state.descending : th.dataset.sort !== "name" && th.dataset.sort !== "path";
      state.sort = th.dataset.sort;
      render();
    });
  }

  rows.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-index]");
    if (row) openEntry(Number(row.dataset.index), true);
  });

  rows.addEventListener("keydown", (event) => {
    const row = event.target.closest("tr[data-index]");
    if (row && event.key === "Enter") openEntry(Number(row.dataset.index), true);
  });

  for (const part of document.querySelectorAll("svg [data-status]")) {
    part.addEventListener("click", () => {
      for (const level of ["strict", "lax"]) $(`filter-${level}`).value = level === part.dataset.level ? part.dataset.status : "";
      render();
    });
  }
  for (const bar of document.querySelectorAll("svg [data-rule]")) {
    bar.addEventListener("click", () => {
      $("filter-rule").value = bar.dataset.rule;
      render();
    });
  }

  function findingNote(i) {
    const f = data.findings[i];
    const severity = f.severity.lax || f.severity.strict;
    const link = f.link ? ` <a href="${escapeHtml(f.link)}" target="_blank" rel="noopener">${escapeHtml(f.symbol)}</a>` : escapeHtml(f.symbol);
    const levels = `STRICT ${escapeHtml(f.severity.strict || "-")}, LAX ${escapeHtml(f.severity.lax || "-")}${f.falls_back ? " (falls back)" : ""}`;
    const verdict = f.verdict ? ` <em>verify: ${escapeHtml(f.verdict.verdict)}${f.verdict.reason ? " - " + escapeHtml(f.verdict.reason) : ""}</em>` : "";
    const added = f.new ? ' <span class="badge">new</span>' : "";
    return (
      `<div class="note ${escapeHtml(severity)}" data-finding="${i}"><strong>${escapeHtml(f.code)}</strong>${link}` +
      ` <span class="where">${escapeHtml(relative(f.path))}:${f.line}:${f.column}</span> [${levels}]${added}${verdict}<br>${escapeHtml(f.message)}` +
      (f.hint ? `<br><span class="hint">hint: ${escapeHtml(f.hint)}</span>` : "") +
      "</div>"
    );
  }

  function sourceHtml(first, lines, findings) {
    const byLine = new Map();
    for (const i of findings) {
      const line = data.findings[i].line;
      if (!byLine.has(line)) byLine.set(line, []);
      byLine.get(line).push(i);
    }
    const out = lines.map((text, k) => {
      const line = first + k;
      const here = byLine.get(line) || [];
      const worst = here.map((i) => data.findings[i].severity.lax || data.findings[i].severity.strict).sort((a, b) => SEVERITY[b] - SEVERITY[a])[0];
      const code = `<span class="ln">${line}</span>${escapeHtml(text)}`;
      return here.length ? `<span class="hit ${escapeHtml(worst)}">${code}</span>${here.map(findingNote).join("")}` : code + "\n";
    });
    return `<pre class="source">${out.join("")}</pre>`;
  }

  function viaHtml(via) {
    if (!via.length) return "";
    const steps = via.map((c) => `${escapeHtml(c.caller)} <span class="where">(${escapeHtml(relative(c.path))}:${c.line})</span>`);
    return `<div class="via">called by ${steps.join(" &rarr; ")}</div>`;
  }

  function functionBlock(number, via, findings) {
    const fn = data.functions[number];
    const lines = sources.functions[String(number)] || [];
    return (
      `<div class="function" data-function="${number}"><h4>${escapeHtml(fn.name)} <span class="where">${escapeHtml(relative(fn.path))}:${fn.line}</span></h4>` +
      viaHtml(via) +
      (lines.length ? sourceHtml(fn.line, lines, findings) : '<p class="empty">source not available</p>') +
      "</div>"
    );
  }

  function evidenceHtml(entry) {
    if (!entry.verified) return "";
    const parts = ["strict", "lax"].filter((l) => entry.verified[l]).map((level) => {
      const v = entry.verified[level];
      const evidence = v.evidence.map((p) => `<li>${escapeHtml(p.kind)}: ${escapeHtml(p.message)} <span class="where">${escapeHtml(relative(p.path || ""))}:${escapeHtml(p.line ?? "")}</span></li>`);
      return `<p>${level.toUpperCase()}: ${statusHtml(v)}${v.reason ? " " + escapeHtml(v.reason) : ""}</p>${evidence.length ? `<ul>${evidence.join("")}</ul>` : ""}`;
    });
    return `<h3>Verified by the compiler</h3><div id="evidence">${parts.join("")}</div>`;
  }

  function openEntry(i, fromClick) {
    const e = entries[i];
    state.open = i;
    for (const row of rows.querySelectorAll("tr.open")) row.classList.remove("open");
    const row = rows.querySelector(`tr[data-index="${i}"]`);
    if (row) row.classList.add("open");
    const own = e.findings.filter((f) => data.findings[f].function === e.function && !data.findings[f].in_class);
    const classLevel = e.findings.filter((f) => (data.findings[f].in_class && data.findings[f].function === e.function) || data.findings[f].building.includes(e.function));
    const helpers = e.call_paths.map((p) => functionBlock(p.function, p.via, e.findings.filter((f) => data.findings[f].function === p.function && !data.findings[f].in_class)));
    const helperClass = e.call_paths.flatMap((p) => e.findings.filter((f) => data.findings[f].function === p.function && data.findings[f].in_class));
    const classFindings = [...new Set([...classLevel, ...helperClass])].map((f) => {
      const lines = sources.findings[String(f)] || [];
      return sourceHtml(data.findings[f].line, lines, [f]);
    });
    const withFindings = new Set([e.function, ...e.call_paths.map((p) => p.function)]);
    const others = e.reached.filter((n) => !withFindings.has(n)).map((n) => escapeHtml(data.functions[n].name));
    $("detail").innerHTML =
      `<h2 id="detail-name">${escapeHtml(e.name)}${changeHtml(e)}</h2>` +
      `<p class="where">${escapeHtml(relative(e.path))}:${e.line} &middot; ${e.kind === "cell" ? "Cell construct" : "@jit function"}</p>` +
      `<p>STRICT ${statusHtml(e.strict)} &nbsp; LAX ${statusHtml(e.lax)} &nbsp; ${e.findings.length} finding${e.findings.length === 1 ? "" : "s"}</p>` +
      (e.change && e.change.kind === "status" ? `<p>Before: STRICT ${escapeHtml(e.change.was_strict)}, LAX ${escapeHtml(e.change.was_lax)}</p>` : "") +
      evidenceHtml(e) +
      "<h3>Source</h3>" +
      functionBlock(e.function, [], own) +
      helpers.join("") +
      (classFindings.length ? `<h3>Building the Cells (in their classes, __init__ and what it calls)</h3><div class="function">${classFindings.join("")}</div>` : "") +
      (others.length ? `<h3>Also reaches, without findings</h3><p id="also-reaches">${others.join(", ")}</p>` : "");
    $("detail").scrollTop = 0;
    if (fromClick) $("detail").scrollIntoView({ block: "nearest" });
    if (fromClick) history.replaceState(null, "", "#entry=" + encodeURIComponent(e.id));
  }

  function renderOutside() {
    const outside = data.findings.map((f, i) => i).filter((i) => data.findings[i].function === null && !data.findings[i].building.length);
    if (!outside.length) return;
    $("outside").innerHTML =
      `<h2>Findings outside graph entries (${outside.length})</h2><p class="empty">In code no Cell construct or @jit function reaches: scripts, data pipelines, Cells without construct.</p>` +
      outside.map((i) => sourceHtml(data.findings[i].line, sources.findings[String(i)] || [], [i])).join("");
  }

  render();
  renderOutside();
  const wanted = decodeURIComponent((location.hash.match(/^#entry=(.*)$/) || [])[1] || "");
  const start = entries.findIndex((e) => e.id === wanted);
  if (start >= 0) {
    openEntry(start, false);
    const row = rows.querySelector(`tr[data-index="${start}"]`);
    const box = $("table-box");
    if (row) box.scrollTop = row.offsetTop - box.clientHeight / 2;
  }
})();
