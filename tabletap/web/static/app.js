// The table's page: watches the game through server-sent events and, once this phone is paired
// with the parent card, sends the same `do:` actions the console sends. Each game draws its own
// board: /static/views/<game>.js registers TT.views[game] = {render(el, snap, ctx)}; a game with
// no view file yet gets the engine's public view as text.
"use strict";

const TT = (window.TT = {
  views: {},
  snap: null,
  counter: null,
  session: { paired: false, csrf: "", public: true },
  loading: {},
});

// -- small helpers ---------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k === "css") for (const [p, x] of Object.entries(v)) el.style.setProperty(p, x);
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
TT.h = h;

const $ = (id) => document.getElementById(id);

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), 4000);
}
TT.toast = toast;

async function post(path, body) {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": TT.session.csrf },
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
  if (res.status === 401 || res.status === 403) await loadSession();
  return { status: res.status, data };
}
TT.post = post;

// Send one action as `tabletap do` would; the answer (or refusal) shows in the toast.
async function act(action) {
  const { status, data } = await post("/api/do", action);
  if (status !== 200) { toast(data.error || `refused (${status})`); return data; }
  if (data.accepted === false) toast(`✗ ${data.message}`);
  else if (data.events && data.events.length) toast(data.events.join(" "));
  return data;
}
TT.act = act;

// -- the session and pairing -------------------------------------------------------------------

async function loadSession() {
  const res = await fetch("/api/session", { credentials: "same-origin" });
  TT.session = await res.json();
  drawControls();
  if (TT.session.public || TT.session.paired) listen();
  else $("status").replaceChildren(h("p", { class: "turn" },
    "This table shows its game only to paired phones: pair this phone below."));
  return TT.session;
}

// Pairing is numeric comparison (docs/WEB.md): the daemon draws a code of four dice faces when
// this phone's window opens; the page shows it here, the table says it and shows it on its
// lights, and the parent taps the parent card only if the two match. The code appears only in
// this box and only for this phone's own request: never from the snapshot, where a stranger's
// window would put the table's code on every phone.
const CODE_COLOURS = ["green", "yellow", "purple", "cyan"];  // pairing.CODE_COLOURS
let pairPoll = null;
let pairShown = "";

function codeTiles(code) {
  return h("ol", { id: "pair-code", class: "code", "data-code": code,
    "aria-label": `The code: ${code.split("").join(" ")}` },
  ...code.split("").map((d, i) => h("li", { class: `code-${i}` },
    h("b", {}, d),
    h("span", { class: "pips", "aria-hidden": "true" },
      ...Array.from({ length: Number(d) }, () => h("i"))),
    h("small", {}, CODE_COLOURS[i]))));
}

function drawPairing(s) {
  const box = $("pairbox");
  const key = `${s.status}:${s.code || ""}`;
  if (key === pairShown) {  // only the seconds change: the tiles stay as the parent reads them
    const left = $("pair-left");
    if (left) left.textContent = `${Math.round(s.status === "queued" ? s.seconds_until : s.seconds_left)}`;
    return;
  }
  pairShown = key;
  if (s.status === "queued") {
    box.replaceChildren(
      h("p", { id: "pair-wait", class: "turn" }, "Another device is pairing at the table right now. This phone is next, in about ",
        h("strong", { id: "pair-left", text: `${Math.round(s.seconds_until)}` }), " seconds."),
      h("p", { id: "pair-hold", class: "pairwarn" },
        "Do not tap the parent card yet: wait until a code shows here."));
    return;
  }
  box.replaceChildren(
    h("p", { class: "muted" }, "This phone's code. The table says its code and shows it on its lights:"),
    codeTiles(s.code || ""),
    h("p", { id: "pair-wait", class: "turn" }, "The same code at the table? Then tap the parent card at any reader within ",
      h("strong", { id: "pair-left", text: `${Math.round(s.seconds_left)}` }), " seconds."),
    h("p", { id: "pair-differs", class: "pairwarn" },
      "A different code at the table? Do not tap: another device is asking. Wait until it ends, then press Pair again."));
}

function pairRefused(text) {
  const old = $("pair-refused");
  if (old) old.remove();
  $("pairbox").append(h("p", { id: "pair-refused", class: "pairwarn", role: "alert" }, text));
}

