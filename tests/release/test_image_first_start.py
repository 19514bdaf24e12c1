"""What image/build.sh's keep_first_start relies on, on this machine: the daemon started as the
build starts it (simulated, a new game, its console closed, umask 077, `STATE_DIRECTORY` set)
reaches READY, stops at the console's end of file, and leaves in its state folder's `cache/`
the entry points and the documents a box's first start takes; and a start like the box's, on
the same config, then takes them without writing any again. The booted image's own check is
image/boot_test.py (`make image-test`).

The Debian package makes no cache of its own and starts no daemon at a first install
(image/deb/postinst): the maker's first start, after their edit of table.yaml, makes it, even on
a Pi whose wiring is not done yet and whose daemon stops on it (exit 2). So a Raspberry Pi OS
box's family finds the cache made, as the image's does."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TABLETAP = str(Path(sys.executable).with_name("tabletap"))


def _start(config: Path, state: Path, *args: str,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/bin/sh", "-c", 'umask 0077; exec "$@"', "start", TABLETAP, "run",
         "--config", str(config), *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        env={**os.environ, "STATE_DIRECTORY": str(state), **(env or {})})


def _example_in(tmp_path: Path) -> tuple[Path, Path]:
    """The maker's annotated example config, its state folder moved into `tmp_path`."""
    state = tmp_path / "state"
    state.mkdir(mode=0o710)
    example = (REPO / "examples" / "table.yaml").read_text(encoding="utf-8")
    assert "\nstate_dir: /var/lib/tabletap" in example
    config = tmp_path / "table.yaml"
    config.write_text(example.replace("\nstate_dir: /var/lib/tabletap",
                                      f"\nstate_dir: {state}"), encoding="utf-8")
    return config, state


def _files(cache: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, stat.S_IMODE(p.stat().st_mode)) for p in cache.iterdir()}


def test_the_builds_start_keeps_what_the_first_start_takes(tmp_path: Path) -> None:
    config, state = _example_in(tmp_path)

    built = _start(config, state, "--sim", "--new")
    assert built.returncode == 0, built.stderr
    cache = state / "cache"
    kept = _files(cache)
    assert "entrypoints.kept" in kept and sum(n.endswith(".doc") for n in kept) >= 2, kept
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert {mode for _, mode in kept.values()} == {0o600}

    # The game the build's start made is thrown away: only cache/ goes on the partition.
    for other in state.iterdir():
        if other.name != "cache":
            shutil.rmtree(other) if other.is_dir() else other.unlink()
    first = _start(config, state, "--sim", "--new")
    assert first.returncode == 0, first.stderr
    assert _files(cache) == kept  # every file taken, none written again (the same inodes)


def test_a_start_that_stops_on_its_wiring_keeps_what_the_next_start_takes(
        tmp_path: Path) -> None:
    """A maker's first start on a Pi not wired yet: the unit's start (no `--sim`) stops on
    its GPIO (exit 2, a pin factory that does not exist here or on any Pi),
    and the cache it leaves is what the next start takes, none of it written again."""
    config, state = _example_in(tmp_path)
    unwired = {"GPIOZERO_PIN_FACTORY": "no-such-factory"}

    first = _start(config, state, env=unwired)
    assert first.returncode == 2, first.stderr
    assert "the gpio wiring cannot start" in first.stderr
    cache = state / "cache"
    kept = _files(cache)
    assert "entrypoints.kept" in kept and sum(n.endswith(".doc") for n in kept) >= 2, kept
    assert {mode for _, mode in kept.values()} == {0o600}

    again = _start(config, state, env=unwired)
    assert again.returncode == 2, again.stderr
    assert _files(cache) == kept
