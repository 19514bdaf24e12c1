"""The table's voice: sentences handed to espeak-ng on a worker thread.

The daemon loop must never wait for speech (a sentence takes seconds to say; the readers are
polled every 100 ms), so `Speaker.say` only queues. One worker thread runs espeak-ng for one
sentence at a time; when sentences pile up faster than they can be said, the oldest unsaid ones
are dropped (the newest answer is the one that matters) and the log says so. A missing
espeak-ng is logged once and the table plays on, silent.

Every sentence is also kept in `Speaker.said`, voice or not: the simulator and the scenario
runner's `expect: {said: ...}` read what the table would have said.
"""

from __future__ import annotations

import collections
import logging
import queue
import re
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

log = logging.getLogger("tabletap.voice")

QUEUE_LIMIT = 8  # sentences waiting; older ones are dropped beyond this
WAV_HEADER = 44  # espeak-ng --stdout writes a canonical 44-byte RIFF header first
SAID_KEPT = 200


@dataclass(frozen=True)
class VoiceSettings:
    voice: str = "en"
    rate: int = 150  # words per minute
    volume: int = 100  # espeak-ng amplitude, 0..200


# ALSA's own lines ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'"): the first
# one is the cause; espeak-ng's last line ("error: No such file or directory") only its echo.
_ALSA = re.compile(r"^ALSA lib [^ ]*\((\w+)\) (.+)$")
NO_CARD_HINT = ("no working sound card: check the speaker's plug (or the USB sound card), and "
                "`aplay -l` lists the cards the system sees")


def espeak_reason(returncode: int, stderr: str) -> str | None:
    """Why espeak-ng could not speak, in its first cause's words; None when it spoke."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    alsa = [m for m in (_ALSA.match(line) for line in lines) if m]
    if alsa:
        return f"ALSA: {alsa[0].group(2)} ({NO_CARD_HINT})"
    if returncode or any("error" in line.lower() for line in lines):
        return f"espeak-ng failed ({returncode}): " + (lines or ["no reason given"])[-1]
    return None


def espeak_command(text: str, settings: VoiceSettings, stdout: bool = False) -> list[str]:
    cmd = ["espeak-ng", "-v", settings.voice, "-s", str(settings.rate),
           "-a", str(settings.volume)]
    return cmd + (["--stdout"] if stdout else []) + ["--", text]


class VoiceWorker:
    """Says sentences through espeak-ng, one at a time, off the daemon's thread.

    With `wav_dir`, each sentence is written to a numbered WAV file instead of the speaker, and
    `first_sample` records when its first audio sample reached the file (the benchmark's
    tap-to-voice figure and the sox test use this)."""

    def __init__(self, settings: VoiceSettings, wav_dir: Path | None = None) -> None:
        self.settings = settings
        self.wav_dir = wav_dir
        self.first_sample: list[tuple[str, float]] = []
        self.dropped = 0
        self.failures = 0  # sentences espeak-ng could not say (no sound card, say)
        self._queue: queue.Queue[str | None] = queue.Queue(QUEUE_LIMIT)
        self._broken = shutil.which("espeak-ng") is None
        if self._broken:
            log.error("espeak-ng is not installed (apt-get install espeak-ng): the table is "
                      "silent; the play-by-play still prints every sentence")
        self._thread = threading.Thread(target=self._run, name="tabletap-voice", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Queue `text`; never blocks."""
        if self._broken:
            return
        while True:
            try:
                self._queue.put_nowait(text)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                    self.dropped += 1
                    log.warning("the voice fell behind; an older sentence was not said")
                except queue.Empty:
                    pass

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until every queued sentence has been said (tests and benchmarks only)."""
        end = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < end:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks

    def close(self) -> None:
        try:
            self._queue.put_nowait(None)
        except queue.Full:
            pass

    def _run(self) -> None:
        count = 0
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    return
                count += 1
                self._speak(text, count)
            except Exception as exc:  # noqa: BLE001 - a voice failure must never reach the table
                self._failed(f"espeak-ng could not say {text!r}: {exc}")
            finally:
                self._queue.task_done()

    def _failed(self, why: str) -> None:
        """The first failure is an error in the log; later ones only count (a box without a
        sound card must not fill the SD card with the same line for every sentence)."""
        self.failures += 1
        if self.failures == 1:
            log.error("%s; the play-by-play still prints every sentence (further voice "
                      "failures are counted, not logged)", why)
        else:
            log.debug("%s (voice failure %d)", why, self.failures)

    def _speak(self, text: str, count: int) -> None:
        if self.wav_dir is None:
            done = subprocess.run(espeak_command(text, self.settings), capture_output=True,
                                  timeout=60, check=False)
            # espeak-ng exits 0 when it cannot open the sound card; only stderr says so
            why = espeak_reason(done.returncode, done.stderr.decode(errors="replace"))
            if why:
                self._failed(why)
            return
        target = self.wav_dir / f"{count:04d}.wav"
        with subprocess.Popen(espeak_command(text, self.settings, stdout=True),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc, \
                open(target, "wb") as out:
            assert proc.stdout is not None
            written = 0
            while chunk := proc.stdout.read1(4096):
                out.write(chunk)
                out.flush()
                if written <= WAV_HEADER < written + len(chunk):
                    self.first_sample.append((text, time.perf_counter()))
                written += len(chunk)


class Speaker:
    """What the session talks to: remembers every sentence and, when the voice is on, says it."""

    def __init__(self, worker: VoiceWorker | None = None) -> None:
        self.worker = worker
        self.said: collections.deque[str] = collections.deque(maxlen=SAID_KEPT)
        self.total = 0  # sentences said since the start, `said` keeps only the last ones
        self.muted = False  # mute: every sentence still kept in `said`, none spoken
        self.volume = worker.settings.volume if worker is not None else None

    def say(self, text: str) -> None:
        if not text:
            return
        self.said.append(text)
        self.total += 1
        self._speak(text)

    def say_only(self, text: str) -> None:
        """Spoken (unless muted) but not kept as a sentence of the game: the voice's own
        answers ("Louder.") and a repeat, which `repeat` must not take for the last one."""
        if text:
            self._speak(text)

    def set_level(self, volume: int, muted: bool) -> None:
        """The family's volume and mute (spoken.volume); the next sentence has it."""
        self.volume, self.muted = volume, muted
        if self.worker is not None and self.worker.settings.volume != volume:
            self.worker.settings = replace(self.worker.settings, volume=volume)

    def _speak(self, text: str) -> None:
        if self.worker is not None and not self.muted:
            self.worker.say(text)

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
