"""Buttons (short press, long hold) and the lid switch, debounced, as events for the host.

Pins are inputs with pull-ups: pressed (or lid closed) reads 0.
"""

DEBOUNCE_MS = 20


class _Debounced:
    def __init__(self, pin, now):
        self.pin = pin
        self.raw = pin.value()
        self.raw_since = now
        self.stable = self.raw

    def _step(self, now, ticks_diff):
        """True when the debounced level just changed."""
        raw = self.pin.value()
        if raw != self.raw:
            self.raw = raw
            self.raw_since = now
        elif raw != self.stable and ticks_diff(now, self.raw_since) >= DEBOUNCE_MS:
            self.stable = raw
            return True
        return False


class Button(_Debounced):
    """A release before hold_ms is a "press"; holding hold_ms is a "hold" (once, no press)."""

    def __init__(self, name, pin, hold_ms, now):
        _Debounced.__init__(self, pin, now)
        self.name = name
        self.hold_ms = hold_ms
        self.down_at = None
        self.held = False

    def poll(self, now, ticks_diff):
        if self._step(now, ticks_diff):
            if self.stable == 0:
                self.down_at = now
                self.held = False
            elif self.down_at is not None and not self.held:
                self.down_at = None
                return "press"
            else:
                self.down_at = None
        if self.stable == 0 and self.down_at is not None and not self.held:
            if ticks_diff(now, self.down_at) >= self.hold_ms:
                self.held = True
                return "hold"
        return None


class Lid(_Debounced):
    name = "lid"

    def poll(self, now, ticks_diff):
        if self._step(now, ticks_diff):
            return "lid-closed" if self.stable == 0 else "lid-open"
        return None
