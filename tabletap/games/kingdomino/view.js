// Kingdomino: the kingdoms as grids, the lines of dominoes, and the moves made by touch. Every
// move is sent as the console's action (claim, place, discard, orient); the daemon's snapshot
// lists the legal ones, so this file knows no rule: it highlights what the engine allows.
"use strict";
(() => {
  const { h, svg } = window.TT;
  const TT = window.TT;  // TT.t, TT.tn: every sentence in the page's language (docs/LANGUAGES.md)
  const FACINGS = ["east", "south", "west", "north"];
  const STEP = { east: [0, 1], south: [1, 0], west: [0, -1], north: [-1, 0] };
  const ARROW = { east: "→", south: "↓", west: "←", north: "↑" };
  const ui = { key: "", facing: "east", at: null, gem: null, turns: 0 };

  const crowns = (n) => (n ? h("span", { class: "crowns" }, "♛".repeat(n)) : null);
  // A landscape's name, and the letter drawn on its squares, in the page's language.
  const LAND_WORDS = {
    wheat: () => [
      // TRANSLATORS: a landscape of Kingdomino, as the printed game names it
      TT.t("wheat field"),
      // TRANSLATORS: the letter drawn on every wheat field square (its name's first letter)
      TT.t("W")],
    forest: () => [
      // TRANSLATORS: a landscape of Kingdomino, as the printed game names it
      TT.t("forest"),
      // TRANSLATORS: the letter drawn on every forest square (its name's first letter)
      TT.t("F")],
    lake: () => [
      // TRANSLATORS: a landscape of Kingdomino, as the printed game names it
      TT.t("lake"),
      // TRANSLATORS: the letter drawn on every lake square (its name's first letter)
      TT.t("L")],
    grassland: () => [
      // TRANSLATORS: a landscape of Kingdomino, as the printed game names it
      TT.t("grassland"),
      // TRANSLATORS: the letter drawn on every grassland square (its name's first letter)
      TT.t("G")],
    swamp: () => [
      // TRANSLATORS: a landscape of Kingdomino, as the printed game names it
      TT.t("swamp"),
      // TRANSLATORS: the letter drawn on every swamp square (its name's first letter)
      TT.t("S")],
    mine: () => [
      // TRANSLATORS: a landscape of Kingdomino, as the printed game names it
      TT.t("mine"),
      // TRANSLATORS: the letter drawn on every mine square (its name's first letter)
      TT.t("M")],
  };
  const landName = (t) => (LAND_WORDS[t] ? LAND_WORDS[t]()[0] : t);
  const landLetter = (t) => (LAND_WORDS[t] ? LAND_WORDS[t]()[1] : "");
  // A landscape square's name with its crowns: "forest, 2 crowns".
  const landTitle = (t, n) => (n
    // TRANSLATORS: a square's title on the page; land is a landscape, n its crowns
    ? TT.tn("%(land)s, %(n)s crown", "%(land)s, %(n)s crowns", n, { land: landName(t) })
    : landName(t));
  // A gem by its name in the page's language (treasures.yaml, sent in the extras).
  const gemName = (snap, token) => {
    const names = (snap.extra.gem_names || {})[String(token).split("/")[0]] || {};
    return names[window.TT.words.language] || names.en || String(token).split("/")[0];
  };
  const gemList = (snap, tokens) => TT.join(tokens.map((x) => gemName(snap, x)));
  const listOf = (items) => {  // "ana and ben", the page's language's way
    try {
      return new Intl.ListFormat(window.TT.words.language, { type: "conjunction" }).format(items);
    } catch (e) {
      return items.join(", ");
    }
  };
  // Each landscape has its letter and pattern as well as its colour (view.css), so forest and
  // grassland, swamp and mine are told apart without colour (defect 10).
  const square = (terrain, n, extra) =>
    h("div", { class: `cell ${terrain} ${extra || ""}`, "data-land": terrain,
      "data-letter": landLetter(terrain), title: landTitle(terrain, n) }, crowns(n));

  function domino(snap, n) {
    const faces = snap.extra.dominoes[String(n)];
    // TRANSLATORS: a domino by the number printed on its back; n is that number
    return h("div", { class: "domino", "aria-label": TT.t("domino %(n)s", { n }) },
      faces ? faces.map(([t, c]) => square(t, c)) : []);
  }

  function lineRow(snap, ctx, slots, claimable) {
    return h("div", { class: "line" }, slots.map((s) => {
      const owner = s.king ? snap.view.kings[s.king] : null;
      const inner = [h("span", { class: "who" }, `#${s.domino}`), domino(snap, s.domino),
        h("span", { class: "who" }, owner
          ? [h("span", { class: "swatch", css: { background: ctx.colourOf(snap, owner, snap.players.indexOf(owner)) } }), owner]
          // TRANSLATORS: the page's line of dominoes: a domino a king may be put on now
          : claimable.has(s.domino) ? TT.t("claim")
            // TRANSLATORS: the page's line of dominoes: a domino no king stands on
            : TT.t("free"))];
      if (claimable.has(s.domino) && ctx.paired) {
        return h("button", { type: "button", class: "slot claimable", "data-domino": s.domino,
          onclick: () => ctx.act({ action: "claim", domino: s.domino }) }, inner);
      }
      return h("div", { class: "slot", "data-domino": s.domino }, inner);
    }));
  }

  const key = (r, c) => `${r},${c}`;

  // -- a kingdom drawn as the real thing looks: squares of landscape round the castle ----------
  // (SVG; while its owner places a domino it is the touchable grid below instead). Each
  // landscape has its colour, its pattern and its letter; crowns are drawn on the square; the
  // squares new since the last picture (the domino just placed) are outlined in yellow.
  const LAND = { wheat: ["#e3b92c", "W", "#14171a"], forest: ["#1f5c2a", "F", "#fff"],
    lake: ["#2466b8", "L", "#fff"], grassland: ["#7dbb3c", "G", "#14171a"],
    swamp: ["#6b5a3e", "S", "#fff"], mine: ["#3b3b3b", "M", "#fff"], castle: ["#d9d4c7", "", "#14171a"] };
  const SQ = 40;
  const lastCells = {};  // player -> the cells of the last picture

  function patterns() {  // the same patterns as the grid's (view.css), for colour-blind eyes
    const p = (id, ...shapes) => svg("pattern", { id, width: "8", height: "8", patternUnits: "userSpaceOnUse" }, ...shapes);
    const line = (d, colour) => svg("path", { d, stroke: colour, "stroke-width": "2" });
    return svg("defs", {},
      p("kd-wheat", line("M 2 0 V 8", "rgba(0,0,0,.2)")),
      p("kd-forest", line("M 0 8 L 8 0", "rgba(255,255,255,.25)")),
      p("kd-lake", line("M 0 4 H 8", "rgba(255,255,255,.28)")),
      p("kd-grassland", svg("circle", { cx: "4", cy: "4", r: "1.5", fill: "rgba(0,0,0,.25)" })),
      p("kd-swamp", line("M 0 8 L 8 0", "rgba(255,255,255,.2)"), line("M 0 0 L 8 8", "rgba(255,255,255,.2)")),
      p("kd-mine", svg("rect", { x: "0", y: "0", width: "4", height: "4", fill: "rgba(255,255,255,.16)" }),
        svg("rect", { x: "4", y: "4", width: "4", height: "4", fill: "rgba(255,255,255,.16)" })));
  }

  function castleShape(x, y) {
    return svg("path", { class: "castlemark", d: `M ${x + 10} ${y + 32} V ${y + 14} h 4 v -5 h 4 v 5 h 4 v -5 h 4 v 5 h 4 v -5 h 4 v 5 h -4 V ${y + 32} Z`,
      fill: "#4a5158" });
  }

  function kingdomSvg(snap, player) {
    const cells = snap.extra.kingdoms[player];
    const before = lastCells[player];
    lastCells[player] = new Set(cells.map(([r, c, t, n]) => `${r},${c},${t},${n}`));
    const fresh = before ? cells.filter(([r, c, t, n]) => !before.has(`${r},${c},${t},${n}`)) : [];
    const rows = cells.map((x) => x[0]), cols = cells.map((x) => x[1]);
    const r0 = Math.min(...rows), r1 = Math.max(...rows), c0 = Math.min(...cols), c1 = Math.max(...cols);
    const w = (c1 - c0 + 1) * SQ, hgt = (r1 - r0 + 1) * SQ;
    const gems = new Map((snap.view.kingdoms[player].gems || []).map((g) => [key(g.corner[0], g.corner[1]), g.token]));
    const pic = svg("svg", { class: "kingdomsvg", viewBox: `-4 -4 ${w + 8} ${hgt + 8}`,
      // TRANSLATORS: the picture of a player's kingdom (for screen readers); player is a name
      "data-player": player, role: "img", "aria-label": TT.t("%(player)s's kingdom", { player }) },
    patterns());
    pic.style.maxWidth = `${Math.min(100, (c1 - c0 + 1) * 20)}%`;  // CSSOM: the CSP allows it
    for (const [r, c, t, n] of cells) {
      const x = (c - c0) * SQ, y = (r - r0) * SQ;
      const [fill, , ink] = LAND[t] || ["#ebe7dd", "?", "#14171a"];
      const letter = landLetter(t);
      const g = svg("g", { class: "sq", "data-at": `${r},${c}` },
        // TRANSLATORS: the castle's square in the picture of a kingdom
        svg("title", {}, t === "castle" ? TT.t("castle") : landTitle(t, n)),
        svg("rect", { class: `cell ${t}`, "data-land": t, x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, rx: "3", fill }));
      if (t !== "castle") {
        g.append(svg("rect", { x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, rx: "3", fill: `url(#kd-${t})` }));
        g.append(svg("text", { x: x + 5, y: y + 13, class: "letter", fill: ink }, letter));
      } else {
        g.append(castleShape(x, y));
      }
      for (let i = 0; i < n; i++) {  // crowns along the bottom
        g.append(svg("text", { x: x + 8 + i * 11, y: y + 34, class: "crown", fill: ink }, "♛"));
      }
      if (gems.has(key(r, c))) {
        g.append(svg("path", { class: "gemmark", d: `M ${x + SQ} ${y + SQ - 8} l 7 8 l -7 8 l -7 -8 Z`, fill: "#c2185b", stroke: "#fff" }));
      }
      pic.append(g);
    }
    for (const [r, c] of fresh) {
      pic.append(svg("rect", { class: "justnow", x: (c - c0) * SQ + 2, y: (r - r0) * SQ + 2, width: SQ - 4, height: SQ - 4, rx: "4" }));
    }
    return pic;
  }

  function kingdomGrid(snap, ctx, player, places) {
    const cells = new Map(snap.extra.kingdoms[player].map(([r, c, t, n]) => [key(r, c), [t, n]]));
    const pts = [...snap.extra.kingdoms[player].map(([r, c]) => [r, c])];
    const acting = places !== null;
    const faces = acting ? snap.extra.dominoes[String(places.domino)] : null;
    const targets = new Map(); // first-half cell -> placement, for the chosen facing
    if (acting) {
      for (const p of places.list) {
        const [dr, dc] = STEP[p.facing];
        pts.push(p.at, [p.at[0] + dr, p.at[1] + dc]);
        if (p.facing === ui.facing) targets.set(key(p.at[0], p.at[1]), p);
      }
    }
    const ghost = new Map();
    if (acting && ui.at && targets.has(key(ui.at[0], ui.at[1]))) {
      const [dr, dc] = STEP[ui.facing];
      ghost.set(key(ui.at[0], ui.at[1]), faces[0]);
      ghost.set(key(ui.at[0] + dr, ui.at[1] + dc), faces[1]);
    }
    const gems = new Set((snap.view.kingdoms[player].gems || []).map((g) => key(g.corner[0], g.corner[1])));
    if (acting || snap.turn === player) {
      for (const c of (snap.view.treasures && snap.view.treasures.pending) || []) gems.add(key(c[0], c[1]));
    }
    const rows = pts.map((p) => p[0]), cols = pts.map((p) => p[1]);
    let r0 = Math.min(...rows), r1 = Math.max(...rows), c0 = Math.min(...cols), c1 = Math.max(...cols);
    const size = snap.extra.size;
    if (!acting) { // a little room round a small kingdom, never past its final size
      if (r1 - r0 + 3 <= size) { r0 -= 1; r1 += 1; }
      if (c1 - c0 + 3 <= size) { c0 -= 1; c1 += 1; }
    }
    const grid = h("div", { class: "kingdom", "data-player": player,
      css: { "grid-template-columns": `repeat(${c1 - c0 + 1}, minmax(0, 1fr))`,
        "max-width": `${(c1 - c0 + 1) * 64}px` } });
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const k = key(r, c);
        const at = `${r},${c}`;
        const gem = gems.has(k) ? "gem" : "";
        if (ghost.has(k)) {
          const [t, n] = ghost.get(k);
          grid.append(h("button", { type: "button", class: `cell ${t} ghost ${gem}`, "data-at": at, "data-land": t,
            // TRANSLATORS: a square of the domino being placed, shown where it would go
            "aria-label": TT.t("preview: %(land)s", { land: landName(t) }),
            "data-letter": landLetter(t), onclick: () => place(ctx, places) }, crowns(n)));
        } else if (cells.has(k)) {
          const [t, n] = cells.get(k);
          grid.append(h("div", { class: `cell ${t} ${gem}`, "data-at": at, "data-land": t,
            // TRANSLATORS: the castle's square in the picture of a kingdom
            "data-letter": landLetter(t), title: t === "castle" ? TT.t("castle") : landTitle(t, n) },
          crowns(n)));
        } else if (targets.has(k) && ctx.paired) {
          grid.append(h("button", { type: "button", class: `cell legal ${gem}`, "data-at": at,
            // TRANSLATORS: a square where the domino's first half may go; place is where, from
            // the castle ("two above the castle")
            "aria-label": TT.t("first half here: %(place)s", { place: squareWords(r, c) }),
            onclick: () => { ui.at = [r, c]; window.TT.redraw(); } }));
        } else {
          grid.append(h("div", { class: `cell ${gem}`, "data-at": at }));
        }
      }
    }
    return grid;
  }

  // The touched square is a placement only with the facing it was touched for (or another
  // legal one there): after Turn it may not be, and then there is nothing to place (defect 3).
  const chosen = (places) => ui.at && places.list.some((p) => p.facing === ui.facing
    && p.at[0] === ui.at[0] && p.at[1] === ui.at[1]);

  // Where a square lies from the castle, in the same words as the table says it (places.py).
  const COUNT = () => [TT.t("one"), TT.t("two"), TT.t("three"), TT.t("four"), TT.t("five"), TT.t("six")];
  function squareWords(r, c) {
    if (!r && !c) return TT.t("on the castle");
    const n = (k) => COUNT()[Math.abs(k) - 1] || String(Math.abs(k));
    if (!c) return r < 0 ? TT.t("%(count)s above the castle", { count: n(r) })
      : TT.t("%(count)s below the castle", { count: n(r) });
    if (!r) return c < 0 ? TT.t("%(count)s to the left of the castle", { count: n(c) })
      : TT.t("%(count)s to the right of the castle", { count: n(c) });
    const both = { down: n(r), side: n(c) };
    if (r < 0) return c < 0 ? TT.t("%(down)s above and %(side)s to the left of the castle", both)
      : TT.t("%(down)s above and %(side)s to the right of the castle", both);
    return c < 0 ? TT.t("%(down)s below and %(side)s to the left of the castle", both)
      : TT.t("%(down)s below and %(side)s to the right of the castle", both);
  }
  // Which way the domino points, beside the Turn button.
  const POINTING = {
    // TRANSLATORS: beside the page's Turn button: the domino's second half is right of the first
    east: () => TT.t("pointing right"),
    // TRANSLATORS: beside the page's Turn button: the second half is below the first
    south: () => TT.t("pointing down"),
    // TRANSLATORS: beside the page's Turn button: the second half is left of the first
    west: () => TT.t("pointing left"),
    // TRANSLATORS: beside the page's Turn button: the second half is above the first
    north: () => TT.t("pointing up"),
  };

  function place(ctx, places) {
    if (!chosen(places)) return;
    const at = ui.at;
    ui.at = null;
    ctx.act({ action: "place", domino: places.domino, at, facing: ui.facing });
  }

  function rotate() {
    ui.facing = FACINGS[(FACINGS.indexOf(ui.facing) + 1) % 4];
    window.TT.redraw();
  }

  function placeTools(snap, ctx, places, discard) {
    if (!ctx.paired) return null;
    if (discard) {
      // TRANSLATORS: the page, when the domino to place fits nowhere; domino is its number
      return h("div", { class: "tools" }, h("span", {}, TT.t("Domino %(domino)s fits nowhere.", { domino: discard })),
        h("button", { type: "button", id: "discard",
          // TRANSLATORS: the page's button that discards a domino; domino is its number
          onclick: () => ctx.act({ action: "discard", domino: discard }) }, TT.t("Discard %(domino)s", { domino: discard })));
    }
    const free = places.list.some((p) => p.facing === ui.facing);
    return h("div", { class: "tools" },
      h("button", { type: "button", id: "rotate", class: "secondary", onclick: rotate,
        // TRANSLATORS: the page's button that turns the domino a quarter (for screen readers)
        "aria-label": TT.t("turn the domino") },
      // TRANSLATORS: the page's button that turns the domino a quarter
      "⟳ " + TT.t("Turn")),
      h("span", { class: "facing", id: "facing", "data-facing": ui.facing }, `${ARROW[ui.facing]} ${POINTING[ui.facing]()}`),
      // TRANSLATORS: the page's button that places the domino on the square touched
      chosen(places) ? h("button", { type: "button", id: "place", onclick: () => place(ctx, places) }, TT.t("Place here"))
        // TRANSLATORS: the page's hint while a domino is placed
        : h("span", { class: "muted" }, free ? TT.t("Touch a dashed square for the first half.")
          // TRANSLATORS: the page's hint: the domino fits nowhere pointing this way
          : TT.t("No room this way round: turn it.")));
  }

  // The corner's four squares with the chosen gem on them, turned as it will lie.
  function gemPreview(snap) {
    const corner = ((snap.view.treasures && snap.view.treasures.pending) || [])[0];
    const faces = ui.gem && snap.extra.gem_faces[ui.gem];
    if (!corner || !faces) return null;
    const cells = new Map(snap.extra.kingdoms[snap.turn].map(([r, c, t]) => [key(r, c), t]));
    const [r, c] = corner;
    const q = faces[ui.turns]; // nw, ne, se, sw
    const mark = (v) => (v === "skull" ? "☠" : v ? "♛".repeat(v) : "·");
    const at = [[r, c, q[0]], [r, c + 1, q[1]], [r + 1, c, q[3]], [r + 1, c + 1, q[2]]];
    // TRANSLATORS: the page's picture of the chosen gem on its corner (for screen readers)
    return h("div", { class: "gempreview", id: "gem-preview", "aria-label": TT.t("the gem on the corner") },
      at.map(([rr, cc, v]) => h("div", { class: `cell ${cells.get(key(rr, cc)) || ""}` },
        h("span", { class: "gemq" }, mark(v)))));
  }

  function treasureTools(snap, ctx) {
    const faceUp = (snap.view.treasures && snap.view.treasures.face_up) || [];
    if (!ctx.paired) return null;
    if (!ui.gem || !faceUp.includes(ui.gem)) ui.gem = faceUp[0] || null;
    return h("div", { class: "tools" }, gemPreview(snap),
      faceUp.map((t) => h("button", { type: "button", class: t === ui.gem ? "" : "secondary",
        "data-gem": t, onclick: () => { ui.gem = t; window.TT.redraw(); } }, gemName(snap, t))),
      h("button", { type: "button", class: "secondary", id: "gem-turn",
        onclick: () => { ui.turns = (ui.turns + 1) % 4; window.TT.redraw(); } },
        // TRANSLATORS: the page's button that turns the gem; n is how far it is turned now
        "⟳ " + TT.tn("%(n)s quarter turn", "%(n)s quarter turns", ui.turns)),
      h("button", { type: "button", id: "gem-set",
        onclick: () => ctx.act({ action: "orient", token: ui.gem, turns: ui.turns }) },
        // TRANSLATORS: the page's button that sets the chosen gem on its corner
        TT.t("Set the gem")));
  }

  const BONUS = {
    // TRANSLATORS: a variant's bonus in the final scores (10 points for a centred castle)
    middle_kingdom: () => TT.t("Middle Kingdom"),
    // TRANSLATORS: a variant's bonus in the final scores (5 points for a complete kingdom)
    harmony: () => TT.t("Harmony"),
  };

  // The end: who won, every kingdom's points as the engine counted them (each territory's
  // squares times crowns, the variant bonuses) and the tie-breaks, ranked.
  function finalScores(snap, ctx) {
    const f = snap.extra.final || {};
    const won = snap.winners;
    const ranked = snap.players.slice().sort((a, b) =>
      (won.includes(b) - won.includes(a)) || ((snap.scores[b] || 0) - (snap.scores[a] || 0)));
    const top = won.map((p) => snap.scores[p]);
    const tied = snap.players.some((p) => !won.includes(p) && top.includes(snap.scores[p]));
    const gems = won.length === 1 && f[won[0]] && f[won[0]].immediate_victory;
    return h("div", { id: "final" },
      // TRANSLATORS: the page's heading at the end of a game
      h("h2", {}, TT.t("Final scores")),
      // TRANSLATORS: said at the end; players are the winners' names ("ana and ben")
      h("p", { class: "turn" }, TT.tn("%(players)s wins!", "%(players)s win!", won.length, { players: listOf(won) })),
      // TRANSLATORS: said when a player wins at once by gems; player is a name
      gems ? h("p", {}, TT.t("%(player)s holds five different gems: an immediate victory!", { player: won[0] })) : null,
      // TRANSLATORS: the page's final scores, when players tie on points
      tied ? h("p", {}, TT.t("Tied on points: the largest territory decides, then the most crowns.")) : null,
      h("ol", { class: "final" }, ranked.map((p) => {
        const k = f[p] || { territories: [], bonuses: {} };
        const parts = k.territories.map((t) =>
          h("li", {}, h("span", { class: `terr ${t.terrain}` }), `${landName(t.terrain)} ${t.squares} × ${t.crowns}${t.skulls ? " ☠" : ""} = ${t.points}`));
        for (const [name, pts] of Object.entries(k.bonuses || {})) {
          if (pts) parts.push(h("li", {}, `${BONUS[name] ? BONUS[name]() : name} +${pts}`));
        }
        // TRANSLATORS: the page's final scores: a Dynasty's earlier games' points
        if (k.earlier) parts.push(h("li", {}, TT.t("earlier games +%(points)s", { points: k.earlier })));
        return h("li", { class: won.includes(p) ? "won" : "", "data-player": p },
          h("strong", {}, h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, snap.players.indexOf(p)) } }),
            // TRANSLATORS: the page's final scores: a player's points; player is a name
            TT.tn("%(player)s: %(n)s point", "%(player)s: %(n)s points", snap.scores[p] ?? 0, { player: p })),
          // TRANSLATORS: the page's final scores: a kingdom with no crown scores nothing
          parts.length ? h("ul", { class: "terrs" }, parts) : h("p", { class: "muted" }, TT.t("no crowned territory")),
          h("p", { class: "muted" },
            // TRANSLATORS: the page's final scores: the first tie-break, in squares
            TT.tn("largest territory %(n)s square", "largest territory %(n)s squares", k.largest_territory ?? 0) + " · "
            // TRANSLATORS: the page's final scores: the second tie-break
            + TT.tn("%(n)s crown", "%(n)s crowns", k.crowns ?? 0)));
      })));
  }

  function whatNow(snap, ctx, places, discard) {
    const v = snap.view;
    const who = snap.turn;
    if (snap.over) return finalScores(snap, ctx);
    if (v.awaiting.dominoes.length) {
      // TRANSLATORS: the page; dominoes are the numbers on the backs of those still to tap
      return h("p", { id: "todo" }, TT.t("Tap the new line's dominoes on the table: %(dominoes)s.", { dominoes: v.awaiting.dominoes.join(", ") }));
    }
    if (v.awaiting.gems) {
      // TRANSLATORS: the page: gems to turn up before play goes on
      return h("p", { id: "todo" }, TT.tn("Turn %(n)s treasure token gem side up and tap it on the table.",
        "Turn %(n)s treasure tokens gem side up and tap them on the table.", v.awaiting.gems));
    }
    if (v.step === "claim") {
      return h("p", { id: "todo" }, ctx.paired
        // TRANSLATORS: the page, on a paired phone: the player touches a domino below
        ? TT.t("%(player)s puts a king on a domino of the new line: touch it below.", { player: who })
        // TRANSLATORS: the page: whose turn it is to put a king on a domino
        : TT.t("%(player)s puts a king on a domino of the new line.", { player: who }));
    }
    if (v.step === "place") {
      // TRANSLATORS: the page; domino is the number of the domino that fits nowhere
      return [h("p", { id: "todo" }, discard ? TT.t("%(player)s must discard domino %(domino)s.", { player: who, domino: discard })
        // TRANSLATORS: the page; domino is the number of the domino to place
        : TT.t("%(player)s places domino %(domino)s.", { player: who, domino: places.domino })), placeTools(snap, ctx, places, discard)];
    }
    if (v.step === "treasure") {
      // TRANSLATORS: the page, after a placement found a treasure; player is a name
      return [h("p", { id: "todo" }, TT.t("%(player)s found a treasure: choose a face-up gem and turn it to fit the corner.", { player: who })),
        treasureTools(snap, ctx)];
    }
    return null;
  }

  // The page's top line: who, and what the table waits for, as a parent says it across the table.
  function now(snap) {
    const v = snap.view;
    const who = snap.turn;
    const legal = snap.extra.legal || [];
    // TRANSLATORS: the page's top line; dominoes are the numbers on the backs of those to tap
    if (v.awaiting.dominoes.length) return TT.t("Tap the new line's dominoes on the table: %(dominoes)s", { dominoes: v.awaiting.dominoes.join(", ") });
    // TRANSLATORS: the page's top line: gems to turn up before play goes on
    if (v.awaiting.gems) return TT.tn("Turn %(n)s treasure token gem side up and tap it", "Turn %(n)s treasure tokens gem side up and tap them", v.awaiting.gems);
    // TRANSLATORS: the page's top line: whose turn it is, and what they do
    if (v.step === "claim") return TT.t("%(player)s: put a king on a domino of the new line", { player: who });
    if (v.step === "place") {
      const discard = legal.find((a) => a.action === "discard");
      const place = legal.find((a) => a.action === "place");
      // TRANSLATORS: the page's top line; domino is the number of the domino that fits nowhere
      if (discard && !place) return TT.t("%(player)s: domino %(domino)s fits nowhere, discard it", { player: who, domino: discard.domino });
      // TRANSLATORS: the page's top line; domino is the number of the domino to place
      return place ? TT.t("%(player)s: place domino %(domino)s in the kingdom", { player: who, domino: place.domino })
        // TRANSLATORS: the page's top line: whose turn it is to place a domino
        : TT.t("%(player)s: place a domino", { player: who });
    }
    // TRANSLATORS: the page's top line, after a placement found a treasure
    if (v.step === "treasure") return TT.t("%(player)s: choose a gem and turn it to fit the corner", { player: who });
    return null;
  }

  window.TT.views.kingdomino = {
    now,
    render(el, snap, ctx) {
      const v = snap.view;
      const legal = snap.extra.legal || [];
      const placeList = legal.filter((a) => a.action === "place");
      const discardAct = legal.find((a) => a.action === "discard");
      const places = placeList.length ? { domino: placeList[0].domino, list: placeList } : null;
      const stateKey = `${v.step}/${snap.turn}/${places ? places.domino : ""}/${snap.actions}`;
      if (stateKey !== ui.key) { ui.key = stateKey; ui.at = null; }
      const claimable = new Set(legal.filter((a) => a.action === "claim").map((a) => a.domino));
      el.append(h("section", { class: "card", id: "kd-now" },
        whatNow(snap, ctx, places, discardAct ? discardAct.domino : null)));
      const lines = h("section", { class: "card" });
      // TRANSLATORS: the page's heading over the dominoes played this round
      if (v.line.length) lines.append(h("h2", {}, TT.t("This round's line")), lineRow(snap, ctx, v.line, new Set()));
      // TRANSLATORS: the page's heading over the dominoes of the new line
      if (v.next_line.length) lines.append(h("h2", {}, TT.t("New line")), lineRow(snap, ctx, v.next_line, claimable));
      // TRANSLATORS: the page: no gem lies face up
      const faceUp = v.treasures ? gemList(snap, v.treasures.face_up) || TT.t("none") : "";
      // TRANSLATORS: the page: which round it is
      lines.append(h("p", { class: "muted" }, TT.t("Round %(round)s", { round: v.round }) + " · "
        // TRANSLATORS: the page: how many dominoes are left in the box
        + TT.tn("%(n)s domino in the box", "%(n)s dominoes in the box", v.box)
        // TRANSLATORS: the page: the gems lying face up; gems are their names
        + (v.treasures ? " · " + TT.t("gems face up: %(gems)s", { gems: faceUp }) : "")));
      const kingdom = (p) => {
        const k = v.kingdoms[p];
        return h("section", { class: "card", id: `kingdom-${p}` },
          h("h2", {}, h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, snap.players.indexOf(p)) } }),
            // TRANSLATORS: the page: a kingdom's heading; player is a name, squares its size
            TT.tn("%(player)s: %(n)s point, %(squares)s squares", "%(player)s: %(n)s points, %(squares)s squares",
              k.score, { player: p, squares: k.squares }),
            // TRANSLATORS: the page: the gems set in a kingdom; gems are their names
            k.gems.length ? " · " + TT.t("gems: %(gems)s", { gems: gemList(snap, k.gems.map((g) => g.token)) }) : ""),
          p === snap.turn && places ? kingdomGrid(snap, ctx, p, places) : kingdomSvg(snap, p));
      };
      // While a domino or a gem goes down, the kingdom it goes into comes first, under the tools.
      const building = snap.turn && (v.step === "place" || v.step === "treasure") && !snap.over;
      if (building) el.append(kingdom(snap.turn));
      el.append(lines);
      for (const p of snap.players) if (!(building && p === snap.turn)) el.append(kingdom(p));
    },
  };
})();
