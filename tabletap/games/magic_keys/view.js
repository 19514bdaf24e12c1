// Magic Keys: the track with the pawn, the keys, the gems and the chest. Moves happen at the
// table with keys and buttons; the page only watches. Where each key is matters to a family
// (issue 21, defect 8): a key still in the forest stands on its space; one hanging on the
// tower, held by a player or thrown in the pond is drawn apart from them, in its own place.
"use strict";
(() => {
  const { h, svg } = window.TT;

  // "purple/3" as a child says it, by colour and number (the same words as the voice's); the
  // page shows no ids. Looked up when drawn, in the page's language.
  const KEY_WORDS = {
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "purple/1": () => TT.t("the first purple key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "purple/2": () => TT.t("the second purple key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "purple/3": () => TT.t("the third purple key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "purple/4": () => TT.t("the fourth purple key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "purple/5": () => TT.t("the fifth purple key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "blue/1": () => TT.t("the first blue key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "blue/2": () => TT.t("the second blue key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "blue/3": () => TT.t("the third blue key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "blue/4": () => TT.t("the fourth blue key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "blue/5": () => TT.t("the fifth blue key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "green/1": () => TT.t("the first green key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "green/2": () => TT.t("the second green key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "green/3": () => TT.t("the third green key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "green/4": () => TT.t("the fourth green key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "green/5": () => TT.t("the fifth green key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "yellow/1": () => TT.t("the first yellow key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "yellow/2": () => TT.t("the second yellow key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "yellow/3": () => TT.t("the third yellow key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "yellow/4": () => TT.t("the fourth yellow key"),
    // TRANSLATORS: the page: a key by its colour and number, as the voice says it
    "yellow/5": () => TT.t("the fifth yellow key"),
    // TRANSLATORS: the page: the golden key's name
    gold: () => TT.t("the golden key"),
  };
  const keyWords = (key) => (KEY_WORDS[key] ? KEY_WORDS[key]()
    // TRANSLATORS: the page: a key this page has no name for
    : TT.t("a key"));
  // TRANSLATORS: the page: the first space of the track, and the red space with the characters
  const spaceWords = (space) => (space === "start" ? TT.t("the start")
    // TRANSLATORS: the page: the red space with the characters, where a pawn rests
    : space === "recovery" ? TT.t("the recovery space") : keyWords(space));
  const where = (place) => (place.startsWith("held:") ? "held" : place);

  // The track as the board draws it: a path that winds from the start to the golden key at the
  // castle, each space a disc in its colour. A key still in the forest stands on its space (a
  // key shape); a space whose key is away is an empty dashed ring; a key that moved since the
  // last picture, and the pawn just moved, are ringed in yellow.
  const FILL = { purple: "#6a1b9a", blue: "#1565c0", green: "#2e7d32", yellow: "#e0b000",
    start: "#d9d4c7", recovery: "#d9d4c7", gold: "#ffd23f" };
  const COLS = 6, GAP = 56, R = 22;
  const seen = { keys: null, pawn: null };

  function at(i) {  // the winding path: rows of six, every other row backwards
    const row = Math.floor(i / COLS), col = i % COLS;
    return [32 + (row % 2 ? COLS - 1 - col : col) * GAP, 34 + row * 70];
  }

  function keyShape(x, y, ink) {  // a key: a ring and a bit
    return svg("g", { class: "key", transform: `translate(${x} ${y})`, "aria-hidden": "true" },
      svg("circle", { cx: "-6", cy: "0", r: "5", fill: "none", stroke: ink, "stroke-width": "3" }),
      svg("path", { d: "M -1 0 H 11 M 7 0 V 5 M 10 0 V 4", stroke: ink, "stroke-width": "3",
        fill: "none", "stroke-linecap": "round" }));
  }

  function trackSvg(track, pawn, tried, moved) {
    const rows = Math.ceil(track.length / COLS);
    const points = track.map((_, i) => at(i));
    const path = points.map(([x, y], i) => `${i ? "L" : "M"} ${x} ${y}`).join(" ");
    const board = svg("svg", { class: "mktrack", viewBox: `0 0 ${COLS * GAP + 8} ${rows * 70}`,
      // TRANSLATORS: the page: what the drawing of the track shows, for a screen reader
      role: "img", "aria-label": TT.t("The track from the start to the golden key") },
    svg("path", { d: path, class: "road", fill: "none" }));
    track.forEach((space, i) => {
      const [x, y] = points[i];
      const colour = space.split("/")[0];
      const place = tried[space];
      const state = place === undefined ? "" : place === "forest" ? "onforest" : `on${where(place)}`;
      const key = { key: spaceWords(space) };
      // TRANSLATORS: the page: a space's key and where it is now; key is the key's name
      const said = place === undefined ? key.key : place === "forest" ? TT.t("%(key)s: in the forest", key)
        // TRANSLATORS: the page: a true key already used; key is the key's name
        : place === "tower" ? TT.t("%(key)s: on the tower", key)
          // TRANSLATORS: the page: a fake key thrown away; key is the key's name
          : place === "pond" ? TT.t("%(key)s: in the pond", key)
            // TRANSLATORS: the page: a fake key found; key is its name, player who holds it
            : TT.t("%(key)s: held by %(player)s", { ...key, player: place.slice(5) });
      const g = svg("g", { class: `space ${colour} ${state} ${i === pawn ? "pawn" : ""}`,
        "data-space": space },
      svg("title", {}, said),
      svg("circle", { cx: x, cy: y, r: R, fill: place && place !== "forest" ? "#fff" : FILL[colour] || "#fff",
        stroke: FILL[colour] || "#4a5158", "stroke-width": "4",
        "stroke-dasharray": place && place !== "forest" ? "6 4" : null }));
      if (moved.has(space)) g.append(svg("circle", { cx: x, cy: y, r: R + 6, class: "justnow" }));
      if (place === "forest") g.append(keyShape(x, y, colour === "yellow" ? "#14171a" : "#fff"));
      else if (place === undefined || space === "gold") {
        const text = space === "start"
          // TRANSLATORS: the page: a short label inside the start space
          ? TT.t("start")
          : space === "recovery"
            // TRANSLATORS: the page: a short label inside the recovery space, where a pawn rests
            ? TT.t("rest")
            // TRANSLATORS: the page: a short label inside the golden key's space
            : space === "gold" ? TT.t("gold") : "";
        g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "label" }, text));
      } else {
        g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "label away" }, space.split("/")[1]));
      }
      if (i === pawn) {
        g.append(svg("g", { class: `pawnmark ${seen.movedPawn ? "justnow" : ""}` },
          svg("circle", { cx: x + 14, cy: y - 20, r: "7", fill: "#14171a" }),
          svg("path", { d: `M ${x + 6} ${y - 4} L ${x + 14} ${y - 18} L ${x + 22} ${y - 4} Z`, fill: "#14171a" })));
      }
      board.append(g);
    });
    return board;
  }

  function keysAt(tried, place) {
    return Object.entries(tried).filter(([, p]) => p === place).map(([k]) => k);
  }

  function keyChips(keys) {
    return keys.length
      ? h("ul", { class: "chips" }, keys.map((k) => h("li", { class: `chip ${k.split("/")[0]}` }, keyWords(k))))
      // TRANSLATORS: the page: no key in this place
      : h("p", { class: "muted" }, TT.t("none"));
  }

  function secret(ctx) {
    // TRANSLATORS: the page, paired phones only: the secret of the game
    const hint = () => TT.t("Only for parents: which forest keys are fake.");
    const out = h("p", { id: "mk-secret", class: "muted" }, hint());
    // TRANSLATORS: the page: a button showing which keys are fake
    const show = () => TT.t("Show the fake keys");
    const button = h("button", { type: "button", class: "secondary", id: "mk-reveal" }, show());
    let shown = false;
    button.addEventListener("click", async () => {
      if (shown) {  // hidden again: a child may be looking over a shoulder
        shown = false;
        out.textContent = hint();
        button.textContent = show();
        return;
      }
      const res = await fetch("/api/reveal", { credentials: "same-origin" });
      const data = await res.json();
      if (!res.ok) { out.textContent = data.error; return; }
      shown = true;
      const fakes = data.state.fake_keys.map(keyWords);
      // TRANSLATORS: the page: the fake keys, shown to a parent; keys are their names
      out.textContent = TT.t("The fake keys: %(keys)s.", { keys: TT.join(fakes) });
      // TRANSLATORS: the page: a button hiding the fake keys again
      button.textContent = TT.t("Hide the fake keys");
    });
    return h("section", { class: "card" }, out, button);
  }

  // The table's dice: where the pawn stands, the dice still to roll and what they show.
  function pawnLine(v) {
    const params = { space: spaceWords(v.pawn.space), showing: v.dice.showing.join(" ") };
    return v.dice.showing.length
      // TRANSLATORS: the page (table's dice): space is where the pawn is, showing the numbers
      ? TT.tn("The pawn: %(space)s. %(n)s die to roll, showing %(showing)s.",
        "The pawn: %(space)s. %(n)s dice to roll, showing %(showing)s.", v.dice.available, params)
      // TRANSLATORS: the page (table's dice): space is where the pawn is
      : TT.tn("The pawn: %(space)s. %(n)s die to roll.", "The pawn: %(space)s. %(n)s dice to roll.",
        v.dice.available, params);
  }

  window.TT.views["magic-keys"] = {
    now(snap) {
      const who = { player: snap.turn };
      return snap.view.dice_mode === "digital"
        // TRANSLATORS: the page: what to do now (the table's dice); player is whose turn it is
        ? TT.t("%(player)s: press roll, then try the key on the pawn's space in the chest", who)
        // TRANSLATORS: the page: what to do now (real dice); player is whose turn it is
        : TT.t("%(player)s: roll, move the pawn, then try the key on its space in the chest", who);
    },
    render(el, snap, ctx) {
      const v = snap.view;
      const track = snap.extra.track || [];
      const pawn = v.pawn ? v.pawn.position : null;
      const tried = v.keys || {};
      // what moved since the last picture is ringed (the first picture rings nothing)
      const moved = new Set(seen.keys ? Object.keys(tried).filter((k) => seen.keys[k] !== tried[k]) : []);
      seen.movedPawn = seen.pawn !== null && pawn !== seen.pawn;
      seen.keys = { ...tried };
      seen.pawn = pawn;
      // TRANSLATORS: the page: a heading
      el.append(h("section", { class: "card", id: "mk-track" }, h("h2", {}, TT.t("The track")),
        track.length ? trackSvg(track, pawn, tried, moved) : null,
        // TRANSLATORS: the page: what the drawing's shapes mean
        h("p", { class: "muted legend" }, TT.t("A key shape: the key is still in the forest. A dashed ring: its key is on the tower, held or in the pond.")),
        v.dice_mode === "digital" ? h("p", {}, pawnLine(v))
          // TRANSLATORS: the page: real dice, so the page does not show the pawn
          : h("p", { class: "muted" }, TT.t("Real dice and pawn: the table follows the keys."))));
      // TRANSLATORS: the page: a heading over the true keys already used
      el.append(h("section", { class: "card", id: "mk-tower" }, h("h2", {}, TT.t("Hanging on the tower")),
        keyChips(keysAt(tried, "tower"))));
      const held = (p) => Object.entries(tried).filter(([, at]) => at === `held:${p}`).map(([k]) => k);
      const gems = (p) => (held(p).length
        // TRANSLATORS: the page: a player's gems and the fake keys they hold (key names)
        ? TT.tn("%(n)s gem, holds %(keys)s", "%(n)s gems, holds %(keys)s", v.scores[p], { keys: TT.join(held(p).map(keyWords)) })
        // TRANSLATORS: the page: a player's gems
        : TT.tn("%(n)s gem", "%(n)s gems", v.scores[p]));
      // TRANSLATORS: the page: a heading
      el.append(h("section", { class: "card", id: "mk-keys" }, h("h2", {}, TT.t("Gems and keys")),
        h("dl", { class: "facts" },
          // TRANSLATORS: the page: how many gems win this game
          h("dt", {}, TT.t("Gems to win")), h("dd", {}, String(v.gems_required)),
          // TRANSLATORS: the page: how many gems are left in the chest
          h("dt", {}, TT.t("Gems in the chest")), h("dd", {}, String(v.chest)),
          ...snap.players.flatMap((p) => [h("dt", {}, p), h("dd", {}, gems(p))]),
          // TRANSLATORS: the page: the fake keys thrown into the magic pond
          h("dt", {}, TT.t("In the pond")), h("dd", {}, keysAt(tried, "pond").map(keyWords).join(", ") || TT.t("none")))));
      if (ctx.paired) el.append(secret(ctx));
    },
  };
})();
