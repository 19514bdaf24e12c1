"""How often a tag resting on a PN532 goes unseen, and whether the chip's own retries would cover
it as the re-listings do: the count behind `tabletap tags misses`.

Why it is counted on a real reader. A resting tag is listed with two activations
(`Pn532Reader.passive_retries`, 1) and, after a miss, listed again up to twice
(`Pn532Reader.relists`, 2): six activations over three exchanges before a poll counts as a miss.
One listing of six activations (MxRtyPassiveActivation 5) would be one exchange, and cut the
daemon's CPU per tap by about a tenth (docs/BENCHMARKS.md, "The reader's largest lever"), but it
protects as much only if the tag's misses come an activation at a time. If a whole listing misses
it (the field, not the tag, is at fault), only another listing helps. The emulator cannot tell
which: it is told (`fade` or `activation_fade`, sim/pn532/faults.py). A real reader and tag can.

So the count takes rounds, each looking for the tag in three ways in turn (the order rotates, so
none always comes first after a miss): one activation in one listing; the daemon's way, two
activations and up to two listings more; six activations in one listing. If misses came one
activation at a time, each on its own, a listing of six would miss the tag about as often as six
single activations in a row; if they come a listing at a time, about as often as one. The verdict
compares it with two in a row: a listing of six that misses more often than that is not covering.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from tabletap.controller.ports import Clock, ListsTargets

GONE_ROUNDS = 3  # rounds in a row in which the daemon's way and the chip's both missed: lifted
LOST_IN_A_ROW = 10  # rounds in a row with a lost or garbled reply: the reader stopped answering
MIN_MISSES = 10  # single activations missed before the two kinds of miss can be told apart


class NoRestingTag(Exception):
    """No single tag rests on the reader (none, or more than one) to count misses of."""


class Verdict(Enum):
    TOO_FEW = "too few misses to tell"
    ACTIVATIONS = "the misses come an activation at a time"
    LISTINGS = "the misses come a listing at a time"


Seen = bool | None  # the tag seen, missed, or None: a reply lost or garbled (neither)


@dataclass
class Tally:
    """One way of looking for the tag, over the rounds counted."""

    tries: int = 0
    missed: int = 0
    lost: int = 0
    runs: Counter[int] = field(default_factory=Counter)  # runs of misses in a row, by length

    @classmethod
    def of(cls, outcomes: list[Seen]) -> Tally:
        tally, run = cls(), 0
        for seen in outcomes:
            if seen is None:
                tally.lost += 1  # a lost reply neither ends a run of misses nor adds to it
                continue
            tally.tries += 1
            if seen:
                if run:
                    tally.runs[run] += 1
                run = 0
            else:
                tally.missed += 1
                run += 1
        if run:
            tally.runs[run] += 1
        return tally

    @property
    def rate(self) -> float:
        return self.missed / self.tries if self.tries else 0.0


@dataclass
class Ways:
    """The three ways a round looks for the tag, as MxRtyPassiveActivation values."""

    daemon_retries: int  # the reader's passive_retries
    relists: int  # the reader's extra listings after a miss

    @classmethod
    def of(cls, reader: ListsTargets) -> Ways:
        return cls(reader.passive_retries, reader.relists)

    @property
    def chip_retries(self) -> int:
        """The chip's retries that make as many activations as the daemon's way at most."""
        return (self.daemon_retries + 1) * (self.relists + 1) - 1


Round = tuple[Seen, Seen, Seen]  # one activation, the daemon's way, the chip's retries
_CODE: dict[Seen, int] = {False: 0, True: 1, None: 2}
_SEEN: tuple[Seen, Seen, Seen] = (False, True, None)


@dataclass
class MissCount:
    """The rounds counted, a byte each: an hour is about 120,000 rounds, which as tuples in a
    list would take a Pi Zero 2 W's tens of megabytes beside the daemon."""

    uid: bytes
    ways: Ways  # the reader's own (`Ways.of`)
    seconds: float = 0.0
    stopped: str = ""  # why the count ended before its time, if it did
    _rounds: bytearray = field(default_factory=bytearray)

    def add(self, one: Seen, daemon: Seen, chip: Seen) -> None:
        self._rounds.append(_CODE[one] + 3 * _CODE[daemon] + 9 * _CODE[chip])

    def drop_last(self, n: int) -> None:
        del self._rounds[-n:]

    def __len__(self) -> int:
        return len(self._rounds)

    @property
    def rounds(self) -> list[Round]:
        return [(_SEEN[code % 3], _SEEN[code // 3 % 3], _SEEN[code // 9]) for code in self._rounds]

    def tallies(self) -> tuple[Tally, Tally, Tally]:
        rounds = self.rounds
        return (Tally.of([r[0] for r in rounds]), Tally.of([r[1] for r in rounds]),
                Tally.of([r[2] for r in rounds]))

    @property
    def expected_chip_misses(self) -> float:
        """The chip's listings that would miss the tag if they missed as often as two single
        activations in a row (the bound the verdict compares with)."""
        one, _, chip = self.tallies()
        return one.rate ** 2 * chip.tries

    @property
    def verdict(self) -> Verdict:
        one, _, chip = self.tallies()
        if one.missed < MIN_MISSES:
            return Verdict.TOO_FEW
        if chip.missed <= self.expected_chip_misses:
            return Verdict.ACTIVATIONS
        return Verdict.LISTINGS

    def lines(self) -> list[str]:
        one, daemon, chip = self.tallies()
        ways = self.ways
        out = [f"tag {self.uid.hex()}: {len(self):,} rounds in {self.seconds:.1f} s"
               + (f" ({self.stopped})" if self.stopped else "")]
        rows = (
            ("one activation a listing", one, "listings"),
            (f"the daemon's way: {ways.daemon_retries + 1} activations, then up to "
             f"{ways.relists} listings more", daemon, "polls"),
            (f"the chip's retries: {ways.chip_retries + 1} activations in one listing", chip,
             "listings"),
        )
        for label, tally, unit in rows:
            runs = ", ".join(f"{n} in a row: {k}" for n, k in sorted(tally.runs.items()))
            out.append(f"  {label}: {tally.tries:,} {unit}, {tally.missed:,} missed "
                       f"({100 * tally.rate:.2f} %)" + (f"; {runs}" if runs else ""))
        lost = one.lost + daemon.lost + chip.lost
        if lost:
            out.append(f"  replies lost or garbled: {lost:,} (counted as neither)")
        verdict = self.verdict
        if verdict is Verdict.TOO_FEW:
            out.append(f"verdict: {verdict.value} ({one.missed} of {one.tries:,} single "
                       f"activations missed, {MIN_MISSES} needed): rest the tag nearer the "
                       "edge of the antenna, or count for longer")
        else:
            out.append(
                f"verdict: {verdict.value}: one listing of {ways.chip_retries + 1} activations "
                f"missed the tag {chip.missed:,} times, where two single activations in a row "
                f"would have missed it {self.expected_chip_misses:.2g} times; "
                + ("the chip's retries protect as the re-listings do"
                   if verdict is Verdict.ACTIVATIONS else "keep the re-listings")
                + ' (docs/nfc.md, "Extra listings")')
        return out


def _seen(uid: bytes, look: Callable[[], set[bytes] | None]) -> Seen:
    found = look()
    return None if found is None else uid in found


def resting_tag(reader: ListsTargets, clock: Clock, wait: float) -> bytes:
    """The one tag resting on the reader, waited for up to `wait` seconds."""
    ways = Ways.of(reader)
    end = clock.now() + wait
    found: set[bytes] = set()
    answered = False  # every listing lost is a reader to check, not an empty one
    while True:
        listed = reader.list_uids(ways.chip_retries)
        answered = answered or listed is not None
        found = listed or set()
        if len(found) == 1:
            return next(iter(found))
        if clock.now() >= end:
            break
        clock.sleep(0.1)
    if found:
        raise NoRestingTag(f"{len(found)} tags on reader {reader.name}: leave one only")
    if not answered:
        raise NoRestingTag(f"reader {reader.name} did not answer within {wait:g} s: `tabletap "
                           "doctor` (with the same --config) checks it and names the wiring")
    raise NoRestingTag(f"no tag on reader {reader.name} within {wait:g} s: rest one on it")


def count_misses(
    reader: ListsTargets, clock: Clock, count: MissCount, seconds: float,
    rounds: int | None = None, progress: Callable[[MissCount], None] | None = None,
    every: float = 10.0,
) -> MissCount:
    """Add rounds of the three ways to `count` for `seconds` (or `rounds`), `progress` called
    every `every` seconds. Filled as it goes, so a count interrupted (Ctrl-C) still holds every
    whole round. Ends early when the tag is lifted (the rounds from the one it left in are not
    counted) or when the reader stops answering."""
    uid, ways = count.uid, count.ways

    def daemon_way() -> set[bytes] | None:
        found = reader.list_uids(ways.daemon_retries)
        for _ in range(ways.relists):
            if found is None or uid in found:
                break
            found = reader.list_uids(ways.daemon_retries)
        return found

    looks: tuple[Callable[[], set[bytes] | None], ...] = (
        lambda: reader.list_uids(0), daemon_way, lambda: reader.list_uids(ways.chip_retries))
    start = clock.now() - count.seconds
    report_at = clock.now() + every
    gone = lost = 0
    while clock.now() - start < seconds and (rounds is None or len(count) < rounds):
        turn = len(count) % 3
        seen: list[Seen] = [None, None, None]
        for i in (*range(turn, 3), *range(turn)):
            seen[i] = _seen(uid, looks[i])
        count.add(*seen)
        gone = gone + 1 if seen[1] is False and seen[2] is False else 0
        lost = lost + 1 if None in seen else 0
        if gone >= GONE_ROUNDS:
            count.drop_last(gone + 1)  # and the round before: the tag may have left in it
            count.stopped = "the tag was lifted; the rounds from when it left are not counted"
            break
        if lost >= LOST_IN_A_ROW:
            count.stopped = f"the reader lost or garbled replies in {lost} rounds in a row"
            break
        if progress is not None and clock.now() >= report_at:
            count.seconds = clock.now() - start
            progress(count)
            report_at += every
    count.seconds = clock.now() - start
    return count
