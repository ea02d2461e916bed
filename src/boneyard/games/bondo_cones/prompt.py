"""Bond O Cones in words for people: a prompt for every decision, actions as a viewer saw them,
the panel (scores, the die as a picture, rings, battle chances) and the result (``Game`` hooks).

Everything is read from one seat's observation (``BondoConesState._observation``) and the action
string that seat was shown (``put ?`` hides where an opponent's set-up cone went), so nothing here
can tell a seat more than it knows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from boneyard.core.game import Game, Observation, PanelItem
from boneyard.core.phrasing import capital, count_toward, join_words, plural
from boneyard.games.bondo_cones.notation import COLOURS, parse_observed_token

SETUP_VALUES = Counter({8: 1, 4: 4, 2: 6, 1: 5})
"""How many cones of each value a player places by hand; the ten 0s fill the fields left."""
SETUP_PUTS = sum(SETUP_VALUES.values())
RED_FIELDS = (("d4", "g4"), ("d9", "g9"))


def _name(game: Game, seat: int) -> str:
    return capital(game.seat_name(seat))


def _cone(observation: Observation, square: str) -> dict[str, Any] | None:
    token = observation["cones"].get(square)
    return None if token is None else parse_observed_token(token)


def _ringed(observation: Observation, seat: int) -> list[str]:
    """Squares of ``seat``'s cones that carry a ring."""
    colour = COLOURS[seat]
    # A token is the colour letter, the value, then + or # for rings (notation.observed_token).
    return [
        square
        for square, token in observation["cones"].items()
        if token[0] == colour and ("+" in token or "#" in token)
    ]


def _cone_words(cone: dict[str, Any] | None) -> str:
    if cone is None:
        return "cone"
    return ("", "BondO cone", "Double BondO cone")[cone["rings"]] or "cone"


# ----- the prompt -----------------------------------------------------------------------------


def in_setup(game: Game, observation: Observation) -> bool:
    return str(observation["phase"]).startswith("setup")


def prompt(game: Game, observation: Observation, seat: int) -> str:
    phase = observation["phase"]
    other = _name(game, 1 - seat)
    if phase == "setup_put":
        value = observation["next_value"]
        placed = observation["setup_progress"][seat]
        before = sum(count for v, count in SETUP_VALUES.items() if v > value)
        which = placed - before + 1
        of = f" ({which} of {SETUP_VALUES[value]})" if SETUP_VALUES[value] > 1 else ""
        last = value == 1 and which == SETUP_VALUES[1]
        then = "; the ten cones worth 0 fill the fields left" if last else ""
        return (
            f"Put your cone worth {value}{of} on one of your shaded start fields{then}. "
            f"{capital(other)} will not see where."
        )
    if phase == "setup_ring":
        fields = join_words(RED_FIELDS[seat], "or")
        return f"Put your BondO ring on one of the cones on your red fields: {fields}."
    if phase == "decide":
        left = observation["battle_windows"][seat]
        chances = f" (this chance lasts {plural(left, 'more turn')})" if left else ""
        return (
            f"You have no ring: declare a BondO battle to win one of {other}'s rings on a coin "
            f"toss, or just roll the die{chances}."
        )
    if phase == "take":
        return (
            f"You won the battle: pick one of {other}'s ringed cones, then one of your cones "
            "to carry its ring."
        )
    if phase == "punish":
        doubles = [
            square
            for square in _ringed(observation, seat)
            if parse_observed_token(observation["cones"][square])["rings"] == 2
        ]
        if doubles:
            return (
                f"{capital(other)} lost the battle against your Double BondO: pick one of "
                "their cones to seize it and score its value."
            )
        return f"{capital(other)} lost the battle: pick one of their cones to learn its value."
    if phase == "act":
        return _act_prompt(observation, seat, other)
    return f"Your move, {_name(game, seat)}."


def _act_prompt(observation: Observation, seat: int, other: str) -> str:
    die = observation["die"]
    if die == "eye":
        return "The die shows the eye: peek at one of your cones to see its value."
    if die == "ring":
        if observation["set_aside_ring"]:
            return (
                "The die shows a ring: put the set-aside ring on one of your cones without a ring."
            )
        if not _ringed(observation, seat):
            return "The die shows a ring, but you have no ring to move: pass."
        return "The die shows a ring: move one of your BondO rings to a cone of yours without one."
    steps = int(die)
    return (
        f"The die shows {steps}: move one cone exactly {plural(steps, 'step')} in a straight line "
        f"(a BondO cone may turn, a Double BondO goes {steps * 2}), onto an empty field or a "
        f"cone of {other}'s to capture it. If no cone can move, pass."
    )


# ----- actions --------------------------------------------------------------------------------


def _phrase(game: Game, observation: Observation, actor: int, action: str) -> str:
    """``action`` by ``actor`` as a phrase after the subject: "moved the cone from c3 to c5"."""
    words = action.split()
    other = _name(game, 1 - actor)
    head = words[0]
    if len(words) == 1 and "-" in head:
        origin, _, target = head.partition("-")
        moving = _cone_words(_cone(observation, origin))
        victim = _cone(observation, target)
        captured = f" and captured {other}'s cone there" if victim is not None else ""
        return f"moved the {moving} from {origin} to {target}{captured}"
    if head == "put":
        if words[1] == "?":
            return "put a cone on a start field"
        return f"put the cone worth {observation['next_value']} on {words[1]}"
    if head == "ring":
        return _ring_phrase(words[1])
    if head == "take":
        origin, _, target = words[1].partition(">")
        return f"took {other}'s ring from {origin} and put it on {target}"
    on_square = {
        "peek": "peeked at the cone on",
        "spy": f"looked under {other}'s cone on",
        "seize": f"seized {other}'s cone on",
    }
    if head in on_square:
        return f"{on_square[head]} {words[1]}"
    alone = {"battle": "declared a BondO battle", "roll": "chose to roll the die"}
    return alone.get(head, "passed")


