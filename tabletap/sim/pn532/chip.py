"""The PN532 itself, at the frame level (PN532 User Manual v1.6, sections 6.2 and 7).

Bytes in, timed frames out. The chip parses normal information frames
(`00 00 FF LEN LCS D4 CMD data DCS 00`), checks LCS and DCS (a bad frame gets no ACK, as on the
chip), ACKs a good one and answers with `D5 CMD+1 ...`. It starts asleep after power-up and wakes
on the HSU wake-up preamble (0x55), as a real chip on UART does. A NACK from the host makes it
send its last reply again; an ACK from the host aborts the command in progress. A partial frame
left without a new byte for `stale_frame` seconds is dropped (an assumed receive timeout: without
one, line noise that looked like a frame header would swallow the next command).

Supported commands: GetFirmwareVersion, SAMConfiguration, RFConfiguration (MaxRetries and the
others accepted), InListPassiveTarget (106 kbit/s type A, one or two targets), InDataExchange
(NTAG READ 0x30, WRITE 0xA2, COMPATIBILITY WRITE 0xA0; MIFARE Classic AUTH is NAK'd, as an NTAG
does), InSelect, InDeselect, InRelease. Anything else gets the chip's syntax-error frame.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from tabletap.sim.ntag import Ntag, TagNak
from tabletap.sim.pn532.faults import IN_DATA_EXCHANGE, IN_LIST, Fault, FaultPlan
from tabletap.sim.pn532.timing import Timing, default_timing

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"  # "syntax error" application-level frame

HOST_TFI = 0xD4
CHIP_TFI = 0xD5
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # PN532, version 1.6, supports ISO A, B and 18092

# InDataExchange / InRelease status codes (User Manual, table "Error code list")
ST_OK = 0x00
ST_TIMEOUT = 0x01  # the target has not answered
ST_NAK = 0x14  # unverified: the code a real chip reports for an NTAG 4-bit NAK is not documented
ST_WRONG_CONTEXT = 0x27


def frame(payload: bytes) -> bytes:
    """A normal information frame around `payload` (TFI included)."""
    length = len(payload)
    return (
        bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF])
        + payload
        + bytes([(-sum(payload)) & 0xFF, 0x00])
    )


@dataclass
class Reply:
    """Bytes the chip sends, `delay` seconds after the command frame's last byte arrived."""

    delay: float
    data: bytes


