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
  // the words of the page's language (GET /api/words): messages by domain, the plural table
  words: { language: "en", messages: {}, plural: null, languages: [] },
});

// -- words: every sentence in the page's language (docs/LANGUAGES.md) -------------------------

// A message by its English: the page's own first, then the domain asked for (a game's, for its
// title and options), then the game on the table (its view's sentences), then any; undefined
// when untranslated, so the English is said.
function lookup(key, domain) {
  const all = TT.words.messages || {};
  const order = [domain, "page", TT.snap && TT.snap.game, ...Object.keys(all)];
  for (const d of order) if (d && all[d] && Object.hasOwn(all[d], key)) return all[d][key];
  return undefined;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)s/g, (whole, k) => (Object.hasOwn(params, k) ? String(params[k]) : whole));
}

// The form a count takes in this language, from the server's table (n in 0..199; a larger n
// takes the form of 100 + its last two digits, as every gettext rule does).
function pluralForm(n) {
  const table = TT.words.plural;
  if (!table) return n === 1 ? 0 : 1;
  const k = Math.abs(Math.trunc(n));
  return table[k < table.length ? k : 100 + (k % 100)];
}

TT.t = (msgid, params) => {
  const text = lookup(msgid);
  return fill(typeof text === "string" ? text : msgid, params);
};
TT.tn = (singular, plural, n, params) => {
  const forms = lookup(singular);
  const all = { ...(params || {}), n };
  if (Array.isArray(forms)) return fill(forms[pluralForm(n)] ?? forms[forms.length - 1], all);
  return fill(n === 1 ? singular : plural, all);
};
// A game's own words (its title, option sentences, choice labels): its catalog first.
TT.tg = (game, msgid, params) => {
  const text = lookup(msgid, game);
  return fill(typeof text === "string" ? text : msgid, params);
};

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
  const say = (text) => TT.tg(game.name, text);
  return game.options.filter((o) => o.choices.length >= 2).map((o) => {
    if (o.choices.length === 2 && typeof o.default === "boolean") {
      return h("label", { title: say(o.help) }, h("input", { type: "checkbox", name: o.name,
        checked: o.default }), say(o.help));
    }
    return h("label", {}, `${say(o.help)} `, h("select", { name: o.name },
      ...o.choices.map((c, i) => h("option", { value: String(c), selected: c === o.default },
        say(o.labels[i])))));
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
    headers: { "Content-Type": "application/json", "X-CSRF-Token": TT.session.csrf,
      "X-Tabletap-Language": TT.words.language },
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
  // TRANSLATORS: a short message on the phone page when the table refused without a reason
  if (status !== 200) { toast(data.error || TT.t("The table refused this.")); return data; }
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
      // TRANSLATORS: the phone page of a table that shows its game only to paired phones
      TT.t("This table shows its game only to paired phones: pair this phone below.")));
    // TRANSLATORS: the top line of the phone page, on a table that shows only paired phones
    $("now-line").textContent = TT.t("Pair this phone to see the game.");
  }
  return TT.session;
}

// Pairing is numeric comparison (docs/WEB.md): the daemon draws a code of four dice faces when
// this phone's window opens; the page shows it here, the table says it and shows it on its
// lights, and the parent taps the parent card only if the two match. The code appears only in
// this box and only for this phone's own request: never from the snapshot, where a stranger's
// window would put the table's code on every phone.
const CODE_COLOURS = ["green", "yellow", "purple", "cyan"];  // pairing.CODE_COLOURS
// each tile's colour said under it, as the table's lights show it
const CODE_COLOUR_WORDS = () => [
  // TRANSLATORS: the colour of the first tile of the pairing code (the light shows it)
  TT.t("green"),
  // TRANSLATORS: the colour of the second tile of the pairing code
  TT.t("yellow"),
  // TRANSLATORS: the colour of the third tile of the pairing code
  TT.t("purple"),
  // TRANSLATORS: the colour of the fourth tile of the pairing code
  TT.t("cyan")];
let pairPoll = null;
let pairShown = "";