async function startPairing() {
  const name = $("pair-name") ? $("pair-name").value.trim() : "";
  const { status, data } = await post("/api/pair", name ? { label: name } : {});
  if (status !== 200) {
    const text = data.error || `pairing refused (${status})`;
    toast(text);
    pairRefused(text);
    return;
  }
  pairShown = "";
  drawPairing(data);
  clearInterval(pairPoll);
  pairPoll = setInterval(async () => {
    const r = await fetch(`/api/pair/${encodeURIComponent(data.request)}`, { credentials: "same-origin" });
    const s = await r.json();
    if (s.status === "waiting" || s.status === "queued") { drawPairing(s); return; }
    clearInterval(pairPoll);
    pairShown = "";
    if (s.status === "paired") { toast("This phone is paired with the table."); }
    else if (s.status === "gone") { toast("This phone's turn to pair passed while the page was away. Press Pair again."); }
    else { toast("Nobody tapped the parent card in time: not paired. Try again."); }
    await loadSession();
  }, 1000);
}

function drawControls() {
  const s = TT.session;
  const box = $("pairbox");
  if (s.paired) {
    box.replaceChildren(h("p", { id: "paired", class: "muted" },
      `Paired as ${s.pairing ? s.pairing.label : "this phone"}: you may change the game.`));
  } else {
    box.replaceChildren(
      h("p", { class: "muted" }, "Watching. To set up games and enter moves, pair this phone."),
      h("label", {}, "This phone's name (for the list of paired phones)",
        h("input", { id: "pair-name", autocomplete: "off", maxlength: "40", placeholder: "Ana's phone" })),
      h("button", { id: "pair", type: "button", onclick: startPairing }, "Pair this phone"));
  }
  $("gamebuttons").hidden = !s.paired;
  $("setup").hidden = !s.paired;
  $("pairings").hidden = !s.paired;
  $("enrol").hidden = !s.paired;
  $("doctor").hidden = !s.paired;
  if (s.paired) loadPairings();
  if (TT.snap) drawBoard(TT.snap);
}

async function loadPairings() {
  const res = await fetch("/api/pairings", { credentials: "same-origin" });
  if (!res.ok) return;
  const data = await res.json();
  const mine = TT.session.pairing ? TT.session.pairing.id : null;
  $("pairinglist").replaceChildren(...data.pairings.map((p) => h("li", { "data-id": p.id },
    h("span", {}, `${p.label}${p.id === mine ? " (this phone)" : ""}`,
      h("br"), h("small", { class: "muted" }, new Date(p.created * 1000).toLocaleString())),
    h("button", { type: "button", class: "danger", onclick: async () => {
      const { status, data: d } = await post(`/api/pairings/${encodeURIComponent(p.id)}/revoke`);
      toast(status === 200 ? `Unpaired ${d.revoked.label}.` : d.error);
      await loadSession();
    } }, "Revoke"))));
}

// -- drawing the snapshot ----------------------------------------------------------------------

function colourOf(snap, player, seat) {
  const c = (snap.view && snap.view.colours && snap.view.colours[player]) || player;
  const css = { pink: "#e91e8c", yellow: "#f2c200", green: "#2e7d32", blue: "#1565c0",
    red: "#c62828", purple: "#6a1b9a", orange: "#ef6c00", white: "#ffffff" };
  return css[c] || ["#c62828", "#1565c0", "#2e7d32", "#f2c200"][seat % 4];
}
TT.colourOf = colourOf;

function drawStatus(snap) {
  $("title").textContent = snap.title || snap.game || "tabletap";
  const line = snap.over
    ? `${snap.winners.join(" and ")} ${snap.winners.length > 1 ? "win" : "wins"}!`
    : snap.turn ? `${snap.turn}'s turn` : "";
  const pending = snap.last && snap.last.pending ? h("p", { class: "muted" }, `… ${snap.last.pending}`) : null;
  const pairing = snap.pairing && snap.pairing.waiting
    ? h("p", { class: "muted" },
      "A phone is asking to pair: only its owner taps the parent card, when its code matches the table's.") : null;
  $("status").replaceChildren(
    h("div", { id: "turn", class: "turn" }, line),
    h("ul", { class: "scores", id: "scores" }, snap.players.map((p, i) =>
      h("li", { class: p === snap.turn ? "now" : "" },
        h("span", { class: "swatch", css: { background: colourOf(snap, p, i) } }),
        `${p} ${snap.scores[p] ?? 0}`))),
    ...[pending, pairing].filter(Boolean));
}

function drawRefusal(snap) {
  const r = snap.refusal;
  const box = $("refusal");
  if (!r) { box.hidden = true; return; }
  const newest = snap.log.length ? snap.log[snap.log.length - 1].seq : r.seq;
  box.hidden = false;
  box.classList.toggle("old", newest !== r.seq);
  box.replaceChildren(h("strong", {}, "Last refusal"), h("span", { id: "refusal-text" }, r.message));
}