@dataclass
class Pn532Chip:
    """One emulated chip. `field` lists the tags in its antenna field now; `powered` says whether
    it has power (a reader that vanishes is a chip without power: it answers nothing)."""

    field: Callable[[], list[Ntag]]
    powered: Callable[[], bool] = lambda: True
    timing: Timing = field(default_factory=default_timing)
    faults: FaultPlan = field(default_factory=FaultPlan)
    log: list[str] = field(default_factory=list)  # command names, for tests that count exchanges
    # called with each command code before the chip acts on it: a test or a simulated hand can
    # change the world at exactly that moment (a tag lifted between listing and reading)
    on_command: Callable[[int], None] | None = None
    # set by the world when its tags change (SimWorld.changed): what a port waiting on real
    # time for an armed listing sleeps on
    changed: threading.Event | None = None
    _buf: bytearray = field(default_factory=bytearray)
    _awake: bool = False
    _was_powered: bool = True
    _off_until: float = -1.0
    _last_byte: float = 0.0
    _targets: dict[int, Ntag] = field(default_factory=dict)
    _last: list[Reply] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.power_on_reset()

    def power_on_reset(self) -> None:
        """What a power cycle or a pulse on RSTPDN does: asleep, default configuration."""
        self._awake = False
        self._buf.clear()
        self._targets.clear()
        self._last = []
        self.sam_configured = False
        self.max_retries_passive = 0xFF  # the chip's default: retry for ever
        self.comm_timeout: float | None = self.timing.tag_timeout  # RFConfiguration item 0x02
        self.rf_on = True
        # An InListPassiveTarget still looking for a tag (MaxRetries 0xFF on an empty field):
        # how many targets it asked for. The chip keeps activating; `armed_reply` answers it the
        # moment a tag is in the field; any new frame from the host (an ACK: abort) cancels it.
        self.armed: int | None = None

    def wake(self) -> None:
        """SPI and I2C wake the chip by selecting it, not with the HSU preamble."""
        self._awake = True

    # --- power ---------------------------------------------------------------------------------
    def has_power(self, now: float) -> bool:
        on = self.powered() and now >= self._off_until
        if on and not self._was_powered:
            self.power_on_reset()
        self._was_powered = on
        return on

    # --- bytes in ------------------------------------------------------------------------------
    def feed(self, data: bytes, now: float) -> list[Reply]:
        """Bytes from the host, the last of them arriving at `now`; returns what the chip sends."""
        if not self.has_power(now):
            return []
        if not self._awake:
            if 0x55 not in data:
                return []  # asleep: deaf until the HSU wake-up preamble
            self._awake = True
            data = data[data.index(0x55) :]
        if self._buf and now - self._last_byte > self.timing.stale_frame:
            self._buf.clear()  # the rest of that frame never came: start afresh
        self._last_byte = now
        self._buf += data
        replies: list[Reply] = []
        while True:
            start = self._buf.find(b"\x00\xff")
            if start < 0:
                del self._buf[: max(0, len(self._buf) - 1)]
                return replies
            if len(self._buf) < start + 4:
                return replies
            length, lcs = self._buf[start + 2], self._buf[start + 3]
            if length == 0x00 and lcs == 0xFF:  # ACK from the host: abort whatever runs
                del self._buf[: start + 5]
                self._last = []
                self.armed = None
                continue
            if length == 0xFF and lcs == 0x00:  # NACK from the host: send the last reply again
                del self._buf[: start + 5]
                replies += [Reply(self.timing.ack_delay, r.data) for r in self._last[1:]]
                continue
            if (length + lcs) & 0xFF:
                del self._buf[: start + 2]  # bad length checksum: no ACK, resynchronise
                self.log.append("bad-lcs")
                continue
            end = start + 4 + length + 1
            if len(self._buf) < end:
                return replies
            payload = bytes(self._buf[start + 4 : start + 4 + length])
            dcs = self._buf[end - 1]
            del self._buf[:end]
            if (sum(payload) + dcs) & 0xFF:
                self.log.append("bad-dcs")
                continue
            replies += self._command(payload, now)

    # --- commands ------------------------------------------------------------------------------
    def _command(self, payload: bytes, now: float) -> list[Reply]:
        t = self.timing
        if len(payload) < 2 or payload[0] != HOST_TFI:
            return [Reply(t.ack_delay, ACK), Reply(t.simple_command, ERROR_FRAME)]
        cmd, params = payload[1], payload[2:]
        self.armed = None
        if self.on_command is not None:
            self.on_command(cmd)
        fault = self.faults.take(cmd)
        if fault == "vanish":
            self._off_until = now + self.faults.vanish_seconds
            self._was_powered = False  # it comes back reset, even if nobody talks to it meanwhile
            self.log.append("vanish")
            return []
        handler = _HANDLERS.get(cmd)
        if handler is None:
            self.log.append(f"unsupported-0x{cmd:02x}")
            out = [Reply(t.ack_delay, ACK), Reply(t.simple_command, ERROR_FRAME)]
        else:
            self.log.append(handler.__name__.lstrip("_"))
            result = handler(self, params, fault)
            if result is None:  # still waiting for a tag (MaxRetries 0xFF on an empty field)
                out = [Reply(t.ack_delay, ACK)]
            else:
                delay, data = result
                answer = frame(bytes([CHIP_TFI, cmd + 1]) + data)
                out = [Reply(t.ack_delay, ACK), Reply(delay, answer)]
        self._last = out
        if fault == "drop" and len(out) > 1:
            out = out[:1]
        elif fault == "corrupt" and len(out) > 1:
            bad = bytearray(out[1].data)
            bad[-2] ^= 0x5A  # the DCS
            out = [out[0], Reply(out[1].delay, bytes(bad))]
        return out

    def _firmware(self, params: bytes, fault: Fault | None) -> tuple[float, bytes]:
        return self.timing.simple_command, FIRMWARE

    def _sam_configuration(self, params: bytes, fault: Fault | None) -> tuple[float, bytes]:
        if params and params[0] in (1, 2, 3, 4):
            self.sam_configured = True
        return self.timing.simple_command, b""

    def _rf_configuration(self, params: bytes, fault: Fault | None) -> tuple[float, bytes]:
        if len(params) >= 2 and params[0] == 0x01:
            self.rf_on = bool(params[1] & 0x01)
        if len(params) >= 4 and params[0] == 0x05:
            self.max_retries_passive = params[3]
        if len(params) >= 4 and params[0] == 0x02:  # RFU, ATR_RES timeout, non-DEP timeout
            self.comm_timeout = timeout_of(params[3])
        return self.timing.simple_command, b""

    def _in_list_passive_target(
        self, params: bytes, fault: Fault | None
    ) -> tuple[float, bytes] | None:
        t = self.timing
        max_tg = params[0] if params else 0
        if len(params) < 2 or max_tg not in (1, 2) or params[1] != 0x00:
            return t.simple_command, b"\x00"  # only 106 kbit/s type A is emulated
        self._targets.clear()
        found = [] if not self.rf_on else list(self.field())[:max_tg]
        if fault == "fade":
            found = found[1:]  # the first tag in the field does not answer this time
        missed = 0
        if found and self.faults.activation_fade and self.max_retries_passive != 0xFF:
            # the first tag misses activations one by one; an armed listing (0xFF) tries on
            attempts = self.max_retries_passive + 1
            missed = self.faults.missed_activations(attempts)
            if missed == attempts:
                found = found[1:]
        if not found:
            if self.max_retries_passive == 0xFF:
                self.armed = max_tg
                return None
            return (self.max_retries_passive + 1) * t.activation_attempt, b"\x00"
        delay, data = self._listed(found)
        return delay + missed * t.activation_attempt, data

    def _listed(self, found: list[Ntag]) -> tuple[float, bytes]:
        t = self.timing
        body = bytearray([len(found)])
        for n, tag in enumerate(found, start=1):
            self._targets[n] = tag
            body += bytes([n]) + tag.SENS_RES + bytes([tag.SEL_RES, len(tag.uid)]) + tag.uid
        return t.activation_attempt + t.select_per_target * len(found), bytes(body)

    def armed_reply(self, now: float | None = None) -> Reply | None:
        """The answer to an armed listing, if a tag is in the field now: the chip, activating
        over and over, finds it within one activation attempt and selects it (the same times
        as a listing that finds it at once; timing.yaml)."""
        if self.armed is None or not self.rf_on:
            return None
        if now is not None and not self.has_power(now):
            return None  # unplugged (or restarting): it answers nothing
        if self.armed is None:
            return None  # it came back from a power cut: the listing is gone
        found = list(self.field())[: self.armed]
        if not found:
            return None
        self.armed = None
        self._targets.clear()
        delay, data = self._listed(found)
        reply = Reply(delay, frame(bytes([CHIP_TFI, IN_LIST + 1]) + data))
        self._last = [Reply(self.timing.ack_delay, ACK), reply]
        self.log.append("armed-answer")
        return reply

    def _in_data_exchange(self, params: bytes, fault: Fault | None) -> tuple[float, bytes] | None:
        t = self.timing
        if len(params) < 2:
            return t.simple_command, bytes([ST_WRONG_CONTEXT])
        tag = self._targets.get(params[0] & 0x3F)
        if tag is None:
            return t.simple_command, bytes([ST_WRONG_CONTEXT])
        if fault == "fade" or all(other is not tag for other in self.field()):
            if self.comm_timeout is None:
                return None  # timeout code 0x00: the chip waits for the tag for ever
            return self.comm_timeout, bytes([ST_TIMEOUT])
        op, rest = params[1], params[2:]
        try:
            if op == 0x30 and len(rest) == 1:
                return t.tag_read, bytes([ST_OK]) + tag.read(rest[0])
            if op == 0xA2 and len(rest) == 5:
                tag.write(rest[0], rest[1:5])
                return t.tag_write, bytes([ST_OK])
            if op == 0xA0 and len(rest) == 17:  # COMPATIBILITY WRITE: first 4 bytes are written
                tag.write(rest[0], rest[1:5])
                return t.tag_write * 2, bytes([ST_OK])
        except TagNak:
            return t.tag_read, bytes([ST_NAK])
        return t.tag_read, bytes([ST_NAK])  # AUTH and anything else an NTAG does not know

    def _in_select(self, params: bytes, fault: Fault | None) -> tuple[float, bytes]:
        ok = bool(params) and params[0] in self._targets
        return self.timing.simple_command, bytes([ST_OK if ok else ST_WRONG_CONTEXT])

    def _in_deselect(self, params: bytes, fault: Fault | None) -> tuple[float, bytes]:
        return self.timing.simple_command, bytes([ST_OK])

    def _in_release(self, params: bytes, fault: Fault | None) -> tuple[float, bytes]:
        if params and params[0]:
            self._targets.pop(params[0], None)
        else:
            self._targets.clear()
        return self.timing.simple_command, bytes([ST_OK])


def timeout_of(code: int) -> float | None:
    """An RFConfiguration timeout code in seconds (PN532 user manual, CfgItem 0x02): 0x00 none
    (wait for ever), 0x01 100 us, doubling per step up to 0x10 (3.28 s)."""
    if code == 0:
        return None
    return 100e-6 * 2 ** (min(code, 0x10) - 1)


_HANDLERS: dict[int, Callable[..., tuple[float, bytes] | None]] = {
    0x02: Pn532Chip._firmware,
    0x14: Pn532Chip._sam_configuration,
    0x32: Pn532Chip._rf_configuration,
    IN_LIST: Pn532Chip._in_list_passive_target,
    IN_DATA_EXCHANGE: Pn532Chip._in_data_exchange,
    0x44: Pn532Chip._in_deselect,
    0x52: Pn532Chip._in_release,
    0x54: Pn532Chip._in_select,
}
