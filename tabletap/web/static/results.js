// The results view (issue 21): when a game ends, the page's top says who won, ranks every
// player by score, and offers "Play again", the same game for the same players and options
// in one tap. Every game gets it from the snapshot alone (winners, scores); a game's view may
// show more below it.
"use strict";
(() => {
  const { h } = window.TT;
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
      window.TT.session.paired]);
    if (key === drawn) return;
    drawn = key;
    box.hidden = !over;
    if (!over) { box.replaceChildren(); return; }
    const won = snap.winners;
    const paired = window.TT.session.paired;
    box.replaceChildren(
      h("h2", {}, `${snap.title || snap.game}: the results`),
      h("p", { class: "winner", id: "winner" }, won.length > 1
        ? `${won.join(" and ")} share the win!` : won.length ? `${won[0]} wins!` : "Nobody wins."),
      h("ol", { class: "ranking", id: "ranking" }, ranked(snap).map((p) => h("li", {
        class: won.includes(p) ? "won" : "", "data-player": p },
      h("span", { class: "swatch", css: { background: window.TT.colourOf(snap, p, snap.players.indexOf(p)) } }),
      h("span", { class: "who" }, p), h("strong", {}, String(snap.scores[p] ?? 0))))),
      paired ? h("button", { type: "button", id: "play-again", onclick: async () => {
        await window.TT.startGame(snap.game, snap.players, snap.options || {});
      } }, `Play again: ${snap.players.join(", ")}`)
        : h("p", { class: "muted" }, "Pair this phone to start the next game from here."));
  };
})();
