// Key to the Kingdom: what the game waits for, the roll in progress, the adventure or castle step
// under way, every hero (space, Demon die, key pieces, companions, items available and
// exhausted), the board drawn as the table has it (the lands showing in their places, the folded
// ones named, the heroes' pawns, the hero just moved ringed), the courtyard and the castle. A paired phone enters what a tap cannot say: the landing space (touch a highlighted
// space or its button), a physical roll by number, an item's add or subtract, and the other
// choices the engine offers. Every touch sends the console's `do:` action; the daemon's snapshot
// lists the legal ones (extra.legal), so this file knows no rule.
"use strict";
(() => {
  const { h, svg } = window.TT;
  const ui = { key: "", roll: "", pick: new Set() };
  // Choices of several items: the engine lists every set of the largest size, so with more
  // items than that the page lets them be picked one by one and sends the set.
  const PICKS = { nap: "Heroic nap: refresh", refresh: "Refresh", exhaust: "Exhaust" };
  const words = (s) => String(s).replace(/-/g, " ");

  // "knight/sword" -> "sword", "magic/bee-cannon" -> "bee cannon", "event/7" -> its companion.
  function itemName(snap, id) {
    if (id.startsWith("event/")) {
      const n = Number(id.slice(6));
      for (const list of Object.values(snap.extra.companions)) {
        const c = list.find((x) => x.card === n);
        if (c) return words(c.name);
      }
      return `card ${n}`;
    }
    return words(id.split("/").slice(1).join(" "));
  }
  const ownerOf = (id) => id.split("/")[0];

  function swatch(snap, ctx, hero) {
    return h("span", { class: "swatch", css: { background: ctx.colourOf(snap, hero, snap.players.indexOf(hero)) } });
  }

  // -- what the game waits for, and the paired phone's tools -------------------------------------

  function stepLine(snap) {
    const s = snap.extra.step;
    if (!s) return null;
    const what = s.kind === "adventure"
      ? `${s.hero} on ${words(s.name)}${s.colour ? ` (the ${s.colour} key)` : ""}: step ${s.step} of ${s.steps}`
      : s.kind === "castle" ? `${s.hero} in the castle, ${words(s.section)} (section ${s.step} of ${s.steps}): ${words(s.name)}`
        : `${s.hero} against ${words(s.name)}`;
    const shows = [s.item, s.companion].filter(Boolean).map(words);
    return h("dl", { class: "facts", id: "kt-step" },
      h("dt", {}, "Under way"), h("dd", {}, what),
      h("dt", {}, "Target"), h("dd", {}, `${s.target} or more`),
      shows.length ? [h("dt", {}, "Shortcut"), h("dd", {}, s.shortcut
        ? `${s.shortcut}: in without rolling` : `shows the ${shows.join(" or ")} (not available)`)] : null);
  }

  function rollLine(snap) {
    const r = snap.view.roll;
    if (!r) return null;
    const uses = Object.entries(r.uses).map(([i, d]) => `${d > 0 ? "+" : "−"}${Math.abs(d)} ${itemName(snap, i)}`);
    return h("p", { id: "kt-roll-now", class: "turn" },
      `${r.purpose === "move" ? "Moving" : `Rolling for the ${words(r.purpose)}`}: `,
      `${r.value} on the ${r.die === "demon" ? "Demon" : "hero"} die`,
      uses.length ? ` ${uses.join(" ")}` : "", ` = ${r.result}`);
  }

  function label(snap, a) {
    const list = (items) => (items.length ? items.map((i) => itemName(snap, i)).join(", ") : "nothing");
    switch (a.action) {
      case "nap": return `Heroic nap: refresh ${list(a.items)}`;
      case "refresh": return `Refresh ${list(a.items)}`;
      case "exhaust": return `Exhaust ${list(a.items)}`;
      case "assign": return `Demon die to ${a.hero}`;
      case "take-magic": return `Take the ${words(a.item)}`;
      case "steal": return `Steal ${ownerOf(a.item)}'s ${itemName(snap, a.item)}`;
      case "sweep": return `Sweep ${a.hero} away`;
      case "take-key": return `Take key piece ${a.piece}`;
      case "courtyard": return `Courtyard space ${a.space}`;
      case "castle": return "Enter the castle";
      case "shortcut": return `Shortcut: ${(snap.extra.step && snap.extra.step.shortcut) || "in without rolling"}`;
      case "resolve": return `Take the roll as it is (${snap.view.roll ? snap.view.roll.result : ""})`;
      default: return JSON.stringify(a);
    }
  }

  function useButton(snap, ctx, a) {
    const item = itemName(snap, a.item);
    const amount = a.amount ?? null;
    const sign = a.sign === -1 ? "−" : "+";
    const extra = a.target ? ` (exhausts ${ownerOf(a.target)}'s ${itemName(snap, a.target)})`
      : a.refresh ? ` (refreshes ${itemName(snap, a.refresh)})` : "";
    const own = (snap.extra.items[ownerOf(a.item)] || []).find((i) => i.id === a.item);
    const comp = Object.values(snap.extra.companions).flat().find((c) => `event/${c.card}` === a.item);
    const value = amount ?? (own ? own.values[0] : comp ? comp.bonus : "");
    return h("button", { type: "button", class: "secondary kt-use", "data-item": a.item,
      "data-sign": a.sign === -1 ? "-1" : "1",
      onclick: () => ctx.act(a) }, `${sign}${value} ${item}${extra}`);
  }

  // [1, 2, ..., 8] -> "1–8"; faces with gaps are listed.
  function faces(values) {
    const v = [...values].sort((a, b) => a - b);
    const run = v.every((x, i) => i === 0 || x === v[i - 1] + 1);
    return run && v.length > 2 ? `${v[0]}–${v[v.length - 1]}` : v.join(" ");
  }

  function tools(snap, ctx) {
    if (!ctx.paired || snap.over) return null;
    const legal = snap.extra.legal || [];
    const out = [];
    const rolls = legal.filter((a) => a.action === "roll");
    if (rolls.length && rolls.some((a) => a.value !== undefined)) {
      const input = h("input", { id: "kt-roll-value", type: "number", inputmode: "numeric", min: "0",
        max: "99", value: ui.roll, placeholder: faces(rolls.map((a) => a.value)),
        oninput: (e) => { ui.roll = e.target.value; } });
      const send = () => {
        const n = Number(input.value);
        if (input.value === "" || !Number.isInteger(n)) { ctx.toast("Type the number the die shows."); return; }
        ui.roll = "";
        ctx.act({ action: "roll", value: n });
      };
      out.push(h("div", { class: "tools kt-rollbox" },
        h("label", { class: "kt-rolllabel" }, "What the die shows", input),
        h("button", { type: "button", id: "kt-roll", onclick: send }, "Enter the roll")));
    } else if (rolls.length) {
      out.push(h("div", { class: "tools" }, h("button", { type: "button", id: "kt-roll",
        onclick: () => ctx.act({ action: "roll" }) }, "Roll the die")));
    }
    const moves = legal.filter((a) => a.action === "move");
    if (moves.length) {
      const kinds = new Map(snap.extra.lands.flatMap((l) => l.spaces));
      out.push(h("h2", {}, moves.length > 1 ? `Land on one of ${moves.length} spaces` : "Land on"),
        h("div", { class: "kt-choices", id: "kt-landing" }, moves.map((a) =>
          h("button", { type: "button", class: "kt-land", "data-space": a.to,
            onclick: () => ctx.act(a) }, h("strong", {}, spaceWords(snap, a.to)), ` ${kinds.get(a.to) || ""}`))));
    }
    const uses = legal.filter((a) => a.action === "use");
    if (uses.length) {
      out.push(h("h2", {}, "Change the roll with an item"),
        h("div", { class: "kt-choices", id: "kt-uses" }, uses.map((a) => useButton(snap, ctx, a))));
    }
    for (const [kind, verb] of Object.entries(PICKS)) {
      const sets = legal.filter((a) => a.action === kind);
      if (sets.length < 2) continue;
      const pool = [...new Set(sets.flatMap((a) => a.items))];
      const most = Math.max(...sets.map((a) => a.items.length));
      const chosen = pool.filter((i) => ui.pick.has(i));
      out.push(h("h2", {}, `${verb} up to ${most} of ${pool.length}`),
        h("div", { class: "kt-choices", id: `kt-pick-${kind}` }, pool.map((i) =>
          h("button", { type: "button", class: `kt-pick ${ui.pick.has(i) ? "" : "secondary"}`,
            "data-item": i, "aria-pressed": ui.pick.has(i) ? "true" : "false",
            onclick: () => { if (!ui.pick.delete(i)) ui.pick.add(i); window.TT.redraw(); } },
          itemName(snap, i)))),
        h("div", { class: "tools" }, h("button", { type: "button", id: `kt-send-${kind}`,
          onclick: () => ctx.act({ action: kind, items: chosen }) },
        `${verb} ${chosen.length ? chosen.map((i) => itemName(snap, i)).join(", ") : "nothing"}`)));
    }
    const picked = (a) => PICKS[a.action] && legal.filter((b) => b.action === a.action).length > 1;
    const rest = legal.filter((a) => !["roll", "move", "use"].includes(a.action) && !picked(a));
    if (rest.length) {
      out.push(h("div", { class: "kt-choices", id: "kt-other" }, rest.map((a) =>
        h("button", { type: "button", class: a.action === "nap" ? "secondary" : "", "data-action": a.action,
          onclick: () => ctx.act(a) }, label(snap, a)))));
    }
    return out;
  }

  function now(snap, ctx) {
    const v = snap.view;
    const who = v.ask && v.ask.hero ? v.ask.hero : snap.turn;
    const head = snap.over ? `${v.winner} has defeated the Demon King and wins.`
      : `${who ? `${who}: ` : ""}${v.waiting_for}.`;
    return h("section", { class: "card", id: "kt-now" },
      h("p", { id: "todo" }, head), rollLine(snap), stepLine(snap), tools(snap, ctx));
  }

  // -- the heroes ----------------------------------------------------------------------------------

  function itemChip(it) {
    return h("span", { class: `kt-item ${it.exhausted ? "exhausted" : ""} ${it.magic ? "magic" : ""}`,
      "data-item": it.id, title: it.exhausted ? "exhausted" : "available" },
    `${it.name} ${it.values.map((x) => `±${x}`).join("/")}`);
  }

  function heroes(snap, ctx) {
    const v = snap.view;
    return h("section", { class: "card", id: "kt-heroes" }, h("h2", {}, "Heroes"),
      snap.players.map((hero) => {
        const info = v.heroes[hero];
        const items = snap.extra.items[hero] || [];
        const keys = snap.extra.keys[hero] || [];
        const comps = snap.extra.companions[hero] || [];
        return h("div", { class: `kt-hero ${hero === snap.turn ? "now" : ""}`, "data-hero": hero },
          h("h3", {}, swatch(snap, ctx, hero), hero, ` on ${spaceWords(snap, info.space)}`,
            info.courtyard ? " (courtyard)" : "",
            info.demon_die ? h("span", { class: "kt-demon", id: "kt-demon-holder" }, " holds the Demon die") : ""),
          h("p", { class: "kt-keys" }, keys.length
            ? keys.map((k) => h("span", { class: `kt-key ${k.split("/")[0]}` }, `${k.split("/")[0]} key piece`))
            : h("span", { class: "muted" }, "no key pieces"),
          comps.length ? ` · companions: ${comps.map((c) => words(c.name) + (c.bonus ? ` +${c.bonus}` : "")).join(", ")}` : ""),
          h("div", { class: "kt-items" }, items.filter((i) => !i.exhausted).map(itemChip),
            items.filter((i) => i.exhausted).map(itemChip)));
      }));
  }

  // -- the board -------------------------------------------------------------------------------------
  // Drawn as the table has it (issue 21): the two boards side by side, each with its folding flap
  // at its outer edge, the Demon King board (courtyard and castle) apart above them; every land in
  // its place (extra.map, the pack's layout.yaml), its spaces on it joined by their paths, each
  // hero's pawn in their colour, the landing choices ringed (a paired phone touches one), and the
  // space a hero just moved to ringed in yellow. Spaces are named in words ("village space 3"),
  // never by their ids.

  const R = 12;
  const KEY_INK = { red: "#b3261e", green: "#1b6e2c", blue: "#1f4fa3" };
  // what a space shows inside its disc (the legend under the picture says each in words)
  const MARK = { start: "★", event: "?", "demon-die": "☠", genie: "✦", whirlpool: "◎" };
  // Who moved, to where: kept from picture to picture until positions change again, so a redraw
  // for another reason (a roll, a line of the play-by-play) keeps the ring. A page opened after
  // the move rings nothing until the next one.
  const seen = { game: null, spaces: null, moved: {} };

  function movedNow(snap) {
    const spaces = Object.fromEntries(snap.players.map((p) => [p, snap.view.heroes[p].space]));
    const game = `${snap.game}/${snap.players.join(",")}`;
    if (seen.game !== game) { seen.game = game; seen.spaces = spaces; seen.moved = {}; return seen.moved; }
    const moved = Object.fromEntries(Object.entries(spaces).filter(([p, s]) => seen.spaces[p] !== s));
    if (Object.keys(moved).length) { seen.moved = moved; seen.spaces = spaces; }
    return seen.moved;
  }

  function spaceWords(snap, id) { return (snap.extra.names || {})[id] || "a space"; }

  function bookShape(x, y, ink) {  // an adventure's book: two pages open
    return svg("path", { d: `M ${x - 7} ${y - 4} Q ${x - 3} ${y - 6} ${x} ${y - 3} Q ${x + 3} ${y - 6} ${x + 7} ${y - 4} `
      + `V ${y + 5} Q ${x + 3} ${y + 3} ${x} ${y + 6} Q ${x - 3} ${y + 3} ${x - 7} ${y + 5} Z M ${x} ${y - 3} V ${y + 6}`,
    fill: "#fff", stroke: ink, "stroke-width": "1.8", "stroke-linejoin": "round", "aria-hidden": "true" });
  }

  function kindOf(snap, id, kinds) {
    const kind = kinds.get(id) || "";
    return kind.startsWith("refresh") ? "refresh" : kind.startsWith("adventure") ? "adventure" : kind.replace(/ /g, "-");
  }

  function spaceDisc(snap, ctx, id, kind, at, state) {
    const [x, y] = at;
    const k = kindOf(snap, id, state.kinds);
    const who = state.here.get(id) || [];
    const reach = state.reach.get(id);
    const cls = ["kt-space", k, who.length ? "taken" : "", reach ? "reach" : "",
      Object.values(state.moved).includes(id) ? "justnow" : ""].filter(Boolean).join(" ");
    const touch = reach && ctx.paired && !snap.over;
    const said = `${spaceWords(snap, id)}: ${kind}${who.length ? `; ${who.join(" and ")} here` : ""}`
      + (reach ? "; a landing choice" : "");
    const g = svg("g", { class: cls, "data-space": id, role: touch ? "button" : null,
      tabindex: touch ? "0" : null, "aria-label": touch ? `land on ${said}` : null },
    svg("title", {}, said));
    if (touch) {
      g.append(svg("circle", { cx: x, cy: y, r: R + 9, class: "hit" }));
      g.addEventListener("click", () => ctx.act(reach));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.act(reach); } });
    }
    if (Object.values(state.moved).includes(id)) g.append(svg("circle", { cx: x, cy: y, r: R + 6, class: "ring-now" }));
    if (reach) g.append(svg("circle", { cx: x, cy: y, r: R + 4, class: "ring-reach" }));
    g.append(svg("circle", { cx: x, cy: y, r: R, class: "disc" }));
    if (k === "refresh") {
      g.append(svg("text", { x, y: y + 4, class: "mark" }, `↻${kind.split(" ")[1]}`));
    } else if (k === "adventure") {
      const colour = (state.colours || {})[id];
      g.append(bookShape(x, y, KEY_INK[colour] || "#6b4f00"));
    } else if (MARK[k]) {
      g.append(svg("text", { x, y: y + 4, class: "mark" }, MARK[k]));
    }
    who.forEach((p, i) => {  // each pawn a disc in the hero's colour, beside the space
      const px = x + R - 2 + i * 9, py = y - R + 1;
      g.append(svg("circle", { cx: px, cy: py, r: "6.5", class: "pawn", "data-hero": p,
        fill: ctx.colourOf(snap, p, snap.players.indexOf(p)) }));
    });
    return g;
  }

  // the paths: a line between joined spaces of one land, dotted where a path crosses from one
  // land to another (the boards' dotted paths), bent where the layout says
  function roads(map, ids) {
    const bent = new Map((map.bends || []).map((b) => [b.between.join("|"), b.via]));
    return (map.links || []).filter(([a, b]) => ids.has(a) && ids.has(b)).map(([a, b]) => {
      const via = bent.get(`${a}|${b}`) || [...(bent.get(`${b}|${a}`) || [])].reverse();
      const pts = [map.spaces[a], ...via, map.spaces[b]];
      return svg("polyline", { points: pts.map((p) => p.join(",")).join(" "),
        class: map.landOf[a] !== map.landOf[b] ? "road across" : "road" });
    });
  }

  // the castle's sections as a climb (the list under the picture names them and their tokens)
  function castleDrawing(snap, at) {
    const [x, y, w, hgt] = at;
    const sections = snap.view.castle;
    const n = sections.length;
    const bw = (w - 28) / n;
    const g = svg("g", { class: "kt-castle-pic", "aria-hidden": "true" });
    sections.forEach((_, i) => {  // the climb: each section a step higher, the throne on top
      const top = y + hgt - (i + 1) * (hgt - 16) / n;
      g.append(svg("rect", { x: x + i * bw, y: top, width: bw - 2, height: y + hgt - top, class: "step" }),
        svg("text", { x: x + i * bw + bw / 2 - 1, y: top + 14, class: "steplabel" }, String(i + 1)));
    });
    g.append(svg("rect", { x: x + w - 26, y, width: 24, height: hgt, class: "throne" }),
      svg("text", { x: x + w - 14, y: y + hgt / 2 + 4, class: "steplabel", transform: `rotate(-90 ${x + w - 14} ${y + hgt / 2})` }, "throne"));
    return g;
  }

  function drawing(snap, ctx) {
    const v = snap.view, x = snap.extra, map = { ...x.map };
    const kinds = new Map([...x.lands.flatMap((l) => l.spaces), ...x.courtyard]);
    map.landOf = {};
    for (const l of x.lands) for (const [id] of l.spaces) map.landOf[id] = l.land;
    const here = new Map();
    for (const p of snap.players) {
      const s = v.heroes[p].space;
      here.set(s, [...(here.get(s) || []), p]);
    }
    const state = { kinds, here, colours: map.colours || {}, moved: movedNow(snap),
      reach: new Map((x.legal || []).filter((a) => a.action === "move").map((a) => [a.to, a])) };
    const [W, H] = map.size;
    const pic = svg("svg", { id: "kt-map", class: "kt-map", viewBox: `0 0 ${W} ${H}`, role: "group",
      "aria-label": "The kingdom: the two boards with their flaps, and the Demon King board" });
    // the Demon King board: the courtyard and the castle
    const [dx, dy, dw, dh] = map.demon_board;
    pic.append(svg("rect", { x: dx, y: dy, width: dw, height: dh, rx: "8", class: "demonboard" }),
      svg("text", { x: dx + 10, y: dy + 17, class: "landname light" }, "The Demon King's board"),
      svg("text", { x: dx + 10, y: dy + 36, class: "note light" }, "courtyard"),
      castleDrawing(snap, map.castle));
    // the boards, then each land showing, with its flap's fold and what lies folded away
    for (const b of map.boards || []) {
      const [bx, by, bw, bh] = b.at;
      pic.append(svg("rect", { x: bx + 1, y: by + 1, width: bw - 2, height: bh - 2, rx: "6", class: "boardedge" }));
    }
    const shown = x.lands.filter((l) => l.shown);
    const shownIds = new Set([...shown.flatMap((l) => l.spaces.map(([id]) => id))]);
    for (const l of shown) {
      const place = map.lands.find((p) => p.land === l.land);
      const [lx, ly, lw, lh] = place.at;
      const g = svg("g", { class: `kt-landpic ${l.flap ? "flap" : ""}`, "data-land": l.land },
        svg("title", {}, l.flap ? `${words(l.land)}: the ${l.flap} flap, ${l.side === "open" ? "unfolded" : "folded"}` : words(l.land)),
        svg("rect", { x: lx + 3, y: ly + 3, width: lw - 6, height: lh - 6, rx: "5", fill: place.colour, class: "land" }),
        svg("text", { x: lx + lw / 2, y: ly + 16, class: "landname" }, words(l.land)));
      if (l.flap) {
        const other = x.lands.find((o) => o.flap === l.flap && o.land !== l.land);
        const fold = lx < W / 2 ? lx + lw - 3 : lx + 3;  // the fold is on the inner edge
        g.append(svg("line", { x1: fold, y1: ly + 6, x2: fold, y2: ly + lh - 6, class: "fold" }),
          svg("text", { x: lx + lw / 2, y: ly + lh - 20, class: "note" }, l.side === "open" ? "unfolded" : "folded"),
          other ? svg("text", { x: lx + lw / 2, y: ly + lh - 8, class: "note" }, `under: ${words(other.land)}`) : null);
      }
      pic.append(g);
    }
    pic.append(...roads(map, shownIds));
    for (const l of shown) for (const [id, kind] of l.spaces) pic.append(spaceDisc(snap, ctx, id, kind, x.map.spaces[id], state));
    for (const [id, kind] of x.courtyard) pic.append(spaceDisc(snap, ctx, id, kind, x.map.spaces[id], state));
    return pic;
  }

  function legend() {
    return h("p", { class: "muted legend", id: "kt-legend" },
      "★ start · ↻ refresh that many items · ? event card · ☠ Demon die · ✦ genie · ◎ whirlpool · ",
      "a book: an adventure (red, green, blue: its key) · a dark disc: a void · a dashed ring: where the roll can land · ",
      "a yellow ring: where a hero just moved.");
  }

  function board(snap, ctx) {
    const v = snap.view;
    const folded = snap.extra.lands.filter((l) => !l.shown);
    const castle = v.castle.map((c, i) => {
      const up = c.face_up.map((t) => {
        const tok = snap.extra.tokens[t] || {};
        return `${words(t)} (target ${tok.target}${tok.item ? `, ${words(tok.item)}` : ""})`;
      });
      return h("li", {}, `${i + 1}. ${words(c.section)}: ${c.tokens_left} token(s) left`,
        up.length ? `; face up: ${up.join(", ")}` : "");
    });
    const pic = drawing(snap, ctx);  // first: it works out who just moved
    const moved = Object.entries(seen.moved);
    return h("section", { class: "card", id: "kt-board" }, h("h2", {}, "The kingdom"),
      pic,
      moved.length ? h("p", { id: "kt-moved" }, `Just moved: ${moved.map(([p, s]) => `${p} to ${spaceWords(snap, s)}`).join(", ")}.`) : null,
      legend(),
      folded.length ? h("p", { class: "muted", id: "kt-folded" },
        `Folded away: ${folded.map((l) => `${words(l.land)} (${l.flap} flap, ${l.side} side)`).join(", ")}`) : null,
      h("h3", {}, "The Demon King's castle"),
      h("ol", { class: "kt-castle", id: "kt-castle" }, castle),
      h("dl", { class: "facts" },
        h("dt", {}, "Demon die"), h("dd", {}, v.demon_die ? `with ${v.demon_die}` : "on the throne"),
        h("dt", {}, "Key piles"), h("dd", {}, Object.entries(v.key_piles).map(([c, n]) => `${c} ${n}`).join(", ")),
        h("dt", {}, "Magic items"), h("dd", {}, v.supply.length ? `${v.supply.map(words).join(", ")} in the supply` : "all taken"),
        h("dt", {}, "Event deck"), h("dd", {}, `${v.deck} card(s), ${v.discard.length} discarded`),
        h("dt", {}, "Content"), h("dd", {}, `${v.pack} pack${v.stand_in ? " (stand-in)" : ""}, ${v.dice} dice`)));
  }

  window.TT.views["key-to-the-kingdom"] = {
    // the page's top line: the hero asked, and what the game waits for
    now(snap) {
      const v = snap.view;
      const who = v.ask && v.ask.hero ? v.ask.hero : snap.turn;
      return v.waiting_for ? `${who ? `${who}: ` : ""}${v.waiting_for}` : null;
    },
    render(el, snap, ctx) {
      const key = `${snap.view.phase}/${snap.turn}/${snap.actions}`;
      if (key !== ui.key) { ui.key = key; ui.roll = ""; ui.pick = new Set(); }
      el.append(now(snap, ctx), heroes(snap, ctx), board(snap, ctx));
    },
  };
})();
