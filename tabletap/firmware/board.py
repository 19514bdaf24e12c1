"""The board's side of the protocol: sessions, exactly-once commands, events, the safe state.

No pin is touched here: `make_hw(cfg, now)` (from main.py, or the simulator's stand-ins) builds
the servo, the ring and the inputs, and `write(bytes)` sends to the host. That keeps this logic
the same on the Pico, in the simulated board and under MicroPython on Node.
"""

try:
    from . import protocol
    from .clock import ticks_diff
except ImportError:  # on the board, the modules sit side by side in /
    import protocol
    from clock import ticks_diff

FW_VERSION = "1.0.0"
RETRY_MS = 100  # an unacknowledged event is sent again after this long
OUTBOX_MAX = 16  # events kept for a host that is not listening; the oldest go first

# What the board does before the host's cfg arrives; matches controller/settings/config.py's
# defaults.
DEFAULTS = {
    "servo_pin": 16,
    "min_us": 500,
    "max_us": 2500,
    "min_angle": -90,
    "max_angle": 90,
    "open_angle": 60,
    "closed_angle": -30,
    "travel_s": 0.5,
    "pixel_pin": 15,
    "pixels": 12,
    "buttons": {"end-turn": 14, "roll": 13},
    "lid_pin": None,
    "hold_ms": 1000,
    "host_timeout": 3.0,
}

_NUMBER_RANGES = {
    "servo_pin": (0, 29),
    "pixel_pin": (0, 29),
    "min_us": (400, 2600),
    "max_us": (400, 2600),
    "min_angle": (-180, 180),
    "max_angle": (-180, 180),
    "open_angle": (-180, 180),
    "closed_angle": (-180, 180),
    "travel_s": (0, 10),
    "pixels": (1, 256),
    "hold_ms": (100, 10000),
    "host_timeout": (0.5, 600),
}

_INT_KEYS = ("servo_pin", "pixel_pin", "pixels", "hold_ms")


def check_config(update, current):
    """The config after applying `update`, or ValueError naming the first bad key."""
    cfg = dict(current)
    for key in update:
        if key == "op" or key == "h" or key == "b":
            continue
        value = update[key]
        if key in _NUMBER_RANGES:
            lo, hi = _NUMBER_RANGES[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(key + " must be a number")
            if key in _INT_KEYS and not isinstance(value, int):
                raise ValueError(key + " must be a whole number")
            if value < lo or value > hi:
                raise ValueError("%s must be within %s..%s" % (key, lo, hi))
        elif key == "buttons":
            if not isinstance(value, dict):
                raise ValueError("buttons must map names to pins")
            for name in value:
                pin = value[name]
                if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 29:
                    raise ValueError("button " + str(name) + " needs a pin 0..29")
        elif key == "lid_pin":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 0 <= value <= 29):
                raise ValueError("lid_pin must be a pin 0..29 or null")
        else:
            raise ValueError("unknown config key " + str(key))
        cfg[key] = value
    pins = [cfg["servo_pin"], cfg["pixel_pin"]] + [cfg["buttons"][n] for n in cfg["buttons"]]
    if cfg["lid_pin"] is not None:
        pins.append(cfg["lid_pin"])
    for pin in pins:
        if pins.count(pin) > 1:
            raise ValueError("pin GP%d is used twice" % pin)
    if cfg["min_us"] >= cfg["max_us"]:
        raise ValueError("min_us must be below max_us")
    if cfg["min_angle"] == cfg["max_angle"]:
        raise ValueError("min_angle must differ from max_angle")
    # min_angle above max_angle is a reversed servo (min_us still drives min_angle).
    lo = min(cfg["min_angle"], cfg["max_angle"])
    hi = max(cfg["min_angle"], cfg["max_angle"])
    for key in ("open_angle", "closed_angle"):
        if not lo <= cfg[key] <= hi:
            raise ValueError(key + " must lie between min_angle and max_angle")
    return cfg


_PIN_KEYS = ("servo_pin", "pixel_pin", "pixels", "buttons", "lid_pin")


