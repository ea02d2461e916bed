"""The end of a Bon-Bon round in words, as one seat saw it (``RoundWords``).

The next round starts in the same action that ends one, so the page would otherwise show fresh
runs and never say who won. ``round_summary`` reads the seat's observation just before that
action (the runs, as far as the seat could see them, and who was already out) and just after it
(``last_round``: every score and the winners, which the table shows everyone), so it says
nothing the seat could not see: a card it never saw stays "face down", and only the total that
the public score gives away is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.core.phrasing import capital, join_words, plural
from boneyard.games.bonbon.observation import BonBonObservation, CardView
from boneyard.games.bonbon.prompt import ROUNDS_TO_WIN, SPECIAL_CARDS


def _ended_a_round(before: BonBonObservation, after: BonBonObservation) -> bool:
    if after["phase"] == "over":
        return before["phase"] != "over"
    return after["round"] > before["round"]


def _who(game: Any, seat: int, viewer: int | None, names: Sequence[str] | None) -> str:
    if seat == viewer:
        return "You"
    return names[seat] if names is not None else capital(game.seat_name(seat))


def _kept(run: list[CardView], discarded: bool) -> list[CardView]:
    """The cards scored: when the shared limit broke, the face-down cards after the last
    face-up card were discarded."""
    if not discarded:
        return run
    end = len(run)
    while end and not run[end - 1]["up"]:
        end -= 1
    return run[:end]


def _stretch_bonus(run: list[CardView]) -> int:
    """n - 1 points for every stretch of n face-down cards in a row."""
    bonus = stretch = 0
    for card in [*run, None]:
        if card is not None and not card["up"]:
            stretch += 1
            continue
        bonus += max(0, stretch - 1)
        stretch = 0
    return bonus


def _how_scored(
    observation: BonBonObservation, run: list[CardView], tile: int | None, score: int
) -> str:
    """How ``score`` was made, from the cards this seat could see."""
    values = observation["values"]
    labels = [card["card"] for card in run if card["card"] is not None]
    shown = [values[label] for label in labels]
    hidden = len(run) - len(shown)
    bonus = _stretch_bonus(run)
    parts = []
    if shown:
        named = (
            f"{SPECIAL_CARDS[label]} worth {value}" if label in SPECIAL_CARDS else str(value)
            for label, value in zip(labels, shown, strict=True)
        )
        # "card 5", "cards 5 + 4", but "a peek card worth 1": a special card names itself (in
        # words, not "(1)": the line is already in brackets, "4 points (a gift worth 2; ...)")
        plain = len(shown) == 1 and labels[0] not in SPECIAL_CARDS
        noun = "card " if plain else "cards " if len(shown) > 1 else ""
        parts.append(noun + " + ".join(named))
    if hidden:
        rest = score - sum(shown) - bonus - (tile or 0)
        parts.append(f"{plural(hidden, 'face-down card')} worth {rest}")
    if bonus:
        parts.append(f"+{bonus} for face-down cards in a row")
    if tile:
        parts.append(f"bonus tile {tile}")
    if not parts:
        return "no cards"
    return "; ".join(parts)


def round_summary(
    game: Any,
    before: BonBonObservation,
    after: BonBonObservation,
    seat: int | None,
    names: Sequence[str] | None = None,
) -> dict[str, Any] | None:
    """The round the action between ``before`` and ``after`` ended, for ``seat``, or None;
    ``names`` name the other seats (default: their colours)."""
    if not _ended_a_round(before, after):
        return None
    last = after["last_round"]
    scores = last["scores"]
    winners = last["winners"]
    players = before["players"]
    newly_out = [
        s for s in range(players) if scores[s] is None and before["status"][s] != "eliminated"
    ]
    # A player over their own limit leaves the round going on while anyone else is in play:
    # a round that ended at once with others still in play ended on the shared limit.
    still_in = [
        s
        for s in range(players)
        if before["status"][s] == "in play" and s not in newly_out and scores[s] is not None
    ]
    shared_broke = bool(newly_out) and bool(still_in)
    number = before["round"]
    lines = []
    for s in sorted(range(players), key=lambda s: (scores[s] is None, -(scores[s] or 0), s)):
        who = _who(game, s, seat, names)
        score = scores[s]
        if score is None:
            if s in newly_out:
                limit = before["collective_limit"]
                why = (
                    f"took the shared marker past {limit}, which ended the round"
                    if shared_broke
                    else "went over a limit with the round's last card"
                )
            else:
                why = (
                    f"went over {'your' if s == seat else 'their'} own limit of "
                    f"{before['personal_limits'][s]} (face up {before['up_totals'][s]})"
                )
            lines.append(f"{who} {why}: out, no score.")
            continue
        run = _kept(before["runs"][s], shared_broke and s in still_in)
        how = _how_scored(before, run, before["tile_taken"][s], score)
        won = ""
        if s in winners:
            won = " and take a chocolate" if s == seat else " and takes a chocolate"
        lines.append(f"{who}: {plural(score, 'point')} ({how}){won}.")
        if shared_broke and s in still_in and len(run) < len(before["runs"][s]):
            dropped = len(before["runs"][s]) - len(run)
            lines.append(
                f"{who} lost {plural(dropped, 'face-down card')} at the end of the run when "
                "the shared limit broke."
            )
    if not winners:
        title = f"Round {number}: everyone went out, nobody wins it."
    else:
        winner_names = join_words(_who(game, s, seat, names) for s in winners)
        best = max(scores[s] or 0 for s in winners)
        verb = "win" if len(winners) > 1 or seat in winners else "wins"
        title = f"Round {number}: {winner_names} {verb} with {plural(best, 'point')}."
    wins = after["wins"]
    tally = ", ".join(f"{_who(game, s, seat, names)} {wins[s]}" for s in range(players))
    lines.append(f"Chocolates won so far: {tally} (the first to {ROUNDS_TO_WIN} wins the game).")
    return {"round": number, "title": title, "lines": lines}