function codeTiles(code) {
  return h("ol", { id: "pair-code", class: "code", "data-code": code,
    // TRANSLATORS: read aloud by a screen reader; code is four digits with spaces between
    "aria-label": TT.t("The code: %(code)s", { code: code.split("").join(" ") }) },
  ...code.split("").map((d, i) => h("li", { class: `code-${i}` },
    h("b", {}, d),
    h("span", { class: "pips", "aria-hidden": "true" },
      ...Array.from({ length: Number(d) }, () => h("i"))),
    h("small", { "data-colour": CODE_COLOURS[i] }, CODE_COLOUR_WORDS()[i]))));
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
    const wait = Math.round(s.seconds_until);
    box.replaceChildren(
      h("p", { id: "pair-wait", class: "turn" },
        // TRANSLATORS: on the phone page while another phone pairs; n is the seconds to wait
        ...withCount(TT.tn("Another device is pairing at the table right now. This phone is "
          + "next, in about %(n)s second.", "Another device is pairing at the table right now. "
          + "This phone is next, in about %(n)s seconds.", wait), wait)),
      h("p", { id: "pair-hold", class: "pairwarn" },
        // TRANSLATORS: on the phone page while another phone pairs
        TT.t("Do not tap the parent card yet: wait until a code shows here.")));
    return;
  }
  const left = Math.round(s.seconds_left);
  box.replaceChildren(
    // TRANSLATORS: above the four tiles of the pairing code on the phone page
    h("p", { class: "muted" }, TT.t("This phone's code. The table says its code and shows it on its lights:")),
    codeTiles(s.code || ""),
    h("p", { id: "pair-wait", class: "turn" },
      // TRANSLATORS: under the pairing code; n is the seconds left to tap the parent card
      ...withCount(TT.tn("The same code at the table? Then tap the parent card at any reader "
        + "within %(n)s second.", "The same code at the table? Then tap the parent card at any "
        + "reader within %(n)s seconds.", left), left)),
    h("p", { id: "pair-differs", class: "pairwarn" },
      // TRANSLATORS: under the pairing code; Pair is the button "Pair this phone"
      TT.t("A different code at the table? Do not tap: another device is asking. Wait until it ends, then press Pair again.")));
}

// A sentence with its count drawn as #pair-left (the seconds, which change while the rest stays):
// the count's first appearance in the translated sentence becomes that element.
function withCount(sentence, n) {
  const at = sentence.indexOf(String(n));
  const count = h("strong", { id: "pair-left", text: String(n) });
  if (at < 0) return [sentence, " ", count];
  return [sentence.slice(0, at), count, sentence.slice(at + String(n).length)];
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
    // TRANSLATORS: a message on the phone page when pairing was refused without a reason
    const text = data.error || TT.t("The table refused to pair this phone.");
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
    // TRANSLATORS: a message on the phone page; Pair is the button "Pair this phone"
    else if (s.status === "gone") { toast(TT.t("This phone's turn to pair passed while the page was away. Press Pair again.")); }
    // TRANSLATORS: a message on the phone page when the pairing time ran out
    else { toast(TT.t("Nobody tapped the parent card in time: not paired. Try again.")); }
    await loadSession();
  }, 1000);
}

