"""A box without a working speaker or reader says why (issue 21, defect 13): ALSA's own reason,
not espeak-ng's last line; `tabletap doctor` checks the speaker; `tags enroll` at a reader that
does not answer points at `doctor` instead of trying for minutes; its help names the config it
really reads."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tabletap.controller.ports import ReaderUnavailable
from tabletap.controller.spoken.speaker import VoiceSettings, VoiceWorker
from tabletap.controller.table.tagging import Desk, TagJobError
from tabletap.sim.clock import VirtualClock

# What espeak-ng prints on a Pi with no sound card (ALSA first, its own line last); exit 0.
NO_CARD = ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n"
           "ALSA lib conf.c:5178:(_snd_config_evaluate) function snd_func_card_inum returned "
           "error: No such file or directory\n"
           "ALSA lib pcm.c:2664:(snd_pcm_open_noupdate) Unknown PCM default\n"
           "error: No such file or directory\n")


@pytest.fixture()
def no_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    fake = tmp_path / "espeak-ng"
    (tmp_path / "stderr.txt").write_text(NO_CARD)
    fake.write_text(f"#!/bin/sh\ncat {tmp_path / 'stderr.txt'} >&2\nexit 0\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    return fake


def test_the_log_gives_alsas_reason(no_card: Path, caplog: pytest.LogCaptureFixture) -> None:
    worker = VoiceWorker(VoiceSettings())
    with caplog.at_level(logging.ERROR, logger="tabletap.voice"):
        worker.say("Hello.")
        assert worker.wait_idle(10)
    text = caplog.text
    assert "cannot find card '0'" in text
    assert "error: No such file or directory" not in text
    assert "sound card" in text


def test_doctor_checks_the_speaker(no_card: Path, tmp_path: Path) -> None:
    config = tmp_path / "table.yaml"
    config.write_text(yaml.safe_dump({"state_dir": str(tmp_path / "state"),
                                      "voice": {"enabled": True}}))
    (tmp_path / "state").mkdir()
    done = subprocess.run([sys.executable, "-m", "tabletap.controller.cli", "doctor", "--sim",
                           "--config", str(config)], capture_output=True, text=True,
                          env=os.environ.copy())
    speaker = [line for line in done.stdout.splitlines() if line.split()[1:2] == ["speaker"]]
    assert speaker and "cannot find card '0'" in speaker[0], done.stdout
    assert done.returncode == 1


class Gone:
    name = "chest"

    def poll(self):  # noqa: ANN201 - a TagReader
        raise ReaderUnavailable("no answer on /dev/ttyAMA0")

    def close(self) -> None:
        pass


def test_enrolling_at_a_silent_reader_points_at_doctor() -> None:
    clock = VirtualClock()
    said: list[str] = []
    desk = Desk(Gone(), clock, said.append)
    with pytest.raises(TagJobError, match="tabletap doctor"):
        desk.wait_placed(clock.now() + 300)
    assert clock.now() < 60


def test_enroll_help_names_the_config_it_reads() -> None:
    out = subprocess.run([sys.executable, "-m", "tabletap.controller.cli", "tags", "enroll",
                          "--help"], capture_output=True, text=True, check=True).stdout
    assert "/etc/tabletap/table.yaml" in " ".join(out.split())
    assert "default: built-in)" not in out
