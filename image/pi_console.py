"""The emulated Pi 3's serial console (its PL011, ttyAMA0) as a log and, after the game, a shell.

qemu serves the console on a Unix socket; this connects at once and keeps reading in a thread,
so everything the Pi prints (the kernel, the journal forwarded by journald) lands in the console
log as it comes, whether or not anyone is talking to the shell. The shell is systemd's debug
shell, which only this test's kernel command line asks for (`systemd.debug_shell=ttyAMA0`): the
image has no shell on any console. It is driven exactly as the virt test drives its shell
(boot_test.Machine: a plain dash, commands framed by markers); only the transport differs, the
bytes arriving from the reading thread instead of the socket directly.
"""

from __future__ import annotations

import re
import socket
import subprocess
import threading
import time
from pathlib import Path

from boot_test import Failure, Machine

# Added to the kernel command line: the debug shell on the watching console, and no getty there
SHELL = "systemd.debug_shell=ttyAMA0 systemd.mask=serial-getty@ttyAMA0.service"


class PiConsole(Machine):
    """The console of a qemu already started with `-chardev socket,path=sock_path,server=on`
    as its first serial port."""

    def __init__(self, proc: subprocess.Popen[bytes], sock_path: Path, console: Path) -> None:
        # Machine's own __init__ starts a virt machine: this one is started by the caller
        self.proc = proc
        self.sock_path = sock_path
        self.console = console
        self.started = time.monotonic()
        self.sock: socket.socket | None = None
        self.buffer = ""
        self.counter = 0
        self._arrived = threading.Condition()
        self._log = console.open("a", encoding="utf-8", errors="replace")
        self._reader: threading.Thread | None = None

    def _connect(self, timeout: float) -> None:
        if self._reader is not None:
            return
        super()._connect(timeout)
        self._reader = threading.Thread(target=self._pump, daemon=True)
        self._reader.start()

    def start(self) -> None:
        """Connect and keep the log from power-on."""
        self._connect(60)

    def _pump(self) -> None:
        assert self.sock is not None
        self.sock.settimeout(None)
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                chunk = b""
            text = chunk.decode(errors="replace")
            with self._arrived:
                if text:
                    self.buffer += text
                    self._log.write(text)
                    self._log.flush()
                self._arrived.notify_all()
            if not chunk:
                return

    def _read(self, until: re.Pattern[str], timeout: float) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                found = until.search(self.buffer)
                if found:
                    self.buffer = self.buffer[found.end():]
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.proc.poll() is not None:
                    raise Failure(f"no {until.pattern!r} from the Pi in {timeout:.0f} s; "
                                  f"last output: {self.buffer[-2000:]!r}")
                self._arrived.wait(min(remaining, 2.0))
                # keep only a tail: the journal forwarded to this console never stops
                if len(self.buffer) > 1 << 20:
                    self.buffer = self.buffer[-(1 << 19):]

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            except OSError:
                pass
        if self._reader is not None:
            self._reader.join(5)
        self._log.close()
