"""The wire between host and chip: a serial-port object the real driver and adapter talk to.

It has what `adafruit_pn532.uart` and tabletap's frame-exact wrapper use of `serial.Serial`
(`write`, `read`, `in_waiting`, `reset_input_buffer`, `timeout`, `baudrate`, `close`), with the
timing of a real UART: every byte takes 10 bits at the baud rate (8N1), the chip answers after its
own processing time (timing.yaml), and `read` blocks up to `timeout` for bytes still on the wire.

Time comes from an injected clock. With the simulator's VirtualClock a blocking read advances
virtual time instead of waiting, so a scenario's ten minutes take seconds and every figure it
reports (tap-to-event latency, poll period) is in the same virtual time as the game. With the
system clock (`bench/nfc.py`) the same code really waits, giving wall-clock figures.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import serial

from tabletap.controller.ports import Clock
from tabletap.sim.pn532.chip import Pn532Chip

# How often, on a real-time clock without a world to wake it (SimWorld.changed), a host
# blocked on an armed listing looks whether a tag has arrived. On a VirtualClock the port wakes
# exactly when the world changes (call_at).
ARMED_STEP = 0.002


class EmulatedSerial:
    """One open port to an emulated chip. Closing it and opening another is like replugging."""

    def __init__(
        self,
        chip: Pn532Chip,
        clock: Clock,
        baudrate: int = 115200,
        timeout: float | None = 0.05,
        poll_step: float = 0.0,
    ) -> None:
        self.chip = chip
        # Virtual time that passes each time `in_waiting` finds nothing: set it to the driver's
        # 10 ms ready-loop sleep to run the driver straight on this port under virtual time (its
        # own sleeps are wall-clock ones). tabletap's FramedSerial never needs it: it blocks.
        self.poll_step = poll_step
        self.clock = clock
        self.baudrate = baudrate
        self.timeout = timeout
        self.is_open = True
        self.unplugged = False  # set by tests: the USB adapter itself is gone
        # set by tests: rewrites each reply frame on its way to the host (line noise)
        self.mangle: Callable[[bytes], bytes] | None = None
        self._rx: deque[tuple[float, int]] = deque()
        self._tx_free = 0.0
        self._rx_free = 0.0
        self.bytes_written = 0
        self.bytes_read = 0

    @property
    def byte_time(self) -> float:
        return 10.0 / self.baudrate

    def _check(self) -> None:
        if not self.is_open:
            raise serial.PortNotOpenError()
        if self.unplugged:
            raise serial.SerialException("device reports readiness to read but returned no data")

    def write(self, data: bytes) -> int:
        self._check()
        now = self.clock.now()
        start = max(now, self._tx_free)
        done = start + len(data) * self.byte_time
        self._tx_free = done
        self.bytes_written += len(data)
        for reply in self.chip.feed(bytes(data), done):
            self._send(done + reply.delay, reply.data)
        return len(data)

    def _send(self, at: float, data: bytes) -> None:
        t = max(at, self._rx_free)
        payload = self.mangle(data) if self.mangle else data
        for b in payload:
            t += self.byte_time
            self._rx.append((t, b))
        self._rx_free = t

    def _armed(self) -> bool:
        """Whether the chip answers an armed listing now (a tag has come); queues the answer."""
        if self.chip.armed is None:
            return False
        reply = self.chip.armed_reply(self.clock.now())
        if reply is not None:
            self._send(self.clock.now() + reply.delay, reply.data)
            return True
        return False

    def _wait_for_tag(self, until: float | None) -> None:
        """Block while the chip waits for a tag: until the deadline, or until the world may have
        changed (the next scheduled action on a VirtualClock, a short step on real time)."""
        now = self.clock.now()
        step = ARMED_STEP
        next_due = getattr(self.clock, "next_due", None)
        changed = self.chip.changed
        if next_due is None and changed is not None:
            changed.clear()
            if self._armed():
                return
            changed.wait(0.25 if until is None else max(0.0, until - now))
            return
        if next_due is not None:
            due = next_due()
            step = (due - now) if due is not None else float("inf")
        if until is not None:
            step = min(step, until - now)
        if step == float("inf"):
            return
        self.clock.sleep(max(step, 0.0))

    def ready_at(self) -> float | None:
        """When the first byte the host has not read is (or will be) on its side of the line:
        None while nothing is coming. An armed chip with a tag in its field answers now."""
        self._armed()
        return self._rx[0][0] if self._rx else None

    def wait_handle(self) -> EmulatedWait:
        """What the daemon's loop waits on (hw/pn532/waiting.py's protocol) for this port."""
        return EmulatedWait(self)

    @property
    def in_waiting(self) -> int:
        self._check()
        self._armed()
        now = self.clock.now()
        waiting = sum(1 for t, _ in self._rx if t <= now)
        if not waiting and self.poll_step:
            self.clock.sleep(self.poll_step)
        return waiting

    def read(self, size: int = 1) -> bytes:
        self._check()
        out = bytearray()
        deadline = None if self.timeout is None else self.clock.now() + self.timeout
        while len(out) < size:
            now = self.clock.now()
            while self._rx and self._rx[0][0] <= now and len(out) < size:
                out.append(self._rx.popleft()[1])
            if len(out) >= size:
                break
            if self._rx and (deadline is None or self._rx[0][0] <= deadline):
                self.clock.sleep(self._rx[0][0] - now)
                continue
            if self.chip.armed is not None and (deadline is None or deadline > now):
                if not self._armed():
                    before = self.clock.now()
                    self._wait_for_tag(deadline)
                    if self.clock.now() == before and not self._armed():
                        break  # nothing will change: give up as a silent line does
                continue
            if deadline is not None and deadline > now:
                self.clock.sleep(deadline - now)
            break
        self.bytes_read += len(out)
        return bytes(out)

    def reset_input_buffer(self) -> None:
        self._check()
        now = self.clock.now()
        while self._rx and self._rx[0][0] <= now:
            self._rx.popleft()

    def flush(self) -> None:
        """Wait until the host's bytes have left, like termios tcdrain."""
        self.clock.sleep(self._tx_free - self.clock.now())

    def close(self) -> None:
        self.is_open = False


