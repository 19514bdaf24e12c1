"""Every message of a domain, read from its source with Babel's extractors.

The controller's domain (`tabletap`) is what tabletap/ says outside the games and the page (the
controller, the simulator's console, the hardware's doctor findings); the page's (`page`) is
tabletap/web, Python and scripts; a game's domain is its own package, Python and its page view
alike. `make catalogs` (tools/catalogs.py) writes these as templates and
updates each language's `.po`; tests/language checks every catalog holds every message.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

from tabletap.controller import entrypoints
from tabletap.controller.language import catalogs

PACKAGE = Path(__file__).resolve().parents[2]  # tabletap/
METHODS = [("**/locale/**", "ignore"), ("**.py", "python"), ("**.js", "javascript")]


def sources(domain: str) -> list[tuple[Path, list[tuple[str, str]]]]:
    """The folders a domain's messages are read from, each with its method map."""
    if domain == catalogs.CONTROLLER_DOMAIN:
        skip = [("games/**", "ignore"), ("web/**", "ignore"), ("firmware/**", "ignore")]
        return [(PACKAGE, skip + METHODS)]
    if domain == catalogs.PAGE_DOMAIN:
        return [(PACKAGE / "web", METHODS)]
    where = catalogs.locale_dir(domain)
    if where is None:
        raise LookupError(f"no game or add-on is registered as {domain!r}")
    return [(where.parent, METHODS)]


def domains() -> list[str]:
    """The controller's domain and every installed game's (tabletap.games entry points)."""
    games = entrypoints.select("tabletap.games")
    return [catalogs.CONTROLLER_DOMAIN, catalogs.PAGE_DOMAIN] + sorted(
        ep.name for ep in games if importlib.util.find_spec(ep.module) is not None)


def template(domain: str) -> Catalog:
    """The domain's messages as a Babel catalog with no translations (a `.pot`)."""
    catalog = Catalog(domain=domain, project="tabletap", msgid_bugs_address="",
                      copyright_holder="tabletap", fuzzy=False)
    for folder, methods in sources(domain):
        for filename, lineno, message, comments, context in extract_from_dir(
            folder, methods, keywords=catalogs.KEYWORDS,
            comment_tags=(catalogs.COMMENT_TAG,), strip_comment_tags=True,
        ):
            path = (folder / filename).relative_to(folder.parent).as_posix()
            catalog.add(message, None, [(path, lineno)], auto_comments=comments,
                        context=context)
    return catalog
