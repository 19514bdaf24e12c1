"""`python -m bench.live.first_start`: a box's first start, counted in instructions.

A box keeps the parsed config, the game's data and the installed entry points between its
starts (controller/startcache.py), so every start after its first skips the YAML parser and
the metadata scan. The image is built with that cache already made from the example config
(image/build.sh, `keep_first_start`), so a box's very first start, after a maker flashed the
card, finds it too; a maker who put their own tabletap.yaml on the card has that one file
parsed again. This counts the four starts that decide it, under callgrind, on the bench's rig
(bench/live/rig.py): instructions, not time, since this machine's speed moves by two to four
times within minutes; a start at a tenth of a core is CPU-bound, so its time follows the count
(bench/live/instructions.py).

- a new game with nothing kept: the `bench live` rig's first start, and a box's first start
  before its image carried the cache;
- a new game, everything kept: a box's first start on the config the image was built with;
- a new game, the config changed (a comment line added): a maker's own tabletap.yaml;
- resuming, everything kept: every later start (`ready_instructions_m` in `make bench`).

About a minute. Needs valgrind (`make bench` installs it as root).
"""

from __future__ import annotations

import argparse
import shutil

from bench.live.instructions import NoValgrind, counted_start
from bench.live.rig import Rig


def first_starts() -> dict[str, int]:
    """Each kind of start above, by its label, with its instructions to READY."""
    rig = Rig()
    try:
        rig.start(new=True)  # the bytecode compiled, the cache made once
        rig.stop()
        cache = rig.folder / "state" / "cache"
        counts: dict[str, int] = {}
        shutil.rmtree(cache)
        print("  counting four starts under callgrind (10-30 s each)...", flush=True)
        counts["a new game, nothing kept"] = counted_start(rig, new=True)
        counts["a new game, everything kept (the image's first start)"] = \
            counted_start(rig, new=True)
        rig.config.write_text(rig.config.read_text(encoding="utf-8") + "# the maker's own\n",
                              encoding="utf-8")
        counts["a new game, the config changed (a maker's tabletap.yaml)"] = \
            counted_start(rig, new=True)
        counts["resuming, everything kept (every later start)"] = counted_start(rig, new=False)
        return counts
    finally:
        rig.close()


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(prog="python -m bench.live.first_start",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    try:
        counts = first_starts()
    except NoValgrind as exc:
        print(f"first_start: {exc}")
        return 1
    base = next(iter(counts.values()))
    for label, count in counts.items():
        print(f"  {label:<58} {count / 1e6:8.1f} M  {count / base:6.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
