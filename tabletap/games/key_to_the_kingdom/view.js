// Key to the Kingdom: what the game waits for, the roll in progress, the adventure or castle step
// under way, every hero (space, Demon die, key pieces, companions, items available and
// exhausted), the board drawn as the table has it (the lands showing in their places, the folded
// ones named, the heroes' pawns, the hero just moved ringed), the courtyard and the castle. A paired phone enters what a tap cannot say: the landing space (touch a highlighted
// space or its button), a physical roll by number, an item's add or subtract, and the other
// choices the engine offers. Every touch sends the console's `do:` action; the daemon's snapshot
// lists the legal ones (extra.legal), so this file knows no rule. Every sentence is the page's
// language (TT.t, this game's catalog); every name (heroes, items, lands, spaces, sections,
// tokens, key colours) comes in the snapshot's extras already in words (page.py).
"use strict";
(() => {
  const TT = window.TT;
  const { h, svg } = TT;
  const ui = { key: "", roll: "", pick: new Set() };
  // Choices of several items: the engine lists every set of the largest size, so with more
  // items than that the page lets them be picked one by one and sends the set.
  const PICKS = ["nap", "refresh", "exhaust"];
  const plain = (s) => String(s).replace(/-/g, " ");
  const list = (names) => TT.join(names);

  // "knight/sword" -> "sword", "magic/bee-cannon" -> "bee cannon", "event/7" -> its companion.
  function itemName(snap, id) {
    if (id.startsWith("event/")) {
      const n = Number(id.slice(6));
      for (const cards of Object.values(snap.extra.companions)) {
        const c = cards.find((x) => x.card === n);
        if (c) return c.name;
      }
      // TRANSLATORS: page: an event card nobody holds, by its number
      return TT.t("card %(n)s", { n });
    }
    const kind = id.split("/").slice(1).join("/");
    return (snap.extra.kinds || {})[kind] || plain(kind);
  }
  const ownerOf = (id) => id.split("/")[0];
  const heroName = (snap, hero) => (snap.extra.heroes || {})[hero] || hero;
  const colourName = (snap, c) => (snap.extra.colours || {})[c] || c;

  function swatch(snap, ctx, hero) {
    return h("span", { class: "swatch", css: { background: ctx.colourOf(snap, hero, snap.players.indexOf(hero)) } });
  }

  // -- what the game waits for, and the paired phone's tools -------------------------------------

  function stepLine(snap) {
    const s = snap.extra.step;
    if (!s) return null;
    const hero = s.hero_name || s.hero;
    const what = s.kind === "adventure" && s.colour
      // TRANSLATORS: page: a hero's key adventure under way; colour is its key's colour
      ? TT.t("%(hero)s on %(adventure)s (the %(colour)s key): step %(step)s of %(steps)s",
        { hero, adventure: s.name, colour: s.colour_name || s.colour, step: s.step, steps: s.steps })
      : s.kind === "adventure"
        // TRANSLATORS: page: a hero's minor adventure under way
        ? TT.t("%(hero)s on %(adventure)s: step %(step)s of %(steps)s",
          { hero, adventure: s.name, step: s.step, steps: s.steps })
        : s.kind === "castle"
          // TRANSLATORS: page: a hero in the Demon King's castle; section is its part, token the foe
          ? TT.t("%(hero)s in the castle, %(section)s (section %(step)s of %(steps)s): %(token)s",
            { hero, section: s.section, step: s.step, steps: s.steps, token: s.name })
          // TRANSLATORS: page: a hero facing a challenge (what set it: a card, an adventure)
          : TT.t("%(hero)s against %(what)s", { hero, what: s.name });
    const shows = [s.item, s.companion].filter(Boolean).map(plain);
    return h("dl", { class: "facts", id: "kt-step" },
      // TRANSLATORS: page: the heading of the adventure or castle step under way
      h("dt", {}, TT.t("Under way")), h("dd", {}, what),
      // TRANSLATORS: page: the heading of the roll a step needs
      h("dt", {}, TT.t("Target")),
      // TRANSLATORS: page: the roll a step needs, target a number
      h("dd", {}, TT.t("%(target)s or more", { target: s.target })),
      // TRANSLATORS: page: the heading of what lets a hero in without rolling
      shows.length ? [h("dt", {}, TT.t("Shortcut")), h("dd", {}, s.shortcut
        // TRANSLATORS: page: what the hero shows (an item, a companion) lets them in
        ? TT.t("%(what)s: in without rolling", { what: s.shortcut })
        // TRANSLATORS: page: what would let the hero in, which they do not have
        : TT.t("shows %(what)s (not available)", { what: TT.join(shows, "or") }))] : null);
  }

  function rollLine(snap) {
    const r = snap.view.roll;
    if (!r) return null;
    const uses = Object.entries(r.uses).map(([i, d]) => `${d > 0 ? "+" : "−"}${Math.abs(d)} ${itemName(snap, i)}`);
    const PURPOSES = {
      // TRANSLATORS: page: what a roll in progress is for
      move: TT.t("Moving"),
      // TRANSLATORS: page: what a roll in progress is for
      adventure: TT.t("Rolling for the adventure"),
      // TRANSLATORS: page: what a roll in progress is for
      castle: TT.t("Rolling for the castle"),
      // TRANSLATORS: page: what a roll in progress is for
      challenge: TT.t("Rolling for the challenge"),
    };
    const die = r.die === "demon"
      // TRANSLATORS: page: the roll in progress; value is what the Demon die shows
      ? TT.t("%(value)s on the Demon die", { value: r.value })
      // TRANSLATORS: page: the roll in progress; value is what the hero's die shows
      : TT.t("%(value)s on the hero die", { value: r.value });
    return h("p", { id: "kt-roll-now", class: "turn" },
      `${PURPOSES[r.purpose] || plain(r.purpose)}: `, die,
      uses.length ? ` ${uses.join(" ")}` : "", ` = ${r.result}`);
  }

  function label(snap, a) {
    switch (a.action) {
      case "nap": case "refresh": case "exhaust": return pickLabel(snap, a.action, a.items);
      // TRANSLATORS: page: a button giving the Demon die to a hero
      case "assign": return TT.t("Demon die to %(hero)s", { hero: heroName(snap, a.hero) });
      // TRANSLATORS: page: a button taking a magic item from the supply
      case "take-magic": return TT.t("Take %(item)s", { item: itemName(snap, `magic/${a.item}`) });
      case "steal": {
        const item = itemName(snap, a.item), hero = heroName(snap, ownerOf(a.item));
        // TRANSLATORS: page: a button stealing another hero's item
        return TT.t("Steal %(item)s from %(hero)s", { item, hero });
      }
      // TRANSLATORS: page: a button sweeping a hero away in the whirlpool
      case "sweep": return TT.t("Sweep %(hero)s away", { hero: heroName(snap, a.hero) });
      case "take-key": {
        const colour = colourName(snap, String(a.piece).split("/")[0]);
        // TRANSLATORS: page: a button taking a key piece; colour is its colour
        return TT.t("Take the %(colour)s key piece", { colour });
      }
      // TRANSLATORS: page: a button landing on a courtyard space (its name)
      case "courtyard": return TT.t("Go to %(space)s", { space: spaceWords(snap, a.space) });
      // TRANSLATORS: page: a button entering the Demon King's castle
      case "castle": return TT.t("Enter the castle");
      case "shortcut": return (snap.extra.step && snap.extra.step.shortcut)
        // TRANSLATORS: page: a button using what lets the hero in without rolling
        ? TT.t("Shortcut: %(what)s", { what: snap.extra.step.shortcut })
        // TRANSLATORS: page: a button going in without rolling
        : TT.t("Shortcut: in without rolling");
      // TRANSLATORS: page: a button taking the roll as it stands; result is its total
      case "resolve": return TT.t("Take the roll as it is (%(result)s)",
        { result: snap.view.roll ? snap.view.roll.result : "" });
      // TRANSLATORS: page: a button for a choice this page has no words for
      default: return TT.t("Choose this");
    }
  }

  // "Heroic nap: refresh sword and bow": the items named, or nothing
  function pickLabel(snap, kind, items) {
    const names = items.map((i) => itemName(snap, i));
    if (!names.length) {
      // TRANSLATORS: page: a button taking a heroic nap that refreshes nothing
      return kind === "nap" ? TT.t("Heroic nap: refresh nothing")
        // TRANSLATORS: page: a button refreshing nothing
        : kind === "refresh" ? TT.t("Refresh nothing")
          // TRANSLATORS: page: a button exhausting nothing
          : TT.t("Exhaust nothing");
    }
    const items_ = list(names);
    // TRANSLATORS: page: a button taking a heroic nap (the turn) that refreshes the items
    return kind === "nap" ? TT.t("Heroic nap: refresh %(items)s", { items: items_ })
      // TRANSLATORS: page: a button refreshing the items named
      : kind === "refresh" ? TT.t("Refresh %(items)s", { items: items_ })
        // TRANSLATORS: page: a button exhausting the items named
        : TT.t("Exhaust %(items)s", { items: items_ });
  }

  function useButton(snap, ctx, a) {
    const item = itemName(snap, a.item);
    const amount = a.amount ?? null;
    const sign = a.sign === -1 ? "−" : "+";
    const extra = a.target
      // TRANSLATORS: page: what using an item also does: exhausts another hero's item
      ? " " + TT.t("(exhausts %(item)s of %(hero)s)", { item: itemName(snap, a.target), hero: heroName(snap, ownerOf(a.target)) })
      // TRANSLATORS: page: what using an item also does: refreshes an item
      : a.refresh ? " " + TT.t("(refreshes %(item)s)", { item: itemName(snap, a.refresh) }) : "";
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
        // TRANSLATORS: page: said when the roll's box holds no whole number
        if (input.value === "" || !Number.isInteger(n)) { ctx.toast(TT.t("Type the number the die shows.")); return; }
        ui.roll = "";
        ctx.act({ action: "roll", value: n });
      };
      out.push(h("div", { class: "tools kt-rollbox" },
        // TRANSLATORS: page: the label of the box for a real die's number
        h("label", { class: "kt-rolllabel" }, TT.t("What the die shows"), input),
        // TRANSLATORS: page: the button sending the real die's number
        h("button", { type: "button", id: "kt-roll", onclick: send }, TT.t("Enter the roll"))));
    } else if (rolls.length) {
      out.push(h("div", { class: "tools" }, h("button", { type: "button", id: "kt-roll",
        // TRANSLATORS: page: the button that has the table roll the die
        onclick: () => ctx.act({ action: "roll" }) }, TT.t("Roll the die"))));
    }
    const moves = legal.filter((a) => a.action === "move");
    if (moves.length) {
      const kinds = new Map(snap.extra.lands.flatMap((l) => l.spaces));
      out.push(h("h2", {}, moves.length > 1
        // TRANSLATORS: page: the heading of the landing choices; n is how many
        ? TT.tn("Land on one of %(n)s space", "Land on one of %(n)s spaces", moves.length)
        // TRANSLATORS: page: the heading of the one landing space
        : TT.t("Land on")),
        h("div", { class: "kt-choices", id: "kt-landing" }, moves.map((a) =>
          h("button", { type: "button", class: "kt-land", "data-space": a.to,
            onclick: () => ctx.act(a) }, h("strong", {}, spaceWords(snap, a.to)), ` ${kinds.get(a.to) || ""}`))));
    }
    const uses = legal.filter((a) => a.action === "use");
    if (uses.length) {
      // TRANSLATORS: page: the heading of the items that can change a roll
      out.push(h("h2", {}, TT.t("Change the roll with an item")),
        h("div", { class: "kt-choices", id: "kt-uses" }, uses.map((a) => useButton(snap, ctx, a))));
    }
    for (const kind of PICKS) {
      const sets = legal.filter((a) => a.action === kind);
      if (sets.length < 2) continue;
      const pool = [...new Set(sets.flatMap((a) => a.items))];
      const most = Math.max(...sets.map((a) => a.items.length));
      const chosen = pool.filter((i) => ui.pick.has(i));
      const head = kind === "nap"
        // TRANSLATORS: page: choosing items for a heroic nap; most of n items may be picked
        ? TT.tn("Heroic nap: refresh up to %(most)s of %(n)s item", "Heroic nap: refresh up to %(most)s of %(n)s items", pool.length, { most })
        : kind === "refresh"
          // TRANSLATORS: page: choosing items to refresh; most of n items may be picked
          ? TT.tn("Refresh up to %(most)s of %(n)s item", "Refresh up to %(most)s of %(n)s items", pool.length, { most })
          // TRANSLATORS: page: choosing items to exhaust; most of n items may be picked
          : TT.tn("Exhaust up to %(most)s of %(n)s item", "Exhaust up to %(most)s of %(n)s items", pool.length, { most });
      out.push(h("h2", {}, head),
        h("div", { class: "kt-choices", id: `kt-pick-${kind}` }, pool.map((i) =>
          h("button", { type: "button", class: `kt-pick ${ui.pick.has(i) ? "" : "secondary"}`,
            "data-item": i, "aria-pressed": ui.pick.has(i) ? "true" : "false",
            onclick: () => { if (!ui.pick.delete(i)) ui.pick.add(i); window.TT.redraw(); } },
          itemName(snap, i)))),
        h("div", { class: "tools" }, h("button", { type: "button", id: `kt-send-${kind}`,
          onclick: () => ctx.act({ action: kind, items: chosen }) },
        pickLabel(snap, kind, chosen))));
    }
    const picked = (a) => PICKS.includes(a.action) && legal.filter((b) => b.action === a.action).length > 1;
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
    const head = snap.over
      // TRANSLATORS: page: the end of the game; hero is the winner
      ? TT.t("%(hero)s has defeated the Demon King and wins.", { hero: heroName(snap, v.winner) })
      : (who ? `${heroName(snap, who)}: ` : "") + TT.t(v.waiting_for) + ".";
    return h("section", { class: "card", id: "kt-now" },
      h("p", { id: "todo" }, head), rollLine(snap), stepLine(snap), tools(snap, ctx));
  }

  // -- the heroes ----------------------------------------------------------------------------------

  function itemChip(it) {
    return h("span", { class: `kt-item ${it.exhausted ? "exhausted" : ""} ${it.magic ? "magic" : ""}`,
      "data-item": it.id, title: it.exhausted
        // TRANSLATORS: page: an item that is used up until it is refreshed
        ? TT.t("exhausted")
        // TRANSLATORS: page: an item that is ready to use
        : TT.t("available") },
    `${it.name} ${it.values.map((x) => `±${x}`).join("/")}`);
  }

  // a companion by its name and bonus ("novice knight +1")
  const companionWords = (c) => (c.bonus ? `${c.name} +${c.bonus}` : c.name);

  function heroOn(snap, hero, space) {
    const where = { hero: heroName(snap, hero), space: spaceWords(snap, space) };
    // TRANSLATORS: page: a hero and the space their pawn stands on
    return TT.t("%(hero)s on %(space)s", where);
  }

  function heroes(snap, ctx) {
    const v = snap.view;
    // TRANSLATORS: page: the heading of the heroes' list
    return h("section", { class: "card", id: "kt-heroes" }, h("h2", {}, TT.t("Heroes")),
      snap.players.map((hero) => {
        const info = v.heroes[hero];
        const items = snap.extra.items[hero] || [];
        const keys = snap.extra.keys[hero] || [];
        const comps = snap.extra.companions[hero] || [];
        return h("div", { class: `kt-hero ${hero === snap.turn ? "now" : ""}`, "data-hero": hero },
          h("h3", {}, swatch(snap, ctx, hero), heroOn(snap, hero, info.space),
          // TRANSLATORS: page: after a hero's space, when it is in the Demon King's courtyard
          info.courtyard ? " " + TT.t("(courtyard)") : "",
          // TRANSLATORS: page: after a hero's name and space, when they hold the Demon die
          info.demon_die ? h("span", { class: "kt-demon", id: "kt-demon-holder" }, " " + TT.t("holds the Demon die")) : ""),
          h("p", { class: "kt-keys" }, keys.length
            // TRANSLATORS: page: a key piece a hero holds; colour is its colour
            ? keys.map((k) => h("span", { class: `kt-key ${k.split("/")[0]}` }, TT.t("%(colour)s key piece", { colour: colourName(snap, k.split("/")[0]) })))
            // TRANSLATORS: page: a hero who holds no key piece yet
            : h("span", { class: "muted" }, TT.t("no key pieces")),
          // TRANSLATORS: page: the companions a hero has (their names, each with its bonus)
          comps.length ? " · " + TT.t("companions: %(names)s", { names: list(comps.map(companionWords)) }) : ""),
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

  // TRANSLATORS: page: a space the page has no name for
  function spaceWords(snap, id) { return (snap.extra.names || {})[id] || TT.t("a space"); }

  function bookShape(x, y, ink) {  // an adventure's book: two pages open
    return svg("path", { d: `M ${x - 7} ${y - 4} Q ${x - 3} ${y - 6} ${x} ${y - 3} Q ${x + 3} ${y - 6} ${x + 7} ${y - 4} `
      + `V ${y + 5} Q ${x + 3} ${y + 3} ${x} ${y + 6} Q ${x - 3} ${y + 3} ${x - 7} ${y + 5} Z M ${x} ${y - 3} V ${y + 6}`,
    fill: "#fff", stroke: ink, "stroke-width": "1.8", "stroke-linejoin": "round", "aria-hidden": "true" });
  }

  function kindOf(snap, id) {  // the space's kind as the pack names it, for its mark and class
    return ((snap.extra.marks || {})[id] || {}).kind || "";
  }

  function spaceDisc(snap, ctx, id, kind, at, state) {
    const [x, y] = at;
    const k = kindOf(snap, id);
    const who = state.here.get(id) || [];
    const reach = state.reach.get(id);
    const cls = ["kt-space", k, who.length ? "taken" : "", reach ? "reach" : "",
      Object.values(state.moved).includes(id) ? "justnow" : ""].filter(Boolean).join(" ");
    const touch = reach && ctx.paired && !snap.over;
    const parts = [`${spaceWords(snap, id)}: ${kind}`];
    // TRANSLATORS: page: a space's label: the heroes whose pawns stand on it
    if (who.length) parts.push(TT.t("%(heroes)s here", { heroes: list(who.map((p) => heroName(snap, p))) }));
    // TRANSLATORS: page: a space's label: the roll can land there
    if (reach) parts.push(TT.t("a landing choice"));
    const said = parts.join("; ");
    const g = svg("g", { class: cls, "data-space": id, role: touch ? "button" : null,
      // TRANSLATORS: page: what touching a landing space does; space is its label
      tabindex: touch ? "0" : null, "aria-label": touch ? TT.t("land on %(space)s", { space: said }) : null },
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
      g.append(svg("text", { x, y: y + 4, class: "mark" }, `↻${snap.extra.marks[id].refresh}`));
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
      // TRANSLATORS: page: drawn on the Demon King's throne at the castle's top
      svg("text", { x: x + w - 14, y: y + hgt / 2 + 4, class: "steplabel", transform: `rotate(-90 ${x + w - 14} ${y + hgt / 2})` }, TT.t("throne")));
    return g;
  }

  function drawing(snap, ctx) {
    const v = snap.view, x = snap.extra, map = { ...x.map };
    map.landOf = {};
    for (const l of x.lands) for (const [id] of l.spaces) map.landOf[id] = l.land;
    const here = new Map();
    for (const p of snap.players) {
      const s = v.heroes[p].space;
      here.set(s, [...(here.get(s) || []), p]);
    }
    const state = { here, colours: map.colours || {}, moved: movedNow(snap),
      reach: new Map((x.legal || []).filter((a) => a.action === "move").map((a) => [a.to, a])) };
    const [W, H] = map.size;
    const pic = svg("svg", { id: "kt-map", class: "kt-map", viewBox: `0 0 ${W} ${H}`, role: "group",
      // TRANSLATORS: page: what the board's picture shows, for a screen reader
      "aria-label": TT.t("The kingdom: the two boards with their flaps, and the Demon King board") });
    // the Demon King board: the courtyard and the castle
    const [dx, dy, dw, dh] = map.demon_board;
    pic.append(svg("rect", { x: dx, y: dy, width: dw, height: dh, rx: "8", class: "demonboard" }),
      // TRANSLATORS: page: the name drawn on the Demon King's board
      svg("text", { x: dx + 10, y: dy + 17, class: "landname light" }, TT.t("The Demon King's board")),
      // TRANSLATORS: page: drawn on the Demon King's board, over the courtyard's spaces
      svg("text", { x: dx + 10, y: dy + 36, class: "note light" }, TT.t("courtyard")),
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
        svg("title", {}, l.flap ? `${l.name}: ${flapWords(l)}` : l.name),
        svg("rect", { x: lx + 3, y: ly + 3, width: lw - 6, height: lh - 6, rx: "5", fill: place.colour, class: "land" }),
        svg("text", { x: lx + lw / 2, y: ly + 16, class: "landname" }, l.name));
      if (l.flap) {
        const other = x.lands.find((o) => o.flap === l.flap && o.land !== l.land);
        const fold = lx < W / 2 ? lx + lw - 3 : lx + 3;  // the fold is on the inner edge
        g.append(svg("line", { x1: fold, y1: ly + 6, x2: fold, y2: ly + lh - 6, class: "fold" }),
          svg("text", { x: lx + lw / 2, y: ly + lh - 20, class: "note" }, foldWords(l)),
          // TRANSLATORS: page: drawn on a flap: the land folded away under it
          other ? svg("text", { x: lx + lw / 2, y: ly + lh - 8, class: "note" }, TT.t("under: %(land)s", { land: other.name })) : null);
      }
      pic.append(g);
    }
    pic.append(...roads(map, shownIds));
    for (const l of shown) for (const [id, kind] of l.spaces) pic.append(spaceDisc(snap, ctx, id, kind, x.map.spaces[id], state));
    for (const [id, kind] of x.courtyard) pic.append(spaceDisc(snap, ctx, id, kind, x.map.spaces[id], state));
    return pic;
  }

  // the flap a land is on and whether it lies open
  function foldWords(l) {
    return l.side === "open"
      // TRANSLATORS: page: a flap lying open (unfolded)
      ? TT.t("unfolded")
      // TRANSLATORS: page: a flap folded over
      : TT.t("folded");
  }
  // which flap a land is on and which of its sides ("west flap, open side")
  function flapWords(l) {
    const open = l.side === "open";
    switch (l.flap) {
      // TRANSLATORS: page: a land on the west board's flap, on the side that shows when it is open
      case "west": return open ? TT.t("west flap, open side")
        // TRANSLATORS: page: a land on the west board's flap, on the side that shows when folded
        : TT.t("west flap, folded side");
      // TRANSLATORS: page: a land on the east board's flap, on the side that shows when it is open
      case "east": return open ? TT.t("east flap, open side")
        // TRANSLATORS: page: a land on the east board's flap, on the side that shows when folded
        : TT.t("east flap, folded side");
      default: return open
        // TRANSLATORS: page: a land on a flap (a pack's own name for it), on its open side
        ? TT.t("%(flap)s flap, open side", { flap: plain(l.flap) })
        // TRANSLATORS: page: a land on a flap (a pack's own name for it), on its folded side
        : TT.t("%(flap)s flap, folded side", { flap: plain(l.flap) });
    }
  }

  function legend() {
    return h("p", { class: "muted legend", id: "kt-legend" },
      // TRANSLATORS: page: the legend of the marks drawn on the board's spaces (keep the symbols)
      TT.t("★ start · ↻ refresh that many items · ? event card · ☠ Demon die · ✦ genie · ◎ whirlpool · "
        + "a book: an adventure (red, green, blue: its key) · a dark disc: a void · "
        + "a dashed ring: where the roll can land · a yellow ring: where a hero just moved."));
  }

  function foldedAway(folded) {
    const lands = list(folded.map((l) => `${l.name} (${flapWords(l)})`));
    // TRANSLATORS: page: the lands folded away under a flap (each with its flap and how it lies)
    return TT.t("Folded away: %(lands)s", { lands });
  }

  function board(snap, ctx) {
    const v = snap.view;
    const folded = snap.extra.lands.filter((l) => !l.shown);
    const sections = snap.extra.sections || [];
    const castle = v.castle.map((c, i) => {
      const up = c.face_up.map((t) => {
        const tok = snap.extra.tokens[t] || {};
        return tok.item_name
          // TRANSLATORS: page: a face-up castle token, the roll it needs and the item that passes it
          ? TT.t("%(token)s (target %(target)s, %(item)s)", { token: tok.name || plain(t), target: tok.target, item: tok.item_name })
          // TRANSLATORS: page: a face-up castle token and the roll it needs
          : TT.t("%(token)s (target %(target)s)", { token: tok.name || plain(t), target: tok.target });
      });
      const left = { step: i + 1, section: sections[i] || plain(c.section) };
      // TRANSLATORS: page: a castle section (its name) and how many tokens it has left
      return h("li", {}, TT.tn("%(step)s. %(section)s: %(n)s token left", "%(step)s. %(section)s: %(n)s tokens left", c.tokens_left, left),
      // TRANSLATORS: page: after a castle section, its face-up tokens
      up.length ? "; " + TT.t("face up: %(tokens)s", { tokens: list(up) }) : "");
    });
    const pic = drawing(snap, ctx);  // first: it works out who just moved
    const moved = Object.entries(seen.moved);
    // TRANSLATORS: page: a hero who just moved and the space they moved to
    const went = moved.map(([p, s]) => TT.t("%(hero)s to %(space)s", { hero: heroName(snap, p), space: spaceWords(snap, s) }));
    // TRANSLATORS: page: the heading of the board's picture
    return h("section", { class: "card", id: "kt-board" }, h("h2", {}, TT.t("The kingdom")),
      pic,
      // TRANSLATORS: page: under the board: who just moved where
      moved.length ? h("p", { id: "kt-moved" }, TT.t("Just moved: %(moves)s.", { moves: list(went) })) : null,
      legend(),
      folded.length ? h("p", { class: "muted", id: "kt-folded" }, foldedAway(folded)) : null,
      // TRANSLATORS: page: the heading of the castle's sections
      h("h3", {}, TT.t("The Demon King's castle")),
      h("ol", { class: "kt-castle", id: "kt-castle" }, castle),
      h("dl", { class: "facts" },
        // TRANSLATORS: page: the heading of where the Demon die is
        h("dt", {}, TT.t("Demon die")), h("dd", {}, v.demon_die
          // TRANSLATORS: page: the Demon die is with a hero
          ? TT.t("with %(hero)s", { hero: heroName(snap, v.demon_die) })
          // TRANSLATORS: page: the Demon die is on the Demon King's throne
          : TT.t("on the throne")),
        // TRANSLATORS: page: the heading of the key pieces left in each colour's pile
        h("dt", {}, TT.t("Key piles")), h("dd", {}, list(Object.entries(v.key_piles).map(([c, n]) => `${colourName(snap, c)} ${n}`))),
        // TRANSLATORS: page: the heading of the magic items
        h("dt", {}, TT.t("Magic items")), h("dd", {}, v.supply.length
          // TRANSLATORS: page: the magic items nobody has taken yet
          ? TT.t("%(items)s in the supply", { items: list(v.supply.map((m) => itemName(snap, `magic/${m}`))) })
          // TRANSLATORS: page: every magic item has been taken
          : TT.t("all taken")),
        // TRANSLATORS: page: the heading of the event deck's size
        h("dt", {}, TT.t("Event deck")),
        // TRANSLATORS: page: cards left in the event deck (n) and cards discarded
        h("dd", {}, TT.tn("%(n)s card, %(discarded)s discarded", "%(n)s cards, %(discarded)s discarded", v.deck,
          { discarded: v.discard.length })),
        // TRANSLATORS: page: the heading of the content pack and dice the game uses
        h("dt", {}, TT.t("Content")), h("dd", {}, v.stand_in
          // TRANSLATORS: page: the content pack (its name) is a stand-in, not the real game's content
          ? TT.t("the %(pack)s pack (stand-in)", { pack: v.pack })
          // TRANSLATORS: page: the content pack the game uses (its name)
          : TT.t("the %(pack)s pack", { pack: v.pack }),
        // TRANSLATORS: page: the table rolls the dice / the family rolls real dice
        ", ", v.dice === "digital" ? TT.t("the table rolls") : TT.t("real dice"))));
  }

  window.TT.views["key-to-the-kingdom"] = {
    // the page's top line: the hero asked, and what the game waits for
    now(snap) {
      const v = snap.view;
      const who = v.ask && v.ask.hero ? v.ask.hero : snap.turn;
      return v.waiting_for ? (who ? `${heroName(snap, who)}: ` : "") + TT.t(v.waiting_for) : null;
    },
    render(el, snap, ctx) {
      const key = `${snap.view.phase}/${snap.turn}/${snap.actions}`;
      if (key !== ui.key) { ui.key = key; ui.roll = ""; ui.pick = new Set(); }
      el.append(now(snap, ctx), heroes(snap, ctx), board(snap, ctx));
    },
  };
})();
