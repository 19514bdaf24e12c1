"""The voice: real espeak-ng renders a sentence, sox says it is not silence, and the worker never
holds up the caller."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tabletap.controller.spoken.speaker import Speaker, VoiceSettings, VoiceWorker
from tabletap.controller.spoken.words import spoken

HAVE_TOOLS = shutil.which("espeak-ng") is not None and shutil.which("sox") is not None
needs_tools = pytest.mark.skipif(
    not HAVE_TOOLS and not os.environ.get("CI"),
    reason="espeak-ng and sox are not installed (make test installs them as root)")


def _sox_stat(wav: Path) -> dict[str, float]:
    done = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True,
                          check=True)
    figures: dict[str, float] = {}
    for line in done.stderr.splitlines():  # sox prints its statistics on stderr
        name, _, value = line.partition(":")
        try:
            figures[name.strip()] = float(value)
        except ValueError:
            continue
    return figures


@needs_tools
def test_a_spoken_sentence_renders_to_a_wav_that_is_not_silence(tmp_path: Path):
    worker = VoiceWorker(VoiceSettings("en", 160, 100), wav_dir=tmp_path)
    worker.say(spoken("red fires oversiege/red/stone/1 at blue's tower/1."))
    assert worker.wait_idle(60)
    worker.close()
    wav = tmp_path / "0001.wav"
    stat = _sox_stat(wav)
    assert stat["Length (seconds)"] > 0.5
    assert stat["RMS     amplitude"] > 0.01  # silence would be 0
    assert stat["Maximum amplitude"] > 0.1
    assert worker.first_sample and "red stone" in worker.first_sample[0][0]


@needs_tools
def test_volume_zero_renders_silence_so_the_check_above_can_fail(tmp_path: Path):
    worker = VoiceWorker(VoiceSettings("en", 160, 0), wav_dir=tmp_path)
    worker.say("This should not be heard.")
    assert worker.wait_idle(60)
    worker.close()
    assert _sox_stat(tmp_path / "0001.wav")["RMS     amplitude"] < 0.001


def test_saying_never_blocks_and_drops_the_oldest_when_the_voice_falls_behind(tmp_path: Path):
    worker = VoiceWorker(VoiceSettings(), wav_dir=tmp_path)
    started = time.perf_counter()
    for n in range(40):
        worker.say(f"Sentence number {n}.")
    assert time.perf_counter() - started < 0.5  # queueing, not speaking
    assert worker.dropped > 0 or not HAVE_TOOLS
    worker.close()


def test_the_speaker_remembers_what_was_said_with_or_without_a_voice():
    speaker = Speaker()
    speaker.say("It is ben's turn.")
    speaker.say("")
    assert list(speaker.said) == ["It is ben's turn."] and speaker.total == 1


def test_a_box_without_a_sound_card_logs_the_first_failure_only(tmp_path: Path, monkeypatch,
                                                                 caplog):
    """espeak-ng exits 0 when ALSA has no card and says so only on stderr; a stand-in on PATH
    behaves the same, so this runs on machines with and without a sound card."""
    fake = tmp_path / "espeak-ng"
    fake.write_text("#!/bin/sh\necho 'ALSA lib pcm.c: Unknown PCM default' >&2\n"
                    "echo 'error: No such file or directory' >&2\nexit 0\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    worker = VoiceWorker(VoiceSettings())
    with caplog.at_level("DEBUG", logger="tabletap.voice"):
        for n in range(3):
            worker.say(f"Sentence {n}.")
        assert worker.wait_idle(30)
    worker.close()
    assert worker.failures == 3
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "No such file or directory" in errors[0].getMessage()