function drawControls() {
  const s = TT.session;
  const box = $("pairbox");
  if (s.paired) {
    const label = s.pairing ? s.pairing.label : null;
    let line;
    // TRANSLATORS: on the phone page just after pairing; label is the phone's name as typed
    if (TT.justPaired && label) line = TT.t("This phone is paired with the table as “%(label)s”: you may change the game.", { label });
    // TRANSLATORS: on the phone page just after pairing, for a phone without a name
    else if (TT.justPaired) line = TT.t("This phone is paired with the table: you may change the game.");
    // TRANSLATORS: on the phone page of a paired phone; label is the phone's name as typed
    else if (label) line = TT.t("Paired as “%(label)s”: you may change the game.", { label });
    // TRANSLATORS: on the phone page of a paired phone without a name
    else line = TT.t("This phone is paired: you may change the game.");
    box.replaceChildren(h("p", { id: "paired", class: TT.justPaired ? "good" : "muted" }, line));
    TT.justPaired = false;
  } else {
    box.replaceChildren(
      // TRANSLATORS: on the phone page of a phone that is not paired
      h("p", { class: "muted" }, TT.t("Watching. To set up games and enter moves, pair this phone.")),
      // TRANSLATORS: the label of the field where a phone is given a name before pairing
      h("label", {}, TT.t("This phone's name, for the list of paired phones"),
        // TRANSLATORS: an example name for a phone, shown greyed in the empty name field
        h("input", { id: "pair-name", autocomplete: "off", maxlength: "40", placeholder: TT.t("Ana's phone") })),
      // TRANSLATORS: the button that starts pairing a phone with the table
      h("button", { id: "pair", type: "button", onclick: startPairing }, TT.t("Pair this phone")));
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
    // TRANSLATORS: in the list of paired phones, this phone's own line; label is its name
    h("span", {}, p.id === mine ? TT.t("%(label)s, this phone", { label: p.label }) : p.label,
      h("br"), h("small", { class: "muted" }, new Date(p.created * 1000).toLocaleString(TT.words.language))),
    h("button", { type: "button", class: "danger", onclick: async () => {
      const question = p.id === mine
        // TRANSLATORS: asked before unpairing this very phone
        ? TT.t("Unpair this phone? It can change the game again only after pairing again with the parent card.")
        // TRANSLATORS: asked before unpairing another phone; label is that phone's name
        : TT.t("Unpair “%(label)s”? It can change the game again only after pairing again with the parent card.", { label: p.label });
      if (!window.confirm(question)) return;
      const { status, data: d } = await post(`/api/pairings/${encodeURIComponent(p.id)}/revoke`);
      // TRANSLATORS: a message after a phone was unpaired; label is its name
      toast(status === 200 ? TT.t("Unpaired “%(label)s”.", { label: d.revoked.label }) : d.error);
      await loadSession();
    } },
    // TRANSLATORS: the button beside a paired phone that takes its pairing away
    TT.t("Revoke")))));
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
    const title = setup && GAMES[setup] ? TT.tg(setup, GAMES[setup].title) : setup;
    // TRANSLATORS: the top line of the phone page while a game card's set-up is under way;
    // game is the game's title; end-turn is the table's end-turn button
    text = setup ? TT.t("Setting up %(game)s: each player taps a piece of theirs, then hold end-turn.", { game: title })
      // TRANSLATORS: the top line of the phone page of a paired phone with no game on the table
      : TT.session.paired ? TT.t("No game yet: tap a game card at the table, or start one here.")
        // TRANSLATORS: the top line of the phone page with no game on the table
        : TT.t("No game yet: tap a game card at the table to choose one.");
  } else if (snap.over) {
    text = winnersLine(snap.winners);
  } else {
    // a view that knows what its game waits for says it (TT.views[game].now), else the turn
    const view = TT.views[snap.game];
    const said = view && view.now ? view.now(snap) : null;
    // TRANSLATORS: the top line of the phone page; player is a name as entered
    text = said || (who ? TT.t("%(player)s: your turn", { player: who }) : "");
  }
  line.textContent = text;
  const seat = snap.players.indexOf(who);
  line.style.setProperty("--who", who && seat >= 0 && !snap.over ? colourOf(snap, who, seat) : "transparent");
  $("said").replaceChildren(...snap.log.slice(-3).reverse().map((l) => h("li", {}, l.text)));
}

// Names listed in the language's own way ("Ana and Ben", "Ana und Ben"; "or" for a choice).
function listed(names, style) {
  try {
    return new Intl.ListFormat(TT.words.language,
      { type: style === "or" ? "disjunction" : "conjunction" }).format(names);
  } catch (e) {
    return names.join(", ");
  }
}
TT.listed = listed;
TT.join = listed;

function winnersLine(winners) {
  // TRANSLATORS: the top line when a game ends in a draw
  if (!winners.length) return TT.t("Nobody wins.");
  // TRANSLATORS: the top line when a game ends; players is one name or a list of names
  return TT.tn("%(players)s wins!", "%(players)s win!", winners.length, { players: listed(winners) });
}
TT.winnersLine = winnersLine;

