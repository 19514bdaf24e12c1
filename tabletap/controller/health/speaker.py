"""`tabletap doctor`'s speaker check (issue 21, defect 13): a box whose voice is on says a
silent sentence through espeak-ng and ALSA, so a missing sound card is found at the desk with
ALSA's own reason, not in the log the first time a child taps a key.

Only when the config turns the voice on (a real table; off with `backend: sim`), since a box
meant to be silent has nothing to check.
"""

from __future__ import annotations

import shutil
import subprocess

from tabletap.controller.health.checks import Finding
from tabletap.controller.settings.config import Config
from tabletap.controller.spoken.speaker import espeak_reason

DEVICE = "speaker"
SECONDS = 15.0


def speaker_findings(config: Config, simulated: bool) -> list[Finding]:
    if not config.voice_on(simulated):
        return []
    if shutil.which("espeak-ng") is None:
        return [Finding("failed", DEVICE, "espeak-ng is not installed (apt-get install "
                        "espeak-ng): the table cannot speak")]
    try:  # amplitude 0: ALSA opens the card, nobody hears a word
        done = subprocess.run(["espeak-ng", "-a", "0", "-v", config.voice_name(), "--", "ok"],
                              capture_output=True, timeout=SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [Finding("failed", DEVICE, f"espeak-ng did not run: {exc}")]
    why = espeak_reason(done.returncode, done.stderr.decode(errors="replace"))
    if why:
        return [Finding("failed", DEVICE, why)]
    return [Finding("ok", DEVICE, f"espeak-ng speaks through the sound card (voice "
                    f"{config.voice_name()}, volume {config.voice.volume})")]
