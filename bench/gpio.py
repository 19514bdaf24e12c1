"""The GPIO wiring on gpiozero's mock pins: what the gpio backend itself costs.

The table's own figures (lgpio's software PWM jitter, a real button's bounce) need a Pi; these
measure tabletap's and gpiozero's Python overhead, which is what runs there on top of the pins.
"""

from __future__ import annotations

import contextlib
import io
import statistics
import tempfile
import time
from pathlib import Path

from tabletap.controller.cli import main as cli
from tabletap.controller.settings.config import Config
from tabletap.controller.table.adapters import build_outputs
from tabletap.sim.context import make_context

ROUNDS = 30


def _ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run() -> list[tuple[str, float, str]]:
    config = Config.model_validate({"backend": "gpio", "chest": {"lid_pin": 22}})
    builds, opens, presses, holds = [], [], [], []
    steps = 0
    for _ in range(ROUNDS):
        context = make_context()
        start = time.perf_counter()
        outputs = build_outputs(config, context)
        builds.append(time.perf_counter() - start)
        pin = context["gpio_pins"].pin(config.chest.servo.pin)
        pin.clear_states()
        start = time.perf_counter()
        outputs.chest.set_open(True)  # the whole swing, on virtual time
        opens.append(time.perf_counter() - start)
        steps = len(pin.states) - 1
        world = context["world"]
        start = time.perf_counter()
        world.press("end-turn")
        got = outputs.buttons.events()
        presses.append(time.perf_counter() - start)
        start = time.perf_counter()
        world.press("roll", long=True)
        got += outputs.buttons.events()
        holds.append(time.perf_counter() - start)
        assert [e.kind for e in got] == ["press", "hold"], got
        outputs.close()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(io.StringIO()):
        box = Path(tmp) / "box.yaml"
        box.write_text("backend: gpio\nchest: {lid_pin: 22}\n")
        start = time.perf_counter()
        code = cli(["doctor", "--sim", "--config", str(box)])
        doctor_sim = time.perf_counter() - start
    assert code == 0
    return [
        ("build gpio outputs on mock pins (median)", _ms(builds), "ms"),
        ("chest open: full swing, CPU time on virtual time (median)", _ms(opens), "ms"),
        ("servo steps per full swing (one per 20 ms frame)", float(steps), "steps"),
        ("world press -> pin edges -> gpiozero -> event (median)", _ms(presses), "ms"),
        ("world long press -> event, held on virtual time (median)", _ms(holds), "ms"),
        ("tabletap doctor --sim, backend gpio with a lid switch (wall)", doctor_sim, "s"),
    ]
