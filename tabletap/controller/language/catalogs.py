"""Where each domain's catalogs live, and reading one: `.mo` when compiled, else the `.po`.

A game's catalogs live in its own package (`<package>/locale/<lang>/LC_MESSAGES/<domain>.po`,
the domain being the game's name), the controller's in `tabletap/controller/locale/` (domain
`tabletap`), the phone page's in `tabletap/web/locale/` (domain `page`). A language is there
when its `.po` is: adding one is dropping a file in, with no code and no build step, because a
`.po` without a current `.mo` is compiled in memory with Babel on first use (`make catalogs`
compiles them ahead, which the wheel ships).
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import logging
from functools import cache
from pathlib import Path

from tabletap.controller import entrypoints

CONTROLLER_DOMAIN = "tabletap"
PAGE_DOMAIN = "page"  # the phone page's labels and buttons (tabletap/web, its scripts)
ENGLISH = "en"
# Babel's keywords for `said.Domain`'s functions (pybabel extract -k), and the comment tag
KEYWORDS = {"msg": None, "msg_n": (1, 2), "msg_p": ((1, "c"), 2), "msg_np": ((1, "c"), 2, 3),
            "TT.t": None, "TT.tn": (1, 2)}
COMMENT_TAG = "TRANSLATORS:"
log = logging.getLogger("tabletap.language")


@cache
def locale_dir(domain: str) -> Path | None:
    """The `locale/` folder of a domain: the controller's, or the package of the game (or
    add-on) registered under that name, found without importing it."""
    if domain == CONTROLLER_DOMAIN:
        return Path(__file__).resolve().parents[1] / "locale"
    if domain == PAGE_DOMAIN:  # found by path: the controller imports nothing of the page
        return Path(__file__).resolve().parents[2] / "web" / "locale"
    for ep in entrypoints.select("tabletap.games", domain):
        spec = importlib.util.find_spec(ep.module)
        if spec is not None and spec.submodule_search_locations:
            return Path(next(iter(spec.submodule_search_locations))) / "locale"
        if spec is not None and spec.origin:
            return Path(spec.origin).parent / "locale"
    return None


def po_path(domain: str, language: str) -> Path | None:
    where = locale_dir(domain)
    return None if where is None else where / language / "LC_MESSAGES" / f"{domain}.po"


def languages(domain: str = CONTROLLER_DOMAIN) -> list[str]:
    """The languages a domain has a catalog for, English (the source) first."""
    where = locale_dir(domain)
    found = sorted(p.parts[-3] for p in where.glob(f"*/LC_MESSAGES/{domain}.po")) if where else []
    return [ENGLISH] + [lang for lang in found if lang != ENGLISH]


@cache
def translations(domain: str, language: str) -> gettext.NullTranslations:
    """The translations of `domain` into `language`; English, or a language with no catalog
    here, gives the source strings (NullTranslations) and the miss is for the caller to see."""
    if language == ENGLISH:
        return gettext.NullTranslations()
    po = po_path(domain, language)
    if po is None or not po.is_file():
        return gettext.NullTranslations()
    mo = po.with_suffix(".mo")
    if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """A `.po` file as `.mo` bytes, with Babel (fuzzy entries left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, abort_invalid=True)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def has_catalog(domain: str, language: str) -> bool:
    po = po_path(domain, language)
    return language == ENGLISH or (po is not None and po.is_file())