def _ring_phrase(where: str) -> str:
    """A ring's action (``*-c3``, ``c3-c5``, ``c3``) as a phrase after the subject."""
    if where.startswith("*-"):
        return f"put the set-aside ring on {where[2:]}"
    if "-" in where:
        origin, _, target = where.partition("-")
        return f"moved the ring from {origin} to {target}"
    return f"put the BondO ring on {where}"


def _setup_put(game: Game, observation: Observation, actor: int | None, action: str) -> str | None:
    """A set-up put the viewer cannot follow cone by cone (an opponent's, hidden, or the
    random set-up's) told once, as its last cone lands: "" before that, ``None`` for any
    other action."""
    words = action.split()
    if words[0] != "put" or (actor is not None and words[1] != "?"):
        return None
    seat = observation["actor"] if actor is None else actor
    if observation["setup_progress"][seat] < SETUP_PUTS - 1:
        return ""
    if actor is None:
        return f"{_name(game, seat)}'s cones were put on their start fields at random."
    hidden = "in secret" if observation["seat"] is None else "hidden from you"
    return f"{_name(game, seat)} put their {SETUP_PUTS} cones on their start fields, {hidden}."


def describe_action(game: Game, observation: Observation, actor: int | None, action: str) -> str:
    told_once = _setup_put(game, observation, actor, action)
    if told_once is not None:
        return told_once
    if actor is not None:
        return f"{_name(game, actor)} {_phrase(game, observation, actor, action)}."
    words = action.split()
    mover = _name(game, observation["actor"])
    if words[0] == "roll":
        face = words[1]
        shown = {"eye": "the eye", "ring": "a ring"}.get(face, f"a {face}")
        return f"{mover} rolled {shown}."
    if words[0] == "first":
        return f"{_name(game, int(words[1]))} starts."
    if words[0] == "battle":
        return f"{mover} {words[1]} the battle."
    return f"{mover} {_phrase(game, observation, observation['actor'], action)}."


def action_label(game: Game, observation: Observation, action: str) -> str:
    labels = {
        "battle": "Declare a BondO battle",
        "roll": "Roll the die",
        "pass": "Pass",
    }
    if action in labels:
        return labels[action]
    seat = observation["seat"] if observation["seat"] is not None else observation["actor"]
    phrase = _phrase(game, observation, seat, action)
    verb, _, rest = phrase.partition(" ")
    present = {
        "moved": "move",
        "put": "put",
        "took": "take",
        "peeked": "peek",
        "looked": "look",
        "seized": "seize",
    }
    return capital(f"{present.get(verb, verb)} {rest}")


# ----- the panel and the result ---------------------------------------------------------------


def panel(game: Game, observation: Observation, seat: int | None) -> list[PanelItem]:
    from boneyard.games.bondo_cones.draw import die_svg

    items: list[PanelItem] = []
    target = observation["target"]
    for who in (0, 1):
        label = _name(game, who) + (" (you)" if who == seat else "")
        captured = observation["captured"][who]
        taken = f", captured {join_words(str(v) for v in captured)}" if captured else ""
        items.append(PanelItem(label, f"{observation['scores'][who]} of {target} points{taken}"))
    phase = observation["phase"]
    if phase.startswith("setup"):
        progress = observation["setup_progress"]
        placed = [min(done, 16) for done in progress]
        items.append(
            PanelItem(
                "Cones placed",
                ", ".join(f"{_name(game, w)} {placed[w]} of 16" for w in (0, 1)),
            )
        )
    if observation["die"] is not None:
        face = str(observation["die"])
        shown = {"eye": "the eye", "ring": "a ring"}.get(face, face)
        items.append(PanelItem("Die", shown, picture=die_svg(face)))
    if phase not in ("setup_put", "setup_ring", "first"):
        rings = [len(_ringed(observation, who)) for who in (0, 1)]
        holders = ", ".join(f"{_name(game, w)} on {plural(rings[w], 'cone')}" for w in (0, 1))
        items.append(PanelItem("Rings", holders))
        if observation["set_aside_ring"]:
            items.append(PanelItem("Set-aside ring", "goes to the first to roll a ring"))
        for who in (0, 1):
            left = observation["battle_windows"][who]
            if left:
                items.append(
                    PanelItem(
                        f"{_name(game, who)} may battle",
                        f"at the start of {plural(left, 'more turn')}",
                    )
                )
        items.append(PanelItem("Turn", count_toward(observation["turn"], observation["max_turns"])))
    return items


def result(game: Game, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
    scores = observation["scores"]
    winner = observation["winner"]
    if winner == "draw" or winner is None:
        return (
            f"Draw: no winner after {plural(observation['max_turns'], 'turn')} "
            f"({scores[0]}-{scores[1]})."
        )
    loser = 1 - winner
    score = f"{scores[winner]}-{scores[loser]}"
    if seat == winner:
        return f"You won {score}: you captured {scores[winner]} points."
    if seat == loser:
        return f"You lost {score}: {_name(game, winner)} captured {scores[winner]} points."
    return f"{_name(game, winner)} won {score}, capturing {scores[winner]} points."