class Board:
    def __init__(self, make_hw, write, boot, now, proto=protocol.VERSION, trace=None):
        self.repl_requested = False  # the host asked for the REPL (to flash); main.py resets
        self.make_hw = make_hw
        self.write = write
        self.boot = boot
        self.proto = proto
        self.trace = trace  # the simulator's record of executed commands; None on the Pico
        self.decoder = protocol.Decoder()
        self.cfg = dict(DEFAULTS)
        self.hw = make_hw(self.cfg, now)
        self.host = None  # the host session this board answers to
        self.last_seq = 0  # the last command executed for that host
        self.last_ack = None
        self.host_seen = now  # silence is counted from power-up too
        self.safe = False
        self.outbox = []  # [event seq, name, kind]
        self.event_seq = 0
        self.event_sent = None
        self.hw.servo.set_open(False)
        self.send("hello", 0, self.hello_body())

    # -- sending ---------------------------------------------------------------------------
    def send(self, kind, seq, body):
        self.write(protocol.encode(kind, seq, body))

    def hello_body(self):
        caps = ["servo", "neopixel", "buttons", "watchdog"]
        if self.cfg["lid_pin"] is not None:
            caps.append("lid")
        return {"fw": FW_VERSION, "proto": self.proto, "boot": self.boot, "host": self.host,
                "caps": caps, "safe": self.safe, "buttons": sorted(self.cfg["buttons"])}

    def queue_event(self, name, kind):
        if self.safe:
            return  # nobody is listening: a press now must not act when a host comes back
        self.event_seq += 1
        self.outbox.append([self.event_seq, name, kind])
        if len(self.outbox) > OUTBOX_MAX:
            self.outbox.pop(0)
            self.event_sent = None

    # -- receiving -------------------------------------------------------------------------
    def receive(self, data, now):
        for kind, seq, body in self.decoder.feed(data):
            self.host_seen = now
            if self.safe:
                self.leave_safe()
            if kind == "hello":
                self.on_hello(body)
            elif kind == "cmd":
                self.on_command(seq, body, now)
            elif kind == "ack":
                if self.outbox and self.outbox[0][0] == seq:
                    self.outbox.pop(0)
                    self.event_sent = None
            elif kind == "ping":
                self.send("pong", seq, {"boot": self.boot, "safe": self.safe,
                                        "open": self.hw.servo.opened})

    def on_hello(self, body):
        host = body.get("host")
        if host != self.host:  # a new host session: its sequence numbers start afresh
            self.host = host
            self.last_seq = 0
            self.last_ack = None
            # Presses made for no one (or for the previous daemon) must not act in this session.
            self.outbox = []
            self.event_sent = None
        self.send("hello", 0, self.hello_body())

    def on_command(self, seq, body, now):
        if self.host is None or body.get("h") != self.host or body.get("b") != self.boot:
            self.send("ack", seq, {"ok": False, "err": "session", "boot": self.boot})
            return
        if seq == self.last_seq and self.last_ack is not None:
            ack = dict(self.last_ack)  # a retransmission: answer again, never execute again
            ack["dup"] = True
            self.send("ack", seq, ack)
            return
        if seq <= self.last_seq:  # older than the last one run: not run, and not a success
            self.send("ack", seq, {"ok": False, "err": "stale", "dup": True})
            return
        try:
            self.execute(body, now)
            ack = {"ok": True}
        except (ValueError, KeyError, TypeError) as e:
            ack = {"ok": False, "err": str(e)}
        self.last_seq = seq
        self.last_ack = ack
        if self.trace is not None:
            self.trace(self.boot, seq, body, ack)
        self.send("ack", seq, ack)

    def execute(self, body, now):
        op = body.get("op")
        if op == "latch":
            self.hw.servo.set_open(bool(body["open"]))
        elif op == "sweep":
            self.hw.servo.sweep(body["degrees"])
        elif op == "show":
            self.hw.ring.show(body["pattern"], body.get("colour"), now, body.get("count"),
                              body.get("level", 255))
        elif op == "repl":
            self.repl_requested = True  # main.py resets into the REPL once this is acknowledged
        elif op == "cfg":
            cfg = check_config(body, self.cfg)
            rebuild = False
            for key in _PIN_KEYS:
                if cfg[key] != self.cfg[key]:
                    rebuild = True
            self.cfg = cfg
            if rebuild:
                opened = self.hw.servo.opened
                pattern = self.hw.ring.pattern
                colour = self.hw.ring.colour
                count = self.hw.ring.count
                level = self.hw.ring.level
                self.hw.deinit()
                self.hw = self.make_hw(cfg, now)
                self.hw.servo.set_open(opened)
                self.hw.ring.show(pattern, colour, now, count, level)
            else:
                self.hw.servo.configure(cfg)
                for inp in self.hw.inputs:
                    inp.hold_ms = cfg["hold_ms"]
        else:
            raise ValueError("unknown op " + str(op))

    # -- time ------------------------------------------------------------------------------
    def enter_safe(self, now):
        """The host fell silent: lock the latch and show amber until it comes back."""
        self.safe = True
        self.hw.servo.set_open(False)
        self.hw.ring.show("safe", None, now)

    def leave_safe(self):
        """The host is back: tell it, so it can restore the latch and lights it wants."""
        self.safe = False
        self.queue_event("safe", "ended")

    def tick(self, now):
        hw = self.hw
        for inp in hw.inputs:
            kind = inp.poll(now, ticks_diff)
            if kind is not None:
                self.queue_event(inp.name, kind)
        silent = ticks_diff(now, self.host_seen)
        if not self.safe and silent > self.cfg["host_timeout"] * 1000:
            self.enter_safe(now)
        if self.outbox and self.host is not None and not self.safe:
            if self.event_sent is None or ticks_diff(now, self.event_sent) >= RETRY_MS:
                seq, name, kind = self.outbox[0]
                self.send("evt", seq, {"b": self.boot, "name": name, "kind": kind})
                self.event_sent = now
        hw.servo.update(now, ticks_diff)
        hw.ring.update(now, ticks_diff)
