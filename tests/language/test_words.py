"""The language layer itself (tabletap/controller/language): a Said renders in each language by
its catalog, with plural forms by the language's rule, parameters said in the same language,
lists joined the language's way, a broken translation falling back to English rather than
silencing the table, and a value that survives JSON (the control socket carries it to the page)."""

from __future__ import annotations

import gettext
import json
from pathlib import Path

import pytest

from tabletap.controller.language import ListOf, Named, Said, Words, catalogs
from tabletap.controller.language.said import Domain
from tabletap.controller.language.tree import localized, spelled

msg, msg_n, msg_p, _ = Domain("test-domain").functions()

GERMAN_PO = r'''
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "%(player)s takes %(key)s."
msgstr "%(player)s nimmt %(key)s."

msgctxt "key"
msgid "the purple key"
msgstr "den lila Schlüssel"

msgid "%(player)s has a gem."
msgid_plural "%(player)s has %(n)s gems."
msgstr[0] "%(player)s hat einen Edelstein."
msgstr[1] "%(player)s hat %(n)s Edelsteine."

msgid "%(who)s win."
msgstr "%(who)s gewinnen."

msgid "Broken %(name)s."
msgstr "Kaputt %(nam)s."

msgid "OK"
msgstr "OK"
'''


@pytest.fixture
def german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Words:
    po = tmp_path / "de" / "LC_MESSAGES" / "test-domain.po"
    po.parent.mkdir(parents=True)
    po.write_text(GERMAN_PO, encoding="utf-8")
    real = catalogs.locale_dir
    monkeypatch.setattr(catalogs, "locale_dir",
                        lambda d: tmp_path if d == "test-domain" else real(d))
    catalogs.translations.cache_clear()
    yield Words("de")
    catalogs.translations.cache_clear()


def test_a_sentence_and_its_parts_are_said_in_the_language(german: Words) -> None:
    said = msg("%(player)s takes %(key)s.", player="Ana", key=msg_p("key", "the purple key"))
    assert german(said) == "Ana nimmt den lila Schlüssel."
    assert Words("en")(said) == "Ana takes the purple key."
    assert german.missed == []


def test_plural_forms_follow_the_count(german: Words) -> None:
    one = msg_n("%(player)s has a gem.", "%(player)s has %(n)s gems.", 1, player="Bo")
    many = msg_n("%(player)s has a gem.", "%(player)s has %(n)s gems.", 5, player="Bo")
    assert (german(one), german(many)) == ("Bo hat einen Edelstein.", "Bo hat 5 Edelsteine.")
    assert Words("en")(many) == "Bo has 5 gems."


def test_lists_are_joined_the_languages_way(german: Words) -> None:
    said = msg("%(who)s win.", who=ListOf(("Ana", "Bo", "Cy")))
    assert german(said) == "Ana, Bo und Cy gewinnen."
    assert Words("ko").join(["a", "b"], "or") != "a or b"


def test_a_missing_translation_is_said_in_english_and_counted(german: Words) -> None:
    said = msg("Nobody translated this.")
    assert german(said) == "Nobody translated this."
    assert german.missed == ["(test-domain) Nobody translated this."]
    german.missed.clear()
    assert german(Said("", "plain words")) == "plain words"
    assert german.missed == ["(no catalog) plain words"]


def test_a_translation_equal_to_the_english_is_not_missed(german: Words) -> None:
    assert german(msg("OK")) == "OK" and german.missed == []


def test_a_broken_translation_falls_back_to_english(german: Words) -> None:
    assert german(msg("Broken %(name)s.", name="x")) == "Broken x."


def test_data_names_by_language_with_english_the_fallback(german: Words) -> None:
    ram = Named.of({"en": "battering ram", "de": "Rammbock"}, "cards.yaml")
    assert german(msg("%(player)s takes %(key)s.", player="Ana", key=ram)) == \
        "Ana nimmt Rammbock."
    assert Words("fr").name(ram) == "battering ram"
    with pytest.raises(ValueError, match="English"):
        Named.of({"de": "Rammbock"})


def test_a_said_survives_json_and_a_snapshot_is_put_into_another_language(german: Words
                                                                          ) -> None:
    ana = Named.of({"en": "Ana"})
    said = msg("%(who)s win.", who=ListOf((ana, msg_p("key", "the purple key"))))
    assert Said.from_json(said.to_json()) == said
    snapshot = {"log": [{"text": "Ana win.", "text_said": msg("%(who)s win.", who="Ana")
                         .to_json()}], "last": {"events_said": [said.to_json()], "events": []}}
    out = localized(snapshot, german)
    assert out["log"][0]["text"] == "Ana gewinnen."
    assert out["last"]["events"] == ["Ana und den lila Schlüssel gewinnen."]
    assert "text_said" not in out["log"][0]


def test_a_game_s_extras_hold_sentences_anywhere_and_a_phone_reads_them_again(german: Words
                                                                             ) -> None:
    """A page view's extras (a space's kind inside a pair, a name inside a list of dicts) are
    rendered in the table's language and carried beside for a phone in another."""
    ram = Named.of({"en": "battering ram", "de": "Rammbock"}, "cards.yaml")
    key = msg_p("key", "the purple key")
    extras = {"spaces": [["v1", key], ["v2", "plain"]], "items": {"ana": [{"name": ram}]},
              "count": 3, "both": ListOf((ram, key))}
    english = spelled(extras, Words("en"))
    assert english["spaces"] == [["v1", "the purple key"], ["v2", "plain"]]
    assert english["items"]["ana"][0]["name"] == "battering ram"
    assert english["spaces_said"][1] is None and english["count"] == 3
    assert "count_said" not in english
    phone = localized(json.loads(json.dumps(english)), german)
    assert phone["spaces"] == [["v1", "den lila Schlüssel"], ["v2", "plain"]]
    assert phone["items"]["ana"][0] == {"name": "Rammbock"}
    assert phone["both"] == "Rammbock und den lila Schlüssel"
    assert not [k for k in phone if k.endswith("_said")]


def test_english_needs_no_catalog() -> None:
    assert isinstance(catalogs.translations("tabletap", "en"), gettext.NullTranslations)
