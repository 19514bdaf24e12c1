// Key to the Kingdom: what the game waits for, the roll in progress, the adventure or castle step
// under way, every hero (space, Demon die, key pieces, companions, items available and
// exhausted), the lands showing and folded away with the heroes on them, the courtyard and the
// castle. A paired phone enters what a tap cannot say: the landing space (touch a highlighted
// space or its button), a physical roll by number, an item's add or subtract, and the other
// choices the engine offers. Every touch sends the console's `do:` action; the daemon's snapshot
// lists the legal ones (extra.legal), so this file knows no rule.
"use strict";
(() => {
  const { h } = window.TT;
  const ui = { key: "", roll: "", pick: new Set() };
  // Choices of several items: the engine lists every set of the largest size, so with more
  // items than that the page lets them be picked one by one and sends the set.
  const PICKS = { nap: "Heroic nap: refresh", refresh: "Refresh", exhaust: "Exhaust" };
  const words = (s) => String(s).replace(/-/g, " ");
  const SHORT = { start: "start", boring: "", event: "event", "demon die": "Demon die",
    genie: "genie", whirlpool: "whirlpool", void: "void" };

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

  function spaceLabel(kind) {
    if (kind.startsWith("refresh")) return `↻ ${kind.split(" ")[1]}`;
    if (kind.startsWith("adventure: ")) return kind.slice(11);
    return SHORT[kind] ?? kind;
  }

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
            onclick: () => ctx.act(a) }, h("strong", {}, a.to), ` ${kinds.get(a.to) || ""}`))));
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
          h("h3", {}, swatch(snap, ctx, hero), hero, ` on ${info.space}`,
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

  function board(snap, ctx) {
    const v = snap.view;
    const here = new Map();
    for (const p of snap.players) {
      const s = v.heroes[p].space;
      here.set(s, [...(here.get(s) || []), p]);
    }
    const reach = new Map((snap.extra.legal || []).filter((a) => a.action === "move").map((a) => [a.to, a]));
    const space = ([id, kind]) => {
      const who = here.get(id) || [];
      const inner = [h("strong", {}, id), h("span", { class: "kt-kind" }, spaceLabel(kind)),
        who.length ? h("span", { class: "kt-who" }, who.map((p) => h("span", {}, swatch(snap, ctx, p), p))) : null];
      const cls = `kt-space ${kind.split(/[ :]/)[0]} ${who.length ? "taken" : ""} ${reach.has(id) ? "reach" : ""}`;
      if (reach.has(id) && ctx.paired && !snap.over) {
        return h("button", { type: "button", class: cls, "data-space": id, title: kind,
          "aria-label": `land on ${id}, ${kind}`, onclick: () => ctx.act(reach.get(id)) }, inner);
      }
      return h("div", { class: cls, "data-space": id, title: kind }, inner);
    };
    const shown = snap.extra.lands.filter((l) => l.shown);
    const folded = snap.extra.lands.filter((l) => !l.shown);
    const castle = v.castle.map((c, i) => {
      const up = c.face_up.map((t) => {
        const tok = snap.extra.tokens[t] || {};
        return `${words(t)} (target ${tok.target}${tok.item ? `, ${words(tok.item)}` : ""})`;
      });
      return h("li", {}, `${i + 1}. ${words(c.section)}: ${c.tokens_left} token(s) left`,
        up.length ? `; face up: ${up.join(", ")}` : "");
    });
    return h("section", { class: "card", id: "kt-board" }, h("h2", {}, "The kingdom"),
      shown.map((l) => h("div", { class: "kt-land", "data-land": l.land },
        h("h3", {}, words(l.land), l.flap ? h("span", { class: "muted" }, ` (${l.flap} flap, ${l.side} side)`) : ""),
        h("div", { class: "kt-spaces" }, l.spaces.map(space)))),
      folded.length ? h("p", { class: "muted", id: "kt-folded" },
        `Folded away: ${folded.map((l) => `${words(l.land)} (${l.flap} flap, ${l.side} side)`).join(", ")}`) : null,
      h("h3", {}, "Courtyard"),
      h("div", { class: "kt-spaces", id: "kt-courtyard" }, snap.extra.courtyard.map(space)),
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
    render(el, snap, ctx) {
      const key = `${snap.view.phase}/${snap.turn}/${snap.actions}`;
      if (key !== ui.key) { ui.key = key; ui.roll = ""; ui.pick = new Set(); }
      el.append(now(snap, ctx), heroes(snap, ctx), board(snap, ctx));
    },
  };
})();
