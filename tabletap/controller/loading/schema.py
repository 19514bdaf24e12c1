"""The shapes config, data and state files must have, and where a value breaks one.

Every checked shape in tabletap is a `Schema`: a msgspec Struct whose unknown keys are errors
(a misspelt key silently falling back to a default is the bug a maker cannot find). msgspec
rather than pydantic because of the start on the smallest Pi: msgspec's classes are built in C
as they are defined, where pydantic's import alone was 29 % of the daemon's start in
instructions and its models' schemas came on top (docs/BENCHMARKS.md, "The start, counted").

A model's own checks live in `__post_init__`, which raises `Invalid(field, message)` to name
the key at fault. `check` turns msgspec's first error into a `SchemaError` holding the key path
(`("readers", "chest", "arm")`) and a sentence; msgspec names a dict's value only as `[...]`,
so the key is found again by converting the dict's values one at a time to the dict's value
type, read off the model's annotations (on the error path only).
Pure (data in, Struct out): the rules engines use it for their data files and saved states.
"""

from __future__ import annotations

import re
from types import UnionType
from typing import Annotated, Any, Self, TypeVar, Union, get_args, get_origin

import msgspec
from msgspec import Meta, field

__all__ = ["Invalid", "Loc", "Meta", "Schema", "SchemaError", "check", "field", "loc_text"]

Loc = tuple[str | int, ...]
M = TypeVar("M")
# Meta and field are re-exported: models write `Meta(ge=0)` and `field(default_factory=...)`.


class Invalid(ValueError):
    """A model's own check of one of its keys, raised in `__post_init__`: `field` is the key
    the message is about, or a key path below the model (`("names", card)`) when it is about
    one entry of a dict (the message itself is for the person who wrote the file)."""

    def __init__(self, field: str | Loc, message: str) -> None:
        super().__init__(message)
        self.loc: Loc = (field,) if isinstance(field, str) else tuple(field)
        self.message = message


class SchemaError(ValueError):
    """A value that does not fit its shape: `loc` the key path to it, `message` what is wrong
    (`unknown key (a typo?)`, `required key is missing`, a model's own sentence, or msgspec's
    `Expected ...`)."""

    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(f"{loc_text(loc)}: {message}" if loc else message)
        self.loc = loc
        self.message = message


def loc_text(loc: Loc) -> str:
    return ".".join(str(part) for part in loc)


