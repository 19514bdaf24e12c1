// Magic Keys: the track with the pawn, the keys (forest, tower, held, pond), the gems and the
// chest. Moves happen at the table with keys and buttons; the page only watches.
"use strict";
(() => {
  const { h } = window.TT;
  const PLACE = { forest: "in the forest", tower: "in the tower", pond: "in the pond" };

  window.TT.views["magic-keys"] = {
    render(el, snap, ctx) {
      const v = snap.view;
      const track = snap.extra.track || [];
      const pawn = v.pawn ? v.pawn.position : null;
      const tried = v.keys || {};
      el.append(h("section", { class: "card", id: "mk-track" }, h("h2", {}, "The track"),
        track.length ? h("div", { class: "track" }, track.map((space, i) => {
          const colour = space.split("/")[0];
          const label = space === "start" ? "start" : space === "gold" ? "gold key"
            : space === "recovery" ? "rest" : space.replace("/", " ");
          const where = tried[space] ? ` (${tried[space].replace("held:", "held by ")})` : "";
          return h("div", { class: `space ${colour} ${i === pawn ? "pawn" : ""}`,
            title: `${space}${where}` }, i === pawn ? [h("span", { class: "pawnmark" }, "♟"), label] : label);
        })) : null,
        v.dice_mode === "digital"
          ? h("p", {}, `Pawn on ${v.pawn.space}. Dice: ${v.dice.available} to roll` +
            (v.dice.showing.length ? `, showing ${v.dice.showing.join(" ")}` : ""))
          : h("p", { class: "muted" }, "Real dice and pawn: the table follows the keys.")));
      const counts = { forest: 0, tower: 0, pond: 0, held: 0 };
      for (const place of Object.values(tried)) counts[place.startsWith("held:") ? "held" : place] += 1;
      el.append(h("section", { class: "card", id: "mk-keys" }, h("h2", {}, "Gems and keys"),
        h("dl", { class: "facts" },
          h("dt", {}, "Gems to win"), h("dd", {}, String(v.gems_required)),
          h("dt", {}, "Gems in the chest"), h("dd", {}, String(v.chest)),
          ...snap.players.flatMap((p) => [h("dt", {}, p),
            h("dd", {}, `${v.scores[p]} gems` + (v.fakes_held[p].length
              ? `, holds fake ${v.fakes_held[p].join(", ")}` : ""))]),
          ...Object.entries(counts).map(([k, n]) => [h("dt", {}, `Keys ${PLACE[k] || "held"}`),
            h("dd", {}, String(n))]).flat())));
      if (ctx.paired) {
        const out = h("p", { id: "mk-secret", class: "muted" }, "Only for parents: which forest keys are fake.");
        el.append(h("section", { class: "card" }, out,
          h("button", { type: "button", class: "secondary", id: "mk-reveal", onclick: async () => {
            const res = await fetch("/api/reveal", { credentials: "same-origin" });
            const data = await res.json();
            out.textContent = res.ok ? `Fake keys: ${data.state.fake_keys.join(", ")}` : data.error;
          } }, "Show the fake keys")));
      }
    },
  };
})();
