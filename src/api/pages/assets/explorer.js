// The explorer: reads /openapi.json, builds a form for the chosen operation
// from its parameters or request-body schema (enums as choices, lookups as
// autocomplete, arrays of objects as repeatable groups), runs it with the
// key the person typed, and shows the answer as a table with paging, the
// meta block and the same request as a curl command. It talks only to this
// server's public API.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY_STORE = "fundsearch.key";
const state = { doc: null, ops: [], op: null, form: null, pageField: null, lastMeta: null };
let uid = 0;

// ---- small DOM helpers ----------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

function nextId(base) {
  uid += 1;
  return "f-" + String(base).replace(/[^A-Za-z0-9]+/g, "-") + "-" + uid;
}

// Description text with `code` spans as <code>, built as DOM nodes.
function described(text) {
  const span = el("span", { class: "desc" });
  String(text || "").split("`").forEach((part, i) => span.append(i % 2 ? el("code", { text: part }) : part));
  return span;
}

// ---- the OpenAPI document -------------------------------------------------

function deref(schema) {
  let s = schema || {};
  for (let i = 0; s.$ref && i < 10; i++) {
    s = s.$ref.split("/").slice(1).reduce((o, k) => (o ? o[k] : undefined), state.doc) || {};
  }
  return s;
}

function typeOf(schema) {
  const t = deref(schema).type;
  const list = Array.isArray(t) ? t : [t];
  return list.find((x) => x && x !== "null") || "string";
}

function operations(doc) {
  const ops = [];
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if (item[method]) ops.push({ path, method, op: item[method], id: item[method].operationId || method + " " + path });
    }
  }
  return ops;
}

// The lookup operation a description points at, e.g. "(see `/location/search`)".
function lookupFor(description) {
  const m = /`(\/[a-z_]+\/search)`/.exec(description || "");
  if (!m) return null;
  return state.ops.find((o) => o.method === "get" && o.path.endsWith(m[1])) || null;
}

// ---- form fields: each is { node, read() } --------------------------------

function field(name, schema, description, required) {
  const s = deref(schema);
  const type = typeOf(s);
  const desc = description || s.description || "";
  if (type === "object" && s.properties) return objectGroup(name, s, desc);
  if (type === "array") return arrayField(name, deref(s.items), desc);
  if (s.enum) return enumField(name, s, desc, required);
  if (type === "boolean") return enumField(name, { enum: [true, false] }, desc, required);
  return scalarField(name, s, type, desc, required);
}

function labelled(name, id, desc, required, control) {
  const descId = id + "-desc";
  control.setAttribute("aria-describedby", descId);
  const label = el("label", { for: id, text: name + (required ? " (required)" : "") });
  const text = described(desc);
  text.id = descId;
  return el("div", { class: "field" }, label, text, control);
}

function scalarField(name, s, type, desc, required) {
  const id = nextId(name);
  const numeric = type === "integer" || type === "number";
  const input = el("input", {
    id, name,
    type: numeric ? "number" : s.format === "date" ? "date" : "text",
    min: s.minimum, max: s.maximum, step: type === "integer" ? 1 : numeric ? "any" : undefined,
    placeholder: s.default !== undefined ? "default " + s.default : s.format || undefined,
    required: required || undefined, autocomplete: "off",
  });
  const read = () => {
    const v = input.value.trim();
    if (v === "") return undefined;
    return numeric && !isNaN(Number(v)) ? Number(v) : v;
  };
  return { node: labelled(name, id, desc, required, input), read, input };
}

function enumField(name, s, desc, required) {
  const id = nextId(name);
  const select = el("select", { id, name });
  select.append(el("option", { value: "", text: s.default !== undefined ? "(default: " + s.default + ")" : "(not set)" }));
  for (const v of s.enum) if (v !== "" && v !== null) select.append(el("option", { value: JSON.stringify(v), text: String(v) }));
  const read = () => (select.value === "" ? undefined : JSON.parse(select.value));
  return { node: labelled(name, id, desc, required, select), read };
}

