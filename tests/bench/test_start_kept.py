"""The real daemon's second start, as a box makes every start after its first: given its state
folder by "systemd" (`STATE_DIRECTORY`, bench/live/rig.py), it finds its config, its game's data
and the installed entry points kept (controller/startcache.py), and neither PyYAML nor
importlib.metadata is imported on the way to READY, which was a quarter of the start's
instructions (docs/BENCHMARKS.md, "The start without PyYAML"); nor, on any start, OpenSSL for
the unguessable draws (2.4 %). After a config edit the next start reads the edited config.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.live.rig import TABLETAP, Rig

IMPORTTIME = [sys.executable, "-X", "importtime"]


def _imported(rig: Rig) -> set[str]:
    """The modules the daemon imported (its `-X importtime` lines) from its exec until it is
    stopped, half a second after READY: the start, and nothing imported late instead."""
    time.sleep(0.5)
    rig.stop()
    assert rig.log is not None
    return {line.rsplit("|", 1)[1].strip() for _, line in rig.log.lines
            if line.startswith("import time:") and "|" in line}


def test_a_second_start_reads_nothing_it_read_before() -> None:
    rig = Rig()
    try:
        rig.start(new=True, prefix=IMPORTTIME)
        first = _imported(rig)
        kept = sorted(p.name for p in (rig.folder / "state" / "cache").iterdir())
        rig.start(new=False, prefix=IMPORTTIME)
        second = _imported(rig)
    finally:
        rig.close()
    assert {"yaml", "importlib.metadata"} <= first
    assert "entrypoints.kept" in kept and sum(name.endswith(".doc") for name in kept) >= 2
    assert not {"yaml", "importlib.metadata", "email"} & second
    # nor OpenSSL, which `secrets` loads through `hmac` for the seeds, ids and codes
    # (controller/unguessable.py), on either start
    assert not {"hmac", "_hashlib"} & (first | second)
    assert "tabletap.controller.table.daemon" in second  # the same start, all of it


def test_a_config_broken_between_starts_is_refused_at_the_next() -> None:
    """The kept config is the text it came from: a typo made since is read, and refused with
    its line, as without anything kept."""
    rig = Rig()
    try:
        rig.start(new=True)
        rig.stop()
        text = rig.config.read_text(encoding="utf-8")
        assert "\nchest:\n" in text
        rig.config.write_text(text.replace("\nchest:\n", "\nchset:\n"), encoding="utf-8")
        line = text[: text.index("\nchest:\n")].count("\n") + 2
        done = subprocess.run(
            [TABLETAP, "run", "--config", str(rig.config)], capture_output=True, text=True,
            timeout=60, cwd=rig.folder,
            env={**os.environ, "STATE_DIRECTORY": str(rig.folder / "state")})
    finally:
        rig.close()
    assert done.returncode == 2, done.stderr
    assert f"table.yaml:{line}:1: chset: unknown key" in done.stderr


def test_a_new_game_with_everything_kept_reads_nothing_again() -> None:
    """A box's first start after flashing: a new game, with the cache the image was built with
    (image/build.sh, keep_first_start). A new game is no reason to read anything again."""
    rig = Rig()
    try:
        rig.start(new=True)
        rig.stop()
        rig.start(new=True, prefix=IMPORTTIME)
        again = _imported(rig)
    finally:
        rig.close()
    assert not {"yaml", "importlib.metadata", "email"} & again
    assert "tabletap.controller.table.daemon" in again
