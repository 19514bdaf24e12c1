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

// An SVG element, for the views that draw their game as the real thing looks (each game's
// view.js): attributes as given, children appended.
const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}
TT.svg = svg;

// A game's options as form fields, from its spec (GET /api/games): two choices with a boolean
// default are a switch, more are a list; a free value (a list of teams) is left to the config.
// The set-up form and the start screen (start.js) both use it.
function optionFields(game) {
  return game.options.filter((o) => o.choices.length >= 2).map((o) => {
    if (o.choices.length === 2 && typeof o.default === "boolean") {
      return h("label", { title: o.help }, h("input", { type: "checkbox", name: o.name,
        checked: o.default }), o.help);
    }
    return h("label", {}, `${o.help} `, h("select", { name: o.name },
      ...o.choices.map((c, i) => h("option", { value: String(c), selected: c === o.default },
        o.labels[i]))));
  });
}
TT.optionFields = optionFields;

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
  if (TT.notice) TT.notice("");
  const { status, data } = await post("/api/do", action);
  if (status !== 200) { toast(data.error || `refused (${status})`); return data; }
  if (data.accepted === false) toast(`✗ ${data.message}`);
  else if (data.events && data.events.length) toast(data.events.join(" "));
  return data;
}
TT.act = act;

// -- the session and pairing -------------------------------------------------------------------

// While the daemon is off or restarting the page cannot ask whether this phone is paired; it
// keeps what it last knew (or, on a page opened meanwhile, what this browser last knew), so a
// restart never makes a paired phone look unpaired.
const PAIRED_HINT = "tabletap-paired";

async function loadSession() {
  const res = await fetch("/api/session", { credentials: "same-origin" });
  const fresh = await res.json();
  if (fresh.down) {
    const hint = window.localStorage.getItem(PAIRED_HINT) === "1";
    fresh.paired = TT.session.paired || hint;
    fresh.pairing = TT.session.pairing || null;
  } else {
    window.localStorage.setItem(PAIRED_HINT, fresh.paired ? "1" : "0");
  }
  TT.session = fresh;
  TT.sessionDown = Boolean(fresh.down);
  drawControls();
  if (TT.session.public || TT.session.paired) listen();
  else {
    $("status").hidden = false;
    $("status").replaceChildren(h("p", { class: "turn" },
      "This table shows its game only to paired phones: pair this phone below."));
    $("now-line").textContent = "Pair this phone to see the game.";
  }
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
    if (s.status === "paired") { TT.justPaired = true; }
    else if (s.status === "gone") { toast("This phone's turn to pair passed while the page was away. Press Pair again."); }
    else { toast("Nobody tapped the parent card in time: not paired. Try again."); }
    await loadSession();
  }, 1000);
}