function arrayField(name, items, desc) {
  if (typeOf(items) === "object" && items.properties) return repeatedGroup(name, items, desc);
  if (items.enum) return checkboxes(name, items.enum, desc);
  const lookup = lookupFor(desc);
  if (lookup) return combobox(name, lookup, desc);
  const f = scalarField(name, items, "string", desc + " Several values: separate them with commas.", false);
  const numeric = ["integer", "number"].includes(typeOf(items));
  f.input.type = "text";
  f.read = () => {
    const parts = f.input.value.split(",").map((p) => p.trim()).filter((p) => p !== "");
    return parts.length ? parts.map((p) => (numeric && !isNaN(Number(p)) ? Number(p) : p)) : undefined;
  };
  return f;
}

function checkboxes(name, values, desc) {
  const boxes = values.filter((v) => v !== "" && v !== null).map((v) => {
    const id = nextId(name + "-" + v);
    const box = el("input", { type: "checkbox", id, value: JSON.stringify(v) });
    return { box, node: el("span", {}, box, " ", el("label", { for: id, text: String(v) })) };
  });
  const fieldset = el("fieldset", { class: "field" }, el("legend", { text: name }), described(desc),
    el("div", { class: "checks" }, ...boxes.map((b) => b.node)));
  const read = () => {
    const chosen = boxes.filter((b) => b.box.checked).map((b) => JSON.parse(b.box.value));
    return chosen.length ? chosen : undefined;
  };
  return { node: fieldset, read };
}

function objectGroup(name, s, desc, open) {
  const children = Object.entries(s.properties).map(([k, v]) =>
    [k, field(k, v, deref(v).description, (s.required || []).includes(k))]);
  const body = el("div", {}, described(desc), ...children.map(([, f]) => f.node));
  const node = el("details", { class: "group", open: open || undefined }, el("summary", { text: name }), body);
  const read = () => {
    const out = {};
    for (const [k, f] of children) {
      const v = f.read();
      if (v !== undefined) out[k] = v;
    }
    return Object.keys(out).length ? out : undefined;
  };
  return { node, read, children };
}

// An array of objects (e.g. round types): groups added and removed at will.
function repeatedGroup(name, items, desc) {
  const entries = [];
  const list = el("div", {});
  const add = el("button", { type: "button", text: "Add " + name + " item" });
  add.addEventListener("click", () => {
    const item = objectGroup(name + " item " + (entries.length + 1), items, "", true);
    const remove = el("button", { type: "button", text: "Remove this " + name + " item" });
    const wrapper = el("div", {}, item.node, remove);
    entries.push(item);
    remove.addEventListener("click", () => { entries.splice(entries.indexOf(item), 1); wrapper.remove(); add.focus(); });
    list.append(wrapper);
    const first = wrapper.querySelector("input, select");
    if (first) first.focus();
  });
  const node = el("fieldset", { class: "field" }, el("legend", { text: name }), described(desc), list, add);
  const read = () => {
    const values = entries.map((e) => e.read()).filter((v) => v !== undefined);
    return values.length ? values : undefined;
  };
  return { node, read };
}

// ---- lookup autocomplete (ARIA combobox with a listbox) --------------------

