"""`tabletap doctor`: every configured device, one line each, exit 0 only when nothing failed."""

from dataclasses import dataclass, field

import pytest

from tabletap.controller.cli import main
from tabletap.controller.clock import SystemClock
from tabletap.controller.health.checks import (
    Finding,
    check_buttons,
    report,
    run_checks,
    simulated_context,
)
from tabletap.controller.ports import InputEvent
from tabletap.controller.settings.config import Config, parse_config

GPIO_BOX = """\
backend: gpio
chest:
  lid_pin: 22
  servo:
    pin: 18
    open_angle: 45
    closed_angle: -45
buttons:
  end-turn: 17
  roll: GPIO27
"""


def lines_of(out: str) -> dict[str, str]:
    """device line -> status, for the report's device lines."""
    return {line[11:].split("  ")[0].strip(): line.split()[0]
            for line in out.splitlines() if line.startswith("  ") and line[2:3] != " "}


def test_doctor_sim_checks_every_gpio_device(tmp_path, capsys):
    box = tmp_path / "box.yaml"
    box.write_text(GPIO_BOX)
    assert main(["doctor", "--sim", "--config", str(box)]) == 0
    out = capsys.readouterr().out
    status = lines_of(out)
    assert status == {
        "reader chest": "ok", "reader pond": "ok", "chest servo (GPIO18)": "ok",
        "lights": "ok", "button end-turn (GPIO17)": "ok", "button roll (GPIO27)": "ok",
        "lid switch (GPIO22)": "ok",
    }, out
    # each reader is the emulated PN532 under the real adapter, which asks for its firmware
    assert out.count("PN532 firmware 1.6") == 2
    # the sweep: -45 degrees is 0.5 ms + 45/180 of 2 ms = 1.0 ms; 10 degrees on is 1.111 ms
    assert "1.000 → 1.111 → 1.000 ms" in out
    assert "All 7 checks are fine." in out


def test_doctor_sim_on_the_plain_simulator(capsys):
    assert main(["doctor", "--sim"]) == 0
    out = capsys.readouterr().out
    assert "opened and closed (simulated)" in out and "backend sim (simulated)" in out


def test_a_typo_in_the_config_is_named_with_exit_2(tmp_path, capsys):
    box = tmp_path / "box.yaml"
    box.write_text(GPIO_BOX.replace("    open_angle: 45", "    open_angel: 45"))
    assert pytest.raises(SystemExit, main, ["doctor", "--sim", "--config", str(box)]).value.code \
        == 2
    err = capsys.readouterr().err
    assert f"{box}:6:5: chest.servo.open_angel: unknown key" in err


def test_an_angle_past_the_limits_is_a_config_error(tmp_path, capsys):
    box = tmp_path / "box.yaml"
    box.write_text(GPIO_BOX.replace("open_angle: 45", "open_angle: 145"))
    with pytest.raises(SystemExit) as exit_:
        main(["doctor", "--sim", "--config", str(box)])
    assert exit_.value.code == 2
    assert f"{box}:6:5: chest.servo.open_angle" in capsys.readouterr().err


def test_an_unplugged_reader_fails_the_doctor():
    config = parse_config(GPIO_BOX)
    clock = SystemClock()
    context = simulated_context(config, clock)
    context["world"].missing_readers.add("pond")
    findings = run_checks(config, context, clock)
    pond = next(f for f in findings if f.device == "reader pond")
    assert pond.status == "failed" and "does not answer" in pond.detail
    text, code = report(findings)
    assert code == 1 and "1 of 7 checks failed" in text


def test_a_pin_used_twice_fails_the_outputs(tmp_path, capsys):
    box = tmp_path / "box.yaml"
    box.write_text(GPIO_BOX.replace("roll: GPIO27", "roll: GPIO18"))
    assert main(["doctor", "--sim", "--config", str(box)]) == 1
    out = capsys.readouterr().out
    assert "failed   chest, lights and buttons (gpio)" in out and "buttons:" in out


def test_no_pin_factory_at_the_table_is_explained(tmp_path, capsys, monkeypatch):
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")  # not installed off a Pi
    box = tmp_path / "box.yaml"
    box.write_text(GPIO_BOX)
    assert main(["doctor", "--config", str(box)]) == 1
    assert "install lgpio" in capsys.readouterr().out


@dataclass
class StuckButtons:
    """A buttons adapter whose `roll` reads pressed at rest (the layer above: the report)."""

    queued: list[InputEvent] = field(default_factory=list)

    def pressed(self) -> dict[str, bool]:
        return {"end-turn": False, "roll": True}

    def events(self) -> list[InputEvent]:
        out, self.queued = self.queued, []
        return out

    def close(self) -> None:
        pass


