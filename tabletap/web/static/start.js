// The start screen: with no game on the table it is the page's first thing (issue 21, defect
// 2): every installed game as a big button (from GET /api/games, so an added game shows up),
// then the players and the game's options, then one button. A phone that is not paired sees
// the games but is told to pair first; the table's own way, a game card, is said above it.
"use strict";
(() => {
  const { h, optionFields } = window.TT;
  const TT = window.TT;
  const $ = (id) => document.getElementById(id);
  const chosen = { game: null, drawn: "" };

  function choose(name) {
    chosen.game = name;
    const game = window.TT.games[name];
    for (const b of document.querySelectorAll("#start-games button")) {
      b.setAttribute("aria-pressed", String(b.dataset.game === name));
    }
    $("start-more").hidden = false;
    $("start-players").placeholder = game.hint ? TT.tg(name, game.hint) : TT.t("ana, ben");
    const fields = optionFields(game);
    $("start-options").hidden = !fields.length;
    // TRANSLATORS: the heading of a game's options on the start screen
    $("start-options").replaceChildren(h("legend", {}, TT.t("Options")), ...fields);
    $("start-players").focus();
  }

  async function go() {
    const game = chosen.game;
    const players = $("start-players").value.split(",").map((p) => p.trim()).filter(Boolean);
    const options = {};
    for (const box of $("start-options").querySelectorAll("input[type=checkbox]")) {
      options[box.name] = box.checked;
    }
    for (const list of $("start-options").querySelectorAll("select")) options[list.name] = list.value;
    await window.TT.startGame(game, players, options);
  }

  // Start a game from the phone and show it from its top (defect 9: the page used to stay
  // scrolled where the form was).
  window.TT.startGame = async (game, players, options) => {
    const { status, data } = await window.TT.post("/api/new", { game, players, options });
    if (status !== 200) { window.TT.toast(data.error); return false; }
    window.scrollTo(0, 0);
    return true;
  };

  // How many may play a game, under its title.
  function players(g) {
    const { least, most } = g.players;
    // TRANSLATORS: under a game's title on the start screen, when exactly n may play
    if (least === most) return TT.tn("%(n)s player", "%(n)s players", most);
    // TRANSLATORS: under a game's title on the start screen; least and most are numbers
    return TT.tn("%(least)s to %(most)s players", "%(least)s to %(most)s players", most, { least, most });
  }

  window.TT.drawStart = (snap) => {
    const games = Object.values(window.TT.games);
    const key = JSON.stringify([games.map((g) => g.name), window.TT.session.paired,
      TT.words.language]);
    if (key === chosen.drawn) return;
    chosen.drawn = key;
    const paired = window.TT.session.paired;
    $("start-games").replaceChildren(...games.map((g) => h("button", {
      type: "button", class: "startgame", "data-game": g.name, "aria-pressed": "false",
      disabled: !paired, onclick: () => choose(g.name) },
    h("strong", {}, TT.tg(g.name, g.title)), h("small", {}, players(g)))),
    // TRANSLATORS: on the start screen of a phone that is not paired; the pairing is below it
    ...(paired ? [] : [h("p", { class: "muted" }, TT.t("Pair this phone, below, to start a game from here."))]));
    $("start-more").hidden = true;
    if (snap && chosen.game && paired) choose(chosen.game);
  };

  document.addEventListener("DOMContentLoaded", () => {
    $("start-go").addEventListener("click", go);
  });
})();
