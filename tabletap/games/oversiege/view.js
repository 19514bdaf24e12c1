// Oversiege: every castle with its towers, entrance and chamber, its armaments and blockade,
// and how many cards its player holds and draws. Cards are played at the table.
"use strict";
(() => {
  const { h } = window.TT;
  const name = (piece) => piece.split("/").slice(2).join(" ").replace(/-/g, " ");

  window.TT.views.oversiege = {
    now: (snap) => `${snap.turn}: play your cards at the table, then press end-turn`,
    render(el, snap, ctx) {
      const v = snap.view;
      if (v.teams) {
        el.append(h("p", { class: "card" }, `Teams: ${v.teams.map((t) => t.join(" & ")).join(" vs ")}`));
      }
      snap.players.forEach((p, i) => {
        const c = v.castles[p];
        el.append(h("section", { class: `card castle ${p === snap.turn ? "now" : ""}`, id: `castle-${p}` },
          h("h2", {}, h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, i) } }),
            `${p}${c.out ? " (out)" : ""}`),
          h("div", { class: "towers" }, Object.entries(c.towers).map(([t, s]) =>
            h("div", { class: `tower ${s}`, title: `tower ${t}: ${s}` }, `tower ${t}`))),
          h("dl", { class: "facts" },
            h("dt", {}, "Entrance"), h("dd", {}, c.entrance),
            h("dt", {}, "Chamber"), h("dd", {}, c.chamber),
            h("dt", {}, "Armaments"), h("dd", {}, c.armaments.map(name).join(", ") || "none"),
            h("dt", {}, "Blockade"), h("dd", {}, c.blockade ? name(c.blockade) : "none"),
            h("dt", {}, "Hand"), h("dd", {}, `${c.hand} card(s); draws ${c.draws}`),
            h("dt", {}, "Deck"), h("dd", {}, `${c.deck} left, ${c.discard.length} discarded`))));
      });
    },
  };
})();
