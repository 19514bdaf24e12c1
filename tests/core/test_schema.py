"""controller.loading.schema: msgspec's first error, located at the key a person wrote.

msgspec names a dict's value only as `[...]`; these pin that the key is found again, so a config
error says `readers.pond.bogus`, not `readers`.
"""

from __future__ import annotations

from typing import Annotated

import pytest

from tabletap.controller.loading.schema import Invalid, Meta, Schema, SchemaError, check, field


class Part(Schema):
    low: float = 1
    high: Annotated[float, Meta(le=10)] = 2

    def __post_init__(self) -> None:
        if self.high <= self.low:
            raise Invalid("high", f"must be greater than low ({self.low:g})")


class Whole(Schema):
    need: int
    parts: dict[str, Part] = field(default_factory=dict)
    rows: list[Part] = []
    nested: dict[str, dict[str, Part]] = {}


def located(data: object) -> tuple[tuple[str | int, ...], str]:
    with pytest.raises(SchemaError) as err:
        check(data, Whole)
    return err.value.loc, err.value.message


def test_a_dict_value_is_named_by_its_key() -> None:
    data = {"need": 1, "parts": {"a": {}, "b": {"high": 11}, "c": {}}}
    assert located(data) == (("parts", "b", "high"), "Expected `float` <= 10.0")


def test_keys_of_dicts_in_dicts_are_both_found() -> None:
    data = {"need": 1, "nested": {"x": {"p": {}}, "y": {"p": {}, "q": {"bogus": 1}}}}
    assert located(data) == (("nested", "y", "q", "bogus"), "unknown key (a typo?)")


class Named(Schema):
    names: dict[str, str] = {}

    def __post_init__(self) -> None:
        for key, name in self.names.items():
            if not name:
                raise Invalid(("names", key), "a name may not be empty")


def test_a_models_own_check_may_name_an_entry_below_it() -> None:
    with pytest.raises(SchemaError) as err:
        check({"inner": {"names": {"a": "x", "b": ""}}}, dict[str, Named])
    assert (err.value.loc, err.value.message) == (("inner", "names", "b"),
                                                  "a name may not be empty")


def test_a_models_own_check_names_its_field() -> None:
    assert located({"need": 1, "parts": {"a": {"low": 5}}}) == (
        ("parts", "a", "high"), "must be greater than low (5)")
    assert located({"need": 1, "rows": [{}, {"low": 3}]}) == (
        ("rows", 1, "high"), "must be greater than low (3)")


def test_a_missing_key_and_a_wrong_type() -> None:
    assert located({}) == (("need",), "required key is missing")
    assert located({"need": True}) == (("need",), "Expected `int`, got `bool`")
    assert located({"need": 1, "parts": {"a": []}}) == (
        ("parts", "a"), "Expected `object`, got `array`")


def test_a_key_of_the_wrong_type_is_named_itself() -> None:
    assert located({"need": 1, "parts": {"a": {}, 3: {}}}) == (
        ("parts", 3), "not allowed as a key here (Expected `str`, got `int`)")


class Pair(Schema):
    """A dict that needs two entries: cutting it down to one would fail differently, so a
    deep error in it must be found from the value type, not by trial of the whole."""

    sides: Annotated[dict[str, Whole], Meta(min_length=2)]


def test_a_deep_error_in_a_dict_that_needs_two_entries() -> None:
    data = {"sides": {"l": {"need": 1}, "r": {"need": 1, "parts": {"p": {"bogus": 1}}}}}
    with pytest.raises(SchemaError) as err:
        check(data, Pair)
    assert (err.value.loc, err.value.message) == (
        ("sides", "r", "parts", "p", "bogus"), "unknown key (a typo?)")
    with pytest.raises(SchemaError) as err:
        check({"sides": {"l": {"need": 1}}}, Pair)
    assert err.value.loc == ("sides",) and "length >= 2" in err.value.message


def test_construction_and_copies_run_the_models_own_checks() -> None:
    with pytest.raises(Invalid):
        Part(low=3, high=1)
    part = Part()
    with pytest.raises(Invalid):
        part.model_copy(update={"low": 9})
    assert part.model_copy(update={"low": 1.5}).low == 1.5
    assert Whole(need=1, parts={"a": part}).model_dump() == {
        "need": 1, "parts": {"a": {"low": 1, "high": 2}}, "rows": [], "nested": {}}
    assert Whole.model_validate({"need": 2, "rows": [{"high": 3}]}).rows == [Part(high=3)]


def test_a_subclass_may_put_a_required_key_after_a_default_and_takes_keywords_only() -> None:
    class Later(Part):
        label: str

    assert Later(label="x").label == "x"
    with pytest.raises(TypeError):
        Later(1, 2, "x")  # type: ignore[misc]
