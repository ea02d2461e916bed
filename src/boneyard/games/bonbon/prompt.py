"""Bon-Bon in words for people: a prompt for every decision, actions as each viewer saw them, the
panel (limits, marker, tiles, cards left, rounds won) and the result (``Game`` hooks).

Everything is read from one seat's observation (``BonBonState._observation``) and the action
string that seat was shown (``card ?`` hides a card the viewer may not see).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.core.game import Game, Observation, PanelItem
from boneyard.core.phrasing import capital, count_toward, join_words, plural, score_pair

ROUNDS_TO_WIN = 3
"""Rounds a player must win to win the game (the rules' three)."""
SPECIAL_CARDS = {
    "wrapper": "an empty wrapper",
    "peek": "a peek card",
    "second": "a second helping",
    "gift": "a gift",
    "caught": "a caught! card",
}


def _name(game: Game, seat: int) -> str:
    return capital(game.seat_name(seat))


def card_words(label: str) -> str:
    """``"3"`` -> "a chocolate worth 3"; ``"4!"`` -> "... (face up only)"; effects by name."""
    if label in SPECIAL_CARDS:
        return SPECIAL_CARDS[label]
    if label.endswith("!"):
        return f"a chocolate worth {label[:-1]} (face up only)"
    return f"a chocolate worth {label}"


def _tiles(observation: Observation) -> str:
    """The values a passer may choose from: each once ("2 or 3" for the tiles 2, 3 and 3)."""
    return join_words([str(value) for value in sorted(set(observation["tiles"]))], "or")


def _limits(observation: Observation, seat: int) -> str:
    return (
        f"Your face-up cards total {observation['up_totals'][seat]} of your limit "
        f"{observation['personal_limits'][seat]}; the shared marker is at "
        f"{observation['marker']} of {observation['collective_limit']}."
    )


# ----- the prompt -----------------------------------------------------------------------------


def prompt(game: Game, observation: Observation, seat: int) -> str:
    phase = observation["phase"]
    if phase == "turn":
        if not observation["deck_left"]:
            choice = "The deck is empty: pass."
        elif observation["tiles_open"]:
            choice = (
                "Draw a card or pass. Nobody has passed yet: the first to pass takes a bonus "
                f"tile ({_tiles(observation)}) that adds to their score this round."
            )
        else:
            choice = "Draw a card, or pass and keep what you have for this round."
        return f"{choice} {_limits(observation, seat)}"
    drawn = observation["drawn"] or {}
    card = card_words(drawn["card"]) if drawn.get("card") else "a card"
    if phase == "place":
        return (
            f"You drew {card}. Play it face up (it moves the shared marker and counts toward "
            "your limit) or face down (safe from the limits, but it may be caught)."
        )
    if phase == "gift":
        return (
            "You drew a gift: give it face up to another player still in play; their limits "
            "are checked, not yours."
        )
    if phase == "catch":
        return (
            "You drew a caught! card: choose another player still in play to turn up the face-down "
            "cards after their last face-up card."
        )
    if phase == "wrapper":
        return (
            "Your empty wrapper turned up your trailing face-down cards and no limit broke: "
            f"draw another card or end your turn. {_limits(observation, seat)}"
        )
    return f"Your move, {game.seat_name(seat)}."


# ----- actions --------------------------------------------------------------------------------


def describe_action(game: Game, observation: Observation, actor: int | None, action: str) -> str:
    words = action.split()
    head = words[0]
    if actor is None:
        return _chance_words(game, observation, words)
    who = _name(game, actor)
    if head == "pass":
        return f"{who} passed."
    if head == "bonus":
        return f"{who} passed first and took the bonus tile worth {words[1]}."
    if head == "draw":
        again = " another" if observation["phase"] == "wrapper" else ""
        return f"{who} drew{again or ' a'} card."
    drawn = observation["drawn"] or {}
    card = card_words(drawn["card"]) if drawn.get("card") else "the card"
    if head in ("up", "down"):
        return f"{who} played {card} face {head}."
    if head == "end":
        return f"{who} ended the turn."
    other = _name(game, int(words[1]))  # a player's name: "Red", as every other line says
    if head == "gift":
        return f"{who} gave the gift to {other}."
    return f"{who} caught {other}: their trailing face-down cards turn up."


def _chance_words(game: Game, observation: Observation, words: list[str]) -> str:
    """A chance step in words: the round's bonus tiles, a card drawn or peeked at (``?``: one
    the viewer does not see)."""
    if words[0] == "tiles":
        return f"This round's bonus tiles are {join_words(words[1:])}."
    drawer = observation["turn"]
    who = _name(game, drawer) if drawer is not None else "Someone"
    if observation["phase"] == "peek":
        if words[1] == "?":
            return f"{who} peeked at the top card of the deck."
        return f"{who} peeked at the top card: {card_words(words[1])}."
    if words[1] == "?":
        return f"{who} looked at the card."
    return f"{who}'s card is {card_words(words[1])}."


def action_label(game: Game, observation: Observation, action: str) -> str:
    words = action.split()
    head = words[0]
    fixed = {
        "pass": "Pass",
        "draw": "Draw a card" if observation["phase"] != "wrapper" else "Draw another card",
        "up": "Play it face up",
        "down": "Play it face down",
        "end": "End your turn",
    }
    if head in fixed:
        return fixed[head]
    if head == "bonus":
        # Short, as the tiles are drawn ("+2"): three fit a phone's row beside "Draw a card".
        return f"Pass, take +{words[1]}"
    other = _name(game, int(words[1]))
    if head == "gift":
        return f"Give the gift to {other}"
    if head == "catch":
        return f"Catch {other}"
    return capital(action)


# ----- the panel and the result ---------------------------------------------------------------


def panel(game: Game, observation: Observation, seat: int | None) -> list[PanelItem]:
    items = [
        PanelItem("Round", count_toward(observation["round"], observation["max_rounds"])),
        PanelItem("Shared marker", f"{observation['marker']} of {observation['collective_limit']}"),
        PanelItem("Cards left", str(observation["deck_left"])),
    ]
    tiles = observation["tiles"]
    if tiles:
        if observation["tiles_open"]:
            items.append(PanelItem("Bonus tiles", f"{_tiles(observation)}, for the first to pass"))
        else:
            items.append(PanelItem("Bonus tiles", "taken"))
    for who in range(observation["players"]):
        label = _name(game, who) + (" (you)" if who == seat else "")
        facts = [
            plural(observation["wins"][who], "round") + " won",
            f"face up {observation['up_totals'][who]} of {observation['personal_limits'][who]}",
            {"in play": "in play", "passed": "passed", "eliminated": "out this round"}.get(
                observation["status"][who], "in play"
            ),
        ]
        taken = observation["tile_taken"][who]
        if taken is not None:
            facts.append(f"bonus tile {taken}")
        items.append(PanelItem(label, ", ".join(facts)))
    drawn = observation["drawn"]
    if drawn is not None and drawn.get("card") and drawn["by"] == seat:
        items.append(PanelItem("Your card", card_words(drawn["card"])))
    peek = observation["peek"]
    if peek is not None and peek.get("card") and peek["by"] == seat:
        items.append(PanelItem("Top of the deck", card_words(peek["card"])))
    last: dict[str, Any] = observation["last_round"]
    if last["winners"]:
        names = join_words("you" if w == seat else _name(game, w) for w in last["winners"])
        best = max(last["scores"][w] for w in last["winners"])
        items.append(PanelItem("Last round", f"won by {names} with {plural(best, 'point')}"))
    items.append(PanelItem("Goal", f"win {ROUNDS_TO_WIN} rounds"))
    return items


def result(game: Game, observation: Observation, seat: int | None, returns: Sequence[float]) -> str:
    winners: list[int] = observation["winners"]
    wins: list[int] = observation["wins"]
    if not winners:
        return "The game ended with no winner."
    tally = ", ".join(f"{_name(game, s)} {wins[s]}" for s in range(len(wins)))
    if max(wins) < ROUNDS_TO_WIN:
        how = (
            f"with the most rounds won after {plural(observation['max_rounds'], 'round')} ({tally})"
        )
    elif len(wins) == 2:
        how = score_pair(*wins)
    else:
        how = f"{ROUNDS_TO_WIN} rounds first ({tally})"
    if len(winners) > 1:
        if seat in winners:
            others = join_words(_name(game, s) for s in winners if s != seat)
            return f"You share the win with {others}: {how}."
        return f"{join_words(_name(game, s) for s in winners)} share the win: {how}."
    if seat is not None and seat != winners[0]:
        return f"You lost: {_name(game, winners[0])} won {how}."
    who = "You" if seat == winners[0] else _name(game, winners[0])
    return f"{who} won {how}."
