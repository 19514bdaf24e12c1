"""A sentence not yet in a language: which message, in which catalog, with which parameters.

A `Said` is a value (equal, hashable, JSON both ways) so that engines stay pure: they name the
message and its parts, and whoever tells a person renders it in that person's language
(`words.Words`). Parameters are named, so a language can put them in its own order, and may be
`Said` themselves (a key's name inside a sentence) or a `ListOf` them (the players who won).

Each catalog domain builds its messages through a `Domain`, whose four functions are the keywords
Babel extracts (`msg`, `msg_n`, `msg_p`, `msg_np`; see `catalogs.KEYWORDS`). The comment just
above a call, starting `TRANSLATORS:`, reaches the translator: where the sentence is heard and
what each placeholder holds.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

JSON = dict[str, Any]


def _frozen(params: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))


class Said(Struct, frozen=True):
    """One message: `msgid` (the English) in `domain`, with `plural` and the count `n` for
    plural forms, `context` to tell apart two meanings of the same English words, and named
    `params` substituted as `%(name)s`.

    A domain of `""` is a plain string that is not in any catalog (a player's name, a sentence
    an add-on did not mark): it renders as itself in every language, and the language checks
    count it as untranslated wherever a sentence was expected."""

    domain: str
    msgid: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.params)

    def to_json(self) -> JSON:
        out: JSON = {"d": self.domain, "m": self.msgid}
        if self.params:
            out["p"] = {k: param_json(v) for k, v in self.params}
        if self.plural is not None:
            out["pl"] = self.plural
            out["n"] = self.n
        if self.context is not None:
            out["c"] = self.context
        return out

    @classmethod
    def from_json(cls, data: JSON) -> Said:
        params = {k: param_from_json(v) for k, v in (data.get("p") or {}).items()}
        return cls(str(data["d"]), str(data["m"]), _frozen(params), data.get("pl"),
                   data.get("n"), data.get("c"))


class ListOf(Struct, frozen=True):
    """Several things said as one list, joined the way the language joins them ("Ann, Bo and
    Cy"; Babel's `format_list`): `style` "standard" for and, "or" for or."""

    items: tuple[Any, ...] = ()
    style: str = "standard"


class Named(Struct, frozen=True):
    """A name that lives in a data file with one spelling per language (a card, an item of a
    content pack): `names` holds (language, name) pairs and must hold English, the
    fallback. `source` names the data file, so a file missing a language is reported once."""

    names: tuple[tuple[str, str], ...]
    source: str = ""

    @classmethod
    def of(cls, value: Any, source: str = "") -> Named:
        """From a data file's value: a plain string (English only) or a mapping language ->
        name with `en` in it."""
        if isinstance(value, str):
            return cls((("en", value),), source)
        if isinstance(value, dict) and isinstance(value.get("en"), str):
            return cls(tuple(sorted((str(k), str(v)) for k, v in value.items())), source)
        raise ValueError(f"a name needs an English spelling (en:), got {value!r}")

    def english(self) -> str:
        return dict(self.names)["en"]


def param_json(value: Any) -> Any:
    if isinstance(value, Named):
        return {"named": dict(value.names), "source": value.source}
    if isinstance(value, Said):
        return {"said": value.to_json()}
    if isinstance(value, ListOf):
        return {"list": [param_json(v) for v in value.items], "style": value.style}
    return value


def param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and "named" in value:
        return Named(tuple(sorted(value["named"].items())), value.get("source", ""))
    if isinstance(value, dict) and "said" in value:
        return Said.from_json(value["said"])
    if isinstance(value, dict) and "list" in value:
        return ListOf(tuple(param_from_json(v) for v in value["list"]), value.get("style",
                                                                                "standard"))
    return value


def plain(text: str) -> Said:
    """A string that no catalog holds, said as it is (a name, a number)."""
    return Said("", text)


class Domain:
    """The message functions of one catalog domain (a game's name, or `tabletap` for the
    controller and the page). Build one per domain and bind its functions to the names Babel
    looks for: `msg, msg_n, msg_p, msg_np = Domain("<game>").functions()`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def msg(self, msgid: str, /, **params: Any) -> Said:
        return Said(self.name, msgid, _frozen(params))

    def msg_n(self, singular: str, plural: str, n: int, /, **params: Any) -> Said:
        params.setdefault("n", n)
        return Said(self.name, singular, _frozen(params), plural, n)

    def msg_p(self, context: str, msgid: str, /, **params: Any) -> Said:
        return Said(self.name, msgid, _frozen(params), context=context)

    def msg_np(self, context: str, singular: str, plural: str, n: int, /,
               **params: Any) -> Said:
        params.setdefault("n", n)
        return Said(self.name, singular, _frozen(params), plural, n, context)

    def functions(self) -> tuple[Any, Any, Any, Any]:
        return self.msg, self.msg_n, self.msg_p, self.msg_np