class _KeywordOnly(type(msgspec.Struct)):  # type: ignore[misc]
    """Every Schema's fields keyword-only, subclasses' too (msgspec applies `kw_only` only to
    the fields of the class that names it): a required key may follow one with a default, and
    no model is ever built from positions that a reordering would silently shift."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                **options: Any) -> type:
        options.setdefault("kw_only", True)
        return super().__new__(mcls, name, bases, namespace, **options)  # type: ignore[no-any-return]


class Schema(msgspec.Struct, metaclass=_KeywordOnly, forbid_unknown_fields=True):
    """A checked shape. `model_validate`, `model_copy` and `model_dump` keep the spelling the
    callers have always used (it was pydantic's), so a test or a game reads the same."""

    @classmethod
    def model_validate(cls, data: Any) -> Self:
        """`data` (plain dicts and lists, as YAML or JSON gives them) checked; SchemaError."""
        return check(data, cls)

    def model_copy(self, update: dict[str, Any] | None = None) -> Self:
        """A copy with some keys replaced: the model's own checks (`__post_init__`) run on it,
        the types of the new values are not checked (they come from code, not from a file)."""
        return msgspec.structs.replace(self, **update) if update else self

    def model_dump(self) -> dict[str, Any]:
        """Plain dicts and lists (tuples as lists), as JSON or YAML would hold them."""
        dumped: dict[str, Any] = msgspec.to_builtins(self)
        return dumped


_AT = re.compile(r"^(?P<message>.*?)(?: - at (?P<key>`key` in )?`(?P<path>\$[^`]*)`)?$", re.S)
_PART = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>[^`]*)`$")
_MISSING = re.compile(r"^Object missing required field `(?P<name>[^`]*)`$")
_ANY_KEY = object()  # a `[...]` in msgspec's path: some key of a dict


def check(data: Any, model: type[M] | Any, *, strict: bool = True) -> M:
    """`data` converted to `model` (a Schema or any type msgspec converts to); SchemaError
    naming the key path and the problem, the first msgspec finds."""
    try:
        return msgspec.convert(data, model, strict=strict)  # type: ignore[no-any-return]
    except msgspec.ValidationError as exc:
        raise _located(exc, data, model, strict) from None


def _located(exc: msgspec.ValidationError, data: Any, model: Any, strict: bool) -> SchemaError:
    text = str(exc)
    parsed = _AT.match(text)
    assert parsed is not None  # the pattern matches any text
    message, path = parsed["message"], parsed["path"] or "$"
    loc, whole = _keys_found(path, data, model, strict, text)
    cause = exc.__cause__
    if not whole:  # a dict's key not found again: say where msgspec's path stops
        return SchemaError(loc, f"{message} (at {path})")
    if isinstance(cause, Invalid):
        return SchemaError((*loc, *cause.loc), cause.message)
    if parsed["key"]:
        return _bad_key(loc, message, _walk(data, loc), _types_at(model, loc), strict)
    if unknown := _UNKNOWN.match(message):
        return SchemaError((*loc, unknown["name"]), "unknown key (a typo?)")
    if missing := _MISSING.match(message):
        return SchemaError((*loc, missing["name"]), "required key is missing")
    return SchemaError(loc, message)


def _keys_found(path: str, data: Any, model: Any, strict: bool,
                text: str) -> tuple[Loc, bool]:
    """msgspec's path as a key path, each `[...]` (some value of a dict) replaced by the key
    whose value, converted on its own to the dict's value type, fails with the same error;
    and whether every `[...]` was found."""
    loc: list[str | int] = []
    for part in _PART.finditer(path):
        name, index = part.groups()
        if index != "...":
            loc.append(name if name else int(index))
            continue
        node, types = _walk(data, loc), _types_at(model, loc)
        # the error as the value alone would give it: the path after this `[...]`
        alone = text.replace(f"`{path}`", f"`${path[part.end():]}`").replace(" - at `$`", "")
        key = next((k for k in node if _fails_as(node[k], _values_of(types), strict, alone)),
                   _ANY_KEY) if isinstance(node, dict) else _ANY_KEY
        if key is _ANY_KEY:
            return tuple(loc), False
        loc.append(key)
    return tuple(loc), True


def _bad_key(loc: Loc, message: str, node: Any, types: list[Any], strict: bool) -> SchemaError:
    """A dict's key of the wrong kind, named by itself when it can be found (its own line)."""
    keys = [get_args(t)[0] for t in types if get_origin(t) is dict]
    if isinstance(node, dict) and keys:
        for key in node:
            if _fails_as(key, keys, strict, None):
                return SchemaError((*loc, key), f"not allowed as a key here ({message})")
    return SchemaError(loc, f"a key here is not allowed ({message})")


def _fails_as(value: Any, types: list[Any], strict: bool, text: str | None) -> bool:
    """Whether `value` fails to convert to every one of `types` (with `text`, if given)."""
    if not types:
        return False
    for type_ in types:
        try:
            msgspec.convert(value, type_, strict=strict)
        except msgspec.ValidationError as exc:
            if text is not None and str(exc) != text:
                return False
        else:
            return False
    return True


def _walk(data: Any, loc: list[str | int] | Loc) -> Any:
    node = data
    for part in loc:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _members(type_: Any) -> list[Any]:
    """A type's alternatives, Annotated's constraints and unions taken apart."""
    while get_origin(type_) is Annotated:
        type_ = get_args(type_)[0]
    if get_origin(type_) in (Union, UnionType):
        return [m for alt in get_args(type_) for m in _members(alt)]
    return [type_]


def _types_at(model: Any, loc: list[str | int] | Loc) -> list[Any]:
    """The types the value at `loc` may have, following the model's annotations."""
    types = _members(model)
    for part in loc:
        found: list[Any] = []
        for type_ in types:
            origin = get_origin(type_) or type_
            if isinstance(type_, type) and issubclass(type_, msgspec.Struct):
                found += [f.type for f in msgspec.structs.fields(type_)
                          if f.encode_name == part]
            elif origin is dict:
                found.append(get_args(type_)[1])
            elif origin in (list, tuple, set, frozenset) and isinstance(part, int):
                args = get_args(type_)
                if origin is tuple and args and args[-1] is not Ellipsis:
                    found += [args[part]] if part < len(args) else []
                else:
                    found += args[:1]
        types = [m for t in found for m in _members(t)]
    return types


def _values_of(types: list[Any]) -> list[Any]:
    return [get_args(t)[1] for t in types if get_origin(t) is dict]