// A piece as a parent looks for it in the box: the daemon says its words (the game's own, from
// its spec); parent and game cards are the table's own.
function friendly(piece, words) {
  const parts = piece.split("/");
  if (parts[0] === "admin") return `parent card ${parts[1]}`;
  if (parts[0] === "game") return `the ${parts[1].replace(/-/g, " ")} game card`;
  if (words) return words.startsWith("the ") ? words : `the ${words}`;
  return `the ${parts.slice(1).join(" ").replace(/-/g, " ")}`;
}
TT.friendly = friendly;

function drawEnrolment(snap) {
  const e = snap.enrolment;
  const box = $("enrol-progress");
  if (!e) { box.replaceChildren(); return; }
  const line = e.active
    ? `Tap ${friendly(e.next, snap.enrolment_words)} … ${e.done} of ${e.total} done`
    : `${e.game}: ${e.done} of ${e.total} enrolled${e.done === e.total ? ", all done" : " (stopped)"}`;
  box.replaceChildren(
    h("progress", { max: String(e.total), value: String(e.done) }),
    h("p", { id: "enrol-line", class: "turn" }, line),
    e.last ? h("p", { class: "muted" }, e.last) : null);
  if (e.active) $("enrol").open = true;
}

function drawLog(snap) {
  $("log").replaceChildren(...snap.log.slice().reverse().map((l) =>
    h("li", { class: l.text.startsWith("✗") ? "bad" : "", value: l.seq }, l.text)));
}

function loadView(game) {
  if (!game || TT.views[game] || TT.loading[game]) return;
  TT.loading[game] = true;
  const s = document.createElement("script");
  s.src = `/views/${encodeURIComponent(game)}.js`;  // served from the game's package
  s.onload = () => TT.snap && drawBoard(TT.snap, true);
  s.onerror = () => { TT.views[game] = TT.views._raw; if (TT.snap) drawBoard(TT.snap, true); };
  const style = h("link", { rel: "stylesheet", href: `/views/${encodeURIComponent(game)}.css` });
  document.head.append(style, s);
}

TT.views._raw = {
  render(el, snap) {
    el.append(h("section", { class: "card" }, h("pre", { class: "raw" },
      JSON.stringify(snap.view, null, 1))));
  },
};

// The board is drawn again only when what a view reads changed (or the phone's own choice did,
// through TT.redraw): a line of the play-by-play must not replace the button under a finger,
// which would lose the touch.
let drawnKey = "";
function drawBoard(snap, force) {
  const view = TT.views[snap.game];
  const board = $("board");
  if (!view) { loadView(snap.game); return; }
  const key = JSON.stringify([snap.game, snap.players, snap.turn, snap.over, snap.winners,
    snap.scores, snap.actions, snap.view, snap.extra, TT.session.paired]);
  if (!force && key === drawnKey) return;
  drawnKey = key;
  const ctx = { paired: TT.session.paired, act, post, toast, h, colourOf };
  const fresh = document.createDocumentFragment();
  const holder = h("div", { class: "board" });
  fresh.append(holder);
  try {
    view.render(holder, snap, ctx);
  } catch (e) {
    holder.replaceChildren(h("p", { class: "refusal" }, `This view failed: ${e}`));
  }
  board.replaceChildren(...holder.childNodes);
}
TT.redraw = () => TT.snap && drawBoard(TT.snap, true);

function show(msg) {
  const conn = $("conn");
  if (msg.down) {
    conn.textContent = "table not answering";
    conn.className = "conn down";
    $("status").replaceChildren(h("p", { class: "turn" }, `The table is not answering: ${msg.down}`));
    return;
  }
  conn.textContent = "live";
  conn.className = "conn live";
  TT.snap = msg.snapshot;
  TT.counter = msg.counter;
  drawStatus(TT.snap);
  drawRefusal(TT.snap);
  drawLog(TT.snap);
  drawEnrolment(TT.snap);
  drawBoard(TT.snap);
  document.body.dataset.counter = String(msg.counter);
}

let stream = null;
function listen() {
  if (stream) return;
  const es = (stream = new EventSource("/api/stream"));
  es.addEventListener("state", (ev) => show(JSON.parse(ev.data)));
  es.onerror = () => { $("conn").textContent = "reconnecting…"; $("conn").className = "conn"; };
}