// The scores at a glance; no box at all while no game is on the table.
function drawStatus(snap) {
  $("title").textContent = snap.title ? TT.tg(snap.game, snap.title) : snap.game || "tabletap";
  const box = $("status");
  box.hidden = !snap.game;
  if (!snap.game) { box.replaceChildren(); return; }
  const pending = snap.last && snap.last.pending ? h("p", { class: "muted" }, `… ${snap.last.pending}`) : null;
  const pairing = snap.pairing && snap.pairing.waiting
    ? h("p", { class: "muted" },
      // TRANSLATORS: on the phone page while some phone is asking to pair
      TT.t("A phone is asking to pair: only its owner taps the parent card, when its code matches the table's.")) : null;
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
    // TRANSLATORS: the heading of the box that shows why the table refused a move
    box.replaceChildren(h("strong", {}, TT.t("Not accepted")), h("span", { id: "refusal-text" }, r.message));
    clearTimeout(refusalShown.timer);
    refusalShown.timer = setTimeout(hide, REFUSAL_SECONDS * 1000);
    return;
  }
  if (snap.actions !== refusalShown.actions || snap.game !== refusalShown.game) hide();
}

// A piece as a parent looks for it in the box: the daemon says its words (the game's own, from
// its spec); parent and game cards are the table's own.
// The whole line is one sentence for the catalog (a language's article and case are its own).
function friendly(piece, words) {
  const parts = piece.split("/");
  // TRANSLATORS: while enrolling, the next tag to tap; n is the parent card's number
  if (parts[0] === "admin") return TT.t("Tap parent card %(n)s", { n: parts[1] });
  if (parts[0] === "game") {
    const game = GAMES[parts[1]];
    // TRANSLATORS: while enrolling, the next tag to tap; game is a game's title
    return TT.t("Tap the %(game)s game card", { game: game ? TT.tg(game.name, game.title) : parts[1].replace(/-/g, " ") });
  }
  if (parts[0] === "voice") return voiceCard(parts[1]);
  // the daemon's words are English ("red domino 4"), said with an article as they were
  let thing = words || parts.slice(1).join(" ").replace(/-/g, " ");
  if (TT.words.language === "en" && !thing.startsWith("the ")) thing = `the ${thing}`;
  // TRANSLATORS: while enrolling, the next tag to tap; piece is the game's own name for it
  return TT.t("Tap %(piece)s", { piece: thing });
}
TT.friendly = friendly;

function voiceCard(which) {
  const cards = {
    // TRANSLATORS: while enrolling the voice cards, the next one to tap
    louder: () => TT.t("Tap the louder voice card"),
    // TRANSLATORS: while enrolling the voice cards, the next one to tap
    quieter: () => TT.t("Tap the quieter voice card"),
    // TRANSLATORS: while enrolling the voice cards, the next one to tap
    mute: () => TT.t("Tap the mute voice card"),
    // TRANSLATORS: while enrolling the voice cards, the next one to tap
    repeat: () => TT.t("Tap the say-again voice card"),
  };
  // TRANSLATORS: while enrolling the voice cards, the next one to tap (another card)
  return cards[which] ? cards[which]() : TT.t("Tap the next voice card");
}

function drawEnrolment(snap) {
  const e = snap.enrolment;
  const box = $("enrol-progress");
  if (!e) { box.replaceChildren(); return; }
  const box_ = boxName(e.game);
  const count = { done: e.done, total: e.total, box: box_ };
  let line;
  // TRANSLATORS: while enrolling; tap is "Tap ..." (the next tag); done and total are counts
  if (e.active) line = TT.t("%(tap)s … %(done)s of %(total)s done", { ...count, tap: friendly(e.next, snap.enrolment_words) });
  // TRANSLATORS: after enrolling every tag of a box; box is its name (a game, parent cards)
  else if (e.done === e.total) line = TT.t("%(box)s: %(done)s of %(total)s enrolled, all done", count);
  // TRANSLATORS: after enrolling was stopped early; box is its name; done and total are counts
  else line = TT.t("%(box)s: %(done)s of %(total)s enrolled, then stopped", count);
  box.replaceChildren(
    h("progress", { max: String(e.total), value: String(e.done) }),
    h("p", { id: "enrol-line", class: "turn" }, line),
    e.last ? h("p", { class: "muted" }, e.last) : null);
  if (e.active) $("enrol").open = true;
}

