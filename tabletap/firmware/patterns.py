"""The named light patterns, rendered on the NeoPixel ring by the board itself.

PATTERNS and COLOURS are a copy of controller/patterns.py as plain data (the board cannot
import the controller); tests/firmware checks the two tables agree. The host sends a pattern name
and a colour name; the animation runs here, so a busy host never makes the lights stutter.
"""

PATTERNS = {
    "off": ("off", "black"),
    "idle": ("pulse", "white"),
    "turn": ("solid", "white"),
    "accepted": ("solid", "green"),
    "rejected": ("blink", "red"),
    "fake": ("blink", "purple"),
    "pending": ("chase", "cyan"),  # a gesture waits for its next tap: the light runs on
    "win": ("rainbow", "white"),
    "reader-missing": ("blink", "amber"),
    "safe": ("solid", "amber"),
    "pairing": ("pulse", "blue"),  # a phone asks to pair: tap the parent card within 30 s
}

COLOURS = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 200, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 200, 0),
    "purple": (160, 0, 255),
    "cyan": (0, 200, 200),
    "amber": (255, 120, 0),
    "orange": (255, 80, 0),
    "pink": (255, 80, 160),
    "brown": (120, 60, 20),
    "grey": (100, 100, 100),
    "gold": (255, 180, 0),
}

ANIMATIONS = ("off", "solid", "blink", "pulse", "chase", "rainbow")
BLINK_MS = 250  # on, then off, for this long each
PULSE_MS = 1600  # one breath
CHASE_MS = 80  # per pixel step
RAINBOW_MS = 3000  # one turn of the colour wheel
FRAME_MS = 20  # the ring is redrawn at most this often


def _scale(rgb, num, den):
    return (rgb[0] * num // den, rgb[1] * num // den, rgb[2] * num // den)


def wheel(pos):
    """A fully saturated colour for pos in 0..767."""
    pos %= 768
    if pos < 256:
        return (255 - pos, pos, 0)
    if pos < 512:
        pos -= 256
        return (0, 255 - pos, pos)
    pos -= 512
    return (pos, 0, 255 - pos)


def counted(frame, count):
    """A number on the ring: the first `count` pixels as drawn, the rest dimmed to an eighth
    (how many cards the player whose turn it is draws, say)."""
    return [px if i < count else _scale(px, 1, 8) for i, px in enumerate(frame)]


def render(animation, rgb, n, t_ms):
    """The colours of n pixels at t_ms into the animation."""
    black = (0, 0, 0)
    if animation == "solid":
        return [rgb] * n
    if animation == "blink":
        return [rgb if (t_ms // BLINK_MS) % 2 == 0 else black] * n
    if animation == "pulse":
        phase = t_ms % PULSE_MS
        half = PULSE_MS // 2
        level = phase if phase < half else PULSE_MS - phase  # 0..half..0
        return [_scale(rgb, 16 + level * 240 // half, 256)] * n  # never fully dark
    if animation == "chase":
        head = (t_ms // CHASE_MS) % n
        out = [black] * n
        out[(head - 1) % n] = _scale(rgb, 1, 4)  # the tail first: on one pixel the head wins
        out[head] = rgb
        return out
    if animation == "rainbow":
        shift = (t_ms % RAINBOW_MS) * 768 // RAINBOW_MS
        return [wheel(shift + i * 768 // n) for i in range(n)]
    return [black] * n


def resolve(pattern, colour=None):
    """(animation, rgb) for a pattern and an optional colour name; ValueError names the bad one."""
    if pattern not in PATTERNS:
        raise ValueError("unknown pattern " + str(pattern))
    animation, default = PATTERNS[pattern]
    name = default if colour is None else colour
    if name not in COLOURS:
        raise ValueError("unknown colour " + str(name))
    return animation, COLOURS[name]


class Ring:
    """A NeoPixel ring showing one pattern; it writes only when the picture changes."""

    def __init__(self, np, n):
        self.np = np
        self.n = n
        self.pattern = "off"
        self.colour = None
        self.animation = "off"
        self.rgb = (0, 0, 0)
        self.since = 0
        self.count = None
        self.level = 255
        self.last = None
        self.drawn_at = None

    def show(self, pattern, colour, now, count=None, level=255):
        """`level` (1..255, the host's bedtime dimming) scales every pixel of every frame; a
        level that is no whole number in range counts as full, so a bad one never blacks out
        the whose-turn colour."""
        self.animation, self.rgb = resolve(pattern, colour)
        self.pattern = pattern
        self.colour = colour
        self.count = count
        ok = isinstance(level, int) and not isinstance(level, bool) and 1 <= level <= 255
        self.level = level if ok else 255
        self.since = now
        self.drawn_at = None  # draw at the next update, whatever the frame timer says

    def update(self, now, ticks_diff):
        if self.drawn_at is not None and ticks_diff(now, self.drawn_at) < FRAME_MS:
            return
        self.drawn_at = now
        frame = render(self.animation, self.rgb, self.n, ticks_diff(now, self.since))
        if self.count is not None:
            frame = counted(frame, self.count)
        if self.level < 255:
            frame = [_scale(px, self.level, 255) for px in frame]
        if frame == self.last:
            return
        for i in range(self.n):
            self.np[i] = frame[i]
        self.np.write()
        self.last = frame
