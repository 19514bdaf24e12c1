"""The page in the phone's language: the words its scripts need, and snapshots said again.

The page's scripts cannot read gettext catalogs, and the page's CSP forbids evaluating a
plural expression, so `GET /api/words?lang=de` hands them, from the same catalogs the table
speaks from, every translated message of the page's domain and of each installed game's
domain, the plural rule as a table (the form for n in 0..199), and the languages offered, each
named in itself. A phone whose language is not the table's gets the snapshot's sentences
rendered again in its own (tree.localized over the `*_said` the daemon sends beside them).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.pofile import read_po

from tabletap.controller.language import catalogs
from tabletap.controller.language.extract import domains
from tabletap.controller.language.said import Said
from tabletap.controller.language.tree import localized
from tabletap.controller.language.words import Words

PLURAL_TABLE = 200  # n in 0..199 covers every plural rule's distinct cases; above, n % 100
CONTEXT = "\x04"  # gettext's separator of a message's context and its English


@cache
def offered() -> tuple[str, ...]:
    """The languages the table has catalogs for, English first (a known, bounded set)."""
    return tuple(catalogs.languages())


def known(language: str | None) -> str | None:
    """`language` when the table has it, else None."""
    return language if language in offered() else None


def own_name(language: str) -> str:
    """A language's name in itself ("Deutsch", "한국어"), capitalized for a menu."""
    try:
        name = Locale.parse(language).get_display_name(language) or language
    except (UnknownLocaleError, ValueError):
        return language
    return name[:1].upper() + name[1:]


def plural_table(language: str) -> list[int]:
    """The plural form's index for each n below PLURAL_TABLE, by the language's own rule."""
    rule = catalogs.translations(catalogs.PAGE_DOMAIN, language)
    forms = getattr(rule, "plural", None)
    if forms is None:
        return [0 if n == 1 else 1 for n in range(PLURAL_TABLE)]
    return [int(forms(n)) for n in range(PLURAL_TABLE)]


def messages(domain: str, language: str) -> dict[str, Any]:
    """A domain's translated messages: English -> text, or -> [forms] for a plural; a context
    is `context\\x04English`. Fuzzy and empty ones are left out, so they fall back to English."""
    po = catalogs.po_path(domain, language)
    if language == catalogs.ENGLISH or po is None or not po.is_file():
        return {}
    with po.open("rb") as f:
        catalog = read_po(f, locale=language, domain=domain)
    out: dict[str, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        if message.context:
            key = f"{message.context}{CONTEXT}{key}"
        text = message.string
        if isinstance(text, (list, tuple)):
            if all(text):
                out[key] = list(text)
        elif text:
            out[key] = text
    return out


@cache
def words(language: str) -> dict[str, Any]:
    """The JSON of GET /api/words for a language the table has (call `known` first: the cache
    holds only those)."""
    return {
        "ok": True,
        "language": language,
        "languages": [{"code": code, "name": own_name(code)} for code in offered()],
        "plural": plural_table(language),
        "messages": {domain: messages(domain, language) for domain in domains()
                     if domain != catalogs.CONTROLLER_DOMAIN},
    }


def said_again(snapshot_message: dict[str, Any], language: str | None) -> dict[str, Any]:
    """A feed message with its snapshot's sentences in `language` when that is not the table's
    (None: as the table says them)."""
    snap = snapshot_message.get("snapshot")
    if language is None or not isinstance(snap, dict) or snap.get("language") == language:
        return snapshot_message
    return {**snapshot_message, "snapshot": localized(snap, Words(language))}


def reply_in(reply: dict[str, Any], language: str | None) -> dict[str, Any]:
    """A daemon's answer to this phone (its events, the table check's findings) with the
    sentences that carry a `*_said` said in the phone's language (None: as they came)."""
    if language is None:
        return reply
    return localized(reply, Words(language))


def say(said: Said, language: str | None) -> str:
    """One of the page's own sentences in `language` (English when the page named none)."""
    return Words(language or catalogs.ENGLISH)(said)
