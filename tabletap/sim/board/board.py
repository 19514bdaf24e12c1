"""A Pico on a pseudo-terminal: the firmware's own code, with faults on demand.

`SimBoard.port` is a path real pyserial can open. The firmware runs in a thread of this process
(its `machine` and `neopixel` are the stand-ins in standins.py, which record PWM duty and LED
colours over time in `recorder`). Faults: `set_corruption(f)` drops or bit-flips that fraction of
the bytes each way; `unplug()`/`replug()` pull and restore the USB link while the board runs on;
`reset()` stops the firmware and starts it afresh, with a new boot id and its USB link
re-enumerated, as a real reset does; `hang()` freezes the firmware's loop so that its watchdog
resets it. The firmware's own `machine.reset()` (the `repl` op) resets it the same way; its flag
file lives in the board's folder, and a boot that stays in the REPL sets `in_repl` (with
`repl_wdts`, the watchdogs that boot started: none).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from tabletap.controller.ports import InputEvent
from tabletap.firmware import main as firmware_main
from tabletap.sim.board.line import PtyLine
from tabletap.sim.board.pins import WorldPins
from tabletap.sim.board.standins import (
    Executed,
    Levels,
    Recorder,
    SimMachine,
    SimNeoPixelModule,
    SimReset,
)


class SimBoard:
    def __init__(self, *, inputs: deque[InputEvent] | None = None,
                 buttons: dict[str, int] | None = None, lid_pin: int | None = None,
                 hold_s: float = 0.8, seed: int = 0, corrupt: float = 0.0,
                 proto: int | None = None, directory: str | Path | None = None) -> None:
        self._own_dir = directory is None
        self.dir = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="tabletap-pico-"))
        self.port = str(self.dir / "ttyACM-tabletap-pico")
        self.line = PtyLine(self.port, seed=seed, corrupt=corrupt)
        self.recorder = Recorder()
        self.levels: Levels = WorldPins(inputs, buttons or {"end-turn": 14, "roll": 13},
                                        lid_pin, hold_s)
        self.proto = proto
        self._rng = random.Random(seed)
        self._thread: threading.Thread | None = None
        self._halt = False
        self._hung = False
        self._closed = False
        self.watchdog_resets = 0
        self.boots: list[int] = []
        self.error: BaseException | None = None
        self.firmware: Any = None  # the running firmware's Board, for inspection in tests
        self.repl_flag = self.dir / "repl_mode"  # the firmware's flag file (on the Pico: /)
        self.in_repl = False  # the last boot's main.py returned to the REPL
        self.repl_wdts: int | None = None  # watchdogs that REPL boot started

    # -- life cycle ------------------------------------------------------------------------
    def start(self) -> SimBoard:
        self.line.plug()
        self._boot()
        return self

    def _boot(self) -> None:
        self._hung = False
        self.in_repl = False
        boot = self._rng.getrandbits(30)
        self.boots.append(boot)
        self._halt = False
        self._thread = threading.Thread(target=self._run, args=(boot,), daemon=True,
                                        name=f"sim-pico-{boot:x}")
        self._thread.start()

    def _run(self, boot: int) -> None:
        try:
            machine = SimMachine(self.recorder, self.levels, on_expire=self._watchdog_fired,
                                 alive=lambda: self.boots[-1] == boot and not self._halt)
            served = firmware_main.run(io=self, machine=machine,
                                       neopixel=SimNeoPixelModule(self.recorder), boot=boot,
                                       proto=self.proto, trace=self._trace, stop=self._stopping,
                                       started=self._started, repl_flag=str(self.repl_flag))
            if served is None:  # main.py returned at once: MicroPython's REPL has the port
                self.repl_wdts = machine.wdts
                self.in_repl = True
                with self.recorder.cond:
                    self.recorder.cond.notify_all()
        except SimReset:
            # The firmware reset itself; reset() joins this thread, so it runs beside it.
            threading.Thread(target=self._reset_unless_closed, daemon=True,
                             name="sim-pico-reset").start()
        except BaseException as e:  # noqa: BLE001 - kept for the test that started the board
            self.error = e
            with self.recorder.cond:
                self.recorder.cond.notify_all()
            raise

    # -- the firmware's USB serial: the pty, unless the firmware is made to hang ------------
    def read(self, timeout_ms: int) -> bytes:
        while self._hung and not self._halt:
            time.sleep(0.005)  # stuck: the loop no longer feeds the watchdog
        return self.line.read(timeout_ms)

    def write(self, data: bytes) -> None:
        self.line.write(data)

    def _reset_unless_closed(self) -> None:
        if not self._closed:
            self.reset()

    def _watchdog_fired(self) -> None:
        if not self._closed:
            self.watchdog_resets += 1
            self.reset()

    def _started(self, board: Any) -> None:
        self.firmware = board

    def _stopping(self) -> bool:
        return self._halt

    def _trace(self, boot: int, seq: int, body: dict[str, Any], ack: dict[str, Any]) -> None:
        self.recorder.add("executed", Executed(time.monotonic(), boot, seq, dict(body), ack))

    def _halt_firmware(self) -> None:
        self._halt = True
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def close(self) -> None:
        self._closed = True
        self._halt_firmware()
        self.line.unplug()
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- faults ----------------------------------------------------------------------------
    def reset(self) -> None:
        """The board resets: firmware state is lost and USB re-enumerates."""
        self._halt_firmware()
        self.line.unplug()
        self.line.plug()
        self._boot()

    def hang(self) -> None:
        """The firmware's loop gets stuck; the watchdog (2 s) resets the board."""
        self._hung = True

    def unplug(self) -> None:
        """The USB cable is pulled; the board itself keeps running (on a battery, say)."""
        self.line.unplug()

    def replug(self) -> None:
        self.line.plug()

    def set_corruption(self, fraction: float) -> None:
        self.line.corrupt = fraction

    @property
    def boot(self) -> int:
        return self.boots[-1]
