"""Which espeak-ng voice speaks each language, unless the config names one (`voice.voice`).

espeak-ng names its voices by language code; French is `fr-fr` (plain `fr` is a Belgian voice on
some builds), the rest are their codes. A language espeak-ng does not list falls back to its
code, which espeak-ng answers with its nearest voice or an error the doctor reports.
"""

from __future__ import annotations

VOICES = {"en": "en", "de": "de", "fr": "fr-fr", "es": "es", "ko": "ko", "it": "it"}


def voice_for(language: str, chosen: str | None = None) -> str:
    """The voice to speak `language` with: the config's choice, else the language's own."""
    if chosen:
        return chosen
    return VOICES.get(language, language.split("_")[0])