function drawControls() {
  const s = TT.session;
  const box = $("pairbox");
  if (s.paired) {
    box.replaceChildren(h("p", { id: "paired", class: TT.justPaired ? "good" : "muted" },
      TT.justPaired ? `This phone is paired with the table${s.pairing ? ` as ${s.pairing.label}` : ""}: you may change the game.`
        : `Paired as ${s.pairing ? s.pairing.label : "this phone"}: you may change the game.`));
    TT.justPaired = false;
  } else {
    box.replaceChildren(
      h("p", { class: "muted" }, "Watching. To set up games and enter moves, pair this phone."),
      h("label", {}, "This phone's name (for the list of paired phones)",
        h("input", { id: "pair-name", autocomplete: "off", maxlength: "40", placeholder: "Ana's phone" })),
      h("button", { id: "pair", type: "button", onclick: startPairing }, "Pair this phone"));
  }
  $("setup").hidden = !s.paired;
  $("pairings").hidden = !s.paired;
  $("enrol").hidden = !s.paired;
  $("doctor").hidden = !s.paired;
  if (s.paired) loadPairings();
  if (TT.snap) {
    drawChrome(TT.snap);
    drawBoard(TT.snap);
    if (TT.drawVoice) TT.drawVoice(TT.snap);
  }
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
      const whose = p.id === mine ? "this phone" : p.label;
      if (!window.confirm(`Unpair ${whose}? It can change the game again only after pairing `
        + "again with the parent card.")) return;
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

// Whether a game is on the table to play (none before a card, after abandoning or a win).
const playing = (snap) => Boolean(snap.game) && !snap.over;
TT.playing = playing;

// The top of the page: one line a parent reads from across the table (whose turn and what the
// table waits for, in that player's colour), and the last three sentences the table said.
function drawNow(snap) {
  const line = $("now-line");
  const who = snap.turn;
  let text;
  if (!snap.game && snap.held) {  // a damaged saved game, kept and not resumed
    text = snap.held;
  } else if (!snap.game) {
    const setup = snap.setup && snap.setup.game;
    const title = setup && GAMES[setup] ? GAMES[setup].title : setup;
    text = setup ? `Setting up ${title}: each player taps a piece of theirs, then hold end-turn.`
      : TT.session.paired ? "No game yet: tap a game card at the table, or start one here."
        : "No game yet: tap a game card at the table to choose one.";
  } else if (snap.over) {
    text = `${snap.winners.join(" and ")} ${snap.winners.length > 1 ? "win" : "wins"}!`;
  } else {
    // a view that knows what its game waits for says it (TT.views[game].now), else the turn
    const view = TT.views[snap.game];
    const said = view && view.now ? view.now(snap) : null;
    text = said || (who ? `${who}: your turn` : "");
  }
  line.textContent = text;
  const seat = snap.players.indexOf(who);
  line.style.setProperty("--who", who && seat >= 0 && !snap.over ? colourOf(snap, who, seat) : "transparent");
  $("said").replaceChildren(...snap.log.slice(-3).reverse().map((l) => h("li", {}, l.text)));
}

// The scores at a glance; no box at all while no game is on the table.
function drawStatus(snap) {
  $("title").textContent = snap.title || snap.game || "tabletap";
  const box = $("status");
  box.hidden = !snap.game;
  if (!snap.game) { box.replaceChildren(); return; }
  const pending = snap.last && snap.last.pending ? h("p", { class: "muted" }, `… ${snap.last.pending}`) : null;
  const pairing = snap.pairing && snap.pairing.waiting
    ? h("p", { class: "muted" },
      "A phone is asking to pair: only its owner taps the parent card, when its code matches the table's.") : null;
  box.replaceChildren(
    h("ul", { class: "scores", id: "scores" }, snap.players.map((p, i) =>
      h("li", { class: p === snap.turn ? "now" : "" },
        h("span", { class: "swatch", css: { background: colourOf(snap, p, i) } }),
        `${p} ${snap.scores[p] ?? 0}`))),
    ...[pending, pairing].filter(Boolean));
}

// Undo and Abandon only while there is a game to take back or abandon; the start screen only
// while there is none.
function drawChrome(snap) {
  const paired = TT.session.paired;
  $("gamebuttons").hidden = !(paired && playing(snap));
  $("start").hidden = Boolean(snap.game) && !snap.over;
  if (!$("start").hidden && TT.drawStart) TT.drawStart(snap);
}

// A refusal is news about one moment: it shows for a few seconds, and goes as soon as the game
// moves on (an accepted action, another game), never staying on top across games.
const REFUSAL_SECONDS = 8;
const refusalShown = { key: "", actions: null, game: null, timer: null };

function drawRefusal(snap) {
  const r = snap.refusal;
  const box = $("refusal");
  const hide = () => { box.hidden = true; clearTimeout(refusalShown.timer); };
  if (!r) { hide(); return; }
  const key = `${r.seq}:${r.code}:${r.message}`;
  if (key !== refusalShown.key) {
    refusalShown.key = key;
    refusalShown.actions = snap.actions;
    refusalShown.game = snap.game;
    // one seen on opening the page is old news unless it came with the game as it is now
    const fresh = TT.counter !== null && TT.seenOnce;
    const current = r.actions === undefined || r.actions === snap.actions;
    if (!fresh && !current) { hide(); return; }
    box.hidden = false;
    box.replaceChildren(h("strong", {}, "Not accepted"), h("span", { id: "refusal-text" }, r.message));
    clearTimeout(refusalShown.timer);
    refusalShown.timer = setTimeout(hide, REFUSAL_SECONDS * 1000);
    return;
  }
  if (snap.actions !== refusalShown.actions || snap.game !== refusalShown.game) hide();
}

// A piece as a parent looks for it in the box: the daemon says its words (the game's own, from
// its spec); parent and game cards are the table's own.
function friendly(piece, words) {
  const parts = piece.split("/");
  if (parts[0] === "admin") return `parent card ${parts[1]}`;
  if (parts[0] === "game") return `the ${parts[1].replace(/-/g, " ")} game card`;
  if (parts[0] === "voice") return parts[1] === "repeat" ? "the say-again voice card" : `the ${parts[1]} voice card`;
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
  s.onload = () => { if (TT.snap) { drawNow(TT.snap); drawBoard(TT.snap, true); } };
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
  const board = $("board");
  if (!snap.game) {  // nothing on the table: nothing of the last game stays on screen
    board.replaceChildren();
    drawnKey = "";
    return;
  }
  const view = TT.views[snap.game];
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

// The daemon off or restarting is said once, in words; the page keeps the pairing and the last
// board (dimmed) and comes back by itself: the event stream reconnects, and the session is
// asked again once the table answers.
const DOWN = "The table is off or restarting. This page comes back by itself when it answers.";

function show(msg) {
  const conn = $("conn");
  if (msg.down) {
    conn.textContent = "table off";
    conn.className = "conn down";
    TT.wasDown = true;
    document.body.classList.add("down");
    $("now-line").textContent = DOWN;
    $("now-line").style.setProperty("--who", "transparent");
    $("gamebuttons").hidden = true;
    return;
  }
  conn.textContent = "live";
  conn.className = "conn live";
  document.body.classList.remove("down");
  if (TT.wasDown || TT.sessionDown) { TT.wasDown = false; loadSession(); }
  const before = TT.snap;
  TT.snap = msg.snapshot;
  TT.counter = msg.counter;
  drawNow(TT.snap);
  drawStatus(TT.snap);
  drawChrome(TT.snap);
  drawRefusal(TT.snap);
  if (TT.drawVoice) TT.drawVoice(TT.snap);
  if (TT.drawResults) TT.drawResults(TT.snap);
  TT.seenOnce = true;
  if (before && (before.game !== TT.snap.game || before.over !== TT.snap.over)) {
    notice("");  // an answer about the last game is no news about this one
    if (TT.snap.game) window.scrollTo(0, 0);
  }
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
    h("option", { value: "admin" }, "Parent cards"), h("option", { value: "game" }, "Game cards"),
    h("option", { value: "voice" }, "Voice cards (louder, quieter, mute, say again)"));
  drawSetupOptions();
  if (TT.snap) { drawNow(TT.snap); drawChrome(TT.snap); }
}

// An option with two choices is a switch (on: the other choice than the default); one with more
// is a list; a free value (a list of teams, say) is set in the table's config, not here.
function drawSetupOptions() {
  const game = GAMES[$("setup-game").value];
  if (!game) return;
  $("setup-players").placeholder = game.hint || "ana, ben";
  const fields = optionFields(game);
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
  if (question && !window.confirm(question)) return null;
  const { status, data } = await post(path, {});
  toast(status === 200 ? done : data.error);
  return status === 200 ? data : null;
}

// An answer to this phone's own action that must stay until read (what to put back after an
// undo): under the buttons that asked, until the next action.
function notice(text) {
  const box = $("notice");
  box.hidden = !text;
  box.textContent = text || "";
}
TT.notice = notice;

// Undo asks first, then shows what the table said: which move was taken back and what to put
// back on the table by hand (the voice says the same).
async function undo() {
  if (!window.confirm("Take back the last move? The table then says what to put back.")) return;
  const { status, data } = await post("/api/undo", {});
  if (status !== 200) { notice(data.error); return; }
  const said = (data.events || []).join(" ");
  notice(data.accepted === false ? `✗ ${data.message}` : said || "The last move is taken back.");
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
      // a parent's line first; the maker's words folded under it
      $("findings").replaceChildren(...data.findings.map((f) => h("li", { class: f.status },
        h("strong", {}, `${mark[f.status] || "?"} ${f.said || f.device}`),
        h("details", { class: "maker" }, h("summary", {}, "for the maker"),
          h("p", {}, `${f.device}: ${f.detail}`)))));
    } finally {
      button.disabled = false;
    }
  });
  $("enrol-stop").addEventListener("click", () => simple("/api/enrol/stop", null, "Enrolment stopped."));
  $("undo").addEventListener("click", undo);
  $("abandon").addEventListener("click", () =>
    simple("/api/abandon", "Abandon this game? It cannot be resumed.", "The game is abandoned."));
  drawSetupOptions();
  loadSession();
}

document.addEventListener("DOMContentLoaded", init);
