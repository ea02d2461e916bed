"""A series of games between the same seats: the score so far, who sits where next, and
the key of two people's one continuing game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boneyard.web.play.live import LiveGame
from boneyard.web.store.games import Store
from boneyard.web.store.sessions import SeriesGame, SessionStore
from boneyard.web.table.endings import decided_losers, seat_name

if TYPE_CHECKING:
    from boneyard.web.table.session import Session


def pair_key(name: str, people: list[str | None]) -> str:
    """The key of two people's one continuing game of ``name``."""
    return ":".join([name, *sorted(p for p in people if p)])


def moved_urls(
    games: Store, sessions: SessionStore, series: SeriesGame | None, target_id: str
) -> dict[int, str]:
    """Per seat of an open game replaced by ``target_id`` (two people's continuing game): its
    person's link there. Reads the store: on a store thread."""
    stored = games.load(target_id)
    target = sessions.series_game(target_id)
    if stored is None or target is None or series is None:
        return {}
    urls = {}
    for seat, person in enumerate(series.people):
        if person is not None and person in target.people:
            token = stored.seats[target.people.index(person)]["token"]
            urls[seat] = f"/game/{target_id}?t={token}"
    return urls


def next_urls(
    games: Store, sessions: SessionStore, series: SeriesGame, next_id: str
) -> dict[int, str]:
    """Per seat of a game of ``series``: its person's link into the next game ``next_id``.
    Reads the store: on a store thread."""
    stored = games.load(next_id)
    entry = sessions.series_game(next_id)
    if stored is None or entry is None:
        return {}
    seat_of_member = {member: seat for seat, member in enumerate(entry.members)}
    urls = {}
    for seat, member in enumerate(series.members):
        new_seat = seat_of_member.get(member)
        if new_seat is None:
            continue
        token = stored.seats[new_seat].get("token")
        if stored.seats[new_seat]["kind"] == "human" and token:
            urls[seat] = f"/game/{next_id}?t={token}"
    return urls


def next_game_parameters(live: LiveGame) -> dict[str, Any]:
    """The parameters of the game that continues ``live``'s match from its end (its spec's
    ``SeriesRules.next_game``); a resignation hands the next start to the seat that resigned."""
    rules = live.game.spec.series
    if rules.next_game is None:
        return {}
    losers = decided_losers(live.returns())
    resigned = losers[0] if live.ending is not None and losers else None
    return dict(rules.next_game(live.state, resigned))


def series_score(session: Session, live: LiveGame) -> dict[str, Any] | None:
    """The series so far, by the seats of this game: wins (and Obonto's carried points)."""
    series = session.series
    if series is None:
        return None
    seats = live.num_seats
    carried = series.carried
    wins = [float(carried.get("wins", [0] * seats)[m]) for m in series.members]
    draws = int(carried.get("draws", 0))
    if live.over and not aborted(session):
        returns = live.returns()
        if decided_losers(returns):
            best = max(returns)
            for seat, value in enumerate(returns):
                if value == best:
                    wins[seat] += 1
        elif seats > 1:
            draws += 1
    points: list[int] | None = None
    if live.game.spec.series.continues:
        before = carried.get("points") or [0] * seats
        totals = live.state.observation(None).get("totals") or [0] * seats
        points = [int(before[m]) + int(totals[seat]) for seat, m in enumerate(series.members)]
    return {
        "number": series.number,
        "wins": wins,
        "draws": draws,
        "points": points,
        "labels": [seat_name(live, s) for s in range(seats)],
    }


def aborted(session: Session) -> bool:
    """Whether the game was called off before its first move (a series counts nothing)."""
    return any(e.kind == "abort" for e in session.events)


def next_seating(
    live: LiveGame, series: SeriesGame, session: Session
) -> tuple[list[int], dict[str, Any]]:
    """Who sits where next (old seat per new seat) and the next game's parameters."""
    seats = live.num_seats
    params = dict(live.game.params)
    losers = decided_losers(live.returns()) if not aborted(session) else []
    rules = live.game.spec.series
    if rules.continues:
        params.update(next_game_parameters(live))
        return list(range(seats)), params
    if "first" in params and isinstance(params["first"], int):
        first = losers[0] if rules.loser_starts and losers else (params["first"] + 1) % seats
        params["first"] = first
        return list(range(seats)), params
    if rules.loser_starts and len(losers) == 1:
        loser = losers[0]
        return [loser] + [s for s in range(seats) if s != loser], params
    # Otherwise the seats take turns: the second seat of this game opens the next.
    return [*range(1, seats), 0], params
