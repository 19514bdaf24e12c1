"""Done means: a true key in a scenario opens the latch on the GPIO wiring, shown by the PWM
duty gpiozero put on the servo's (mock) pin, with the whole daemon running the scenario."""

from pathlib import Path

import pytest

from tabletap.sim.scenario.model import load
from tabletap.sim.scenario.runner import ScenarioRun

DEMO = Path(__file__).parents[2] / "scenarios" / "magic-keys" / "demo-three-players.yaml"
OPEN_WIDTH = 0.0005 + 0.002 * 150 / 180  # default servo: 60 degrees on -90..90, 0.5-2.5 ms
CLOSED_WIDTH = 0.0005 + 0.002 * 60 / 180  # -30 degrees
WIDTH = {"open": OPEN_WIDTH, "closed": CLOSED_WIDTH}


def test_a_true_key_opens_the_latch_on_the_gpio_wiring():
    scenario = load(str(DEMO))
    scenario.config = {**scenario.config, "backend": "gpio"}
    run = ScenarioRun(scenario)
    pins = run.context["gpio_pins"]  # the simulated pins the gpio backend was built on
    assert pins.pulse_widths(18)[-1] == pytest.approx(CLOSED_WIDTH)  # it boots latched
    checked = []

    def servo_pin_agrees(step, expect) -> None:
        if "chest" in expect:
            # what the servo pin carries now, as gpiozero drove it
            assert pins.pulse_widths(18)[-1] == pytest.approx(WIDTH[expect["chest"]])
            checked.append(step.index)

    failure = run.run(after_step=servo_pin_agrees)
    assert failure is None, failure.describe(scenario.path)
    assert len(checked) >= 5
    first = scenario.steps[1]
    assert first.value.piece == "magic-keys/key/purple/1" and first.expect["chest"] == "open"
    widths = [w for w in pins.pulse_widths(18) if w]
    assert max(widths) == pytest.approx(OPEN_WIDTH)  # never past the open angle
    assert min(widths) == pytest.approx(CLOSED_WIDTH)
