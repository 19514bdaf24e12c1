// Oversiege: every castle with its towers, entrance and chamber, its armaments and blockade,
// and how many cards its player holds and draws. Cards are played at the table. Every word
// shown comes from the game's catalog (TT.t, TT.tn), cards by their name, never their id.
"use strict";
(() => {
  const TT = window.TT;
  const { h } = TT;
  // the words of the states and cards the castles show, from the catalog
  const said = () => ({
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    standing: TT.t("standing"),
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    destroyed: TT.t("destroyed"),
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    open: TT.t("open"),
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    closed: TT.t("closed"),
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    catapult: TT.t("catapult"),
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    crossbow: TT.t("crossbow"),
    // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
    "battering-ram": TT.t("battering ram"),
    blockade: TT.t("blockade"),
  });
  // a card in play by its name: oversiege/<deck>/<card>/<n> -> "catapult"
  // TRANSLATORS: the page: a castle card's state, and the cards in play, by name
  const name = (words, piece) => words[piece.split("/")[2]] || TT.t("a card");

  // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
  const facts = (words, c) => [
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Entrance")), h("dd", {}, words[c.entrance]),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Chamber")), h("dd", {}, words[c.chamber]),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Armaments")),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dd", {}, c.armaments.map((a) => name(words, a)).join(", ") || TT.t("none")),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Blockade")), h("dd", {}, c.blockade ? name(words, c.blockade) : TT.t("none")),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Hand")),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dd", {}, TT.tn("%(n)s card", "%(n)s cards", c.hand)),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Draws")),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dd", {}, TT.tn("%(n)s card a turn", "%(n)s cards a turn", c.draws)),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Deck")),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dd", {}, TT.tn("%(n)s card left", "%(n)s cards left", c.deck)),
    // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
    h("dt", {}, TT.t("Discard pile")),
    h("dd", {}, TT.tn("%(n)s card", "%(n)s cards", c.discard.length)),
  ];

  TT.views.oversiege = {
    // TRANSLATORS: the page's line saying whose turn it is; player is a name
    now: (snap) => TT.t("%(player)s: play your cards at the table, then press end-turn.",
      { player: snap.turn }),
    render(el, snap, ctx) {
      const v = snap.view;
      const words = said();
      if (v.teams) {
        // TRANSLATORS: the page: one team of a game of teams; players are names
        v.teams.forEach((team) => el.append(h("p", { class: "card" },
          // TRANSLATORS: the page: one team of a game of teams; players are names
          TT.t("Team: %(players)s", { players: team.join(", ") }))));
      }
      snap.players.forEach((p, i) => {
        const c = v.castles[p];
        el.append(h("section", { class: `card castle ${p === snap.turn ? "now" : ""}`, id: `castle-${p}` },
          // TRANSLATORS: the page: a castle's heading once its player is out; player is a name
          h("h2", {}, h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, i) } }),
            // TRANSLATORS: the page: a castle's heading once its player is out; player is a name
            c.out ? TT.t("%(player)s is out", { player: p }) : p),
          h("div", { class: "towers" }, Object.entries(c.towers).map(([n, s]) =>
            // TRANSLATORS: the page: a castle's tower, numbered from 1
            h("div", { class: `tower ${s}`, title: words[s] }, TT.t("tower %(n)s", { n })))),
          h("dl", { class: "facts" }, ...facts(words, c))));
      });
    },
  };
})();
