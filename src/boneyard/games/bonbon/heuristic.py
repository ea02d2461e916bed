"""What the bots know of Bon-Bon: a greedy heuristic and a numeric observation, both computed
from an observation dict alone (so they can never use what the seat may not see).

The greedy measure is :func:`bust_probability`: the chance that the next card the seat plays face
up breaks one of its limits. A greedy bot draws while it is low and passes when it is high.
"""

from __future__ import annotations

from boneyard.core.game import State
from boneyard.games.bonbon.observation import BonBonObservation, CardView, observe

WINS_TO_WIN = 3
PHASES = ("tiles", "turn", "draw", "place", "gift", "catch", "wrapper", "peek", "over")
STATUSES = ("in play", "passed", "eliminated")


def _trailing_face_down(run: list[CardView]) -> list[CardView]:
    trailing: list[CardView] = []
    for card in reversed(run):
        if card["up"]:
            break
        trailing.append(card)
    return trailing


def bust_probability(observation: BonBonObservation, seat: int) -> float:
    """The probability that the next card ``seat`` draws and plays face up breaks a limit.

    The card is taken to be drawn from the cards ``seat`` has not seen (``observation["unseen"]``;
    a card the seat peeked at is the next card for certain). It breaks a limit if its face-up
    value, plus the seat's trailing face-down cards for an empty wrapper, takes the collective
    marker above the collective limit or the seat's face-up total above its personal limit. A gift
    goes to another player while one is in play, so it then breaks nothing of the seat's.
    """
    values: dict[str, int] = observation["values"]
    peek = observation["peek"]
    if peek is not None and peek["by"] == seat and peek["card"] is not None:
        chances = {peek["card"]: 1}
    else:
        chances = {label: count for label, count in observation["unseen"].items() if count}
    total = sum(chances.values())
    if total == 0:
        return 0.0
    room_personal = observation["personal_limits"][seat] - observation["up_totals"][seat]
    room_collective = observation["collective_limit"] - observation["marker"]
    room = min(room_personal, room_collective)
    status = observation["status"]
    others_in_play = any(s == "in play" for i, s in enumerate(status) if i != seat)
    hidden = _trailing_face_down(observation["runs"][seat])
    trailing = sum(values[c["card"]] for c in hidden if c["card"] is not None)
    breaking = 0
    for label, count in chances.items():
        added = values[label]
        if label == "wrapper":
            added += trailing
        elif label == "gift" and others_in_play:
            added = 0
        if added > room:
            breaking += count
    return breaking / total


TRAILING_RISK = 0.25
"""The share of a trailing face-down card's value the estimate gives up: such cards are lost if
the collective limit breaks and are turned up by wrappers and caught! cards."""


def _unseen_mean(observation: BonBonObservation) -> float:
    values: dict[str, int] = observation["values"]
    unseen = observation["unseen"]
    cards = sum(unseen.values())
    return sum(values[label] * n for label, n in unseen.items()) / cards if cards else 0.0


def estimated_score(observation: BonBonObservation, seat: int) -> float:
    """The seat's round score as the observer can estimate it.

    Cards the observer has not seen count at the mean value of its unseen cards; face-down cards
    after the seat's last face-up card count at ``1 - TRAILING_RISK`` of their value (their group
    bonus in full); a card the seat holds (drawn, not yet placed) counts if the observer knows it.
    """
    values: dict[str, int] = observation["values"]
    mean = _unseen_mean(observation)
    run = observation["runs"][seat]
    trailing = len(_trailing_face_down(run))
    total = 0.0
    group = 0
    for index, card in enumerate(run):
        value = values[card["card"]] if card["card"] is not None else mean
        total += value * (1 - TRAILING_RISK) if index >= len(run) - trailing else value
        if card["up"]:
            total += max(group - 1, 0)
            group = 0
        else:
            group += 1
    drawn = observation["drawn"]
    if drawn is not None and drawn["by"] == seat and drawn["card"] is not None:
        total += values[drawn["card"]]
    taken = observation["tile_taken"][seat]
    return total + max(group - 1, 0) + (taken or 0)


def _safe_gain(observation: BonBonObservation, seat: int) -> float:
    """The mean value of the unseen cards that would not break a limit for ``seat``."""
    values: dict[str, int] = observation["values"]
    room = min(
        observation["personal_limits"][seat] - observation["up_totals"][seat],
        observation["collective_limit"] - observation["marker"],
    )
    safe = [(values[label], n) for label, n in observation["unseen"].items() if n]
    safe = [(value, n) for value, n in safe if value <= room]
    count = sum(n for _, n in safe)
    return sum(value * n for value, n in safe) / count if count else 0.0


def evaluate(state: State, seat: int) -> float:
    """``Game.evaluate``: the end's returns, else the value of ``seat``'s observation."""
    if state.is_terminal():
        return state.returns()[seat]
    return evaluate_observation(observe(state, seat), seat)


def evaluate_observation(observation: BonBonObservation, seat: int) -> float:
    """A value in [0, 1] for ``seat``: (chocolates won + its share of the round) / 3.

    The round share compares the seat's estimated score with the best other player still
    scoring: ``mine / (mine + best)``, 0 once eliminated. A seat in play may still pass (with the
    best tile on offer if nobody has passed yet) or take a card, which adds the mean safe value
    with probability ``1 - bust_probability`` and eliminates it otherwise; its share is the better
    of the two, or the second alone while it is drawing.
    """
    status = observation["status"]
    wins = observation["wins"][seat]
    share = 0.0
    if status[seat] != "eliminated":
        mine = estimated_score(observation, seat)
        best = max(
            (
                estimated_score(observation, s)
                for s in range(len(status))
                if s != seat and status[s] != "eliminated"
            ),
            default=0.0,
        )

        def part(score: float) -> float:
            return score / (score + best) if score + best > 0 else 0.5

        if status[seat] == "passed":
            share = part(mine)
        else:
            gain = _safe_gain(observation, seat)
            draw = (1.0 - bust_probability(observation, seat)) * part(mine + gain)
            if observation["phase"] == "draw" and observation["turn"] == seat:
                share = draw
            else:
                tiles = observation["tiles"] if observation["tiles_open"] else []
                share = max(part(mine + max(tiles, default=0)), draw)
    return max(0.0, min(1.0, (wins + share) / WINS_TO_WIN))
