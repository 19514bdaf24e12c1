"""Every catalog is complete (issue 20): each message of the source in every shipped language,
translated, not fuzzy, with the English's placeholders and the language's plural forms (Babel's
checkers and tabletap.controller.language.check). A new English sentence without a translation
fails here, with the file and the message and `make catalogs` to run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tabletap.controller.language import catalogs
from tabletap.controller.language.check import problems
from tabletap.controller.language.extract import domains, sources, template
from tests.language.heard import SHIPPED


@pytest.mark.parametrize("domain", domains())
def test_every_message_is_translated_in_every_shipped_language(domain: str) -> None:
    pot = template(domain)
    found = [line for language in SHIPPED for line in problems(domain, language, pot)]
    assert not found, f"{len(found)} problems; run `make catalogs` and translate:\n" + \
        "\n".join(found[:60])


# Every sentence a page script passes to TT.t or TT.tn by its English (a literal string; one
# that goes on with `+ "..."` is checked by its start).
JS_SENTENCE = re.compile(r'TT\.tn?\(\s*"((?:[^"\\]|\\.)*)"')


@pytest.mark.parametrize("domain", domains())
def test_every_sentence_of_a_page_script_is_in_its_catalog(domain: str) -> None:
    """Babel's JavaScript extractor skips a call inside a template literal (`${TT.t("x")}`),
    so such a sentence would never reach the translators and be shown in English."""
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in template(domain) if m.id}
    folders = [folder for folder, _ in sources(domain)]
    # the controller's folder holds the page's and the games' scripts, which are theirs
    scripts = [p for folder in folders for p in folder.rglob("*.js")
               if domain != catalogs.CONTROLLER_DOMAIN]
    lost = [f"{p.name}: {m.group(1)!r}" for p in scripts
            for m in JS_SENTENCE.finditer(p.read_text(encoding="utf-8"))
            if not any(k.startswith(m.group(1).replace('\\"', '"')) for k in known)]
    assert not lost, "not extracted (move the call out of the template literal):\n" + \
        "\n".join(lost)


@pytest.mark.parametrize("domain", domains())
def test_every_message_says_where_it_is_heard(domain: str) -> None:
    """A translator reads where a sentence is heard and what its placeholders hold in the
    `TRANSLATORS:` comment just above the call; a message without one is a guess."""
    bare = [f"{m.locations[0][0]}:{m.locations[0][1]}: {m.id!r}" for m in template(domain)
            if m.id and not m.auto_comments]
    assert not bare, "no TRANSLATORS: comment just above the call:\n" + "\n".join(bare)


def test_the_shipped_languages_are_there() -> None:
    assert catalogs.languages() == ["en", *sorted(SHIPPED)]


def test_a_missing_translation_is_found(tmp_path, monkeypatch) -> None:
    """The check itself can fail: a message the catalog lacks is reported by name."""
    from babel.messages.catalog import Catalog

    pot = Catalog(domain=catalogs.CONTROLLER_DOMAIN)
    pot.add("A sentence nobody translated, %(name)s.")
    found = problems(catalogs.CONTROLLER_DOMAIN, "de", pot)
    assert any("nobody translated" in line and "missing" in line for line in found)


def test_bringing_catalogs_up_to_date_twice_changes_no_file(tmp_path):
    """`make catalogs` runs in every build (`make dist`): it rewrote every .po with a new
    POT-Creation-Date each time, leaving 28 tracked files modified though no sentence changed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "catalogs_tool", Path(__file__).resolve().parents[2] / "tools" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    po = tmp_path / "x.po"
    before = (b'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2026-12-02 18:49+0000\\n"\n'
              b'"Language: de\\n"\n')
    po.write_bytes(before)
    tool._write_if_changed(po, before.replace(b"18:49", b"19:49"))
    assert po.read_bytes() == before
    tool._write_if_changed(po, before.replace(b"Language: de", b"Language: fr"))
    assert b"Language: fr" in po.read_bytes()