function combobox(name, lookup, desc) {
  const id = nextId(name);
  const input = el("input", {
    id, type: "text", role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
    "aria-controls": id + "-list", autocomplete: "off", placeholder: "Type a name, then pick",
  });
  const list = el("ul", { id: id + "-list", role: "listbox", "aria-label": name + " suggestions", hidden: true });
  const chips = chipList(name, input);
  const combo = { input, list, lookup, active: -1, timer: null, options: [], add: chips.add };
  combo.pick = (option) => { chips.add(option.value, option.label); input.value = ""; closeList(combo); };
  input.addEventListener("input", () => { clearTimeout(combo.timer); combo.timer = setTimeout(() => suggest(combo), 200); });
  input.addEventListener("keydown", (e) => comboKey(e, combo));
  input.addEventListener("blur", () => setTimeout(() => closeList(combo), 150));
  const more = " Suggestions come from " + lookup.path + "; Enter adds the highlighted one (or the text as typed).";
  const node = labelled(name, id, desc + more, false, input);
  const box = el("div", { class: "combo" });
  node.insertBefore(box, input);
  box.append(input, list);
  node.insertBefore(chips.node, box);
  return { node, read: chips.read };
}

// The values chosen in a combobox, each with a button that removes it.
function chipList(name, input) {
  const chosen = [];
  const node = el("ul", { class: "chips", "aria-label": "Chosen " + name });
  const add = (value, label) => {
    if (!value || chosen.includes(value)) return;
    chosen.push(value);
    const remove = el("button", { type: "button", "aria-label": "Remove " + value, text: "×" });
    const chip = el("li", { "data-value": value }, label + " ", remove);
    remove.addEventListener("click", () => { chosen.splice(chosen.indexOf(value), 1); chip.remove(); input.focus(); });
    node.append(chip);
    setStatus("Added " + value + " to " + name + ".");
  };
  return { node, add, read: () => (chosen.length ? chosen.slice() : undefined) };
}

async function suggest(combo) {
  const text = combo.input.value.trim();
  if (!text) return closeList(combo);
  const nameParam = (combo.lookup.op.parameters || []).find((p) => p.required) || { name: "name" };
  const url = combo.lookup.path + "?" + new URLSearchParams({ [nameParam.name]: text });
  let body;
  try {
    const r = await fetch(url, { headers: authHeaders() });
    body = await r.json();
  } catch (e) {
    return setStatus("The lookup failed: " + e.message);
  }
  if (text !== combo.input.value.trim()) return;
  if (!body.success) return showLookupError(combo, body);
  const rows = firstArray(body.data) || [];
  combo.options = rows.map((r) => ({ value: r.permalink || r.id, label: r.name || r.permalink, kind: r.location_type || r.industry_type || "" }));
  fillList(combo);
}

function showLookupError(combo, body) {
  closeList(combo);
  setStatus("Lookup error: " + errorText(body));
}

function fillList(combo) {
  combo.list.replaceChildren();
  combo.active = -1;
  combo.options.forEach((o, i) => {
    const li = el("li", { role: "option", id: combo.list.id + "-" + i, "aria-selected": "false", "data-value": o.value },
      o.label + (o.kind ? " — " + o.kind.toLowerCase().replace("_", " ") : "") + " (" + o.value + ")");
    li.addEventListener("mousedown", (e) => { e.preventDefault(); combo.pick(o); });
    combo.list.append(li);
  });
  const open = combo.options.length > 0;
  combo.list.hidden = !open;
  combo.input.setAttribute("aria-expanded", String(open));
  setStatus(open ? combo.options.length + " suggestions; use the arrow keys." : "No suggestions.");
}

function closeList(combo) {
  combo.list.hidden = true;
  combo.active = -1;
  combo.input.setAttribute("aria-expanded", "false");
  combo.input.removeAttribute("aria-activedescendant");
}

function comboKey(e, combo) {
  const n = combo.list.hidden ? 0 : combo.options.length;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    if (!n) return;
    e.preventDefault();
    combo.active = (combo.active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
    highlight(combo);
  } else if (e.key === "Enter") {
    e.preventDefault();
    if (combo.active >= 0 && n) combo.pick(combo.options[combo.active]);
    else if (combo.input.value.trim()) combo.pick({ value: combo.input.value.trim(), label: combo.input.value.trim() });
  } else if (e.key === "Escape") {
    closeList(combo);
  }
}