@dataclass(frozen=True)
class EmulatedWait:
    """Waiting on emulated ports the way `select` waits on real ones: until the first byte of
    an answer is on the host's side of the line, on the ports' clock. On a VirtualClock it
    advances virtual time to that moment, stopping at every scheduled action (a tag placed
    mid-wait); on real time it sleeps on the world's `changed` event, so a tag placed from
    another thread wakes it at once."""

    port: EmulatedSerial

    @staticmethod
    def wait_all(handles: list[EmulatedWait], timeout: float) -> None:
        ports = [h.port for h in handles]
        clock = ports[0].clock
        changed = ports[0].chip.changed
        next_due = getattr(clock, "next_due", None)
        deadline = clock.now() + timeout
        while True:
            if next_due is None and changed is not None:
                changed.clear()  # before looking: a change after the look wakes the wait
            now = clock.now()
            times = [t for t in (p.ready_at() for p in ports if p.is_open) if t is not None]
            soonest = min(times, default=None)
            if soonest is not None and soonest <= now:
                return
            until = deadline if soonest is None else min(deadline, soonest)
            if until <= now:
                return
            if next_due is not None:  # virtual time: jump, stopping at scheduled actions
                due = next_due()
                clock.sleep((min(until, due) if due is not None else until) - now)
            elif soonest is None and changed is not None:
                changed.wait(until - now)
            else:
                clock.sleep(min(until - now, ARMED_STEP) if soonest is None else until - now)


@dataclass
class EmulatedResetPin:
    """The chip's RSTPDN line, shaped like the `digitalio.DigitalInOut` the driver drives:
    holding it low powers the chip down, releasing it high is a power-on reset."""

    chip: Pn532Chip
    direction: object = None
    _value: bool = True
    pulses: int = 0

    @property
    def value(self) -> bool:
        return self._value

    @value.setter
    def value(self, level: bool) -> None:
        if level and not self._value:
            self.chip.power_on_reset()
            self.pulses += 1
        self._value = bool(level)