// A box of tags by its name in the enrol list.
function boxName(name) {
  const game = GAMES[name];
  if (game) return TT.tg(name, game.title);
  // TRANSLATORS: a box of tags in the enrol list
  if (name === "admin") return TT.t("Parent cards");
  // TRANSLATORS: a box of tags in the enrol list
  if (name === "game") return TT.t("Game cards");
  // TRANSLATORS: a box of tags in the enrol list
  if (name === "voice") return TT.t("Voice cards: louder, quieter, mute, say again");
  return name;
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
    snap.scores, snap.actions, snap.view, snap.extra, TT.session.paired, TT.words.language]);
  if (!force && key === drawnKey) return;
  drawnKey = key;
  const ctx = { paired: TT.session.paired, act, post, toast, h, colourOf };
  const fresh = document.createDocumentFragment();
  const holder = h("div", { class: "board" });
  fresh.append(holder);
  try {
    view.render(holder, snap, ctx);
  } catch (e) {
    // TRANSLATORS: in place of a game's board when its drawing failed (a fault for the maker)
    holder.replaceChildren(h("p", { class: "refusal" }, TT.t("The board could not be drawn. Reload the page.")));
    console.error(e);
  }
  board.replaceChildren(...holder.childNodes);
}
TT.redraw = () => TT.snap && drawBoard(TT.snap, true);

// The daemon off or restarting is said once, in words; the page keeps the pairing and the last
// board (dimmed) and comes back by itself: the event stream reconnects, and the session is
// asked again once the table answers.
// TRANSLATORS: the top line of the phone page while the table is off or restarting
const DOWN = () => TT.t("The table is off or restarting. This page comes back by itself when it answers.");

function show(msg) {
  const conn = $("conn");
  if (msg.down) {
    // TRANSLATORS: the small badge at the page's top while the table does not answer
    conn.textContent = TT.t("table off");
    conn.className = "conn down";
    TT.wasDown = true;
    document.body.classList.add("down");
    $("now-line").textContent = DOWN();
    $("now-line").style.setProperty("--who", "transparent");
    $("gamebuttons").hidden = true;
    return;
  }
  // TRANSLATORS: the small badge at the page's top while the page follows the table live
  conn.textContent = TT.t("live");
  conn.className = "conn live";
  document.body.classList.remove("down");
  if (TT.wasDown || TT.sessionDown) { TT.wasDown = false; loadSession(); }
  const before = TT.snap;
  TT.snap = msg.snapshot;
  TT.counter = msg.counter;
  followTable(TT.snap);
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
  const lang = TT.chosenLanguage();
  const es = (stream = new EventSource(lang ? `/api/stream?lang=${encodeURIComponent(lang)}` : "/api/stream"));
  es.addEventListener("state", (ev) => show(JSON.parse(ev.data)));
  es.onerror = () => {
    // TRANSLATORS: the small badge at the page's top while the page reconnects to the table
    $("conn").textContent = TT.t("reconnecting…");
    $("conn").className = "conn";
  };
}

// Listening again, in the language the phone now has (the server says the sentences in it).
function listenAgain() {
  if (!stream) return;
  stream.close();
  stream = null;
  listen();
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
  drawGameLists();
  if (TT.snap) { drawNow(TT.snap); drawChrome(TT.snap); }
}

// The games in the set-up and enrol lists, by their titles in the page's language.
function drawGameLists() {
  const chosen = [$("setup-game").value, $("enrol-game").value];
  $("setup-game").replaceChildren(...Object.values(GAMES).map((g) =>
    h("option", { value: g.name }, TT.tg(g.name, g.title))));
  $("enrol-game").replaceChildren(
    ...Object.values(GAMES).map((g) => h("option", { value: g.name },
      // TRANSLATORS: a game's box in the enrol list, for a game with two decks; game is its title
      g.decks ? TT.t("%(game)s, red and blue decks", { game: TT.tg(g.name, g.title) }) : TT.tg(g.name, g.title))),
    ...["admin", "game", "voice"].map((b) => h("option", { value: b }, boxName(b))));
  if (chosen[0] && GAMES[chosen[0]]) $("setup-game").value = chosen[0];
  if (chosen[1]) $("enrol-game").value = chosen[1];
  drawSetupOptions();
  if (TT.snap) { drawNow(TT.snap); drawChrome(TT.snap); }
}