// -- set-up, undo, abandon ---------------------------------------------------------------------

// The installed games, as their specs describe them (GET /api/games): name, title, options
// with their sentences. The page holds no list of its own, so an added game shows up here.
const GAMES = {};
TT.games = GAMES;

async function loadGames() {
  const r = await fetch("/api/games", { credentials: "same-origin" });
  const data = await r.json();
  for (const g of data.games) GAMES[g.name] = g;
  $("setup-game").replaceChildren(...Object.values(GAMES).map((g) =>
    h("option", { value: g.name }, g.title)));
  $("enrol-game").replaceChildren(
    ...Object.values(GAMES).map((g) => h("option", { value: g.name },
      g.decks ? `${g.title} (red and blue decks)` : g.title)),
    h("option", { value: "admin" }, "Parent cards"), h("option", { value: "game" }, "Game cards"));
  drawSetupOptions();
}

// An option with two choices is a switch (on: the other choice than the default); one with more
// is a list; a free value (a list of teams, say) is set in the table's config, not here.
function drawSetupOptions() {
  const game = GAMES[$("setup-game").value];
  if (!game) return;
  $("setup-players").placeholder = game.hint || "ana, ben";
  const fields = game.options.filter((o) => o.choices.length >= 2).map((o) => {
    if (o.choices.length === 2 && typeof o.default === "boolean") {
      return h("label", { title: o.help }, h("input", { type: "checkbox", name: o.name,
        checked: o.default }), o.help);
    }
    return h("label", {}, `${o.help} `, h("select", { name: o.name },
      ...o.choices.map((c, i) => h("option", { value: String(c), selected: c === o.default },
        o.labels[i]))));
  });
  $("setup-options").replaceChildren(h("legend", {}, "Options"), ...fields);
}

async function submitSetup(ev) {
  ev.preventDefault();
  const game = $("setup-game").value;
  const players = $("setup-players").value.split(",").map((p) => p.trim()).filter(Boolean);
  const options = {};
  for (const box of $("setup-options").querySelectorAll("input[type=checkbox]")) {
    options[box.name] = box.checked;
  }
  for (const list of $("setup-options").querySelectorAll("select")) options[list.name] = list.value;
  const { status, data } = await post("/api/new", { game, players, options });
  toast(status === 200 ? `A new game of ${GAMES[game].title} begins.` : data.error);
  if (status === 200) $("setup").open = false;
}

async function simple(path, question, done) {
  if (question && !window.confirm(question)) return;
  const { status, data } = await post(path, {});
  toast(status === 200 ? done : data.error);
}

function init() {
  loadGames().catch(() => toast("The list of games could not be read; reload the page."));
  $("setup-game").addEventListener("change", drawSetupOptions);
  $("setupform").addEventListener("submit", submitSetup);
  $("enrol-start").addEventListener("click", async () => {
    const { status, data } = await post("/api/enrol", { game: $("enrol-game").value,
      decks: (GAMES[$("enrol-game").value] || {}).decks ? ["red", "blue"] : [] });
    if (status !== 200) toast(data.error);
  });
  $("doctor-run").addEventListener("click", async () => {
    const button = $("doctor-run");
    button.disabled = true;
    $("doctor-summary").textContent = "Checking… (with no game under way the chest moves a little and the lights flash)";
    $("findings").replaceChildren();
    try {
      const { status, data } = await post("/api/doctor");
      if (status !== 200) { $("doctor-summary").textContent = ""; toast(data.error); return; }
      const mark = { ok: "✓", warning: "!", failed: "✗" };
      $("doctor-summary").textContent = data.summary || "";
      $("doctor-summary").className = data.findings.some((f) => f.status === "failed") ? "turn bad" : "turn";
      $("doctor-skipped").textContent = data.skipped || "";
      $("doctor-skipped").hidden = !data.skipped;
      $("findings").replaceChildren(...data.findings.map((f) => h("li", { class: f.status },
        h("strong", {}, `${mark[f.status] || "?"} ${f.device}`), h("br"), f.detail)));
    } finally {
      button.disabled = false;
    }
  });
  $("enrol-stop").addEventListener("click", () => simple("/api/enrol/stop", null, "Enrolment stopped."));
  $("undo").addEventListener("click", () => simple("/api/undo", null, "The last move is undone."));
  $("abandon").addEventListener("click", () =>
    simple("/api/abandon", "Abandon this game? It cannot be resumed.", "The game is abandoned."));
  drawSetupOptions();
  loadSession();
}

document.addEventListener("DOMContentLoaded", init);
