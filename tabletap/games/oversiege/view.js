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
    destroyed: TT.t("destroyed"),
    open: TT.t("open"),
    closed: TT.t("closed"),
    catapult: TT.t("catapult"),
    crossbow: TT.t("crossbow"),
    "battering-ram": TT.t("battering ram"),
    blockade: TT.t("blockade"),
  });
  // a card in play by its name: oversiege/<deck>/<card>/<n> -> "catapult"
  const name = (words, piece) => words[piece.split("/")[2]] || TT.t("a card");

  // TRANSLATORS: the page: the facts shown under each player's castle; n is a number of cards
  const facts = (words, c) => [
    h("dt", {}, TT.t("Entrance")), h("dd", {}, words[c.entrance]),
    h("dt", {}, TT.t("Chamber")), h("dd", {}, words[c.chamber]),
    h("dt", {}, TT.t("Armaments")),
    h("dd", {}, c.armaments.map((a) => name(words, a)).join(", ") || TT.t("none")),
    h("dt", {}, TT.t("Blockade")), h("dd", {}, c.blockade ? name(words, c.blockade) : TT.t("none")),
    h("dt", {}, TT.t("Hand")), h("dd", {}, TT.tn("%(n)s card", "%(n)s cards", c.hand)),
    h("dt", {}, TT.t("Draws")), h("dd", {}, TT.tn("%(n)s card a turn", "%(n)s cards a turn", c.draws)),
    h("dt", {}, TT.t("Deck")), h("dd", {}, TT.tn("%(n)s card left", "%(n)s cards left", c.deck)),
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
          TT.t("Team: %(players)s", { players: team.join(", ") }))));
      }
      snap.players.forEach((p, i) => {
        const c = v.castles[p];
        el.append(h("section", { class: `card castle ${p === snap.turn ? "now" : ""}`, id: `castle-${p}` },
          // TRANSLATORS: the page: a castle's heading once its player is out; player is a name
          h("h2", {}, h("span", { class: "swatch", css: { background: ctx.colourOf(snap, p, i) } }),
            c.out ? TT.t("%(player)s is out", { player: p }) : p),
          h("div", { class: "towers" }, Object.entries(c.towers).map(([n, s]) =>
            h("div", { class: `tower ${s}`, title: words[s] }, TT.t("tower %(n)s", { n })))),
          h("dl", { class: "facts" }, ...facts(words, c))));
      });
    },
  };
})();
