"""The daemon's YAML config and its schema.

Unknown keys are errors, not ignored: a misspelt `open_secnds` silently falling back to a default
is exactly the bug a maker cannot find. Every error names the file, line and key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from tabletap.controller.games.registry import engine_for
from tabletap.controller.language import catalogs
from tabletap.controller.language.voices import voice_for
from tabletap.controller.loading.schema import Invalid, Meta, Schema, field
from tabletap.controller.loading.source import YamlDoc, load_file, load_text, validate
from tabletap.controller.rules.base import Rejection
from tabletap.controller.state.folder import StateFolder

Strict = Schema  # the config's sections: unknown keys are errors (controller.loading.schema)
HHMM = Annotated[str, Meta(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]


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
    # (the chip's liveness check) every `arm` seconds, with the watchdog's once-a-second pass
    # (docs/nfc.md, "Renewal"). UART, or SPI/I2C with the IRQ line wired (docs/nfc.md)
    arm: Annotated[float, Meta(ge=0, le=5)] = 1.0


SERVO_FRAME_SECONDS = 0.02  # 50 Hz, what hobby servos expect


class ServoConfig(Strict):
    """The latch servo. Angles are checked against the limits here, at load, so a typo can never
    reach the servo as a command to drive past its end stops."""

    pin: str | int = 18
    min_pulse_width: Annotated[float, Meta(gt=0)] = 0.0005  # seconds
    max_pulse_width: Annotated[float, Meta(gt=0)] = 0.0025
    min_angle: float = -90
    max_angle: float = 90
    open_angle: float = 60
    closed_angle: float = -30
    # At most 2 s: on the GPIO wiring the daemon loop waits for the latch, and the readers go
    # unpolled meanwhile (the Pico moves the servo itself and would allow up to 10 s).
    travel_seconds: Annotated[float, Meta(ge=0, le=2)] = 0.5
    # Stop the pulses once the latch has arrived: software PWM (lgpio on a Pi) jitters and makes
    # a loaded servo buzz; a latch holds its position without power.
    detach_after_travel: bool = False

    def __post_init__(self) -> None:
        low, high = self.min_pulse_width, self.max_pulse_width
        if high <= low:
            raise Invalid("max_pulse_width", f"must be greater than min_pulse_width ({low})")
        if high >= SERVO_FRAME_SECONDS:
            raise Invalid("max_pulse_width",
                          f"must be shorter than the {SERVO_FRAME_SECONDS * 1000:g} ms frame")
        a, b = self.min_angle, self.max_angle
        if a == b:
            raise Invalid("max_angle", "must differ from min_angle")
        for name in ("open_angle", "closed_angle"):
            value = getattr(self, name)
            if not min(a, b) <= value <= max(a, b):
                raise Invalid(name, f"{value:g} is outside the servo's limits [{a:g}, {b:g}]")
        if abs(self.closed_angle - self.open_angle) < 1:
            raise Invalid("closed_angle",
                          "must be at least 1 degree from open_angle, or the latch never moves")


class ChestConfig(Strict):
    open_seconds: Annotated[float, Meta(gt=0)] = 5.0  # relock this long after opening
    servo: ServoConfig = field(default_factory=ServoConfig)
    lid_pin: str | int | None = None  # optional lid switch, closed = pressed


class QuietLights(Strict):
    """Bedtime for the lights: between `start` and `end` (local time, "19:30" to "07:00" passes
    midnight) every light shows at `brightness` percent of its daytime brightness, so the turn's
    colour still tells whose turn it is without lighting up a child's bedroom."""

    start: HHMM
    end: HHMM
    # percent; 1 rather than 0: off is not a colour
    brightness: Annotated[int, Meta(ge=1, le=100)] = 25


