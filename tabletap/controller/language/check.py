"""What a catalog lacks: every message of the source present, translated, not fuzzy, with the
same placeholders, and the language's number of plural forms (Babel's own checkers).

Used by `make catalogs --check` and tests/language/test_catalogs.py, so `make test` fails when a
new English sentence has no translation in a shipped language.
"""

from __future__ import annotations

import re

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from tabletap.controller.language import catalogs

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def problems(domain: str, language: str, template: Catalog) -> list[str]:
    """Every problem of `language`'s catalog of `domain`, one line each (file: message: what)."""
    po = catalogs.po_path(domain, language)
    if po is None or not po.is_file():
        return [f"{po}: there is no catalog for {language} (make catalogs --add {language})"]
    with po.open("rb") as f:
        catalog = read_po(f, locale=language, domain=domain)
    out = []
    nplurals = catalog.num_plurals
    for message in template:
        if not message.id:
            continue
        key = message.id if message.context is None else (message.id, message.context)
        found = catalog.get(message.id, message.context)
        where = f"{po}: {key!r}"
        if found is None:
            out.append(f"{where}: missing (make catalogs)")
            continue
        if found.fuzzy:
            out.append(f"{where}: fuzzy (the English changed; check the translation)")
        strings = found.string if isinstance(found.string, (list, tuple)) else [found.string]
        if not all(strings):
            out.append(f"{where}: not translated")
            continue
        if message.pluralizable and len(strings) != nplurals:
            out.append(f"{where}: {len(strings)} plural forms, {language} has {nplurals}")
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        wanted = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            got = placeholders(text)
            if not got <= wanted:
                out.append(f"{where}: placeholders {sorted(got - wanted)} are not in the English")
            if not message.pluralizable and got != wanted:
                out.append(f"{where}: placeholders {sorted(got)} differ from the English's "
                           f"{sorted(wanted)}")
    for _message, errors in catalog.check():
        for error in errors:
            out.append(f"{po}: {error}")
    return out
