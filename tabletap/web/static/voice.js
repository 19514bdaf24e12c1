// The voice's controls on the page (issue 21): louder, quieter, mute and "say it again", the
// same changes the voice cards make at the table. The level shown comes from the snapshot, so
// a card tapped at the table shows here too.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const TT = window.TT;

  async function change(what) {
    const { status, data } = await window.TT.post("/api/voice", { change: what });
    if (status !== 200) { window.TT.toast(data.error); return; }
    // TRANSLATORS: a message on the phone page after "Say again"; said is the table's sentence
    window.TT.toast(what === "repeat" ? TT.t("The table says again: %(said)s", { said: data.said }) : data.said);
  }

  window.TT.drawVoice = (snap) => {
    const v = snap.voice;
    const bar = $("voicebar");
    bar.hidden = !(v && window.TT.session.paired);
    if (bar.hidden) return;
    // TRANSLATORS: a button: the table's voice on again
    $("voice-mute").textContent = v.muted ? TT.t("Unmute")
      // TRANSLATORS: a button: the table's voice off
      : TT.t("Mute");
    $("voice-mute").setAttribute("aria-pressed", String(v.muted));
    const level = { level: v.level, most: v.most };
    let line;
    // TRANSLATORS: beside the voice buttons when the voice is muted
    if (v.muted) line = TT.t("Voice off");
    // TRANSLATORS: beside the voice buttons at bedtime; level and most are numbers
    else if (v.bedtime) line = TT.t("Voice %(level)s of %(most)s, kept low for bedtime", level);
    // TRANSLATORS: beside the voice buttons; level and most are numbers ("Voice 3 of 10")
    else line = TT.t("Voice %(level)s of %(most)s", level);
    $("voice-level").textContent = line;
    $("voice-level").dataset.level = String(v.level);
  };

  document.addEventListener("DOMContentLoaded", () => {
    $("voice-repeat").addEventListener("click", () => change("repeat"));
    $("voice-quieter").addEventListener("click", () => change("quieter"));
    $("voice-louder").addEventListener("click", () => change("louder"));
    $("voice-mute").addEventListener("click", () =>
      change(window.TT.snap && window.TT.snap.voice && window.TT.snap.voice.muted ? "unmute" : "mute"));
  });
})();
