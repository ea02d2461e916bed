"""OYNO in words for people (both games: the puzzle and the two-player duel), as ``Game`` hooks.

Everything is read from an observation; the position string (``U``/``D`` in the puzzle,
``R``/``r``/``W``/``w`` in the duel) is counted here, never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.core.game import Game, Observation, PanelItem
from boneyard.core.phrasing import capital, count_toward, plural

TURNING = "the bones next to the cell it leaves and the cell it lands on turn over"
COLOUR_LETTERS = (("R", "r"), ("W", "w"))
"""Per seat: the up and the down letter of its bones in the duel's position notation."""


def _is_puzzle(game: Game) -> bool:
    return game.name == "oyno_puzzle"


def _name(game: Game, seat: int) -> str:
    return capital(game.seat_name(seat))


def _count(observation: Observation, letter: str) -> int:
    return int(observation["position"].count(letter))


# ----- the prompt -----------------------------------------------------------------------------


def prompt(game: Game, observation: Observation, seat: int) -> str:
    if _is_puzzle(game):
        down = observation["bones"] - observation["up"]
        return (
            f"Make every bone stand up ({plural(down, 'bone')} still down). Pick up an up bone "
            f"and put it up on an empty cell: {TURNING}."
        )
    down_letter = COLOUR_LETTERS[seat][1]
    supply = observation["supply"][seat]
    down = _count(observation, down_letter)
    goal = f"Win with all {observation['bones_per_player']} of your bones on the board, all up."
    wild = " You may roll it instead of putting it up." if game.params.get("wild") else ""
    if supply and not down and not _count(observation, COLOUR_LETTERS[seat][0]):
        return (
            "Place your first bone: put it up on any empty cell but the round center; the "
            f"bones next to it turn over.{wild} {goal}"
        )
    if supply and not down:
        return (
            "All your bones on the board are up, so you must place a new one: put it up on an "
            f"empty cell; the bones next to it turn over.{wild} {goal}"
        )
    if supply and game.params.get("place_rule") == "supply":
        why = (
            f"You still hold {plural(supply, 'bone')}: put a new one up on an empty cell (the "
            "bones next to it turn over), "
        )
    elif supply:
        why = f"You have {plural(down, 'down bone')} on the board, so you cannot place a new one: "
    else:
        why = "All your bones are on the board: "
    return (
        f"{why}move one of your bones to an empty cell ({TURNING}), or turn one of your down bones "
        f"up.{wild} {goal}"
    )


# ----- actions --------------------------------------------------------------------------------


def _action_words(game: Game, observation: Observation, action: str) -> str:
    """The action as a phrase after a subject: "placed a bone on b2"."""
    words = action.split()
    kind, where = words[0], words[1] if len(words) > 1 else ""
    rolled = len(words) == 3 and words[2] == "wild"
    if _is_puzzle(game):
        origin, _, target = kind.partition("-")
        return f"moved the bone from {origin} to {target}"
    if kind == "place":
        return f"placed a bone on {where}" + (" and rolled it" if rolled else ", up")
    if kind == "move":
        origin, _, target = where.partition("-")
        return f"moved a bone from {origin} to {target}" + (" and rolled it" if rolled else ", up")
    return f"turned the bone on {where} up"


def describe_action(game: Game, observation: Observation, actor: int | None, action: str) -> str:
    if actor is None:
        words = action.split()
        # the puzzle's deal is told once, as its last bone lands: the board shows each bone, and
        # a line a bone and a side would fill the log before the first move
        if words[0] == "bone":
            return ""
        if words[0] == "puzzle":
            return "A puzzle was chosen."
        if words[0] in ("up", "down"):
            side = words[0]
            if _is_puzzle(game):
                bones = observation["bones"]
                if observation["dealt"] < bones - 1:
                    return ""
                up = observation["up"] + (side == "up")
                return f"The puzzle is dealt: {plural(bones, 'bone')}, {up} of them up."
            rolling = observation.get("rolling") or observation.get("pending")
            where = f" on {rolling}" if rolling else ""
            return f"The bone{where} landed {side}."
        return "Chance decided."
    if _is_puzzle(game):  # one player, but a spectator reads the same line: no "you"
        return f"{capital(_action_words(game, observation, action))}."
    return f"{_name(game, actor)} {_action_words(game, observation, action)}."


def action_label(game: Game, observation: Observation, action: str) -> str:
    words = action.split()
    if _is_puzzle(game) or len(words) < 2:
        return capital(_action_words(game, observation, action).replace("moved", "move"))
    kind, where = words[0], words[1]
    rolled = len(words) == 3
    if kind == "place":
        return f"Place a bone on {where}" + (" and roll it" if rolled else "")
    if kind == "move":
        origin, _, target = where.partition("-")
        return f"Move the bone from {origin} to {target}" + (" and roll it" if rolled else "")
    return f"Turn the bone on {where} up"


# ----- the panel and the result ---------------------------------------------------------------


def panel(game: Game, observation: Observation, seat: int | None) -> list[PanelItem]:
    moves, most = observation["moves"], observation["max_moves"]
    if _is_puzzle(game):
        items = [
            PanelItem("Up", f"{observation['up']} of {observation['bones']} bones"),
            PanelItem("Moves", f"{moves} of at most {most}"),
        ]
        difficulty = game.params.get("difficulty")
        if difficulty:
            items.append(PanelItem("Best solution", plural(int(difficulty), "move")))
        return items
    items = []
    for who, (up_letter, down_letter) in enumerate(COLOUR_LETTERS):
        up, down = _count(observation, up_letter), _count(observation, down_letter)
        label = _name(game, who) + (" (you)" if who == seat else "")
        items.append(
            PanelItem(
                label,
                f"{up} up, {down} down, {observation['supply'][who]} still to place",
            )
        )
    if observation["current_player"] in (0, 1):
        items.append(PanelItem("To move", _name(game, observation["current_player"]), turn=True))
    items.append(PanelItem("Moves", count_toward(moves, most, "then a draw")))
    if observation["repetitions"] >= 2:
        items.append(
            PanelItem("Repetition", "this position has come twice: a third time is a draw")
        )
    return items


def result(game: Game, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
    moves = observation["moves"]
    if _is_puzzle(game):
        if observation["solved"]:
            if moves == 0:
                return "Solved before any move: every bone was dealt up."
            return f"Solved in {plural(moves, 'move')}: every bone is up."
        return f"Not solved: the {plural(observation['max_moves'], 'move')} ran out."
    winner = observation["winner"]
    if winner is None:
        if moves >= observation["max_moves"]:
            return f"Draw: no winner after {plural(observation['max_moves'], 'move')}."
        return "Draw by repetition: the same position came a third time."
    if seat is not None and seat != winner:
        return f"You lost: all {_name(game, winner)}'s bones are on the board and up."
    who = "You" if seat == winner else _name(game, winner)
    bones = "your" if seat == winner else "their"
    return f"{who} won: all {bones} bones are on the board and up."
