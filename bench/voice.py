"""Tap to voice: from a key tapped at the simulated chest reader, through presence, the rules,
the journal's fsync and the session, to the first audio sample espeak-ng writes.

The table runs on virtual time (the reader's poll timing is `bench nfc`'s figure, not repeated
here); what is measured in wall time is the work after the tag is seen: the daemon tick that
accepts the tap and the voice worker starting espeak-ng and receiving its first sample.
"""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

from tabletap.controller.config import Config
from tabletap.controller.runtime import GameSpec, open_table
from tabletap.controller.voice import Speaker, VoiceSettings, VoiceWorker
from tabletap.sim.context import make_context
from tabletap.sim.world import SimTag

# true keys for seed 1 with these fakes: each tap is accepted and says a sentence
FAKES = ["purple/4", "purple/5", "blue/1", "blue/2", "green/3", "green/5", "yellow/1", "yellow/2"]
TRUE_KEYS = ["purple/1", "purple/2", "purple/3", "blue/3", "blue/4", "blue/5", "green/1",
             "green/2", "green/4", "yellow/3", "yellow/4", "yellow/5"]


def _tap_to_first_sample_ms(trials: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        config = Config.model_validate({"state_dir": str(Path(folder) / "state")})
        context = make_context()
        world = context["world"]
        daemon = open_table(config, context, context["clock"],
                            GameSpec("magic-keys", ["ana", "ben"], 1, {}, {"fake_keys": FAKES}),
                            new=True)
        worker = VoiceWorker(VoiceSettings(), wav_dir=Path(folder))
        daemon.session.speaker = Speaker(worker)
        times = []
        for key in TRUE_KEYS[:trials]:
            tag = SimTag.for_piece(f"magic-keys/key/{key}")
            world.place("chest", tag)
            worker.first_sample.clear()
            started = time.perf_counter()
            while daemon.session.last is None or daemon.session.last.accepted is not True:
                daemon.tick()
                daemon.clock.sleep(config.poll.period)
            worker.wait_idle(60)
            if worker.first_sample:
                times.append((worker.first_sample[0][1] - started) * 1000)
            daemon.session.last = None
            world.remove("chest", tag.uid)
            daemon.run_for(0.5)
        worker.close()
        daemon.close()
    return times


def run() -> list[tuple]:
    if shutil.which("espeak-ng") is None:
        print("  espeak-ng is not installed (apt-get install espeak-ng): nothing to measure")
        return []
    times = sorted(_tap_to_first_sample_ms(10))
    return [
        ("accepted tap -> first audio sample written, median", statistics.median(times), "ms",
         "voice_tap_to_audio_p50_ms"),
        ("accepted tap -> first audio sample written, max", times[-1], "ms",
         "voice_tap_to_audio_max_ms"),
        ("trials", float(len(times)), ""),
    ]
