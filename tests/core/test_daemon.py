"""The daemon loop: bad tags are rejected, readers are supervised, nothing stops the loop."""

from __future__ import annotations

from pathlib import Path

import ndef

from tabletap.sim.world import SimTag
from tests.core.helpers import magic_keys_table, tap


def _place(daemon, ctx, tag: SimTag, reader: str = "chest") -> None:
    ctx["world"].place(reader, tag)
    daemon.run_for(0.2)


def test_an_unknown_blank_tag_is_rejected(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    _place(daemon, ctx, SimTag(bytes.fromhex("04aabbccddeeff"), None))
    assert daemon.session.last.rejection.code == "unknown-tag"


def test_a_tag_of_another_app_is_rejected_as_foreign(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    message = b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org/")]))
    _place(daemon, ctx, SimTag(bytes.fromhex("04010203040506"), message))
    assert daemon.session.last.rejection.code == "foreign-tag"


def test_a_piece_of_another_game_is_rejected(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "oversiege/red/tower/1")
    assert daemon.session.last.rejection.code == "wrong-game"
    assert daemon.session.actions == 0


def test_an_unknown_magic_keys_piece_is_rejected(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/red/1")
    assert daemon.session.last.rejection.code == "unknown-piece"


def test_a_missing_reader_is_retried_with_backoff_while_the_other_works(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    world = ctx["world"]
    world.missing_readers.add("pond")
    polls = {"n": 0}
    pond = daemon.readers["pond"]
    original = pond.poll

    def counting_poll():
        polls["n"] += 1
        return original()

    pond.poll = counting_poll
    daemon.run_for(5.0)  # 50 ticks: backoff 0.5, 1, 2 ... means only a handful of attempts
    assert 3 <= polls["n"] <= 5
    assert daemon.session.outputs.lights.pattern == "reader-missing"
    tap(daemon, ctx, "magic-keys/key/purple/1")  # the chest reader still works
    assert daemon.session.actions == 1
    world.missing_readers.clear()
    daemon.run_for(10.0)
    assert daemon.session.outputs.lights.pattern == "turn"


def test_a_driver_error_in_a_poll_does_not_end_the_loop(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    reader = daemon.readers["chest"]

    def broken_poll():
        raise TypeError("'NoneType' object is not subscriptable")  # the driver's torn read

    reader.poll = broken_poll
    daemon.run_for(1.0)  # would raise if the loop let it through
    assert daemon.session.actions == 0


def test_lifting_a_key_is_not_an_action(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/purple/1")
    assert daemon.session.actions == 1
    assert daemon.session.last.accepted is True


def test_a_tag_with_garbled_ndef_is_rejected_and_the_daemon_goes_on(tmp_path: Path):
    """A resting tag whose NDEF makes ndeflib raise UnicodeDecodeError must not end the game
    (it used to, and again at every restart while the tag lay on the reader)."""
    daemon, ctx = magic_keys_table(tmp_path)
    garbled = bytes.fromhex("d1011dda007461626c65746170426d616769632d6b657973026b65792f676f6c64")
    _place(daemon, ctx, SimTag(bytes.fromhex("04aa01020304aa"), garbled))
    assert daemon.session.last.rejection.code == "corrupt-tag"
    daemon.run_for(1.0)
    tap(daemon, ctx, "magic-keys/key/purple/1")
    assert daemon.session.actions == 1


def test_an_engine_bug_costs_one_move_not_the_game(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    engine = daemon.session.engine
    original = engine.apply

    def broken_apply(state, action):
        raise KeyError("a bug")

    engine.apply = broken_apply
    try:
        tap(daemon, ctx, "magic-keys/key/purple/1")
        assert daemon.session.last.rejection.code == "internal-error"
    finally:
        engine.apply = original
    tap(daemon, ctx, "magic-keys/key/purple/1")
    assert daemon.session.last.accepted and daemon.session.actions == 1


def test_a_journal_that_cannot_be_written_refuses_the_move(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    journal = daemon.session.journal

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    journal.append = full_disk
    tap(daemon, ctx, "magic-keys/key/purple/1")
    assert daemon.session.last.rejection.code == "journal-error"
    assert daemon.session.actions == 0 and not daemon.session.outputs.chest.is_open


def test_failing_outputs_and_buttons_never_end_the_game(tmp_path: Path):
    """A Pico link that crashed raises from every call; the move is still saved and the loop
    goes on (the chest relock is retried by its timer)."""
    daemon, ctx = magic_keys_table(tmp_path)
    outputs = daemon.session.outputs

    def gone(*_args, **_kwargs):
        raise OSError(5, "Input/output error")

    working_set_open = outputs.chest.set_open
    outputs.chest.set_open = gone
    outputs.lights.show = gone
    daemon.buttons.events = gone
    tap(daemon, ctx, "magic-keys/key/purple/1")
    daemon.run_for(6.0)
    assert daemon.session.last.accepted and daemon.session.actions == 1
    outputs.chest.set_open = working_set_open  # the board is back: the relock is retried
    working_set_open(True)
    daemon.run_for(1.5)
    assert not outputs.chest.is_open
