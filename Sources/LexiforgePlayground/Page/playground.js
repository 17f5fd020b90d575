// The Lexiforge playground: plain JavaScript, no build step, no network but this server.
// Text box + suggestion bar per store, a keyboard drawn from the store's swipe layout that records
// pointer events (mouse, pen or touch) as a trace, swipe candidates, tags and lemmas, summaries.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const state = { stores: [], limits: null, panes: [], layoutStore: null, layout: null, trace: null, lastSwipe: null, seq: 0 };

async function api(path, body) {
  const started = performance.now();
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const answer = await response.json();
  answer.roundTripMs = performance.now() - started;
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer;
}

function el(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgEl(tag, attributes = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  return node;
}

// ---- Stores and panes ----

async function start() {
  const list = await api("/api/stores");
  state.stores = list.stores;
  state.limits = list.limits;
  const a = $("#store-a"), b = $("#store-b");
  for (const s of state.stores) {
    const label = `${s.name}${s.model ? " (" + s.model + ")" : ""}`;
    a.append(el("option", { value: s.id }, label));
    b.append(el("option", { value: s.id }, label));
  }
  if (state.stores.length > 1) b.value = "1";
  a.addEventListener("change", buildPanes);
  b.addEventListener("change", buildPanes);
  $("#text").addEventListener("input", () => { state.lastSwipe = null; refreshSuggestions(); });
  $("#key-space").addEventListener("click", () => typeText(" "));
  $("#key-period").addEventListener("click", () => typeText(". "));
  $("#key-backspace").addEventListener("click", () => { const t = $("#text"); t.value = t.value.slice(0, -1); state.lastSwipe = null; refreshSuggestions(); });
  $("#tag-button").addEventListener("click", tagText);
  setUpKeyboard();
  await buildPanes();
}

async function buildPanes() {
  const ids = [Number($("#store-a").value)];
  const second = $("#store-b").value;
  if (second !== "" && Number(second) !== ids[0]) ids.push(Number(second));
  const box = $("#panes"), summaries = $("#summaries");
  box.replaceChildren();
  summaries.replaceChildren();
  box.classList.toggle("two", ids.length === 2);
  summaries.classList.toggle("two", ids.length === 2);
  state.panes = ids.map(id => {
    const node = $("#pane-template").content.firstElementChild.cloneNode(true);
    const summary = $("#summary-template").content.firstElementChild.cloneNode(true);
    const store = state.stores[id];
    node.dataset.store = id;
    $(".pane-title", node).textContent = `${store.name} — order ${store.order}, ${store.vocabulary.toLocaleString()} words` +
      (store.languageModel ? ", language model" : ", counts only") +
      (store.swipeLayouts.length ? `, swipe (${store.swipeLayouts.join(", ")})` : "");
    if (!store.swipeLayouts.length) $(".swipe-result", node).hidden = true;
    $(".pane-title", summary).textContent = `Summary of ${store.name}`;
    box.append(node);
    summaries.append(summary);
    return { id, store, node, summary };
  });
  await Promise.all([loadLayout(), refreshSuggestions(), ...state.panes.map(loadSummary)]);
}

// ---- Suggestion bar ----

function typeText(s) {
  const t = $("#text");
  t.value += s;
  state.lastSwipe = null;
  refreshSuggestions();
}

async function refreshSuggestions() {
  const text = $("#text").value;
  const seq = ++state.seq;
  await Promise.all(state.panes.map(async pane => {
    try {
      const answer = await api(`/api/stores/${pane.id}/predict`, { text, limit: 3 });
      if (seq !== state.seq) return;  // a newer keystroke's answer is on its way
      renderBar(pane, answer);
      note(pane, `predict: ${(answer.micros / 1000).toFixed(2)} ms in the store, ${answer.roundTripMs.toFixed(1)} ms round trip`);
    } catch (error) {
      note(pane, `predict: ${error.message}`);
    }
  }));
}

function renderBar(pane, answer) {
  const bar = $(".bar", pane.node);
  bar.replaceChildren();
  const button = (offer, kind) => {
    const b = el("button", { type: "button", class: kind, "data-word": offer.word,
      title: `p = ${offer.probability.toPrecision(3)}, order ${offer.order}${offer.count != null ? ", count " + offer.count : ""}` }, offer.word);
    b.append(el("small", {}, offer.count != null ? String(offer.count) : offer.probability.toFixed(3)));
    b.addEventListener("click", () => take(offer.word, kind, answer.prefix));
    return b;
  };
  for (const offer of answer.completions) bar.append(button(offer, "completion"));
  if (answer.completions.length && answer.next.length) bar.append(el("span", { class: "sep" }, "then"));
  for (const offer of answer.next) bar.append(button(offer, "next"));
}

function take(word, kind, prefix) {
  const t = $("#text");
  let text = t.value;
  if (kind === "completion" && prefix && text.endsWith(prefix)) text = text.slice(0, text.length - prefix.length);
  else if (text.length && !/\s$/.test(text)) text += " ";
  t.value = text + word + " ";
  state.lastSwipe = null;
  refreshSuggestions();
  t.focus();
}

// One line per kind of request ("predict", "swipe") in the pane's timing note.
function note(pane, message) {
  const kind = message.split(":")[0];
  const box = $(".timing", pane.node);
  let line = box.querySelector(`[data-kind="${kind}"]`);
  if (!line) { line = el("div", { "data-kind": kind }); box.append(line); }
  line.textContent = message;
}

// ---- Keyboard and swipes ----

async function loadLayout() {
  const withSwipe = state.panes.find(p => p.store.swipeLayouts.length) ||
    state.stores.map(s => ({ id: s.id, store: s })).find(p => p.store.swipeLayouts.length);
  const svg = $("#keyboard");
  if (!withSwipe) {
    state.layout = null;
    svg.replaceChildren();
    svg.setAttribute("viewBox", "0 0 10 1");
    $("#keyboard-note").textContent = "None of these stores has swipe features (lexiforge swipe features STORE --layout qwerty); type in the text box.";
    return;
  }
  if (state.layoutStore === withSwipe.id && state.layout) return;
  const layout = await api(`/api/stores/${withSwipe.id}/layout`);
  state.layout = layout;
  state.layoutStore = withSwipe.id;
  const m = 0.1;
  svg.setAttribute("viewBox", `${layout.minX - m} ${layout.minY - m} ${layout.maxX - layout.minX + 2 * m} ${layout.maxY - layout.minY + 2 * m}`);
  svg.replaceChildren();
  for (const key of layout.keys) {
    const g = svgEl("g", { "data-key": key.letter });
    g.append(svgEl("rect", { x: key.x - key.width / 2 + 0.05, y: key.y - key.height / 2 + 0.05, width: key.width - 0.1, height: key.height - 0.1, rx: 0.12 }));
    const label = svgEl("text", { x: key.x, y: key.y });
    label.textContent = key.letter;
    g.append(label);
    svg.append(g);
  }
  svg.append(svgEl("polyline", { class: "trace", points: "" }));
  $("#keyboard-note").textContent = `Keyboard: layout ${layout.name} of ${state.stores[withSwipe.id].name}. Swipe across the letters, or tap one.`;
}

function layoutPoint(event) {
  const svg = $("#keyboard");
  const p = svg.createSVGPoint();
  p.x = event.clientX; p.y = event.clientY;
  const q = p.matrixTransform(svg.getScreenCTM().inverse());
  return { x: q.x, y: q.y, t: event.timeStamp };
}

function drawTrace() {
  const line = $("#keyboard .trace");
  if (line && state.trace) line.setAttribute("points", state.trace.map(p => `${p.x.toFixed(3)},${p.y.toFixed(3)}`).join(" "));
}

function setUpKeyboard() {
  const svg = $("#keyboard");
  svg.addEventListener("pointerdown", event => {
    if (!state.layout) return;
    event.preventDefault();
    svg.setPointerCapture(event.pointerId);
    state.trace = [layoutPoint(event)];
    drawTrace();
  });
  svg.addEventListener("pointermove", event => {
    if (!state.trace) return;
    const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
    for (const e of (events.length ? events : [event])) {
      if (state.trace.length < state.limits.maxTracePoints) state.trace.push(layoutPoint(e));
    }
    drawTrace();
  });
  const finish = event => {
    if (!state.trace) return;
    const trace = state.trace;
    state.trace = null;
    if (event.type === "pointerup") trace.push(layoutPoint(event));
    let length = 0;
    for (let i = 1; i < trace.length; i++) length += Math.hypot(trace[i].x - trace[i - 1].x, trace[i].y - trace[i - 1].y);
    if (length < 0.35) tapKey(trace[trace.length - 1]); else swipe(trace);
  };
  svg.addEventListener("pointerup", finish);
  svg.addEventListener("pointercancel", finish);
}

function tapKey(point) {
  let best = null, bestDistance = Infinity;
  for (const key of state.layout.keys) {
    const d = Math.hypot((key.x - point.x) / key.width, (key.y - point.y) / key.height);
    if (d < bestDistance) { best = key; bestDistance = d; }
  }
  if (best && bestDistance < 0.8) typeText(best.letter);
}

async function swipe(trace) {
  const text = $("#text").value;
  const panes = state.panes.filter(p => p.store.swipeLayouts.length);
  const answers = await Promise.all(panes.map(async pane => {
    const list = $(".candidates", pane.node);
    try {
      const points = trace.map(p => ({ x: p.x, y: p.y }));
      let last = trace[0].t;
      const times = trace.map(p => (last = Math.max(last, p.t)) - trace[0].t);   // ms since the touch, never decreasing
      const answer = await api(`/api/stores/${pane.id}/swipe`, { points, times, text, limit: 5 });
      list.replaceChildren();
      for (const c of answer.candidates) {
        const item = el("li", { "data-word": c.word }, c.word);
        item.append(el("span", {}, `score ${c.score.toFixed(2)}, cost ${c.cost.toFixed(3)}` +
          (c.contextLogProbability != null ? `, ln p(w | ${answer.context.slice(-2).join(" ")}) ${c.contextLogProbability.toFixed(2)}` : "")));
        item.addEventListener("click", () => replaceSwipedWord(c.word));
        list.append(item);
      }
      if (!answer.candidates.length) list.append(el("li", {}, "no candidates"));
      note(pane, `swipe: ${trace.length} points (${answer.simplifiedPoints} kept), ${answer.afterFilter} words past the filters, ` +
        `${(answer.micros / 1000).toFixed(1)} ms in the store, ${answer.roundTripMs.toFixed(1)} ms round trip`);
      return answer;
    } catch (error) {
      list.replaceChildren(el("li", {}, error.message));
      return null;
    }
  }));
  const best = answers[0] && answers[0].candidates[0];
  if (best) insertSwipedWord(best.word);
}

function insertSwipedWord(word) {
  const t = $("#text");
  let text = t.value;
  if (text.length && !/\s$/.test(text)) text += " ";
  state.lastSwipe = { start: text.length, word };
  t.value = text + word + " ";
  refreshSuggestions();
}

function replaceSwipedWord(word) {
  const t = $("#text");
  const last = state.lastSwipe;
  if (last && t.value.slice(last.start) === last.word + " ") {
    t.value = t.value.slice(0, last.start) + word + " ";
    state.lastSwipe = { start: last.start, word };
    refreshSuggestions();
  } else {
    take(word, "next", "");
  }
}

// ---- Tags and lemmas ----

async function tagText() {
  const text = $("#text").value;
  await Promise.all(state.panes.map(async pane => {
    const box = $(".tags", pane.node);
    try {
      const answer = await api(`/api/stores/${pane.id}/tag`, { text });
      box.replaceChildren();
      for (const sentence of answer.sentences) {
        const line = el("div");
        for (const token of sentence) {
          const span = el("span", { class: "tok" }, token.word);
          if (token.tag) span.append(el("sub", {}, token.tag));
          if (token.lemma && token.lemma !== token.word) span.append(el("sup", {}, token.lemma));
          line.append(span);
        }
        box.append(line);
      }
    } catch (error) {
      box.textContent = error.message;
    }
  }));
}

// ---- Summary ----

async function loadSummary(pane) {
  const body = $(".summary-body", pane.summary);
  try {
    const s = await api(`/api/stores/${pane.id}/summary`);
    body.replaceChildren();
    const facts = el("table");
    const row = (k, v) => { const r = el("tr"); r.append(el("th", {}, k), el("td", {}, v)); facts.append(r); };
    if (s.meta.model) row("model", s.meta.model);
    row("schema version", String(s.schemaVersion));
    row("n-gram order", String(s.order));
    row("vocabulary", s.vocabulary.toLocaleString() + " words");
    row("size", s.totalBytes.toLocaleString() + " bytes");
    row("language model", s.hasLanguageModel ? "yes" : "no");
    if (s.meta.tokens) row("tokens, sentences", `${Number(s.meta.tokens).toLocaleString()}, ${Number(s.meta.sentences || 0).toLocaleString()}`);
    if (s.swipeLayouts.length) row("swipe layouts", s.swipeLayouts.join(", "));
    if (s.wordClasses) row("word classes", `${s.wordClasses.classes} classes, weight ${s.wordClasses.weight}`);
    if (s.formRules != null) row("form rules", String(s.formRules));
    if (s.hmm) row("tagger", `${s.hmm.states} states, ${s.hmm.emissions.toLocaleString()} emissions`);
    body.append(facts);
    body.append(el("h3", {}, "Top words"), el("p", {}, s.topWords.map(w => `${w.word} (${w.count})`).join(", ")));
    if (s.startingWords.length) body.append(el("h3", {}, "Starting words"), el("p", {}, s.startingWords.map(w => `${w.word} (${w.count})`).join(", ")));
    if (s.topContinuations.length) {
      body.append(el("h3", {}, "Top continuations"));
      const list = el("ul");
      for (const c of s.topContinuations) list.append(el("li", {}, `${c.word} → ` + c.next.map(n => `${n.word} (${n.count})`).join(", ")));
      body.append(list);
    }
    const tables = el("details");
    tables.append(el("summary", {}, `Tables and indexes (${s.tables.length})`));
    const t = el("table");
    for (const table of s.tables) {
      const r = el("tr");
      r.append(el("td", {}, table.name), el("td", { class: "n" }, table.rows == null ? "-" : table.rows.toLocaleString()), el("td", { class: "n" }, table.bytes.toLocaleString()));
      t.append(r);
    }
    tables.append(t);
    body.append(tables);
  } catch (error) {
    body.textContent = error.message;
  }
}

start().catch(error => { document.body.prepend(el("p", { class: "note" }, `The playground could not start: ${error.message}`)); });
