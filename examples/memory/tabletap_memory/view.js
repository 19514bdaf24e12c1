// Memory: the pairs each player keeps and how many cards still lie face down. The game is
// played with the cards themselves (tapped at a reader); the page only watches, so it knows
// no rule: it draws the engine's public view, with the deck's words from the page extras.
// Every string goes in as text (TT.h), never as HTML: player names come from the family.
// Sentences are messages of the game's catalog (TT.t, TT.tn: locale/*/memory.po); the deck's
// picture names come from its file in every language it spells them, English the fallback.
"use strict";
(() => {
  const { h } = window.TT;

  // A name of the deck file in the page's language ({en: "owl", de: "Eule"}).
  const spelt = (names) => {
    if (typeof names === "string") return names;
    const lang = (window.TT.words && window.TT.words.language) || "en";
    return (names && (names[lang] || names[lang.split(/[-_]/)[0]] || names.en)) || "";
  };

  window.TT.views.memory = {
    render(el, snap, ctx) {
      const v = snap.view;
      const names = (snap.extra && snap.extra.names) || {};
      // a picture of no deck has no name to show: "?" rather than its id
      const say = (picture) => (names[picture] ? spelt(names[picture]) : "?");
      const faceUp = v.face_up ? say(v.face_up.split("/")[0]) : null;
      const title = snap.extra && snap.extra.title ? spelt(snap.extra.title) : null;
      el.append(h("section", { class: "card", id: "memory-table" },
        // TRANSLATORS: the page's heading over the cards still on the table
        h("h2", {}, TT.t("The cards")),
        h("dl", { class: "facts" },
          // TRANSLATORS: the page: how many cards lie face down (a label)
          h("dt", {}, TT.t("Face down")), h("dd", { id: "memory-face-down" },
            // TRANSLATORS: the page: down is how many cards lie face down, n all the deck's
            TT.tn("%(down)s of %(n)s card", "%(down)s of %(n)s cards", v.cards,
              { down: v.face_down, n: v.cards })),
          // TRANSLATORS: the page: the card face up this turn (a label)
          h("dt", {}, TT.t("Face up now")), h("dd", { id: "memory-face-up" },
            // TRANSLATORS: the page: the card face up now; picture is its name from the deck
            faceUp ? TT.t("the %(picture)s", { picture: faceUp })
              // TRANSLATORS: the page: no card is face up yet this turn
              : TT.t("none: turn over a first card")),
          // TRANSLATORS: the page: which deck is played (a label; beside it, the deck's title)
          h("dt", {}, TT.t("Deck")), h("dd", {}, title || v.deck))));
      el.append(h("section", { class: "card", id: "memory-pairs" },
        // TRANSLATORS: the page's heading over the pairs each player keeps
        h("h2", {}, TT.t("Pairs kept")),
        h("ul", {}, snap.players.map((p, seat) => {
          const kept = (v.found && v.found[p]) || [];
          const n = (v.pairs && v.pairs[p]) || 0;
          const mark = snap.winners.includes(p)
            // TRANSLATORS: the page: beside the name of a player who won
            ? TT.t("★ wins")
            // TRANSLATORS: the page: beside the name of the player whose turn it is
            : snap.turn === p ? TT.t("← turn") : null;
          return h("li", { "data-player": p },
            h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, seat) } }),
            // TRANSLATORS: the page: a player's pairs; player is the name, n how many
            " " + TT.tn("%(player)s: %(n)s pair", "%(player)s: %(n)s pairs", n, { player: p, n }),
            kept.length ? h("small", { class: "muted" }, ` (${kept.map(say).join(", ")})`) : null,
            mark ? h("strong", {}, ` ${mark}`) : null);
        }))));
    },
  };
})();