function highlight(combo) {
  [...combo.list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === combo.active)));
  const li = combo.list.children[combo.active];
  combo.input.setAttribute("aria-activedescendant", li.id);
  li.scrollIntoView({ block: "nearest" });
}

// ---- the form for an operation -------------------------------------------

function buildForm(entry) {
  const params = (entry.op.parameters || []).map((p) => ({ p, f: field(p.name, p.schema, p.description, p.required) }));
  const schema = deref((((entry.op.requestBody || {}).content || {})["application/json"] || {}).schema);
  const body = schema.properties ? Object.entries(schema.properties).map(([k, v]) => [k, field(k, v, deref(v).description, false)]) : [];
  const page = params.find((x) => x.p.name === "page") || body.find(([k]) => k === "page");
  return { params, body, hasBody: !!entry.op.requestBody, page: page ? (page.f || page[1]) : null };
}

function selectOperation(id) {
  const entry = state.ops.find((o) => o.id === id);
  if (!entry) return;
  state.op = entry;
  state.form = buildForm(entry);
  const inputs = $("inputs");
  inputs.replaceChildren();
  state.form.params.forEach(({ f }) => inputs.append(f.node));
  state.form.body.forEach(([, f]) => inputs.append(f.node));
  if (!inputs.children.length) inputs.append(el("p", { class: "note", text: "This endpoint takes no parameters." }));
  const summary = $("endpoint-summary");
  summary.replaceChildren(entry.op.summary || "", " ", el("a", { href: "/docs#op-" + entry.id.toLowerCase().replace(/[^a-z0-9]+/g, "-"), text: "Reference" }));
  history.replaceState(null, "", "#" + entry.id);
  clearResult("Ready: fill the filters you want, then run.");
}

function buildRequest() {
  const { op, form } = state;
  let path = op.path;
  const query = new URLSearchParams();
  for (const { p, f } of form.params) {
    const v = f.read();
    if (v === undefined) continue;
    if (p.in === "path") path = path.replace("{" + p.name + "}", encodeURIComponent(v));
    else query.append(p.name, Array.isArray(v) ? v.join(",") : String(v));
  }
  let body;
  if (form.hasBody) {
    body = {};
    for (const [k, f] of form.body) {
      const v = f.read();
      if (v !== undefined) body[k] = v;
    }
  }
  const qs = query.toString();
  return { method: op.method.toUpperCase(), url: path + (qs ? "?" + qs : ""), body };
}

// ---- running and showing results ------------------------------------------

function authHeaders() {
  const key = $("key").value.trim();
  return key ? { Authorization: "Bearer " + key } : {};
}

async function run() {
  if (!state.op || !ready()) return;
  const req = buildRequest();
  $("curl").textContent = curlFor(req);
  setStatus("Running " + req.method + " " + req.url + "…");
  $("run").disabled = true;
  try {
    const r = await fetch(req.url, fetchInit(req));
    showAnswer(r.status, await r.text());
  } catch (e) {
    clearResult("The request failed: " + e.message);
  } finally {
    $("run").disabled = false;
  }
}

// True when the key (if the operation needs one) and every required
// parameter are there; otherwise says what is missing and focuses it.
function ready() {
  const needsKey = (state.op.op.security || state.doc.security || []).length > 0;
  if (needsKey && !$("key").value.trim()) {
    setStatus("Enter your API key first.");
    $("key").focus();
    return false;
  }
  const missing = state.form.params.find(({ p, f }) => p.required && f.read() === undefined);
  if (missing) {
    setStatus("Fill " + missing.p.name + ": this endpoint requires it.");
    (missing.f.input || $("run")).focus();
  }
  return !missing;
}

function fetchInit(req) {
  const init = { method: req.method, headers: authHeaders() };
  if (req.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(req.body);
  }
  return init;
}

