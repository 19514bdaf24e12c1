// The results view (issue 21): when a game ends, the page's top says who won, ranks every
// player by score, and offers "Play again", the same game for the same players and options
// in one tap. Every game gets it from the snapshot alone (winners, scores); a game's view may
// show more below it.
"use strict";
(() => {
  const { h } = window.TT;
  const TT = window.TT;
  const $ = (id) => document.getElementById(id);
  let drawn = "";

  function ranked(snap) {
    return snap.players.slice().sort((a, b) => (snap.winners.includes(b) - snap.winners.includes(a))
      || ((snap.scores[b] || 0) - (snap.scores[a] || 0)));
  }

  window.TT.drawResults = (snap) => {
    const box = $("results");
    const over = Boolean(snap.game && snap.over);
    const key = JSON.stringify([over, snap.game, snap.players, snap.winners, snap.scores,
      window.TT.session.paired, TT.words.language]);
    if (key === drawn) return;
    drawn = key;
    box.hidden = !over;
    if (!over) { box.replaceChildren(); return; }
    const won = snap.winners;
    const paired = window.TT.session.paired;
    const title = snap.title ? TT.tg(snap.game, snap.title) : snap.game;
    let winner;
    // TRANSLATORS: the results when several players won together; players is a list of names
    if (won.length > 1) winner = TT.t("%(players)s share the win!", { players: TT.listed(won) });
    // TRANSLATORS: the results when a game ends; player is the winner's name
    else if (won.length) winner = TT.t("%(player)s wins!", { player: won[0] });
    // TRANSLATORS: the results when nobody won
    else winner = TT.t("Nobody wins.");
    box.replaceChildren(
      // TRANSLATORS: the heading of the results when a game ends; game is its title
      h("h2", {}, TT.t("%(game)s: the results", { game: title })),
      h("p", { class: "winner", id: "winner" }, winner),
      h("ol", { class: "ranking", id: "ranking" }, ranked(snap).map((p) => h("li", {
        class: won.includes(p) ? "won" : "", "data-player": p },
      h("span", { class: "swatch", css: { background: window.TT.colourOf(snap, p, snap.players.indexOf(p)) } }),
      h("span", { class: "who" }, p), h("strong", {}, String(snap.scores[p] ?? 0))))),
      paired ? h("button", { type: "button", id: "play-again", onclick: async () => {
        await window.TT.startGame(snap.game, snap.players, snap.options || {});
      } },
      // TRANSLATORS: the button that starts the same game again; players is a list of names
      TT.t("Play again: %(players)s", { players: TT.listed(snap.players) }))
        // TRANSLATORS: on the results of a phone that is not paired
        : h("p", { class: "muted" }, TT.t("Pair this phone to start the next game from here.")));
  };
})();
