"""Done means: a true key in a scenario opens the latch on the Pico wiring, shown by the PWM duty
the firmware put on the (stand-in) servo pin, with the whole daemon running the scenario."""

from __future__ import annotations

from pathlib import Path

from tabletap.firmware import servo
from tabletap.sim.scenario.model import load
from tabletap.sim.scenario.runner import ScenarioRun

DEMO = Path(__file__).parents[2] / "scenarios" / "magic-keys" / "demo-three-players.yaml"
DUTY = {"open": servo.duty_u16(500 + 2000 * 150 / 180),  # 60 degrees on -90..90, 0.5-2.5 ms
        "closed": servo.duty_u16(500 + 2000 * 60 / 180)}  # -30 degrees


def test_a_true_key_opens_the_latch_on_the_pico_wiring() -> None:
    scenario = load(str(DEMO))
    scenario.config = {**scenario.config, "backend": "serial",
                       "chest": {"servo": {"travel_seconds": 0.1}}}
    run = ScenarioRun(scenario)
    pico = run.context["pico"]  # the simulated board the serial backend talks to
    rec = pico.recorder
    assert rec.wait_for(lambda: rec.duty(16) == DUTY["closed"])  # it boots latched
    checked = []

    def servo_duty_agrees(step, expect) -> None:
        if "chest" in expect:
            want = DUTY[expect["chest"]]
            assert rec.wait_for(lambda: rec.duty(16) == want, 3), (
                f"step {step.index}: servo duty {rec.duty(16)}, expected {want}")
            checked.append(step.index)

    failure = run.run(after_step=servo_duty_agrees)
    assert failure is None, failure.describe(scenario.path)
    assert pico.error is None
    assert len(checked) >= 5
    first = scenario.steps[1]
    assert first.value.piece == "magic-keys/key/purple/1" and first.expect["chest"] == "open"
    duties = [d for _, pin, d in rec.pwm if pin == 16 and d]
    assert max(duties) == DUTY["open"] and min(duties) == DUTY["closed"]
    executed = [e.body["op"] for e in rec.executed]
    assert executed[0] == "cfg" and executed.count("latch") >= 2