function showAnswer(status, text) {
  $("raw").textContent = text;
  let body;
  try { body = JSON.parse(text); } catch (e) { body = null; }
  if (!body || body.success === false || status >= 400) return showError(status, body, text);
  $("error").replaceChildren();
  showMeta(body.meta || {});
  const rows = rowsOf(body.data);
  showTable(rows);
  showPager(body.meta || {}, rows.length);
  setStatus(status + " OK: " + summaryText(body.meta || {}, rows.length));
}

function summaryText(meta, shown) {
  const credits = meta.credits_used === undefined ? "" : ", " + meta.credits_used + " credits used";
  if (meta.total_count === undefined) return shown + " row" + (shown === 1 ? "" : "s") + credits + ".";
  if (!shown) return "no rows on this page, " + meta.total_count + " in total" + credits + ".";
  const from = (meta.page || 0) * (meta.page_size || shown) + 1;
  return "rows " + from + "–" + (from + shown - 1) + " of " + meta.total_count + " in total" + credits + ".";
}

function errorText(body) {
  const e = (body && body.error) || {};
  return (e.code || "ERROR") + ": " + (e.message || "no message");
}

function showError(status, body, text) {
  showMeta({});
  showTable([]);
  $("pager").hidden = true;
  const box = $("error");
  box.replaceChildren(el("p", { text: "Error " + status + " " + (body ? errorText(body) : text.slice(0, 300)) }));
  const items = (((body || {}).error || {}).details || {}).errors;
  if (Array.isArray(items)) {
    box.append(el("ul", {}, ...items.map((i) => el("li", { text: [i.field, i.code, i.message].filter(Boolean).join(": ") }))));
  }
  setStatus("Error " + status + (body ? " " + errorText(body) : ""));
}

function showMeta(meta) {
  state.lastMeta = meta;
  const dl = $("meta");
  dl.replaceChildren();
  for (const [k, v] of Object.entries(meta)) {
    dl.append(el("div", { "data-key": k }, el("dt", { text: k.replace(/_/g, " ") }), el("dd", { text: v === null ? "—" : String(v) })));
  }
}

function firstArray(data) {
  if (Array.isArray(data)) return data;
  if (data && typeof data === "object") return Object.values(data).find(Array.isArray) || null;
  return null;
}

function rowsOf(data) {
  const rows = firstArray(data);
  if (rows) return rows;
  if (data && typeof data === "object") {
    const values = Object.values(data);
    return [values.length === 1 && values[0] && typeof values[0] === "object" ? values[0] : data];
  }
  return data === undefined ? [] : [{ value: data }];
}

function columnsOf(rows) {
  const keys = [];
  for (const row of rows.slice(0, 50)) for (const k of Object.keys(row || {})) if (!keys.includes(k)) keys.push(k);
  const first = ["id", "name", "full_name", "permalink"].filter((k) => keys.includes(k));
  return first.concat(keys.filter((k) => !first.includes(k))).slice(0, 14);
}

function cellText(v) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.length ? v.length + ": " + v.slice(0, 3).map(cellText).join("; ") + (v.length > 3 ? "; …" : "") : "";
  if (typeof v === "object") return v.name || v.permalink || v.id || v.type || JSON.stringify(v).slice(0, 80);
  return String(v);
}

// A table cell: long text cut at 80 characters, all of it in the title.
function cell(column, value) {
  const text = cellText(value);
  const short = text.length > 80 ? text.slice(0, 79) + "…" : text;
  return el("td", { "data-col": column, title: short === text ? undefined : text, text: short });
}

function showTable(rows) {
  const table = $("results");
  const head = table.tHead;
  const body = table.tBodies[0];
  head.replaceChildren();
  body.replaceChildren();
  table.hidden = rows.length === 0;
  if (!rows.length) return;
  const cols = columnsOf(rows);
  head.append(el("tr", {}, ...cols.map((c) => el("th", { scope: "col", text: c }))));
  for (const row of rows) body.append(el("tr", {}, ...cols.map((c) => cell(c, (row || {})[c]))));
  const meta = state.lastMeta || {};
  $("results-caption").textContent = state.op.method.toUpperCase() + " " + state.op.path + ": " + summaryText(meta, rows.length);
}

