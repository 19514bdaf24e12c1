"""What the fuzz suite shares: byte mutations of real files, and the hang watchdog.

Mutations start from files tabletap really reads (the shipped scenarios, example configs and
kingdoms, a played journal) and then flip, cut, repeat and splice bytes, or splice in the
constructs that broke parsers before: aliases, explicit tags, deep nesting, long integers,
non-UTF-8 bytes and surrogate escapes.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
HANG_CPU_SECONDS = 5.0  # CPU time one example may take before it counts as a hang

# One profile for every surface: no wall-clock deadline (the machine is shared; the watchdog
# counts CPU instead), reproducible from the test's name.
_PROFILE = settings(deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much,
                                           HealthCheck.function_scoped_fixture])


def fuzz(examples: int) -> settings:
    """The suite's settings with `examples` examples (the whole suite: about a minute of CPU)."""
    return settings(_PROFILE, max_examples=examples)

NASTY = [
    b"&a ", b"*a", b"<<: *a\n", b"!!timestamp ", b"!!binary ", b"!!python/object:os.system ",
    b"!foo ", b"[" * 200, b"{" * 200, b"9" * 5000, b"\xff\xfe", b"\xc3", b'"\\ud800"',
    b"\x00", b"\t", b"\r", b": ", b"- ", b"---\n", b"...\n", b"? ", b"%YAML 1.1\n", b"'",
    b'"', b"#", b"|\n", b">\n", b"~", b"1e400", b"-0", b"0x", b".inf", b"NaN", b"\\",
    b"\xe2\x80\xa8", b"\xef\xbb\xbf", b"\xf0\x9f\x94\x91",
]


class Hang(Exception):
    """An example ran longer than HANG_CPU_SECONDS of CPU."""


@contextmanager
def no_hang(seconds: float = HANG_CPU_SECONDS) -> Iterator[None]:
    """Fail the example (Hang) once it has used `seconds` of CPU (a profiling timer, so a
    loaded machine cannot make a slow example look hung)."""

    def fire(_sig: int, _frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds} s of CPU")

    old = signal.signal(signal.SIGPROF, fire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes], max_edits: int = 4) -> bytes:
    """One of `seeds` with 1 to `max_edits` random edits, half of them aimed at values (the
    text after a `: `, a `- ` or a `"`), where a nasty construct does the most harm.

    The edits come from a random generator drawn from hypothesis (so a failure still replays):
    hypothesis's own choices favour simple values, and mutation needs them evenly spread."""
    rnd = draw(st.randoms(use_true_random=False))
    data = bytearray(rnd.choice(seeds))
    for _ in range(rnd.randint(1, max_edits)):
        pos = rnd.randint(0, len(data))
        kind = rnd.choice([0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7])
        if kind == 0 and pos < len(data):  # flip a byte
            data[pos] ^= rnd.randint(1, 255)
        elif kind == 1:  # cut a span
            del data[pos:pos + rnd.randint(1, 40)]
        elif kind == 2:  # insert random bytes
            data[pos:pos] = rnd.randbytes(rnd.randint(1, 12))
        elif kind == 3:  # repeat a span
            span = bytes(data[pos:pos + rnd.randint(1, 30)])
            data[pos:pos] = span * rnd.randint(1, 20)
        elif kind == 4:  # splice in a construct that broke parsers before, anywhere
            data[pos:pos] = rnd.choice(NASTY)
        elif kind == 5:  # truncate
            del data[pos:]
        elif kind == 6:  # swap two lines
            lines = bytes(data).split(b"\n")
            if len(lines) > 2:
                i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
        else:  # put a nasty construct where a value starts
            starts = [i + 2 for i in range(len(data) - 1) if data[i:i + 2] in (b": ", b"- ")]
            starts += [i + 1 for i in range(len(data)) if data[i:i + 1] in (b'"', b"[", b",")]
            if starts:
                at = rnd.choice(starts)
                data[at:at] = rnd.choice(NASTY)
    return bytes(data)


def seed_files(*patterns: str) -> list[bytes]:
    return [p.read_bytes() for pattern in patterns for p in sorted(ROOT.glob(pattern))]