class LightsConfig(Strict):
    kind: Literal["rgb", "pwm", "neopixel"] = "rgb"
    pins: list[str | int] = field(default_factory=lambda: [12, 13, 19])
    pixels: int = 12
    active_high: bool = True  # False for a common-anode RGB LED (gpio backend)
    feedback_seconds: Annotated[float, Meta(gt=0)] = 2.0  # how long accepted/rejected/fake show
    # one colour per seat, in seat order (whose turn, the seats at set-up, the winner);
    # empty: a player named after a colour shows it, the others patterns.SEAT_COLOURS
    seat_colours: list[str] = []
    quiet: QuietLights | None = None  # bedtime: dimmed by the clock (controller.table.bedtime)

    def __post_init__(self) -> None:
        from tabletap.controller.patterns import COLOURS

        for colour in self.seat_colours:
            if colour not in COLOURS:
                raise Invalid("seat_colours", f"{colour!r} is not a colour the lights know "
                              f"({', '.join(sorted(COLOURS))})")


class QuietHours(Strict):
    """Bedtime: between `start` and `end` (local time, "19:30" to "07:00" passes midnight) the
    voice is at most `volume`, whatever was chosen by day (spoken.volume)."""

    start: HHMM
    end: HHMM
    volume: Annotated[int, Meta(ge=0, le=200)] = 40


class VoiceConfig(Strict):
    """The table's voice (espeak-ng). `enabled` left out: on at a real table, off with
    `backend: sim` (a developer's machine should not talk through every test)."""

    enabled: bool | None = None
    # None: the voice of the table's `language` (language.voices); an espeak-ng voice name else
    voice: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_+-]+(?:/[A-Za-z0-9_+-]+)*$")] | None = None
    rate: Annotated[int, Meta(ge=80, le=450)] = 150  # words per minute
    # espeak-ng amplitude, until the family changes it
    volume: Annotated[int, Meta(ge=0, le=200)] = 100
    quiet: QuietHours | None = None


class SerialConfig(Strict):
    port: str | None = None  # None: find the Pico by /dev/serial/by-id or USB VID:PID
    baud: int = 115200
    # host silent this long: Pico locks, amber
    host_timeout: Annotated[float, Meta(ge=0.5, le=600)] = 3.0
    # The Pico's own pins (GP numbers; the host sends them in its cfg command after hello).
    servo_pin: Annotated[int, Meta(ge=0, le=29)] = 16
    pixel_pin: Annotated[int, Meta(ge=0, le=29)] = 15
    buttons: dict[str, int] = field(default_factory=lambda: {"end-turn": 14, "roll": 13})
    # optional lid switch, closed = pressed
    lid_pin: Annotated[int, Meta(ge=0, le=29)] | None = None
    # resend an unacknowledged command after this long
    retry_seconds: Annotated[float, Meta(gt=0)] = 0.1
    # how long start-up waits for the board's hello
    hello_timeout: Annotated[float, Meta(gt=0)] = 5.0


class PollConfig(Strict):
    period: Annotated[float, Meta(gt=0)] = 0.1
    # clean misses in a row before a piece counts as lifted
    miss_threshold: Annotated[int, Meta(ge=1)] = 2
    # the period while a piece rests on a reader, so a lift is seen sooner (None: `period`)
    resting_period: Annotated[float, Meta(gt=0)] | None = 0.06
    # the period when the next poll decides something: a piece missed once (one more miss is a
    # lift), a torn read, a garbled or failed poll (None: no quicker poll); docs/nfc.md
    confirm_period: Annotated[float, Meta(gt=0)] | None = 0.02