function showPager(meta, shown) {
  const pager = $("pager");
  const paged = state.form.page && meta.page !== undefined && meta.total_count !== undefined;
  pager.hidden = !paged;
  if (!paged) return;
  const size = meta.page_size || shown || 1;
  const pages = Math.max(1, Math.ceil(meta.total_count / size));
  $("prev").disabled = meta.page <= 0;
  $("next").disabled = (meta.page + 1) * size >= meta.total_count;
  $("page-info").textContent = "Page " + (meta.page + 1) + " of " + pages;
}

function turnPage(delta) {
  const meta = state.lastMeta || {};
  state.form.page.input.value = String(Math.max(0, (meta.page || 0) + delta));
  run();
}

function shellQuote(s) {
  return "'" + String(s).replace(/'/g, "'\\''") + "'";
}

function curlFor(req) {
  const parts = ["curl -sS"];
  if (req.method !== "GET") parts.push("-X " + req.method);
  parts.push(shellQuote(location.origin + req.url));
  const needsKey = (state.op.op.security || state.doc.security || []).length > 0;
  if (needsKey) parts.push("-H \"Authorization: Bearer $FUNDSEARCH_KEY\"");
  if (req.body !== undefined) parts.push("-H 'Content-Type: application/json'", "-d " + shellQuote(JSON.stringify(req.body)));
  return parts.join(" \\\n  ");
}

function setStatus(text) {
  $("status").textContent = text;
}

function clearResult(text) {
  showMeta({});
  showTable([]);
  $("pager").hidden = true;
  $("error").replaceChildren();
  $("raw").textContent = "";
  $("curl").textContent = "";
  setStatus(text);
}

// ---- start -----------------------------------------------------------------

function fillEndpoints() {
  const select = $("endpoint");
  select.replaceChildren();
  const groups = new Map();
  for (const o of state.ops) {
    const tag = (o.op.tags || ["Other"])[0];
    if (!groups.has(tag)) groups.set(tag, el("optgroup", { label: tag }));
    groups.get(tag).append(el("option", { value: o.id, text: o.method.toUpperCase() + " " + o.path + " — " + (o.op.summary || "") }));
  }
  groups.forEach((g) => select.append(g));
  const wanted = decodeURIComponent(location.hash.slice(1));
  select.value = state.ops.some((o) => o.id === wanted) ? wanted : state.ops[0].id;
  selectOperation(select.value);
}

function wireKey() {
  const key = $("key");
  key.value = sessionStorage.getItem(KEY_STORE) || "";
  key.addEventListener("input", () => sessionStorage.setItem(KEY_STORE, key.value.trim()));
  $("key-show").addEventListener("click", (e) => {
    const show = key.type === "password";
    key.type = show ? "text" : "password";
    e.target.setAttribute("aria-pressed", String(show));
    e.target.textContent = show ? "Hide key" : "Show key";
  });
}

async function start() {
  wireKey();
  $("request").addEventListener("submit", (e) => { e.preventDefault(); run(); });
  $("endpoint").addEventListener("change", (e) => selectOperation(e.target.value));
  window.addEventListener("hashchange", () => {
    const wanted = decodeURIComponent(location.hash.slice(1));
    if (state.ops.some((o) => o.id === wanted) && (!state.op || state.op.id !== wanted)) {
      $("endpoint").value = wanted;
      selectOperation(wanted);
    }
  });
  $("prev").addEventListener("click", () => turnPage(-1));
  $("next").addEventListener("click", () => turnPage(1));
  try {
    const r = await fetch("/openapi.json");
    state.doc = await r.json();
  } catch (e) {
    return setStatus("Could not read /openapi.json: " + e.message);
  }
  state.ops = operations(state.doc);
  fillEndpoints();
}

start();
