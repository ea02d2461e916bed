"""Obonto in words for people: the prompt, moves, the panel and the result (``Game`` hooks).

Everything is read from an observation (``ObontoState._observation``); Obonto has no secrets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.core.game import Game, Observation, PanelItem
from boneyard.core.phrasing import capital, plural, score_pair
from boneyard.games.obonto.notation import KINDS, STEPS

STEP_WORDS = {kind: plural(steps, "step") for kind, steps in zip(KINDS, STEPS)}


def _name(game: Game, seat: int) -> str:
    return capital(game.seat_name(seat))


def _animal_on(observation: Observation, square: str) -> tuple[int, str] | None:
    """``(seat, kind)`` of the animal on ``square``, or ``None``."""
    for seat, animals in enumerate(observation["animals"]):
        for kind, where in animals.items():
            if where == square:
                return seat, kind
    return None


def prompt(game: Game, observation: Observation, seat: int) -> str:
    if observation["phase"] == "solo":
        scored = 1 + observation["solo_moves"]
        return (
            f"{_name(game, observation['loser'])} is stuck, so you have won this game "
            f"({plural(scored, 'point')} so far). Keep moving alone: every move scores a point."
        )
    return (
        "Move one of your animals: the lion 1 step, the zebra 2, the camel 3, up, down, left "
        "or right over light squares. The square it leaves turns dark."
    )


def _move_words(observation: Observation, action: str) -> tuple[str, str, str]:
    origin, _, target = action.partition("-")
    found = _animal_on(observation, origin)
    kind = found[1] if found else "animal"
    return kind, origin, target


def describe_action(game: Game, observation: Observation, actor: int | None, action: str) -> str:
    kind, origin, target = _move_words(observation, action)
    who = "Someone" if actor is None else _name(game, actor)
    solo = " alone" if observation["phase"] == "solo" else ""
    return f"{who} moved the {kind}{solo} from {origin} to {target}."


def action_label(game: Game, observation: Observation, action: str) -> str:
    kind, origin, target = _move_words(observation, action)
    return f"Move the {kind} from {origin} to {target}"


def panel(game: Game, observation: Observation, seat: int | None) -> list[PanelItem]:
    items: list[PanelItem] = []
    games = observation["games"]
    if games > 1:
        items.append(PanelItem("Game", f"{observation['game']} of {games}"))
    totals = observation["totals"]
    for who in (0, 1):
        label = _name(game, who) + (" (you)" if who == seat else "")
        items.append(PanelItem(label, plural(totals[who], "point")))
    if observation["target"]:
        items.append(PanelItem("Match ends at", plural(observation["target"], "point")))
    phase = observation["phase"]
    if phase == "play":
        items.append(PanelItem("To move", _name(game, observation["to_move"]), turn=True))
    elif phase == "solo":
        mover = _name(game, observation["to_move"])
        scored = 1 + observation["solo_moves"]
        items.append(
            PanelItem("Moving alone", f"{mover}, {plural(scored, 'point')} so far this game")
        )
    results = observation["results"]
    if results and games > 1:
        last = results[-1]
        items.append(
            PanelItem(
                "Last game", f"{_name(game, last['winner'])} won {plural(last['score'], 'point')}"
            )
        )
    items.append(PanelItem("Steps", ", ".join(f"{k} {STEP_WORDS[k]}" for k in STEP_WORDS)))
    return items


def result(game: Game, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
    totals = observation["totals"]
    score = score_pair(totals[0], totals[1])
    results: list[dict[str, Any]] = observation["results"]
    if observation["games"] == 1 and len(results) == 1:
        winner, points = results[0]["winner"], results[0]["score"]
        loser = 1 - winner
        solo = points - 1
        stuck = "you were" if seat == loser else f"{_name(game, loser)} was"
        how = f"{stuck} stuck" + (
            f" and {'you' if seat == winner else _name(game, winner)} then made "
            f"{plural(solo, 'solo move')}"
            if solo
            else ""
        )
        if seat == winner:
            return f"You won {score}: {how}."
        if seat == loser:  # told to the player who lost as lichess does: "you lost"
            return f"You lost {score}: {how}."
        return f"{_name(game, winner)} won {score}: {how}."
    played = plural(len(results), "game")
    if totals[0] == totals[1]:
        return f"The match is drawn {score} after {played}."
    winner = 0 if totals[0] > totals[1] else 1
    if seat == 1 - winner:
        return f"You lost the match {score} after {played}."
    who = "You" if seat == winner else _name(game, winner)
    return f"{who} won the match {score} after {played}."
