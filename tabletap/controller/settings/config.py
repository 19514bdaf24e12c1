"""The daemon's YAML config and its schema.

Unknown keys are errors, not ignored: a misspelt `open_secnds` silently falling back to a default
is exactly the bug a maker cannot find. Every error names the file, line and key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from tabletap.controller.games.registry import engine_for
from tabletap.controller.language import catalogs
from tabletap.controller.language.voices import voice_for
from tabletap.controller.loading.source import YamlDoc, load_file, load_text, validate
from tabletap.controller.rules.base import Rejection
from tabletap.controller.state.folder import StateFolder


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReaderConfig(Strict):
    """One PN532 (or simulated) reader. Transport-specific keys are checked by the adapter."""

    transport: Literal["uart", "spi", "i2c", "sim"] = "sim"
    # uart: /dev/serial0 is the header's UART (GPIO14/15) on the tabletap image and on
    # Raspberry Pi OS alike (ttyAMA0 is Bluetooth's on a Pi 3, Zero 2 W or 4); a USB adapter by
    # its /dev/serial/by-id path
    port: str | None = None
    baud: int = 115200
    cs: str | None = None  # spi: chip-select board pin name, e.g. D5
    address: int = 0x24  # i2c
    reset_pin: str | None = None  # optional RSTPDN wiring
    irq_pin: str | None = None  # spi/i2c: optional P70_IRQ wiring (e.g. D25): waits for taps
    timeout: float = 0.05  # seconds the adapter waits for one frame
    # waiting for a tap (0: off, the reader is polled): an empty reader leaves one armed
    # listing with the chip and the loop waits on every such reader at once; it is renewed
    # (the chip's liveness check) every `arm` seconds. UART only (docs/nfc.md)
    arm: float = Field(0.5, ge=0, le=5)


SERVO_FRAME_SECONDS = 0.02  # 50 Hz, what hobby servos expect


class ServoConfig(Strict):
    """The latch servo. Angles are checked against the limits here, at load, so a typo can never
    reach the servo as a command to drive past its end stops."""

    pin: str | int = 18
    min_pulse_width: float = Field(0.0005, gt=0)  # seconds
    max_pulse_width: float = Field(0.0025, gt=0)
    min_angle: float = -90
    max_angle: float = 90
    open_angle: float = 60
    closed_angle: float = -30
    # At most 2 s: on the GPIO wiring the daemon loop waits for the latch, and the readers go
    # unpolled meanwhile (the Pico moves the servo itself and would allow up to 10 s).
    travel_seconds: float = Field(0.5, ge=0, le=2)
    # Stop the pulses once the latch has arrived: software PWM (lgpio on a Pi) jitters and makes
    # a loaded servo buzz; a latch holds its position without power.
    detach_after_travel: bool = False

    @field_validator("max_pulse_width")
    @classmethod
    def _pulse_order(cls, value: float, info: ValidationInfo) -> float:
        low = info.data.get("min_pulse_width")
        if low is not None and value <= low:
            raise ValueError(f"must be greater than min_pulse_width ({low})")
        if value >= SERVO_FRAME_SECONDS:
            raise ValueError(f"must be shorter than the {SERVO_FRAME_SECONDS * 1000:g} ms frame")
        return value

    @field_validator("max_angle")
    @classmethod
    def _angle_range(cls, value: float, info: ValidationInfo) -> float:
        if value == info.data.get("min_angle"):
            raise ValueError("must differ from min_angle")
        return value

    @field_validator("open_angle", "closed_angle")
    @classmethod
    def _within_limits(cls, value: float, info: ValidationInfo) -> float:
        a, b = info.data.get("min_angle"), info.data.get("max_angle")
        if a is not None and b is not None and not min(a, b) <= value <= max(a, b):
            raise ValueError(f"{value:g} is outside the servo's limits [{a:g}, {b:g}]")
        opened = info.data.get("open_angle")
        if info.field_name == "closed_angle" and opened is not None and abs(value - opened) < 1:
            raise ValueError("must be at least 1 degree from open_angle, or the latch never moves")
        return value


class ChestConfig(Strict):
    open_seconds: float = Field(5.0, gt=0)  # relock this long after opening
    servo: ServoConfig = ServoConfig()
    lid_pin: str | int | None = None  # optional lid switch, closed = pressed


class QuietLights(Strict):
    """Bedtime for the lights: between `start` and `end` (local time, "19:30" to "07:00" passes
    midnight) every light shows at `brightness` percent of its daytime brightness, so the turn's
    colour still tells whose turn it is without lighting up a child's bedroom."""

    start: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    end: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    brightness: int = Field(25, ge=1, le=100)  # percent; 1 rather than 0: off is not a colour


