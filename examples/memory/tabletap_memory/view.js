// Memory: the pairs each player keeps and how many cards still lie face down. The game is
// played with the cards themselves (tapped at a reader); the page only watches, so it knows
// no rule: it draws the engine's public view, with the deck's words from the page extras.
// Every string goes in as text (TT.h), never as HTML: player names come from the family.
"use strict";
(() => {
  const { h } = window.TT;

  window.TT.views.memory = {
    render(el, snap, ctx) {
      const v = snap.view;
      const names = (snap.extra && snap.extra.names) || {};
      const say = (picture) => names[picture] || picture.replace(/-/g, " ");
      const faceUp = v.face_up ? say(v.face_up.split("/")[0]) : null;
      el.append(h("section", { class: "card", id: "memory-table" }, h("h2", {}, "The cards"),
        h("dl", { class: "facts" },
          h("dt", {}, "Face down"), h("dd", { id: "memory-face-down" },
            `${v.face_down} of ${v.cards} cards`),
          h("dt", {}, "Face up now"), h("dd", { id: "memory-face-up" },
            faceUp ? `the ${faceUp}` : "none: turn over a first card"),
          h("dt", {}, "Deck"), h("dd", {}, (snap.extra && snap.extra.title) || v.deck))));
      el.append(h("section", { class: "card", id: "memory-pairs" }, h("h2", {}, "Pairs kept"),
        h("ul", {}, snap.players.map((p, seat) => {
          const kept = (v.found && v.found[p]) || [];
          const n = (v.pairs && v.pairs[p]) || 0;
          const mark = snap.winners.includes(p) ? "★ wins" : snap.turn === p ? "← turn" : null;
          return h("li", { "data-player": p },
            h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, seat) } }),
            ` ${p}: ${n} pair${n === 1 ? "" : "s"}`,
            kept.length ? h("small", { class: "muted" }, ` (${kept.map(say).join(", ")})`) : null,
            mark ? h("strong", {}, ` ${mark}`) : null);
        }))));
    },
  };
})();
