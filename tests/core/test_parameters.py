from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest

from boneyard.core.errors import InvalidParameterError
from boneyard.core.parameters import (
    About,
    Parameter,
    declared_parameters,
    parse_assignments,
    resolve_parameters,
)

GOAL = Parameter("goal", int, 7, "total that ends the game", minimum=2, maximum=50)
FLAG = Parameter("coin", bool, True, "coin after each move")
LABEL = Parameter("label", str, "race", "a name", choices=("race", "sprint"))
ODD = Parameter("size", int, 5, "board size", minimum=3, check=lambda v: None if v % 2 else "odd")


def test_defaults_fill_in() -> None:
    assert resolve_parameters("race", [GOAL, FLAG], {}) == {"goal": 7, "coin": True}


def test_text_values_are_parsed() -> None:
    assert GOAL.validate("12") == 12
    assert FLAG.validate("off") is False
    assert FLAG.validate("YES") is True


@pytest.mark.parametrize(
    ("parameter", "value", "allowed"),
    [
        (GOAL, 1, "an integer from 2 to 50"),
        (GOAL, 51, "an integer from 2 to 50"),
        (GOAL, "seven", "an integer from 2 to 50"),
        (GOAL, 7.5, "an integer from 2 to 50"),
        (GOAL, True, "an integer from 2 to 50"),
        (FLAG, "maybe", "true or false"),
        (FLAG, 1, "true or false"),
        (LABEL, "walk", "one of 'race', 'sprint'"),
    ],
)
def test_bad_values_name_the_parameter_and_what_is_allowed(
    parameter: Parameter, value: object, allowed: str
) -> None:
    with pytest.raises(InvalidParameterError) as error:
        parameter.validate(value)
    assert parameter.name in str(error.value)
    assert allowed in str(error.value)


def test_extra_check_explains_itself() -> None:
    assert ODD.validate(7) == 7
    with pytest.raises(InvalidParameterError, match="bad value 4 for parameter 'size': odd"):
        ODD.validate(4)


def test_unknown_parameter_lists_the_known_ones() -> None:
    with pytest.raises(InvalidParameterError, match=r"unknown parameter 'gaol'.*coin, goal"):
        resolve_parameters("race", [GOAL, FLAG], {"gaol": 3})


def test_parse_assignments() -> None:
    assert parse_assignments(["games=3", "start=a=b"]) == {"games": "3", "start": "a=b"}
    with pytest.raises(InvalidParameterError, match="name=value"):
        parse_assignments(["games"])


def test_a_parameters_field_without_its_about_is_refused() -> None:
    @dataclass(frozen=True)
    class Forgotten:
        goal: int = 7

    with pytest.raises(TypeError, match=r"Forgotten\.goal: declare the parameter as Annotated"):
        declared_parameters(Forgotten)


def test_the_about_in_the_annotation_is_the_parameter() -> None:
    @dataclass(frozen=True)
    class Declared:
        goal: Annotated[int, About("the total", minimum=2, maximum=9)] = 7
        start: Annotated[str | None, About("a position", advanced=True)] = None

    goal, start = declared_parameters(Declared)
    assert (goal.name, goal.type, goal.default, goal.minimum, goal.maximum) == (
        "goal",
        int,
        7,
        2,
        9,
    )
    assert (start.type, start.default, start.advanced) == (str, None, True)
