"""`tabletap tags misses`: a resting tag's misses counted three ways, and the verdict on whether
the chip's activation retries would cover them as the re-listings do (docs/nfc.md, "Extra
listings"). End to end through the real adapter and driver over the emulated PN532, which is told
how the tag is missed (sim/pn532/faults.py: `fade` by whole listings, `activation_fade` by each
activation); the count's own bookkeeping against a scripted reader."""

from __future__ import annotations

import os
import re
import time
from collections import deque

import pytest

from tabletap.controller.cli import main
from tabletap.controller.ports import ListsTargets
from tabletap.controller.state.lock import state_lock
from tabletap.controller.table.misses import (
    LOST_IN_A_ROW,
    MissCount,
    NoRestingTag,
    Tally,
    Verdict,
    Ways,
    count_misses,
    resting_tag,
)
from tabletap.sim.clock import VirtualClock
from tabletap.sim.world import SimTag

GOLD = "magic-keys/key/gold"


def run(capsys, *argv):
    code = main(["tags", "misses", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_misses_of_whole_listings_say_keep_the_re_listings(capsys):
    """With every listing missing the tag 5 % of the time whatever its retries, six activations
    in one listing miss it as often as one: only another listing helps."""
    code, out, _ = run(capsys, "--sim", "--sim-tag", GOLD, "--rounds", "1500",
                       "--sim-fade", "0.05")
    assert code == 0
    assert "1,500 rounds" in out
    assert "verdict: the misses come a listing at a time" in out and "keep the re-listings" in out
    assert "missed by one activation" in out  # the progress lines, every 10 s of the count


def test_misses_of_single_activations_say_the_chip_covers_them(capsys):
    code, out, _ = run(capsys, "--sim", "--sim-tag", GOLD, "--rounds", "1500",
                       "--sim-fade", "0.05", "--sim-fade-by", "activation")
    assert code == 0
    assert "verdict: the misses come an activation at a time" in out
    assert "the chip's retries: 6 activations in one listing: 1,500 listings, 0 missed" in out


def test_a_tag_never_missed_is_too_few_to_tell(capsys):
    code, out, _ = run(capsys, "--sim", "--sim-tag", GOLD, "--rounds", "200")
    assert code == 0
    assert "verdict: too few misses to tell (0 of 200 single activations missed" in out


def test_no_tag_or_two_tags_are_clear_errors(capsys):
    code, _, err = run(capsys, "--sim", "--wait", "1")
    assert code == 1 and "no tag on reader chest within 1 s: rest one on it" in err
    code, _, err = run(capsys, "--sim", "--sim-tag", GOLD, "--sim-tag", "blank", "--wait", "1")
    assert code == 1 and "2 tags on reader chest: leave one only" in err


def test_bad_options_are_clear_errors(capsys, tmp_path):
    code, _, err = run(capsys, "--sim-fade", "0.1")
    assert code == 2 and "--sim-fade needs --sim" in err
    code, _, err = run(capsys, "--sim-tag", GOLD)
    assert code != 0 and "--sim-tag needs --sim" in err
    for bad, says in (("--seconds=-1", "not a number of seconds above 0"),
                      ("--sim-fade=1", "not a probability"), ("--rounds=0", "not a count")):
        try:
            main(["tags", "misses", "--sim", bad])
        except SystemExit as exc:
            assert exc.code == 2
        assert says in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--registry", "uids.yaml"], ["--sim-tap", "blank"]])
def test_options_the_count_would_ignore_are_refused(capsys, option):
    """docs/nfc.md, "The maker's tools": `misses` names no piece (no registry) and counts one tag
    resting from the start (no tapped tags), so it says so rather than count without them."""
    with pytest.raises(SystemExit) as exc:
        main(["tags", "misses", "--sim", "--sim-tag", GOLD, "--rounds", "5", *option])
    assert exc.value.code == 2
    assert f"unrecognized arguments: {' '.join(option)}" in capsys.readouterr().err


def test_a_tag_lifted_mid_count_ends_it_without_its_absent_rounds(table):
    """The rounds after the tag left would be misses of every way; they are not counted."""
    reader = table.reader()
    tag = SimTag.for_piece(GOLD)
    table.world.place("chest", tag)
    uid = resting_tag(reader, table.clock, 1.0)
    listings = 0

    def lift_later(command: int) -> None:
        nonlocal listings
        listings += command == 0x4A
        if listings == 300:
            table.world.remove("chest", uid)

    table.chip().on_command = lift_later
    count = count_misses(reader, table.clock, MissCount(uid, Ways.of(reader)), seconds=60.0)
    assert count.stopped.startswith("the tag was lifted")
    one, daemon, chip = count.tallies()
    assert 50 < len(count.rounds) < 300 // 3
    # the rounds from the one it left in are dropped
    assert one.missed == daemon.missed == chip.missed == 0
    assert isinstance(reader, ListsTargets)


class Scripted:
    """A reader answering from a script: a set of UIDs, or None for a lost reply."""

    name = "scripted"
    passive_retries = 1
    relists = 2

    def __init__(self, answers: list[set[bytes] | None], clock: VirtualClock) -> None:
        self.answers = deque(answers)
        self.clock = clock
        self.asked: list[int] = []

    def list_uids(self, retries: int) -> set[bytes] | None:
        self.asked.append(retries)
        self.clock.advance(0.01)
        return self.answers.popleft() if self.answers else {b"t"}


def test_the_three_ways_take_turns_and_the_daemon_way_lists_again_after_a_miss():
    clock = VirtualClock()
    reader = Scripted([set(), {b"t"}, {b"t"}], clock)  # one activation misses, the rest see
    count = count_misses(reader, clock, MissCount(b"t", Ways.of(reader)), 60.0, rounds=3)
    assert count.rounds == [(False, True, True), (True, True, True), (True, True, True)]
    # round 1: one, daemon's, chip's; round 2 starts with the daemon's way; round 3 with the chip's
    assert reader.asked == [0, 1, 5, 1, 5, 0, 5, 0, 1]
    reader = Scripted([{b"t"}, set(), set(), {b"t"}, {b"t"}], clock)
    count = count_misses(reader, clock, MissCount(b"t", Ways.of(reader)), 60.0, rounds=1)
    assert count.rounds == [(True, True, True)] and reader.asked == [0, 1, 1, 1, 5]


def test_a_reader_that_stops_answering_ends_the_count():
    clock = VirtualClock()
    reader = Scripted([None] * 100, clock)
    count = count_misses(reader, clock, MissCount(b"t", Ways.of(reader)), 60.0)
    assert len(count.rounds) == LOST_IN_A_ROW and "lost or garbled replies" in count.stopped
    assert "replies lost or garbled" in "\n".join(count.lines())


def test_tallies_count_runs_and_leave_lost_replies_out():
    tally = Tally.of([False, None, False, True, False, True, None, True])
    assert (tally.tries, tally.missed, tally.lost) == (6, 3, 2)
    assert dict(tally.runs) == {2: 1, 1: 1}
    count = MissCount(b"t", Ways.of(Scripted([], VirtualClock())))
    every = [(a, b, c) for a in (False, True, None) for b in (False, True, None)
             for c in (False, True, None)]
    for one, daemon, chip in every:
        count.add(one, daemon, chip)
    assert count.rounds == every and len(count) == 27  # a byte a round, read back


def test_the_verdict_compares_the_chip_with_two_single_activations_in_a_row():
    ways = Ways(daemon_retries=1, relists=2)
    assert ways.chip_retries == 5

    def counted(rounds: list[tuple[bool, bool, bool]]) -> MissCount:
        count = MissCount(b"t", ways)
        for one, daemon, chip in rounds:
            count.add(one, daemon, chip)
        assert count.rounds == rounds
        return count

    one_missed = [(i % 10 != 0, True, True) for i in range(1000)]  # 10 % single misses
    count = counted(one_missed)
    assert count.expected_chip_misses == pytest.approx(10.0)
    assert count.verdict is Verdict.ACTIVATIONS
    count = counted([(a, b, i % 90 != 0) for i, (a, b, _) in enumerate(one_missed)])  # 12 > 10
    assert count.verdict is Verdict.LISTINGS
    count = counted([(i % 200 != 0, True, True) for i in range(1000)])  # 5 single misses
    assert count.verdict is Verdict.TOO_FEW


def test_ctrl_c_keeps_the_whole_rounds_counted(capsys, monkeypatch):
    """The count is filled as it goes: Ctrl-C mid-round reports every whole round before it."""
    clock = VirtualClock()
    reader = Scripted([{b"t"}] * 7, clock)

    def interrupted(retries: int) -> set[bytes] | None:
        if len(reader.asked) == 7:
            raise KeyboardInterrupt
        return Scripted.list_uids(reader, retries)

    reader.list_uids = interrupted  # type: ignore[method-assign]
    count = MissCount(b"t", Ways.of(reader))
    with pytest.raises(KeyboardInterrupt):
        count_misses(reader, clock, count, 60.0)
    assert count.rounds == [(True, True, True), (True, True, True)]

    from tabletap.controller.commands import tags

    def count_then_interrupt(reader, clock, count, *args, **kwargs):
        count_misses(reader, clock, count, 60.0, rounds=5)
        raise KeyboardInterrupt

    monkeypatch.setattr(tags, "count_misses", count_then_interrupt)
    code, out, _ = run(capsys, "--sim", "--sim-tag", GOLD)
    assert code == 0 and re.search(r"5 rounds in [0-9.]+ s \(stopped with Ctrl-C\)", out)




def test_at_a_real_reader_the_tools_refuse_while_the_table_runs(capsys, tmp_path, pty):
    """The `uart` transport over real pyserial, the emulated chip at the far end of a
    pseudo-terminal: the count runs (a tag never missed: too few to tell). While a daemon holds
    the state folder, this and every other tag tool refuse, rather than take the daemon's
    replies on the same port."""
    pty.field.append(SimTag.for_piece(GOLD).memory)
    config = tmp_path / "box.yaml"
    config.write_text(f"state_dir: {tmp_path / 'state'}\n"
                      f"readers:\n  chest: {{transport: uart, port: {pty.port}}}\n")
    code, out, _ = run(capsys, "--config", str(config), "--rounds", "20")
    assert code == 0 and "20 rounds" in out and "verdict: too few misses to tell" in out
    with state_lock(tmp_path / "state"):
        for argv in (["misses", "--rounds", "5"], ["read"]):
            code = main(["tags", *argv, "--config", str(config)])
            err = capsys.readouterr().err
            assert code == 1, argv
            assert f"the table is running (pid {os.getpid()}" in err
            assert "systemctl stop tabletap" in err


def test_a_reader_that_never_answers_is_not_asked_for_a_tag():
    """Every listing lost (a cable, the wrong transport) is not an empty reader: the maker is
    sent to the doctor, not told to rest a tag on a reader that may already hold one."""
    clock = VirtualClock()
    with pytest.raises(NoRestingTag) as err:
        resting_tag(Scripted([None] * 1000, clock), clock, 1.0)
    assert "did not answer within 1 s" in str(err.value) and "tabletap doctor" in str(err.value)
    assert "rest one" not in str(err.value)
    answered_once = Scripted([None, set()] + [None] * 1000, clock)
    with pytest.raises(NoRestingTag, match="no tag on reader scripted within 1 s"):
        resting_tag(answered_once, clock, 1.0)


def test_a_reader_whose_port_another_program_holds_says_so_at_once(capsys, tmp_path, pty):
    """`misses` and `read` at a reader whose port another program holds: the refusal, at once,
    not a tag asked for after 30 s, nor 15 s of retries."""
    import serial

    config = tmp_path / "table.yaml"
    config.write_text(f"state_dir: {tmp_path / 'state'}\nbackend: gpio\n"
                      f"readers:\n  chest: {{transport: uart, port: {pty.port}}}\n")
    with serial.Serial(pty.port, exclusive=True):
        for argv in (["misses", "--wait", "30"], ["read"]):
            clock = time.monotonic()
            assert main(["tags", *argv, "--config", str(config)]) == 1
            assert time.monotonic() - clock < 5
            err = capsys.readouterr().err
            assert f"{pty.port} is in use by another program" in err, argv
