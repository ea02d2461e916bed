"""Bones in words for people: the prompt, placements, the panel and the result (``Game`` hooks).

Everything is read from an observation (``BonesState._observation``); Bones has no secrets.
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.core.game import Game, Observation, PanelItem
from boneyard.core.phrasing import capital, join_words, plural

LINE = 5
"""Squares of one colour in a rank or file that win (the rules' five)."""


def _name(game: Game, seat: int) -> str:
    return capital(game.seat_name(seat))


def prompt(game: Game, observation: Observation, seat: int) -> str:
    if not observation["pieces"]:
        area = join_words(observation["start_area"], "or")
        return f"Place the first piece: a domino on two neighbouring squares, covering {area}."
    return (
        f"Place a piece on two neighbouring squares, empty or on earlier pieces, but never "
        f"exactly on a piece that still shows whole. {LINE} of your colour in a row or column win."
    )


def _squares(action: str) -> str:
    first, _, second = action.partition("-")
    return f"{first} and {second}"


def describe_action(game: Game, observation: Observation, actor: int | None, action: str) -> str:
    who = "Someone" if actor is None else _name(game, actor)
    return f"{who} placed a piece on {_squares(action)}."


def action_label(game: Game, observation: Observation, action: str) -> str:
    return f"Place a piece on {_squares(action)}"


def panel(game: Game, observation: Observation, seat: int | None) -> list[PanelItem]:
    items = []
    for who, left in enumerate(observation["supply"]):
        label = _name(game, who) + (" (you)" if who == seat else "")
        items.append(PanelItem(label, f"{plural(left, 'piece')} to place"))
    if observation["current_player"] in (0, 1):
        items.append(PanelItem("To move", _name(game, observation["current_player"]), turn=True))
    colour = "one" if seat is None else "your"  # a spectator has no colour of their own
    items.append(PanelItem("Goal", f"{LINE} of {colour} colour in a row or column"))
    return items


def result(game: Game, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
    winner = observation["winner"]
    if winner is None:
        return f"Draw: every piece is placed and nobody has {LINE} in a line."
    squares = observation["winning_squares"]
    line = f" from {squares[0]} to {squares[-1]}" if squares else ""
    # the whole line is counted: one piece may complete six or more at once
    count = len(squares) if squares else LINE
    if seat is not None and seat != winner:
        return f"You lost: {_name(game, winner)} has {count} squares in a line{line}."
    who = "You" if seat == winner else _name(game, winner)
    return f"{who} won with {game.seat_name(winner)} on {count} squares in a line{line}."
