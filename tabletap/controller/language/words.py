"""Putting a `Said` into words in one language.

`Words(language)` renders a message with its catalog (plural forms by the language's own rule,
named placeholders in the translator's order), its parameters first (a name inside a sentence is
said in the same language), lists joined the language's way (Babel's `format_list`). What it
could not translate it says in English and remembers in `missed`, so the checks of
tests/language can tell a sentence left in English from one translated.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from tabletap.controller.language import catalogs
from tabletap.controller.language.said import ListOf, Named, Said

log = logging.getLogger("tabletap.language")
_WARNED: set[tuple[str, str]] = set()  # (data file, language) already reported


class Words:
    """The renderer of one language. Cheap to build; catalogs are read once per process."""

    def __init__(self, language: str = catalogs.ENGLISH) -> None:
        self.language = language
        # what was said in English instead: "(domain) msgid", "(no catalog) text" for a plain
        # string that no catalog holds (a sentence nobody marked for translation)
        self.missed: list[str] = []

    def __call__(self, said: Said | str) -> str:
        return self.render(said)

    def render(self, said: Said | str) -> str:
        if isinstance(said, str):
            return said
        if not said.domain:
            if self.language != catalogs.ENGLISH:
                self.missed.append(f"(no catalog) {said.msgid}")
            return said.msgid
        text = self._lookup(said)
        params = {k: self.thing(v) for k, v in said.params}
        if not params:
            return text
        try:
            return text % params
        except (KeyError, ValueError, TypeError):
            # a broken translation must not silence the table: say the English instead
            log.warning("the %s message %r does not fit its parameters in %s",
                        said.domain, said.msgid, self.language)
            source = said.msgid if said.plural is None or said.n == 1 else said.plural
            return source % params

    def _lookup(self, said: Said) -> str:
        tr = catalogs.translations(said.domain, self.language)
        if said.plural is not None:
            n = int(said.n or 0)
            if said.context is not None:
                text = tr.npgettext(said.context, said.msgid, said.plural, n)
            else:
                text = tr.ngettext(said.msgid, said.plural, n)
            source = said.msgid if n == 1 else said.plural
            translated = text != source or _known(said, self.language)
        else:
            if said.context is not None:
                text = tr.pgettext(said.context, said.msgid)
            else:
                text = tr.gettext(said.msgid)
            translated = text != said.msgid or _known(said, self.language)
        if not translated and self.language != catalogs.ENGLISH:
            self.missed.append(f"({said.domain}) {said.msgid}")
        return text

    def thing(self, value: Any) -> Any:
        """A sentence, a data file's name or a list of them in this language; anything else
        as it is (a number, a player's name)."""
        if isinstance(value, Said):
            return self.render(value)
        if isinstance(value, Named):
            return self.name(value)
        if isinstance(value, ListOf):
            return self.join([self.thing(v) for v in value.items], value.style)
        return value

    def name(self, named: Named) -> str:
        names = dict(named.names)
        if self.language in names:
            return names[self.language]
        if self.language != catalogs.ENGLISH and (named.source, self.language) not in _WARNED:
            _WARNED.add((named.source, self.language))
            log.warning("%s has no names in %s, so they are said in English",
                        named.source or "a data file", self.language)
        return names["en"]

    def join(self, items: list[Any], style: str = "standard") -> str:
        from babel.lists import format_list

        items = [str(i) for i in items]
        if not items:
            return ""
        locale = _babel_locale(self.language)
        try:
            return format_list(items, style=style, locale=locale)
        except (KeyError, ValueError):  # a style the language's CLDR data lacks ("unit" in es)
            return format_list(items, style="standard", locale=locale)


def _known(said: Said, language: str) -> bool:
    """Whether the catalog holds this message with a translation equal to its English (a
    word that is the same in both, "OK"), so that it is not counted as missed."""
    return said.msgid in _identical(said.domain, language)


@cache
def _identical(domain: str, language: str) -> frozenset[str]:
    tr = catalogs.translations(domain, language)
    catalog = getattr(tr, "_catalog", {})
    same = set()
    for key, text in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if isinstance(msgid, str) and "\x04" in msgid:
            msgid = msgid.split("\x04", 1)[1]
        if msgid and (text == msgid or isinstance(key, tuple)):
            same.add(msgid)
    return frozenset(same)


@cache
def _babel_locale(language: str) -> str:
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(language)
        return language
    except (UnknownLocaleError, ValueError):
        return catalogs.ENGLISH


@cache
def words_for(language: str) -> Words:
    """The one renderer of a language in this process (its `missed` shared: tests make their
    own `Words`)."""
    return Words(language)