class WebConfig(Strict):
    """The phone page (`tabletap web`, docs/WEB.md): off unless enabled; it binds only here."""

    enabled: bool = False
    port: Annotated[int, Meta(ge=1, le=65535)] = 8080
    bind: str = "127.0.0.1"  # "0.0.0.0" to reach it from phones on the home network
    public: bool = True  # anyone on the network may watch; False: only paired browsers
    mdns: bool = True  # announce tabletap.local on the network (the zeroconf package)
    # how long the parent card may take
    pairing_seconds: Annotated[float, Meta(ge=5, le=300)] = 30.0
    pairing_attempts: Annotated[int, Meta(ge=1, le=100)] = 5  # per minute from one address
    hostname: Annotated[str, Meta(pattern=r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")] = "tabletap"


class AudioConfig(Strict):
    """Where the box's sound (the voice) goes: `auto` leaves ALSA's default card, `jack` the Pi's
    headphone jack, `hdmi` its HDMI output. The image's first boot applies it by writing
    /etc/asound.conf; the daemon itself only plays to the default card."""

    output: Literal["auto", "jack", "hdmi"] = "auto"


class Config(Strict):
    game: str | None = None  # the game `tabletap run` starts when there is none to resume
    # the table's language: what it says and shows (a catalog under controller/locale/)
    language: Annotated[str, Meta(pattern=r"^[a-z]{2,3}(?:_[A-Z]{2})?$")] = "en"
    players: list[str] = []
    seed: int | None = None  # None: a fresh random seed each game (recorded in the journal)
    options: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    # per-game options for a game chosen at the table or with `tabletap new` (game -> options)
    game_options: dict[str, dict[str, Any]] = {}
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    backend: Literal["sim", "gpio", "serial"] = "sim"
    pin_factory: str | None = None  # gpiozero factory; GPIOZERO_PIN_FACTORY also works
    readers: dict[str, ReaderConfig] = field(
        default_factory=lambda: {"chest": ReaderConfig(), "pond": ReaderConfig()})
    default_reader: str = "chest"
    chest: ChestConfig = field(default_factory=ChestConfig)
    lights: LightsConfig = field(default_factory=LightsConfig)
    buttons: dict[str, str | int] = field(default_factory=lambda: {"end-turn": 17, "roll": 27})
    # held this long, a press is a long press
    long_press_seconds: Annotated[float, Meta(gt=0)] = 1.0
    button_bounce_seconds: Annotated[float, Meta(ge=0)] | None = 0.02  # gpio: ignore contact bounce
    serial: SerialConfig = field(default_factory=SerialConfig)
    poll: PollConfig = field(default_factory=PollConfig)
    audio: AudioConfig = field(default_factory=AudioConfig)
    state_dir: str = "state"
    uid_registry: str | None = None  # defaults to <state_dir>/uids.yaml
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    web: WebConfig = field(default_factory=WebConfig)

    def __post_init__(self) -> None:
        if not catalogs.has_catalog(catalogs.CONTROLLER_DOMAIN, self.language):
            raise Invalid("language", f"there is no catalog for the language {self.language!r} "
                          f"(languages here: {', '.join(catalogs.languages())}); "
                          "docs/LANGUAGES.md says how to add one")

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
    _check_wiring(doc, config)
    _check_game(doc, config)
    return config


def _wiring(reader: ReaderConfig) -> tuple[str, object] | None:
    """The key and value that say which chip a reader is: its UART, its SPI chip-select, its
    I2C address (the one bus); None for a simulated reader, which shares nothing."""
    match reader.transport:
        case "uart":
            return ("port", reader.port) if reader.port else None
        case "spi":
            return ("cs", reader.cs) if reader.cs else None
        case "i2c":
            return ("address", reader.address)
    return None


def _check_wiring(doc: YamlDoc, config: Config) -> None:
    """Two readers wired to one chip (a reader block copied and its port left as it was), or a
    reader on the Pico's port: said at load, at the key to change. At run time the second
    open would be refused as "in use by another program" (hw/serial_open.py), though the
    program is the same, or two readers would take turns at one chip."""
    taken: dict[tuple[str, str, object], str] = {}
    if config.backend == "serial" and config.serial.port:
        taken[("uart", "port", config.serial.port)] = "serial.port (the Pico)"
    for name, reader in config.readers.items():
        wiring = _wiring(reader)
        if wiring is None:
            continue
        key, value = wiring
        holder = taken.setdefault((reader.transport, *wiring), f"readers.{name}")
        if holder != f"readers.{name}":
            shown = f"{value:#04x}" if isinstance(value, int) else value
            raise doc.error(("readers", name, key),
                            f"{shown} is already used by {holder}: one "
                            f"{reader.transport.upper()} {key} reaches one device")


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
