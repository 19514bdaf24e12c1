"""The `gpio` backend as the daemon builds it: by entry point, on the simulator's mock pins."""

import pytest
from gpiozero import RGBLED, AngularServo, Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from tabletap.controller.ports import InputEvent
from tabletap.controller.settings.config import Config
from tabletap.controller.table.adapters import build_outputs
from tabletap.hw.gpio import GpioError
from tabletap.hw.gpio.factory import pin_factory
from tabletap.sim.context import make_context

OPEN_WIDTH = 0.0005 + 0.002 * 150 / 180  # defaults: 60 degrees on -90..90, 0.5-2.5 ms
CLOSED_WIDTH = 0.0005 + 0.002 * 60 / 180  # -30 degrees


@pytest.fixture
def table():
    context = make_context()
    config = Config.model_validate({"backend": "gpio", "chest": {"lid_pin": 22}})
    outputs = build_outputs(config, context)
    yield outputs, context
    outputs.close()


def test_built_by_entry_point_on_the_simulated_pins(table):
    outputs, context = table
    pins = context["gpio_pins"]
    assert isinstance(pins.factory, MockFactory) and pins.factory.pin_class is MockPWMPin
    outputs.chest.set_open(True)
    assert pins.pulse_widths(18)[-1] == pytest.approx(OPEN_WIDTH)
    assert context["clock"].now() == pytest.approx(0.5)  # travel ran on virtual time


def test_world_presses_become_pin_edges_and_gpiozero_events(table):
    outputs, context = table
    world, pins = context["world"], context["gpio_pins"]
    world.press("end-turn")
    world.press("roll", long=True)
    world.lid(closed=True)
    before = context["clock"].now()
    assert outputs.buttons.events() == [
        InputEvent("end-turn", "press"), InputEvent("roll", "hold"),
        InputEvent("lid", "lid-closed"),
    ]
    assert context["clock"].now() - before >= 1.0  # the long press was held past hold time
    # the presses really happened on the pins: low, then high again
    assert [s.state for s in pins.pin(17).states][-2:] == [False, True]
    assert not world.inputs


def test_unwired_inputs_are_dropped_with_a_warning(table, caplog):
    outputs, context = table
    context["world"].press("undo")
    assert outputs.buttons.events() == []
    assert "no such button is wired" in caplog.text


def test_a_pin_used_twice_names_the_key():
    context = make_context()
    # 18 is the servo's
    config = Config.model_validate({"backend": "gpio", "buttons": {"end-turn": 18}})
    with pytest.raises(GpioError, match=r"^buttons: .*18"):
        build_outputs(config, context)
    # what was built before the failure was released: the servo and LED pins are free again
    AngularServo(18, pin_factory=context["gpio_pins"].factory).close()
    RGBLED(12, 13, 19, pin_factory=context["gpio_pins"].factory).close()


def test_a_pin_that_does_not_exist_names_the_key():
    config = Config.model_validate({"backend": "gpio", "chest": {"servo": {"pin": 99}}})
    with pytest.raises(GpioError, match=r"^chest.servo: .*99"):
        build_outputs(config, make_context())


def test_pin_factory_by_name():
    assert isinstance(pin_factory("mock"), MockFactory)
    assert pin_factory("mock").pin_class is MockPWMPin  # servos need PWM
    assert isinstance(pin_factory("MOCK"), MockFactory)
    with pytest.raises(GpioError, match="not a gpiozero pin factory"):
        pin_factory("pigpoi")


def test_pin_factory_from_the_environment(monkeypatch):
    """No `pin_factory` in the config: gpiozero's GPIOZERO_PIN_FACTORY decides."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(pin_factory(None), MockFactory)


def test_no_working_factory_is_explained(monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    with pytest.raises(GpioError, match="lgpio"):
        pin_factory(None)


def test_outputs_close_releases_everything(table):
    outputs, context = table
    factory = context["gpio_pins"].factory
    outputs.close()
    assert not any(factory._reservations.values())
    outputs.close()  # closing twice is harmless (the daemon and the runner may both close)


def test_simulated_pin_history_is_bounded(table):
    """Animated LEDs change 25 times a second; a long `run --sim` must not grow without end."""
    from tabletap.sim.gpio_pins import HISTORY_KEEP, HISTORY_LIMIT

    outputs, context = table
    pin = context["gpio_pins"].pin(12)
    pin.states.extend([pin.states[-1]] * HISTORY_LIMIT)
    outputs.buttons.events()
    assert len(pin.states) == HISTORY_KEEP


def test_gpiozero_pin_factory_mock_in_the_environment_gets_pwm_pins(monkeypatch):
    from gpiozero.pins.mock import MockPWMPin

    from tabletap.hw.gpio.factory import pin_factory

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = pin_factory(None)
    assert isinstance(factory.pin(18), MockPWMPin)  # a servo and PWM LEDs can use it
