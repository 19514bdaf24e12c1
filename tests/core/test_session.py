"""The table session: the chest and lights answer, and the journal comes first."""

from __future__ import annotations

from pathlib import Path

from tabletap.sim.world import SimTag
from tests.core.helpers import magic_keys_table, tap


def test_a_true_key_opens_the_chest_which_relocks_after_open_seconds(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path, chest={"open_seconds": 3})
    tap(daemon, ctx, "magic-keys/key/purple/1")
    chest = daemon.session.outputs.chest
    assert chest.is_open
    daemon.run_for(1.0)
    assert chest.is_open
    daemon.run_for(2.0)
    assert not chest.is_open


def test_closing_the_lid_locks_the_chest_at_once(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path, chest={"open_seconds": 30})
    tap(daemon, ctx, "magic-keys/key/purple/1")
    assert daemon.session.outputs.chest.is_open
    ctx["world"].lid(closed=True)
    daemon.run_for(0.1)
    assert not daemon.session.outputs.chest.is_open


def test_a_fake_key_keeps_the_chest_shut_and_shows_fake(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    daemon.session.outputs.lights.show("off")
    ctx["world"].place("chest", SimTag.for_piece("magic-keys/key/purple/4"))
    daemon.run_for(0.2)
    assert not daemon.session.outputs.chest.is_open
    assert daemon.session.outputs.lights.pattern == "fake"


def test_feedback_returns_to_the_turn_colour(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path, lights={"feedback_seconds": 1})
    tap(daemon, ctx, "magic-keys/key/purple/1")  # ana's true key: ben's turn next
    daemon.run_for(1.5)
    lights = daemon.session.outputs.lights
    assert lights.pattern == "turn" and lights.history[-1][2] == "blue"  # ben sits second


def test_the_journal_is_on_disk_before_the_chest_moves(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    chest = daemon.session.outputs.chest
    journal_path = daemon.session.journal.path
    seen: list[int] = []
    original = chest.set_open

    def spying_set_open(open_: bool) -> None:
        seen.append(len(journal_path.read_text().splitlines()))
        original(open_)

    chest.set_open = spying_set_open  # type: ignore[method-assign]
    tap(daemon, ctx, "magic-keys/key/purple/1")
    assert seen and seen[0] == 2  # header + the accepted action, already written


def test_the_chest_answers_before_the_move_is_narrated_published_or_said(tmp_path: Path):
    """Issue 23: "The chest's command is sent the moment the journal entry is durable;
    narration, the page's notice and the voice come after, never before or instead"."""
    from tabletap.controller.table.notices import Said

    daemon, ctx = magic_keys_table(tmp_path)
    session = daemon.session
    order: list[str] = []
    set_open, narrate, say = session.outputs.chest.set_open, session.narrate, session.speaker.say

    def chest(open_: bool) -> None:
        order.append(f"chest {'open' if open_ else 'lock'}")
        set_open(open_)

    def narrated(text: str) -> None:
        order.append("narrated")
        narrate(text)

    def said(text: str) -> None:
        order.append("said")
        say(text)

    session.outputs.chest.set_open = chest  # type: ignore[method-assign]
    session.narrate = narrated
    session.speaker.say = said  # type: ignore[method-assign]
    session.notices.subscribe(lambda n: order.append("page") if isinstance(n, Said) else None)
    tap(daemon, ctx, "magic-keys/key/purple/1")  # ana's true key opens the chest
    assert "chest open" in order, order
    opened = order.index("chest open")
    assert {"narrated", "page", "said"} <= set(order[opened:]), order  # after, not instead
    assert not {"narrated", "page", "said"} & set(order[:opened]), order  # never before


def test_a_rejection_changes_neither_state_nor_journal(tmp_path: Path):
    daemon, ctx = magic_keys_table(tmp_path)
    tap(daemon, ctx, "magic-keys/key/purple/1")
    engine = daemon.session.engine
    before = engine.state_to_json(daemon.session.state)
    journal_before = daemon.session.journal.path.read_text()
    tap(daemon, ctx, "magic-keys/key/purple/1")  # already on the tower
    assert daemon.session.last.rejection.code == "key-already-used"
    assert engine.state_to_json(daemon.session.state) == before
    assert daemon.session.journal.path.read_text() == journal_before
    assert daemon.session.outputs.lights.pattern == "rejected"


def test_oversiege_turn_lights_show_how_many_cards_to_draw(tmp_path: Path):
    """Issue: "the lights show how many cards the next player draws"."""
    from tabletap.controller.settings.config import Config
    from tabletap.controller.table.runtime import GameSpec, open_table
    from tabletap.sim.context import make_context

    cfg = Config.model_validate({"state_dir": str(tmp_path), "lights": {"feedback_seconds": 1}})
    ctx = make_context()
    daemon = open_table(cfg, ctx, ctx["clock"], GameSpec("oversiege", ["red", "blue"], 1),
                        new=True)
    lights = daemon.session.outputs.lights
    assert lights.pattern == "turn" and lights.history[-1][2] == "red"
    assert lights.counts[-1] == 3  # an intact castle draws three (placeholder data)


def test_a_long_press_after_the_win_starts_a_new_game_and_archives_the_old(tmp_path: Path):
    from tabletap.controller.games.base import ButtonPressed
    from tabletap.controller.state.journal import Journal

    daemon, ctx = magic_keys_table(tmp_path, players=("ana", "ben", "cleo", "dan"))
    session = daemon.session
    for key in ("gold", "yellow/3", "yellow/4", "yellow/5", "gold", "green/1", "green/2",
                "green/4", "purple/1"):  # ana: 5 + 5 + 2 = 12 >= 11
        tap(daemon, ctx, f"magic-keys/key/{key}")
    assert session.engine.winners(session.state) == ["ana"]
    assert session.handle(ButtonPressed("end-turn"), 0).rejection.code == "game-over"
    result = session.handle(ButtonPressed("end-turn", long=True), 0)
    assert result.accepted and session.engine.current_player(session.state) == "ana"
    assert session.header.setup == {}  # a fresh secret choice of fake keys
    replayed = Journal.in_dir(tmp_path / "state").replay()
    assert replayed.actions == 0 and replayed.header.seed == session.header.seed
    assert len(list((tmp_path / "state" / "games").glob("*.jsonl"))) == 1


def test_the_session_says_when_its_timers_are_due(tmp_path: Path):
    """TableSession.wakes_at, what the loop's pause sleeps to (Daemon.pause): the relock and
    the lights' feedback are moments; with neither there is nothing until an input."""
    import math

    daemon, ctx = magic_keys_table(tmp_path, chest={"open_seconds": 3},
                                   lights={"feedback_seconds": 0.5})
    session = daemon.session
    assert session.wakes_at() == math.inf
    tapped_at = daemon.clock.now()
    tap(daemon, ctx, "magic-keys/key/purple/1")  # 0.7 s of the daemon's clock
    assert session.outputs.chest.is_open
    # the feedback has ended within the tap's 0.7 s; the relock is 3 s after the tap
    assert session.wakes_at() == session._relock_at
    assert tapped_at + 3 <= session.wakes_at() <= tapped_at + 3.2
    daemon.run_for(3.0)
    assert not session.outputs.chest.is_open
    assert session.wakes_at() == math.inf
    session.resting = "pairing"  # a pattern stepped by the clock: ticked at the poll pace
    assert session.wakes_at() is None


def test_only_a_half_made_gesture_that_can_time_out_is_ticked_at_the_poll_pace(tmp_path: Path):
    """TableSession.wakes_at: a gesture is a timer only where the game's table cancels it
    after a while (GameTable.expire). Oversiege's projectile waits for its target and times
    out (issue 5: "a timeout ... cancels a half-made gesture"): the loop ticks. Magic Keys'
    die named by a short press of `roll` never times out, so the loop need not pass for it."""
    import math

    from tabletap.controller.games.base import ButtonPressed, PiecePlaced
    from tabletap.controller.settings.config import Config
    from tabletap.controller.table.runtime import GameSpec, open_table
    from tabletap.sim.context import make_context

    cfg = Config.model_validate({"state_dir": str(tmp_path / "mk")})
    ctx = make_context()
    keys = open_table(cfg, ctx, ctx["clock"], GameSpec("magic-keys", ["ana", "ben"], 7,
                                                       {"dice": "digital"}), new=True).session
    keys.table.force("roll", [3, "moon", 1])
    assert keys.handle(ButtonPressed("roll"), 0.0).accepted
    assert keys.handle(ButtonPressed("roll"), 0.0).accepted is None  # the 3 named
    assert keys.table.chosen is not None and keys._gesture_pending()
    keys._feedback_until = keys._relock_at = None  # no lights' timer: only the gesture
    assert keys.wakes_at() == math.inf

    cfg = Config.model_validate({"state_dir": str(tmp_path / "os")})
    ctx = make_context()
    siege = open_table(cfg, ctx, ctx["clock"], GameSpec("oversiege", ["red", "blue"], 1),
                       new=True).session
    assert siege.handle(PiecePlaced("table", "oversiege/red/catapult/1"), 0.0).accepted
    siege._feedback_until = None
    assert siege.wakes_at() == math.inf
    assert siege.handle(PiecePlaced("table", "oversiege/red/stone/1"), 0.0).pending is not None
    assert siege.table.gesture is not None  # the stone waits for its target
    siege._feedback_until = None
    assert siege.wakes_at() is None
