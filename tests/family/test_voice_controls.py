"""The voice's controls at the table (issue 21): the voice cards never reach the game, the
level is kept across a restart, bedtime caps it, and end-turn pressed twice quickly says the
last sentence again without the game seeing the second press."""

from __future__ import annotations

import datetime
from pathlib import Path

from tabletap.controller.control_socket.page import attach
from tabletap.controller.settings.config import VoiceConfig
from tabletap.controller.spoken import volume
from tabletap.controller.table.voicedesk import VoiceDesk
from tests.core.helpers import magic_keys_table, tap


def test_voice_cards_change_the_level_and_never_reach_the_game(tmp_path: Path) -> None:
    daemon, ctx = magic_keys_table(tmp_path)
    side = attach(daemon)
    before = daemon.session.actions
    tap(daemon, ctx, "voice/quieter")
    tap(daemon, ctx, "voice/quieter")
    assert side.voice.level.volume == 60 and daemon.session.speaker.volume == 60
    tap(daemon, ctx, "voice/mute")
    assert daemon.session.speaker.muted
    tap(daemon, ctx, "voice/mute")  # again: on
    assert not daemon.session.speaker.muted
    assert daemon.session.actions == before and daemon.session.last is None
    # kept across a restart: a new desk on the same state folder
    again = VoiceDesk(daemon.session.config.state_dir, daemon.session.config.voice)
    assert again.level == volume.Level(60, False)


def test_end_turn_twice_quickly_says_the_last_sentence_again(tmp_path: Path) -> None:
    daemon, ctx = magic_keys_table(tmp_path)
    side = attach(daemon)
    tap(daemon, ctx, "magic-keys/key/purple/1")  # something said
    tap(daemon, ctx, "voice/repeat")
    last = daemon.session.speaker.said[-1]
    assert list(side.voice.repeated) == [last]
    turn = daemon.session.engine.current_player(daemon.session.state)
    ctx["world"].press("end-turn")
    daemon.run_for(0.2)
    ctx["world"].press("end-turn")  # within the double press: not the game's
    daemon.run_for(0.2)
    assert len(side.voice.repeated) == 2
    after_first = daemon.session.engine.current_player(daemon.session.state)
    ctx["world"].press("end-turn")  # later: an ordinary press again
    daemon.run_for(1.5)
    assert len(side.voice.repeated) == 2
    assert turn is not None and after_first is not None


def test_bedtime_keeps_the_voice_low(tmp_path: Path) -> None:
    config = VoiceConfig.model_validate({"volume": 160, "quiet": {"start": "19:30",
                                                                  "end": "07:00",
                                                                  "volume": 40}})
    evening = VoiceDesk(tmp_path, config, wall=lambda: datetime.time(21, 0))
    assert evening.bedtime() and evening.loudness() == 40
    morning = VoiceDesk(tmp_path, config, wall=lambda: datetime.time(8, 0))
    assert not morning.bedtime() and morning.loudness() == 160
