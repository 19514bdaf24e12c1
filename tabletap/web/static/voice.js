// The voice's controls on the page (issue 21): louder, quieter, mute and "say it again", the
// same changes the voice cards make at the table. The level shown comes from the snapshot, so
// a card tapped at the table shows here too.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);

  async function change(what) {
    const { status, data } = await window.TT.post("/api/voice", { change: what });
    if (status !== 200) { window.TT.toast(data.error); return; }
    window.TT.toast(what === "repeat" ? `The table says again: ${data.said}` : data.said);
  }

  window.TT.drawVoice = (snap) => {
    const v = snap.voice;
    const bar = $("voicebar");
    bar.hidden = !(v && window.TT.session.paired);
    if (bar.hidden) return;
    $("voice-mute").textContent = v.muted ? "Unmute" : "Mute";
    $("voice-mute").setAttribute("aria-pressed", String(v.muted));
    $("voice-level").textContent = v.muted ? "Voice off"
      : `Voice ${v.level} of ${v.most}${v.bedtime ? " (bedtime: kept low)" : ""}`;
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