class LightsConfig(Strict):
    kind: Literal["rgb", "pwm", "neopixel"] = "rgb"
    pins: list[str | int] = [12, 13, 19]
    pixels: int = 12
    active_high: bool = True  # False for a common-anode RGB LED (gpio backend)
    feedback_seconds: float = Field(2.0, gt=0)  # how long accepted/rejected/fake show
    # one colour per seat, in seat order (whose turn, the seats at set-up, the winner);
    # empty: a player named after a colour shows it, the others patterns.SEAT_COLOURS
    seat_colours: list[str] = []
    quiet: QuietLights | None = None  # bedtime: dimmed by the clock (controller.table.bedtime)

    @field_validator("seat_colours")
    @classmethod
    def _known_colours(cls, value: list[str]) -> list[str]:
        from tabletap.controller.patterns import COLOURS

        for colour in value:
            if colour not in COLOURS:
                raise ValueError(f"{colour!r} is not a colour the lights know "
                                 f"({', '.join(sorted(COLOURS))})")
        return value


class QuietHours(Strict):
    """Bedtime: between `start` and `end` (local time, "19:30" to "07:00" passes midnight) the
    voice is at most `volume`, whatever was chosen by day (spoken.volume)."""

    start: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    end: str = Field(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
    volume: int = Field(40, ge=0, le=200)


class VoiceConfig(Strict):
    """The table's voice (espeak-ng). `enabled` left out: on at a real table, off with
    `backend: sim` (a developer's machine should not talk through every test)."""

    enabled: bool | None = None
    # None: the voice of the table's `language` (language.voices); an espeak-ng voice name else
    voice: str | None = Field(None, pattern=r"^[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*$")
    rate: int = Field(150, ge=80, le=450)  # words per minute
    volume: int = Field(100, ge=0, le=200)  # espeak-ng amplitude, until the family changes it
    quiet: QuietHours | None = None


class SerialConfig(Strict):
    port: str | None = None  # None: find the Pico by /dev/serial/by-id or USB VID:PID
    baud: int = 115200
    host_timeout: float = Field(3.0, ge=0.5, le=600)  # host silent this long: Pico locks, amber
    # The Pico's own pins (GP numbers; the host sends them in its cfg command after hello).
    servo_pin: int = Field(16, ge=0, le=29)
    pixel_pin: int = Field(15, ge=0, le=29)
    buttons: dict[str, int] = {"end-turn": 14, "roll": 13}
    lid_pin: int | None = Field(None, ge=0, le=29)  # optional lid switch, closed = pressed
    retry_seconds: float = Field(0.1, gt=0)  # resend an unacknowledged command after this long
    hello_timeout: float = Field(5.0, gt=0)  # how long start-up waits for the board's hello


class PollConfig(Strict):
    period: float = Field(0.1, gt=0)
    miss_threshold: int = Field(2, ge=1)  # clean misses in a row before a piece counts as lifted
    # the period while a piece rests on a reader, so a lift is seen sooner (None: `period`)
    resting_period: float | None = Field(0.06, gt=0)
    # the period when the next poll decides something: a piece missed once (one more miss is a
    # lift), a torn read, a garbled or failed poll (None: no quicker poll); docs/nfc.md
    confirm_period: float | None = Field(0.02, gt=0)


class WebConfig(Strict):
    """The phone page (`tabletap web`, docs/WEB.md): off unless enabled; it binds only here."""

    enabled: bool = False
    port: int = Field(8080, ge=1, le=65535)
    bind: str = "127.0.0.1"  # "0.0.0.0" to reach it from phones on the home network
    public: bool = True  # anyone on the network may watch; False: only paired browsers
    mdns: bool = True  # announce tabletap.local on the network (the zeroconf package)
    pairing_seconds: float = Field(30.0, ge=5, le=300)  # how long the parent card may take
    pairing_attempts: int = Field(5, ge=1, le=100)  # per minute from one address
    hostname: str = Field("tabletap", pattern=r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


class AudioConfig(Strict):
    """Where the box's sound (the voice) goes: `auto` leaves ALSA's default card, `jack` the Pi's
    headphone jack, `hdmi` its HDMI output. The image's first boot applies it by writing
    /etc/asound.conf; the daemon itself only plays to the default card."""

    output: Literal["auto", "jack", "hdmi"] = "auto"


class Config(Strict):
    game: str | None = None  # the game `tabletap run` starts when there is none to resume
    # the table's language: what it says and shows (a catalog under controller/locale/)
    language: str = Field("en", pattern=r"^[a-z]{2,3}(?:_[A-Z]{2})?$")
    players: list[str] = []
    seed: int | None = None  # None: a fresh random seed each game (recorded in the journal)
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    # per-game options for a game chosen at the table or with `tabletap new` (game -> options)
    game_options: dict[str, dict[str, Any]] = {}
    voice: VoiceConfig = VoiceConfig()
    backend: Literal["sim", "gpio", "serial"] = "sim"
    pin_factory: str | None = None  # gpiozero factory; GPIOZERO_PIN_FACTORY also works
    readers: dict[str, ReaderConfig] = {"chest": ReaderConfig(), "pond": ReaderConfig()}
    default_reader: str = "chest"
    chest: ChestConfig = ChestConfig()
    lights: LightsConfig = LightsConfig()
    buttons: dict[str, str | int] = {"end-turn": 17, "roll": 27}
    long_press_seconds: float = Field(1.0, gt=0)  # held this long, a press is a long press
    button_bounce_seconds: float | None = Field(0.02, ge=0)  # gpio: ignore contact bounce
    serial: SerialConfig = SerialConfig()
    poll: PollConfig = PollConfig()
    audio: AudioConfig = AudioConfig()
    state_dir: str = "state"
    uid_registry: str | None = None  # defaults to <state_dir>/uids.yaml
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    web: WebConfig = WebConfig()

    @field_validator("language")
    @classmethod
    def _language_known(cls, value: str) -> str:
        if not catalogs.has_catalog(catalogs.CONTROLLER_DOMAIN, value):
            raise ValueError(f"there is no catalog for the language {value!r} (languages here: "
                             f"{', '.join(catalogs.languages())}); docs/LANGUAGES.md says how "
                             "to add one")
        return value

    def voice_name(self) -> str:
        """The espeak-ng voice the table speaks with: `voice.voice`, else its language's."""
        return voice_for(self.language, self.voice.voice)

    def options_for(self, game: str) -> dict[str, Any]:
        """The options a game starts with when the family chooses it: `game_options[game]`,
        or `options` when `game` is the config's own game."""
        if game in self.game_options:
            return dict(self.game_options[game])
        return dict(self.options) if game == self.game else {}

    def voice_on(self, simulated: bool = False) -> bool:
        """Whether the table speaks: as configured, else only at a real table (not with
        `backend: sim`, nor under `--sim` or the scenario runner)."""
        if self.voice.enabled is not None:
            return self.voice.enabled
        return self.backend != "sim" and not simulated

    def registry_path(self) -> Path:
        if self.uid_registry:
            return Path(self.uid_registry)
        return StateFolder(self.state_dir).uid_registry


def load_config(path: str | Path | None) -> Config:
    """The config at `path`, or the defaults (a simulated table) when there is none."""
    if path is None:
        return Config()
    return _checked(load_file(path))


def parse_config(text: str, name: str = "<config>") -> Config:
    return _checked(load_text(text, name))


def _checked(doc: YamlDoc) -> Config:
    config: Config = validate(doc, Config)
    _check_game(doc, config)
    return config


def _check_game(doc: YamlDoc, config: Config) -> None:
    """A game named in the config must start: a bad option is a config error with its line,
    not a surprise when the family sits down."""
    for game in config.game_options:
        try:
            engine_for(game)
        except Rejection as exc:
            raise doc.error(("game_options", game), exc.message) from None
    if config.game is None:
        return
    try:
        engine = engine_for(config.game)
    except Rejection as exc:
        raise doc.error(("game",), exc.message) from None
    if not config.players:
        return  # given on the command line (`tabletap run --players`)

    def starts(options: dict[str, Any], setup: dict[str, Any]) -> Rejection | None:
        try:
            engine.new_game(list(config.players), config.seed or 0, options, setup)
        except Rejection as exc:
            return exc
        return None

    problem = starts(config.options, config.setup)
    if problem is None:
        return
    # Name the key the problem lies under: whichever part, left out, lets the game start.
    if starts({}, config.setup) is None:
        key = "options"
    elif starts(config.options, {}) is None:
        key = "setup"
    else:
        key = "players"
    raise doc.error((key,), problem.message)


def dump_defaults() -> dict[str, Any]:
    return Config().model_dump()
