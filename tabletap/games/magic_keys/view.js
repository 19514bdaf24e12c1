// Magic Keys: the track with the pawn, the keys, the gems and the chest. Moves happen at the
// table with keys and buttons; the page only watches. Where each key is matters to a family
// (issue 21, defect 8): a key still in the forest stands on its space; one hanging on the
// tower, held by a player or thrown in the pond is drawn apart from them, in its own place.
"use strict";
(() => {
  const { h, svg } = window.TT;

  // "purple/3" as a person says it; the page shows no ids
  const keyWords = (key) => {
    if (key === "gold") return "the golden key";
    const [colour, n] = key.split("/");
    return `${colour} key ${n}`;
  };
  const spaceWords = (space) => (space === "start" ? "the start" : space === "recovery" ? "the rest"
    : space === "gold" ? "the golden key's space" : `the space of the ${keyWords(space)}`);
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
      role: "img", "aria-label": "The track from the start to the golden key" },
    svg("path", { d: path, class: "road", fill: "none" }));
    track.forEach((space, i) => {
      const [x, y] = points[i];
      const colour = space.split("/")[0];
      const place = tried[space];
      const state = place === undefined ? "" : place === "forest" ? "onforest" : `on${where(place)}`;
      const said = place === undefined ? "" : place === "forest" ? ", its key in the forest"
        : place === "tower" ? ", its key on the tower" : place === "pond" ? ", its key in the pond"
          : `, its key held by ${place.slice(5)}`;
      const g = svg("g", { class: `space ${colour} ${state} ${i === pawn ? "pawn" : ""}`,
        "data-space": space },
      svg("title", {}, `${space === "start" ? "start" : space === "recovery" ? "rest" : keyWords(space)}${said}`),
      svg("circle", { cx: x, cy: y, r: R, fill: place && place !== "forest" ? "#fff" : FILL[colour] || "#fff",
        stroke: FILL[colour] || "#4a5158", "stroke-width": "4",
        "stroke-dasharray": place && place !== "forest" ? "6 4" : null }));
      if (moved.has(space)) g.append(svg("circle", { cx: x, cy: y, r: R + 6, class: "justnow" }));
      if (place === "forest") g.append(keyShape(x, y, colour === "yellow" ? "#14171a" : "#fff"));
      else if (place === undefined || space === "gold") {
        const text = space === "start" ? "start" : space === "recovery" ? "rest" : space === "gold" ? "gold" : "";
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
      : h("p", { class: "muted" }, "none");
  }

  function secret(ctx) {
    const out = h("p", { id: "mk-secret", class: "muted" }, "Only for parents: which forest keys are fake.");
    const button = h("button", { type: "button", class: "secondary", id: "mk-reveal" }, "Show the fake keys");
    let shown = false;
    button.addEventListener("click", async () => {
      if (shown) {  // hidden again: a child may be looking over a shoulder
        shown = false;
        out.textContent = "Only for parents: which forest keys are fake.";
        button.textContent = "Show the fake keys";
        return;
      }
      const res = await fetch("/api/reveal", { credentials: "same-origin" });
      const data = await res.json();
      if (!res.ok) { out.textContent = data.error; return; }
      shown = true;
      const fakes = data.state.fake_keys.map(keyWords);
      out.textContent = `The fake keys: ${fakes.join(", ")}.`;
      button.textContent = "Hide the fake keys";
    });
    return h("section", { class: "card" }, out, button);
  }

  window.TT.views["magic-keys"] = {
    now(snap) {
      const who = snap.turn;
      return snap.view.dice_mode === "digital"
        ? `${who}: press roll, then try the key on the pawn's space in the chest`
        : `${who}: roll, move the pawn, then try the key on its space in the chest`;
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
      el.append(h("section", { class: "card", id: "mk-track" }, h("h2", {}, "The track"),
        track.length ? trackSvg(track, pawn, tried, moved) : null,
        h("p", { class: "muted legend" }, "A key shape: the key is still in the forest. A dashed ring: its key is on the tower, held or in the pond."),
        v.dice_mode === "digital"
          ? h("p", {}, `Pawn on ${spaceWords(v.pawn.space)}. Dice: ${v.dice.available} to roll` +
            (v.dice.showing.length ? `, showing ${v.dice.showing.join(" ")}` : ""))
          : h("p", { class: "muted" }, "Real dice and pawn: the table follows the keys.")));
      el.append(h("section", { class: "card", id: "mk-tower" }, h("h2", {}, "Hanging on the tower"),
        keyChips(keysAt(tried, "tower"))));
      const held = (p) => Object.entries(tried).filter(([, at]) => at === `held:${p}`).map(([k]) => k);
      el.append(h("section", { class: "card", id: "mk-keys" }, h("h2", {}, "Gems and keys"),
        h("dl", { class: "facts" },
          h("dt", {}, "Gems to win"), h("dd", {}, String(v.gems_required)),
          h("dt", {}, "Gems in the chest"), h("dd", {}, String(v.chest)),
          ...snap.players.flatMap((p) => [h("dt", {}, p),
            h("dd", {}, `${v.scores[p]} gems` + (held(p).length ? `, holds ${held(p).map(keyWords).join(", ")}` : ""))]),
          h("dt", {}, "In the pond"), h("dd", {}, keysAt(tried, "pond").map(keyWords).join(", ") || "none"))));
      if (ctx.paired) el.append(secret(ctx));
    },
  };
})();