def test_a_button_pressed_at_rest_is_a_warning():
    config = Config(backend="gpio")
    findings = check_buttons(config, StuckButtons(), {"sim": False}, SystemClock(), False, 0)
    assert [f.status for f in findings] == ["ok", "warning"]
    assert "stuck" in findings[1].detail
    assert report(findings)[1] == 0  # a warning is worth a look, not a failure


def test_report_layout():
    text, code = report([Finding("ok", "lights", "fine"), Finding("failed", "board", "silent")])
    assert text.splitlines() == ["  ok       lights  fine", "  failed   board   silent",
                                 "1 of 2 checks failed: fix those before playing."]
    assert code == 1


def test_doctor_sim_asks_the_simulated_pico_for_its_hello(tmp_path, capsys):
    """The Pico wiring: the board's hello through the serial link's own probe."""
    box = tmp_path / "box.yaml"
    box.write_text("backend: serial\nserial:\n  lid_pin: 12\n")
    assert main(["doctor", "--sim", "--config", str(box)]) == 0
    out = capsys.readouterr().out
    status = lines_of(out)
    assert status["board"] == "ok" and "simulated Pico answers: tabletap firmware" in out
    assert status["button end-turn (GP14)"] == "ok" and status["lid switch (GP12)"] == "ok"


def test_at_the_table_on_mock_pins(tmp_path, capsys, monkeypatch):
    """Without --sim: the pin factory comes from GPIOZERO_PIN_FACTORY (gpiozero's mock with PWM
    pins standing in for lgpio), each reader is built on its own so one bad reader does not hide
    the others, and --press waits for presses nobody makes."""
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    # nobody is watching
    monkeypatch.setattr("tabletap.controller.health.checks.LIGHT_SECONDS", 0.0)
    box = tmp_path / "box.yaml"
    box.write_text(GPIO_BOX + "readers:\n  chest: {transport: uart}\n  pond: {transport: sim}\n")
    try:
        code = main(["doctor", "--config", str(box), "--press", "--press-timeout", "0.05"])
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.close()
    out = capsys.readouterr().out
    status = lines_of(out)
    assert code == 1
    assert status["reader chest"] == "failed" and "needs `port:`" in out
    assert status["reader pond"] == "ok"
    assert status["chest servo (GPIO18)"] == "ok" and "did you see and hear it move?" in out
    assert status["lights"] == "ok"
    assert status["button end-turn (GPIO17)"] == "failed" and "no press within 0.05 s" in out
    assert status["lid switch (GPIO22)"] == "ok" and "reads open" in out


class QuietReader:
    """Answers polls but not GetFirmwareVersion (the layer above the reader: the report)."""

    name = "chest"

    def poll(self):
        from tabletap.controller.ports import Poll

        return Poll()

    def firmware_version(self):
        return None

    def close(self):
        pass


def test_a_reader_that_hides_its_firmware_is_a_warning():
    from tabletap.controller.health.checks import check_reader

    finding = check_reader("chest", QuietReader(), "uart")
    assert finding.status == "warning" and "did not report its firmware" in finding.detail


def test_while_the_table_runs_the_doctor_asks_it_rather_than_open_its_devices(tmp_path, capsys):
    """docs/CONTRACTS.md, "Processes": a command that needs the hardware asks the running
    daemon, or refuses. Before, the doctor opened the reader's port and the servo's pin beside
    the daemon that held them; now the daemon checks them (the page's `{"doctor": true}`), and
    `--press`, which the daemon cannot ask for, says to stop the table first."""
    from tests.reliability.procs import magic_keys_config, start, wait_ready

    cfg = magic_keys_config(tmp_path)
    cfg.write_text(cfg.read_text() + GPIO_BOX)
    daemon = start(cfg)
    try:
        wait_ready(daemon)
        code = main(["doctor", "--config", str(cfg)])
        out = capsys.readouterr().out
        assert f"the table is running (pid {daemon.pid}), so it checks the devices it holds" \
            in out
        status = lines_of(out)
        assert status["reader chest"] == "ok"  # the daemon's own (simulated) reader
        assert "A game is under way" in out  # the moving checks are left out mid-game
        assert code in (0, 1)
        code = main(["doctor", "--config", str(cfg), "--press"])
        err = capsys.readouterr().err
        assert code == 2 and "stop it first (systemctl stop tabletap" in err
    finally:
        daemon.kill()
        daemon.wait()
