"""How a game ends by the web layer, and the session's events in words.

A game that ends here (a resignation, an agreed draw, an abort before the first move, two
people led to their continuing game) keeps its engine state as it stood; its ``Ending`` (the
stored returns and the ending in words) is kept beside it (``LiveGame.ending``), and the live
game answers ``over``, ``returns()`` and ``to_move()`` from both.
"""

from __future__ import annotations

from boneyard.core.game import CHANCE
from boneyard.web.play.live import Ending, LiveGame
from boneyard.web.play.words import display_name
from boneyard.web.store.sessions import SessionEvent

ENDINGS = ("resign", "draw_agreed", "abort", "moved", "flag", "claim", "call_off")
"""Web-layer actions that end a game ("moved": two people were led to their continuing game;
"flag": a seat's time ran out, ``clocks.py``; "claim" and "call_off": in a rated game without
a clock, the present player claimed victory, or called the game off, once the absent one had
been silent for the set time)."""
ALWAYS_STORED = frozenset({*ENDINGS, "left", "stand_in", "flag_left"})
"""Events a game's cap on events never refuses: a person can always leave or be replaced."""


def ending_of(live: LiveGame, event: SessionEvent) -> Ending:
    """The ending a stored web-layer event gives ``live``, kept beside its engine state."""
    returns = tuple(float(x) for x in event.detail["returns"])
    return Ending(event.kind, returns, ending_words(live, event))


def seat_name(live: LiveGame, seat: int) -> str:
    """The seat as a name in a sentence, the person's name first where they gave one ("Ann
    (White)", "North (computer, easy)", "White")."""
    return display_name(live, seat)


def player_moves(live: LiveGame) -> int:
    """How many actions the seats (not chance) have played."""
    return sum(1 for _action, player in live.stored.actions if player != CHANCE)


def decided_losers(returns: list[float]) -> list[int]:
    """The seats with the lowest result, or none when every seat has the same."""
    if len(set(returns)) <= 1:
        return []
    low = min(returns)
    return [seat for seat, value in enumerate(returns) if value == low]


def ending_words(live: LiveGame, event: SessionEvent) -> str:
    if event.kind == "abort":
        if event.detail.get("reason") == "no_first_move" and event.seat is not None:
            late = seat_name(live, event.seat)
            return f"Game called off: {late} did not make a first move in time"
        if event.detail.get("reason") == "not_played":
            return "Game called off before each side had moved: it does not count"
        return "Game called off before the first move"
    if event.kind in ("claim", "call_off"):
        absent = seat_name(live, int(event.detail["target"]))
        if event.kind == "call_off":
            return f"Game called off: {absent} stopped moving; it does not count"
        assert event.seat is not None
        return f"Game over: {absent} stopped moving, {seat_name(live, event.seat)} wins"
    if event.kind == "moved":
        return "You two have a game going on: it continues in your continuing game"
    if event.kind == "draw_agreed":
        return "Game over: a draw by agreement"
    assert event.seat is not None
    winners = [seat_name(live, s) for s, value in enumerate(event.detail["returns"]) if value > 0]
    how = "ran out of time" if event.kind == "flag" else "resigned"
    return f"Game over: {seat_name(live, event.seat)} {how}, {' and '.join(winners)} wins"


# Over the complexity limit on purpose: one sentence per kind of session event.
def event_words(live: LiveGame, event: SessionEvent) -> str:  # noqa: C901
    who = seat_name(live, event.seat) if event.seat is not None else ""
    if event.kind == "resign":
        return f"{who} resigned"
    if event.kind == "draw_offer":
        return f"{who} offered a draw"
    if event.kind == "draw_declined":
        return f"{who} declined the draw"
    if event.kind == "draw_agreed":
        return f"{who} accepted the draw: the game is drawn"
    if event.kind == "abort":
        if event.detail.get("reason") == "no_first_move":
            return f"{who} did not make a first move in time: the game is called off"
        if event.detail.get("reason") == "not_played":
            return f"{who} stopped the game before each side had moved: it is called off"
        return f"{who} called the game off before the first move"
    if event.kind == "claim":
        return f"{who} claimed the win: the other side stopped moving"
    if event.kind == "call_off":
        return f"{who} called the game off: the other side stopped moving"
    if event.kind == "flag":
        return f"{who} ran out of time"
    if event.kind == "flag_left":
        # The seat is the computer's now: the name it had when its person left.
        return f"{event.detail.get('label', who)} ran out of time: the computer plays on for them"
    if event.kind == "takeback_request":
        return f"{who} asked to take back their last move"
    if event.kind == "takeback_declined":
        return f"{who} declined the takeback"
    if event.kind == "takeback":
        count = len(event.detail.get("undone", []))
        moves = "move" if count == 1 else "moves"
        return f"{who} took back {count} {moves}"
    if event.kind == "moved":
        return "Led to the continuing game of these two players"
    if event.kind == "puzzle":
        shortest = event.detail["shortest"]
        return f"The shortest solution takes {shortest} move{'s' if shortest != 1 else ''}"
    if event.kind == "solution_shown":
        return f"{who} looked at the shortest solution"
    if event.kind == "left":
        return f"{event.detail.get('label', who)} resigned and left: the computer plays on for them"
    if event.kind == "named":
        return f"{event.detail['side']} is now called {event.detail['name']}"
    if event.kind == "stand_in":
        # A result the computer played counts for nobody: said to both pages.
        label = event.detail.get("label", who)
        return f"The computer now plays for {label}, who was away: this game counts for nobody"
    return who