// An option with two choices is a switch (on: the other choice than the default); one with more
// is a list; a free value (a list of teams, say) is set in the table's config, not here.
function drawSetupOptions() {
  const game = GAMES[$("setup-game").value];
  if (!game) return;
  $("setup-players").placeholder = game.hint ? TT.tg(game.name, game.hint) : TT.t("ana, ben");
  const fields = optionFields(game);
  // TRANSLATORS: the heading of a game's options in the set-up form
  $("setup-options").replaceChildren(h("legend", {}, TT.t("Options")), ...fields);
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
  // TRANSLATORS: a message on the phone page after starting a game; game is its title
  toast(status === 200 ? TT.t("A new game of %(game)s begins.", { game: TT.tg(game, GAMES[game].title) }) : data.error);
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
  // TRANSLATORS: asked on the phone page before undoing the last move
  if (!window.confirm(TT.t("Take back the last move? The table then says what to put back."))) return;
  const { status, data } = await post("/api/undo", {});
  if (status !== 200) { notice(data.error); return; }
  const said = (data.events || []).join(" ");
  // TRANSLATORS: on the phone page after an undo the table said nothing about
  notice(data.accepted === false ? `✗ ${data.message}` : said || TT.t("The last move is taken back."));
}

function init() {
  // TRANSLATORS: a message on the phone page when it could not read the installed games
  loadGames().catch(() => toast(TT.t("The list of games could not be read; reload the page.")));
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
    // TRANSLATORS: while the table checks itself, started from the phone page
    $("doctor-summary").textContent = TT.t("Checking… With no game under way the chest moves a little and the lights flash.");
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
        // TRANSLATORS: folds away the technical words of a finding of the table's check
        h("details", { class: "maker" }, h("summary", {}, TT.t("for the maker")),
          h("p", {}, `${f.device}: ${f.detail}`)))));
    } finally {
      button.disabled = false;
    }
  });
  // TRANSLATORS: a message on the phone page after enrolling was stopped
  $("enrol-stop").addEventListener("click", () => simple("/api/enrol/stop", null, TT.t("Enrolment stopped.")));
  $("undo").addEventListener("click", undo);
  $("abandon").addEventListener("click", () =>
    // TRANSLATORS: asked on the phone page before abandoning the game under way
    simple("/api/abandon", TT.t("Abandon this game? It cannot be resumed."),
      // TRANSLATORS: a message on the phone page after the game was abandoned
      TT.t("The game is abandoned.")));
  $("language").addEventListener("change", () => chooseLanguage($("language").value));
  drawSetupOptions();
  loadSession();
}

// -- the page's language -------------------------------------------------------------------------

// A phone follows the table's language unless it chose one for itself (the menu at the foot),
// which only this phone remembers.
const LANGUAGE_KEY = "tabletap-language";
TT.chosenLanguage = () => window.localStorage.getItem(LANGUAGE_KEY) || "";

async function loadWords(lang) {
  const res = await fetch(`/api/words?lang=${encodeURIComponent(lang)}`, { credentials: "same-origin" });
  if (!res.ok) return false;
  TT.words = await res.json();
  document.documentElement.lang = TT.words.language;
  drawStatic();
  drawLanguageMenu();
  return true;
}

