# The firmware's modules exercised under real MicroPython. Prints one "ok <name>" line per check,
# "FRAME <hex>" lines that the CPython side compares byte for byte, and "ALL OK" at the end.
import sys

import board
import machine
import main as firmware_main
import neopixel
import patterns
import protocol
import servo
from inputs import Button, Lid

SAMPLES = [
    ("hello", 0, {"host": 123456}),
    ("cmd", 7, {"op": "latch", "open": True, "h": 1, "b": 2}),
    ("cmd", 8, {"op": "show", "pattern": "turn", "colour": "blue", "h": 1, "b": 2}),
    ("ack", 8, {"ok": False, "err": "unknown pattern x"}),
    ("evt", 3, {"b": 99, "name": "end-turn", "kind": "hold"}),
]


def check(name, cond):
    if not cond:
        raise AssertionError("check failed: " + name)
    print("ok", name)


def t_protocol():
    check("crc32 check value", protocol.crc32(b"123456789") == 0xCBF43926)
    check("table crc agrees", protocol.crc32_table(b"tabletap") == protocol.crc32(b"tabletap"))
    dec = protocol.Decoder()
    stream = b"noise\x03\xff"
    for kind, seq, body in SAMPLES:
        frame = protocol.encode(kind, seq, body)
        print("FRAME", frame.hex())
        stream += frame
    frames = dec.feed(stream)
    check("round trip", [(k, s, b) for k, s, b in frames] == SAMPLES)
    chunked = protocol.Decoder()
    got = []
    for i in range(0, len(stream), 7):  # as USB hands it over: in pieces, as a bytearray
        got += chunked.feed(bytearray(stream[i:i + 7]))
    check("round trip in pieces", got == frames and chunked.bad == dec.bad)
    bad = bytearray(protocol.encode("cmd", 9, {"op": "latch", "open": False}))
    bad[12] ^= 0x04
    check("flipped bit refused", protocol.Decoder().feed(bytes(bad)) == [])
    try:
        protocol.encode("cmd", 1, {"pattern": "a*b"})
        check("star refused", False)
    except ValueError:
        check("star refused", True)


def t_patterns():
    for anim in patterns.ANIMATIONS:
        for t in (0, 130, 700, 2999):
            frame = patterns.render(anim, (255, 120, 0), 12, t)
            check_len = len(frame) == 12
            ok = check_len and all(0 <= c <= 255 for px in frame for c in px)
            if not ok:
                check("render " + anim, False)
    check("all animations render", True)
    check("safe is amber", patterns.resolve("safe") == ("solid", (255, 120, 0)))


def t_servo():
    pwm = machine.PWM(machine.Pin(16))
    cfg = dict(board.DEFAULTS)
    s = servo.Servo(pwm, cfg)
    s.update(0, lambda a, b: a - b)
    check("starts closed", pwm.duty_u16() == servo.duty_u16(500 + 60 / 180 * 2000))
    s.set_open(True)
    for t in range(0, 700, 10):
        s.update(t, lambda a, b: a - b)
    check("travels open", pwm.duty_u16() == servo.duty_u16(500 + 150 / 180 * 2000))
    check("smooth", len(pwm.duties) > 10)
    lo, hi = servo.duty_u16(500), servo.duty_u16(2500)
    check("within limits", all(lo <= d <= hi for d in pwm.duties))


def t_inputs():
    machine.LEVELS.clear()
    b = Button("end-turn", machine.Pin(14), 800, 0)
    diff = lambda a, b: a - b  # noqa: E731
    got = []
    machine.LEVELS[14] = 0
    for t in range(0, 100, 5):
        got.append(b.poll(t, diff))
    machine.LEVELS[14] = 1
    for t in range(100, 200, 5):
        got.append(b.poll(t, diff))
    check("press", [g for g in got if g] == ["press"])
    lid = Lid(machine.Pin(13), 0)
    machine.LEVELS[13] = 0
    got = [lid.poll(t, diff) for t in range(0, 60, 5)]
    check("lid closed", [g for g in got if g] == ["lid-closed"])


def t_board():
    out = []
    make_hw = firmware_main.hardware_factory(machine, neopixel)
    b = board.Board(make_hw, out.append, 77, 0, trace=None)
    dec = protocol.Decoder()
    check("hello at power-up", dec.feed(out.pop())[0][0] == "hello")
    b.receive(protocol.encode("hello", 0, {"host": 5}), 1)
    check("hello reply", dec.feed(out.pop())[0][2]["host"] == 5)
    cmd = protocol.encode("cmd", 1, {"op": "latch", "open": True, "h": 5, "b": 77})
    b.receive(cmd, 2)
    check("acked", dec.feed(out.pop())[0][:2] == ("ack", 1))
    check("executed", b.hw.servo.opened)
    b.hw.servo.set_open(False)
    b.receive(cmd, 3)
    ack = dec.feed(out.pop())[0][2]
    check("duplicate not executed", ack.get("dup") and not b.hw.servo.opened)
    b.receive(protocol.encode("cmd", 2, {"op": "latch", "open": True, "h": 5, "b": 1}), 4)
    check("stale session refused", dec.feed(out.pop())[0][2]["err"] == "session")
    b.tick(5000)
    check("safe state after silence", b.safe and b.hw.ring.pattern == "safe")
    b.receive(protocol.encode("ping", 0, {}), 5001)
    check("host back", not b.safe and b.outbox[0][1:] == ["safe", "ended"])
    b.receive(protocol.encode("cmd", 3, {"op": "cfg", "min_angle": 90, "max_angle": -90,
                                         "h": 5, "b": 77}), 5002)
    check("reversed servo accepted", dec.feed(out.pop())[0][2] == {"ok": True})
    b.receive(protocol.encode("cmd", 2, {"op": "latch", "open": True, "h": 5, "b": 77}), 5003)
    ack = dec.feed(out.pop())[0][2]
    check("older number stale", ack["ok"] is False and ack["err"] == "stale")
    b.receive(protocol.encode("cmd", 4, {"op": "repl", "h": 5, "b": 77}), 5004)
    check("repl acked", dec.feed(out.pop())[0][2] == {"ok": True} and b.repl_requested)
    b.receive(protocol.encode("hello", 0, {"host": 6}), 5005)
    out.clear()
    check("new host: old events dropped", b.outbox == [])
    b.tick(9000)
    b.queue_event("roll", "press")
    check("no events in the safe state", b.safe and b.outbox == [])


def t_repl_flag():
    flag = "/repl_flag_check"
    check("no flag", not firmware_main.take_repl_flag(flag))
    try:
        firmware_main.reset_to_repl(machine, flag)
        check("reset called", False)
    except machine.ResetCalled:
        pass
    check("flag taken once", firmware_main.take_repl_flag(flag)
          and not firmware_main.take_repl_flag(flag))
    with open(flag, "w") as f:
        f.write("1")
    # With the flag, main returns before the watchdog, the pins or the serial line (given none).
    check("repl boot returns", firmware_main.run(repl_flag=flag) is None)
    check("and takes the flag", not firmware_main.take_repl_flag(flag))


def main():
    t_protocol()
    t_patterns()
    t_servo()
    t_inputs()
    t_board()
    t_repl_flag()
    print("ALL OK", sys.implementation.name)

