"""Each shipped language is spoken (issue 20): real espeak-ng, with the voice the config picks for
`language:`, renders a sentence of that language's own catalog to a WAV that sox finds is not
silence. espeak-ng refuses a voice it does not have, so a wrong voice name fails here too."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tabletap.controller.language import catalogs
from tabletap.controller.settings.config import Config
from tabletap.controller.spoken.speaker import VoiceSettings, VoiceWorker
from tests.family.test_voice import _sox_stat, needs_tools
from tests.language.heard import SHIPPED


def _a_sentence(language: str) -> str:
    """The longest translated sentence without placeholders in the controller's catalog."""
    po = catalogs.po_path(catalogs.CONTROLLER_DOMAIN, language)
    assert po is not None
    with po.open("rb") as f:
        catalog = read_po(f, locale=language)
    texts = [m.string for m in catalog if m.id and isinstance(m.string, str) and m.string
             and "%" not in m.string and not m.fuzzy]
    assert texts, f"{po} has no translated sentence to speak"
    return max(texts, key=len)


@needs_tools
@pytest.mark.parametrize("language", SHIPPED)
def test_the_language_is_spoken_by_its_voice(language: str, tmp_path: Path) -> None:
    voice = Config(language=language).voice_name()
    listed = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True,
                            check=True).stdout.split()
    assert voice in listed, f"espeak-ng has no voice {voice!r} for {language}"
    worker = VoiceWorker(VoiceSettings(voice, 160, 100), wav_dir=tmp_path)
    sentence = _a_sentence(language)
    worker.say(sentence)
    assert worker.wait_idle(60)
    worker.close()
    stat = _sox_stat(tmp_path / "0001.wav")
    assert stat["Length (seconds)"] > 0.5, sentence
    assert stat["RMS     amplitude"] > 0.01, sentence
    assert worker.first_sample and worker.first_sample[0][0] == sentence


def test_the_config_picks_a_voice_for_each_language_and_keeps_a_chosen_one() -> None:
    assert Config(language="de").voice_name() == "de"
    assert Config(language="fr").voice_name() == "fr-fr"
    chosen = Config.model_validate({"language": "ko", "voice": {"voice": "ko+f2"}})
    assert chosen.voice_name() == "ko+f2"
