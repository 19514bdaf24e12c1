"""A snapshot's sentences put into another language.

The daemon sends each sentence of a snapshot twice: `key` in the table's language and
`key_said` as a `Said` in JSON (or a list of them). A page that shows another language (a phone
set to Korean at a German table) renders every `key_said` again with its own `Words`; nothing
else in the snapshot changes.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import Said
from tabletap.controller.language.words import Words

SUFFIX = "_said"


def localized(value: Any, words: Words) -> Any:
    """`value` with every `key` that has a `key_said` beside it rendered by `words`."""
    if isinstance(value, list):
        return [localized(v, words) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: localized(v, words) for k, v in value.items() if not k.endswith(SUFFIX)}
    for key, said in value.items():
        if not key.endswith(SUFFIX) or said is None:
            continue
        target = key[: -len(SUFFIX)]
        try:
            if isinstance(said, list):
                out[target] = [words(Said.from_json(s)) for s in said]
            else:
                out[target] = words(Said.from_json(said))
        except (KeyError, TypeError, ValueError):
            pass  # a sentence the page cannot read stays in the table's language
    return out