// The English of index.html's data-t texts, written out as calls so that Babel extracts them
// into the page's catalog (tests/web/test_words.py checks that each data-t is there).
function staticTexts() {
  return [
    // TRANSLATORS: the small badge at the page's top while the page first reaches the table
    TT.t("connecting…"),
    // TRANSLATORS: read by a screen reader: the list of the table's last sentences
    TT.t("What the table said last"),
    // TRANSLATORS: a button: the table says its last sentence again
    TT.t("Say again"),
    // TRANSLATORS: a button: the table's voice quieter
    TT.t("Quieter"),
    // TRANSLATORS: a button: the table's voice louder
    TT.t("Louder"),
    // TRANSLATORS: the heading of the start screen, where a game is chosen
    TT.t("Start a game"),
    // TRANSLATORS: the label of the field where the players' names are typed, commas between
    TT.t("Players, youngest first"),
    // TRANSLATORS: the heading of a game's options in the set-up form
    TT.t("Options"),
    // TRANSLATORS: the button that starts the chosen game
    TT.t("Start the game"),
    // TRANSLATORS: a button: take back the last move
    TT.t("Undo last move"),
    // TRANSLATORS: a button: end the game under way without a winner
    TT.t("Abandon game"),
    // TRANSLATORS: the heading of the list of everything the table said in this game
    TT.t("Play-by-play"),
    // TRANSLATORS: a folded section of the page for setting up a game by hand
    TT.t("Set up a new game"),
    // TRANSLATORS: the label of the list of games in the set-up form
    TT.t("Game"),
    // TRANSLATORS: a folded section of the page for teaching the table new tags (enrolling)
    TT.t("Enrol a box of tags"),
    // TRANSLATORS: how enrolling works, under its heading
    TT.t("Every tag tapped at any reader becomes the next piece of the box; the game ignores taps until the box is done or you stop."),
    // TRANSLATORS: the label of the list of boxes of tags to enrol
    TT.t("Box"),
    // TRANSLATORS: a button: start enrolling the chosen box of tags
    TT.t("Start enrolling"),
    // TRANSLATORS: a button: stop enrolling
    TT.t("Stop"),
    // TRANSLATORS: a folded section of the page where the table checks its own devices
    TT.t("Check the table"),
    // TRANSLATORS: what the table's check does, under its heading
    TT.t("The table checks itself: every reader, the room left for saved games and, while no game is under way, the chest, which moves a little, the lights in red, green and blue, and the buttons."),
    // TRANSLATORS: a button: run the table's check
    TT.t("Check now"),
    // TRANSLATORS: a folded section of the page listing the phones paired with the table
    TT.t("Paired phones"),
    // TRANSLATORS: the label of the language menu at the page's foot
    TT.t("Language"),
    // TRANSLATORS: an example of the players' names, shown greyed in the empty field
    TT.t("ana, ben"),
  ];
}
TT.staticTexts = staticTexts;

// index.html's own texts: each element's data-t (data-t-placeholder, data-t-label for its
// placeholder and aria-label) is the English, said in the page's language.
function drawStatic() {
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = TT.t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = TT.t(el.dataset.tPlaceholder);
  for (const el of document.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", TT.t(el.dataset.tLabel));
}

function drawLanguageMenu() {
  const menu = $("language");
  const chosen = TT.chosenLanguage();
  const table = (TT.snap && TT.snap.language) || TT.session.language;
  const tableName = (TT.words.languages.find((l) => l.code === table) || {}).name;
  menu.replaceChildren(
    // TRANSLATORS: the first choice of the language menu; language is the table's, in itself
    h("option", { value: "" }, tableName ? TT.t("As the table: %(language)s", { language: tableName })
      // TRANSLATORS: the first choice of the language menu, before the table's is known
      : TT.t("As the table")),
    ...TT.words.languages.map((l) => h("option", { value: l.code, lang: l.code }, l.name)));
  menu.value = chosen;
}

// The page's language: the phone's own choice, else the table's (else English).
function pageLanguage() {
  return TT.chosenLanguage() || (TT.snap && TT.snap.language) || TT.session.language || "en";
}

// Everything drawn again in the page's language.
async function redrawIn(lang) {
  if (!(await loadWords(lang))) return;
  drawGameLists();
  drawControls();
  if (TT.snap) {
    drawNow(TT.snap);
    drawStatus(TT.snap);
    drawRefusal(TT.snap);
    if (TT.drawResults) TT.drawResults(TT.snap);
    drawEnrolment(TT.snap);
    drawBoard(TT.snap, true);
  }
}

async function chooseLanguage(code) {
  if (code) window.localStorage.setItem(LANGUAGE_KEY, code);
  else window.localStorage.removeItem(LANGUAGE_KEY);
  await redrawIn(pageLanguage());
  listenAgain();  // the play-by-play said again in it
}

// The table changed its language (or the first snapshot told it): a phone that follows the
// table follows it.
function followTable(snap) {
  if (TT.chosenLanguage() || !snap.language || snap.language === TT.words.language) return;
  redrawIn(snap.language);
}

async function start() {
  const session = await fetch("/api/session", { credentials: "same-origin" }).then((r) => r.json()).catch(() => ({}));
  TT.session.language = session.language;
  await loadWords(pageLanguage()).catch(() => false);
  init();
}

document.addEventListener("DOMContentLoaded", start);
