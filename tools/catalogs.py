"""`make catalogs`: every domain's template written, each language's catalog brought up to date
and compiled, with Babel (docs/LANGUAGES.md).

  python tools/catalogs.py            update every catalog and compile them
  python tools/catalogs.py --add it   start an Italian catalog in every domain (then translate)
  python tools/catalogs.py --check    change nothing; exit 1 if a catalog lacks a message
  python tools/catalogs.py --domain page   only that domain (a game: its name)

A message that changed English keeps its old translation marked fuzzy (Babel's update): the
check refuses fuzzy entries, so a translator looks at it again before it is spoken.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from tabletap.controller.language import catalogs
from tabletap.controller.language.check import problems
from tabletap.controller.language.extract import domains, template


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--add", metavar="LANG", help="start a catalog for this language")
    parser.add_argument("--check", action="store_true", help="only report what is missing")
    parser.add_argument("--domain", action="append", help="only this domain (tabletap, page, "
                        "or a game's name); again for more")
    args = parser.parse_args(argv)
    found = []
    chosen = domains()
    for unknown in set(args.domain or ()) - set(chosen):
        parser.error(f"there is no domain {unknown!r} (domains: {', '.join(chosen)})")
    for domain in [d for d in chosen if not args.domain or d in args.domain]:
        where = catalogs.locale_dir(domain)
        assert where is not None
        pot = template(domain)
        languages = set(catalogs.languages(domain)[1:]) | set(catalogs.languages()[1:])
        if args.add:
            languages.add(args.add)
        if args.check:
            for language in sorted(languages):
                found += problems(domain, language, pot)
            continue
        where.mkdir(parents=True, exist_ok=True)
        out = io.BytesIO()
        write_po(out, pot, width=100, omit_header=False, sort_output=False, include_lineno=False)
        _write_if_changed(where / f"{domain}.pot", out.getvalue())
        for language in sorted(languages):
            po = where / language / "LC_MESSAGES" / f"{domain}.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            if po.is_file():
                with po.open("rb") as f:
                    catalog = read_po(f, locale=language, domain=domain)
            else:
                catalog = read_po(iter([b'msgid ""\n', b'msgstr ""\n']), locale=language,
                                  domain=domain)
                print(f"{po}: started", file=sys.stderr)
            catalog.update(pot, no_fuzzy_matching=False)
            catalog.obsolete.clear()
            for message in catalog:  # the English a translation was made from, once mended
                if not message.fuzzy:
                    message.previous_id = []
                    message.user_comments = [c for c in message.user_comments
                                             if not c.startswith("| ")]
            out = io.BytesIO()
            write_po(out, catalog, width=100, sort_output=False, include_previous=True,
                     include_lineno=False)
            _write_if_changed(po, out.getvalue())
            with po.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog, use_fuzzy=False)
            missing = problems(domain, language, pot)
            if missing:
                print(f"{po}: {len(missing)} to translate or mend", file=sys.stderr)
    for line in found:
        print(line)
    return 1 if found else 0


STAMP = re.compile(rb'^"POT-Creation-Date: [^"]*"\n', re.MULTILINE)


def _write_if_changed(path: Path, data: bytes) -> None:
    """Write a catalog only when more than its creation date changed: every build runs this, and
    a build must not leave the tracked catalogs modified when no sentence changed."""
    if path.is_file() and STAMP.sub(b"", path.read_bytes()) == STAMP.sub(b"", data):
        return
    path.write_bytes(data)


if __name__ == "__main__":
    sys.exit(main())
