"""A snapshot's sentences put into another language.

The daemon sends each sentence of a snapshot twice: `key` in the table's language and
`key_said` as a `Said` in JSON (or a list of them). A page that shows another language (a phone
set to Korean at a German table) renders every `key_said` again with its own `Words`; nothing
else in the snapshot changes.

A game's page extras may hold sentences and names anywhere (a space's kind inside a pair, an
item's name inside a list): `spelled` renders them in the table's language and puts beside each
key whose value held one a `key_said` tree of the same shape, a sentence's JSON where it stood
and null elsewhere, which `localized` reads back.
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import ListOf, Named, Said, param_from_json, param_json
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
            out[target] = _merge(out.get(target), said, words)
        except (KeyError, TypeError, ValueError):
            pass  # a sentence the page cannot read stays in the table's language
    return out


def _is_sentence(value: Any) -> bool:
    return isinstance(value, dict) and ("m" in value and "d" in value
                                        or bool({"named", "said", "list"} & value.keys()))


def _merge(value: Any, said: Any, words: Words) -> Any:
    """`value` with what `said` (a tree of its shape) holds rendered again by `words`."""
    if said is None:
        return value
    if _is_sentence(said):
        if "m" in said:
            return words(Said.from_json(said))
        return str(words.thing(param_from_json(said)))
    if isinstance(said, list):
        same = isinstance(value, list) and len(value) == len(said)
        values = value if same else [None] * len(said)
        return [_merge(v, s, words) for v, s in zip(values, said, strict=True)]
    if isinstance(said, dict) and isinstance(value, dict):
        return {k: _merge(v, said.get(k), words) for k, v in value.items()}
    return value


def spelled(value: Any, words: Words) -> Any:
    """`value` (JSON but for sentences and names) as JSON: each `Said`, `Named` or `ListOf`
    rendered by `words`, and beside each key whose value held one its `key_said` tree."""
    return _spell(value, words)[0]


def _spell(value: Any, words: Words) -> tuple[Any, Any]:
    """(the value rendered, its sentences' tree or None when it holds none)."""
    if isinstance(value, Said):
        return words(value), value.to_json()
    if isinstance(value, (Named, ListOf)):
        return str(words.thing(value)), param_json(value)
    if isinstance(value, (list, tuple)):
        pairs = [_spell(v, words) for v in value]
        said = [s for _, s in pairs]
        return [v for v, _ in pairs], said if any(s is not None for s in said) else None
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            text, said = _spell(v, words)
            out[k] = text
            if said is not None:
                out[k + SUFFIX] = said
        return out, None
    return value, None
