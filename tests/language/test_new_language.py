"""Adding a language is a catalog file and nothing else (issue 20, docs/LANGUAGES.md): an Italian
`.po` dropped beside the others, with no `.mo` compiled and no code changed, is a language the
config accepts, the voice speaks with espeak-ng's `it`, and the table's sentences come from."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tabletap.controller.language import Words, catalogs
from tabletap.controller.language.messages import msg
from tabletap.controller.settings.config import Config, parse_config
from tabletap.controller.spoken.words import refusal

ITALIAN = r'''
msgid ""
msgstr ""
"Language: it\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "No. %(reason)s"
msgstr "No. %(reason)s"
'''


@pytest.fixture
def with_italian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    real = catalogs.locale_dir(catalogs.CONTROLLER_DOMAIN)
    assert real is not None
    copy = tmp_path / "locale"
    shutil.copytree(real, copy, ignore=shutil.ignore_patterns("*.mo"))
    po = copy / "it" / "LC_MESSAGES" / "tabletap.po"
    po.parent.mkdir(parents=True)
    po.write_text(ITALIAN, encoding="utf-8")
    monkeypatch.setattr(catalogs, "locale_dir",
                        lambda d: copy if d == catalogs.CONTROLLER_DOMAIN else real)
    catalogs.translations.cache_clear()
    yield po
    catalogs.translations.cache_clear()


def test_an_italian_catalog_dropped_in_is_a_language(with_italian: Path) -> None:
    config = parse_config("language: it\n")
    assert config.voice_name() == "it"
    assert "it" in catalogs.languages()
    words = Words("it")
    assert words(refusal(msg("Basta"))) == "No. Basta"
    assert not with_italian.with_suffix(".mo").exists()


def test_a_language_with_no_catalog_is_a_clear_error() -> None:
    with pytest.raises(Exception, match="no catalog for the language 'xx'.*docs/LANGUAGES.md"):
        Config(language="xx")
