"""Ratings: a rating per account and game, moved by rated games; profiles and leaderboards.

- Two seats: Glicko-2 (the ``glicko2`` package; each game is a rating period of its own, as
  lichess rates game by game). A win scores 1, a draw 0.5, by the game's returns.
- Three to six seats (Bon-Bon): OpenSkill's Weng-Lin model (``openskill``'s Plackett-Luce),
  the seats ranked by their returns. Its mu and sigma are shown on the Glicko scale (sigma
  8.33 is 350 points, mu 25 is 1500), so that every number on a profile reads alike.
- A rating is provisional, shown with ``?``, while its deviation is over 110 (lichess's line).
  A provisional player's result weighs lightly on an established one: the established
  player's change is scaled by ``(110 / the provisional deviation)²`` (a new account's 350:
  a tenth), so a fresh second account moves its owner's rating little (``provisional_weight``).
- The deviation stays between 45 and 350.

The change a game made is kept with it and shown on its page at the end (``+12``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import glicko2
from fastapi import Request
from fastapi.responses import HTMLResponse
from openskill.models import PlackettLuce

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GuardedRouter
from boneyard.web.guard.signin import account_store, in_store
from boneyard.web.guard.turns import LookupPayer, ReadPayer
from boneyard.web.pages.routes import templates
from boneyard.web.play.clocks import PRESETS
from boneyard.web.play.routes import ERRORS
from boneyard.web.store.accounts import Account
from boneyard.web.store.ratings import PAIR_GAMES_PER_DAY, START_DEVIATION, Rating, RatingStore

router = GuardedRouter(prefix="/api", responses=ERRORS)
pages = GuardedRouter(include_in_schema=False)

PROVISIONAL_DEVIATION = 110.0
LEAST_DEVIATION = 45.0
OPENSKILL_SCALE = START_DEVIATION / (25.0 / 3.0)
"""Glicko points per OpenSkill unit: a new player's sigma (25/3) is a new deviation (350)."""
RECENT_GAMES = 20

_openskill = PlackettLuce()


def _bounded(deviation: float) -> float:
    return min(START_DEVIATION, max(LEAST_DEVIATION, deviation))


def glicko2_update(player: Rating, opponents: list[tuple[float, float, float]]) -> Rating:
    """``player`` after one rating period against ``opponents``: ``(rating, deviation,
    score)`` each (the package's Glicko-2, tau 0.5)."""
    rated = glicko2.Player(player.rating, player.deviation, player.volatility)
    rated.update_player(
        [rating for rating, _, _ in opponents],
        [deviation for _, deviation, _ in opponents],
        [score for _, _, score in opponents],
    )
    return Rating(rated.rating, rated.rd, rated.vol, player.games + len(opponents))


def _score(mine: float, theirs: float) -> float:
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def provisional_weight(player: Rating, opponent: Rating) -> float:
    """How much ``opponent``'s result moves an established ``player``: fully, unless the
    opponent is provisional and the player is not; then ``(110 / its deviation)²``."""
    provisional = opponent.deviation > PROVISIONAL_DEVIATION
    if not provisional or player.deviation > PROVISIONAL_DEVIATION:
        return 1.0
    return float((PROVISIONAL_DEVIATION / opponent.deviation) ** 2)


def _weighed(old: Rating, new: Rating, weight: float) -> Rating:
    """``old`` moved ``weight`` of the way to ``new``."""
    return Rating(
        old.rating + weight * (new.rating - old.rating),
        old.deviation + weight * (new.deviation - old.deviation),
        old.volatility + weight * (new.volatility - old.volatility),
        new.games,
    )


def rate(before: list[Rating], returns: list[float]) -> list[Rating]:
    """The seats' ratings after a game with ``returns`` (``RatingStore``'s rating system):
    unweighed, then each established seat's change weighed by its opponents
    (``provisional_weight``, their mean with three or more seats)."""
    after = _rate_unweighed(before, returns)
    weighed = []
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        weights = [provisional_weight(old, other) for s, other in enumerate(before) if s != seat]
        weighed.append(_weighed(old, new, sum(weights) / len(weights)))
    return weighed


def _rate_unweighed(before: list[Rating], returns: list[float]) -> list[Rating]:
    if len(before) == 2:
        first, second = before
        after = [
            glicko2_update(first, [(second.rating, second.deviation, _score(*returns))]),
            glicko2_update(second, [(first.rating, first.deviation, _score(*returns[::-1]))]),
        ]
    else:
        teams = [
            [
                _openskill.rating(
                    mu=25.0 + (r.rating - 1500.0) / OPENSKILL_SCALE,
                    sigma=r.deviation / OPENSKILL_SCALE,
                )
            ]
            for r in before
        ]
        ranks = [1 + sum(other > mine for other in returns) for mine in returns]
        rated = _openskill.rate(teams, ranks=[float(rank) for rank in ranks])
        after = [
            Rating(
                1500.0 + (team[0].mu - 25.0) * OPENSKILL_SCALE,
                team[0].sigma * OPENSKILL_SCALE,
                r.volatility,
                r.games + 1,
            )
            for team, r in zip(rated, before, strict=True)
        ]
    return [Rating(r.rating, _bounded(r.deviation), r.volatility, r.games) for r in after]


def shown(rating: float, deviation: float) -> str:
    """A rating as people read it: "1500?" while provisional."""
    return f"{round(rating)}{'?' if deviation > PROVISIONAL_DEVIATION else ''}"


def rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.rating, 2),
        "deviation": round(rating.deviation, 2),
        "games": rating.games,
        "provisional": rating.deviation > PROVISIONAL_DEVIATION,
        "shown": shown(rating.rating, rating.deviation),
    }


def seat_ratings_json(
    owners: dict[int, tuple[str, Rating]], seats: int
) -> list[dict[str, Any] | None]:
    """Per seat, its account's name and rating in the game (None: no account sits there)."""
    return [
        None if seat not in owners else {"account": owners[seat][0], **rating_json(owners[seat][1])}
        for seat in range(seats)
    ]


def _ratings(request: Request) -> RatingStore:
    ratings: RatingStore = request.app.state.ratings
    return ratings


def _titles(request: Request) -> dict[str, str]:
    catalog = request.app.state.manager.catalog
    return {name: catalog.game_class(name).title for name in catalog.names()}


def against(others: tuple[str | None, ...]) -> str:
    """Who else sat at the table, as a profile says it: "tomt", "the computer", "a guest"."""
    words = ["the computer" if other == "computer" else other or "a guest" for other in others]
    return " and ".join(words)


STOOD_IN_RESULT = "counted for nobody: the computer stood in"
"""A game's result on the profile of a person the computer stood in for (who was away)."""


def result_word(seat: int, returns: tuple[float, ...] | None) -> str | None:
    """ "won", "lost" or "drawn" for ``seat``; None while the game runs or alone (a game
    called off ends as a draw does: only the session tells them apart, ``player_json``)."""
    if not returns or len(returns) < 2 or seat >= len(returns):
        return None
    if len(set(returns)) == 1:
        return "drawn"
    return "won" if returns[seat] == max(returns) else "lost"


def played_iso(seconds: float) -> str:
    """When a game was made, for a page's ``<time datetime>`` (the browser says it in words,
    in its own time zone: static/when.js)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


async def player_json(request: Request, name: str) -> dict[str, Any]:
    account: Account | None = await in_store(request, account_store(request).account_named, name)
    if account is None:
        raise WebError(404, "no_player", f"nobody here has the account name {name[:40]!r}")
    ratings = await in_store(request, _ratings(request).ratings_of, account.id)
    seats = await in_store(request, account_store(request).owned_seats, account.id, RECENT_GAMES)
    called_off = await in_store(
        request, request.app.state.sessions.store.called_off, [s.game_id for s in seats]
    )
    titles = _titles(request)
    return {
        "name": account.name,
        "url": f"/@/{account.name}",
        "ratings": {game: rating_json(r) for game, r in sorted(ratings.items())},
        "recent": [
            {
                "id": seat.game_id,
                "game": seat.game,
                "title": titles.get(seat.game, seat.game),
                "terminal": seat.finished,
                "replay_url": f"/game/{seat.game_id}/replay",
                "played": seat.created,
                "played_iso": played_iso(seat.created),
                "against": against(seat.others),
                "result": (
                    "called off"
                    if seat.game_id in called_off
                    else STOOD_IN_RESULT
                    if seat.stood_in
                    else result_word(seat.seat, seat.returns)
                ),
            }
            for seat in seats
        ],
    }


@router.get("/players/{name}", summary="A player's ratings per game and recent games")
async def player(name: str, request: Request, _payer: LookupPayer) -> dict[str, Any]:
    """``{"name", "ratings": {game: {"rating", "deviation", "games", "provisional"}},
    "recent": [...]}``; 404 when no account has the name."""
    return await player_json(request, name)


async def leaderboard_json(request: Request, game: str) -> list[dict[str, Any]]:
    request.app.state.manager.catalog.game_class(game)  # an unknown game: 404
    best = await in_store(request, _ratings(request).leaderboard, game)
    return [
        {"rank": rank, "name": name, **rating_json(rating)}
        for rank, (name, rating) in enumerate(best, start=1)
    ]


@router.get("/leaderboard/{game}", summary="The best ratings of one game")
async def leaderboard(game: str, request: Request, _payer: LookupPayer) -> list[dict[str, Any]]:
    return await leaderboard_json(request, game)


@router.get("/games/{game_id}/rating", summary="Whether a game is rated, and what it changed")
async def game_rating(game_id: str, request: Request, _payer: ReadPayer) -> dict[str, Any]:
    """``{"rated", "settled", "changes": [{"seat", "name", "before", "after", "change"}],
    "unrated", "unrated_words"}``; ``changes`` is null until the end, and stays null when the
    game counted for nobody: ``unrated`` says why (``UNRATED_REASONS``; "repeated" already
    before the end), ``unrated_words`` says it to people."""
    found = await in_store(request, _ratings(request).rated_game, game_id)
    if found is None:
        return {"rated": False, "settled": False, "changes": None, **unrated_json(None, "")}
    settled, changes = found.settled, found.changes
    if not changes:
        title = _titles(request).get(found.game, "this game")
        unrated = unrated_json(found.unrated, title)
        return {"rated": True, "settled": settled, "changes": None, **unrated}
    names = await in_store(request, account_store(request).names, [c["account"] for c in changes])
    return {
        "rated": True,
        "settled": settled,
        **unrated_json(None, ""),
        "changes": [
            {
                "seat": change["seat"],
                "name": names.get(change["account"], ""),
                "before": round(change["before"]),
                "after": round(change["after"]),
                "shown": shown(change["after"], change["deviation"]),
                "change": round(change["after"]) - round(change["before"]),
            }
            for change in changes
        ],
    }


def unrated_json(reason: str | None, title: str) -> dict[str, str | None]:
    """Why a rated game counts for nobody, as a code and in words."""
    words = {
        None: None,
        "not_played": "Rated game, called off before each side had moved: no rating changed.",
        "called_off": "Rated game, called off when a player stopped moving: no rating changed.",
        "not_accounts": "Rated game, but it counted for nobody: "
        "not every seat was a different account's.",
        "stand_in": "The computer played for someone who was away: this game is unrated.",
        "repeated": f"Unrated: these two accounts have played {PAIR_GAMES_PER_DAY} rated games "
        f"of {title} in the last 24 hours, the most that count in a day.",
    }
    return {"unrated": reason, "unrated_words": words.get(reason, words["not_accounts"])}


@pages.get("/@/{name}", response_class=HTMLResponse)
async def profile_page(name: str, request: Request, _payer: LookupPayer) -> Any:
    player = await player_json(request, name)
    titles = _titles(request)
    catalog = request.app.state.manager.catalog
    # a challenge is a game of two (web/people/challenges.py)
    two = [(n, t) for n, t in titles.items() if catalog.game_class(n)().info.num_players == 2]
    return templates.TemplateResponse(
        request,
        "profile.html",
        {"player": player, "titles": titles, "challenge_games": two, "clock_presets": PRESETS},
    )


@pages.get("/leaderboard/{game}", response_class=HTMLResponse)
async def leaderboard_page(game: str, request: Request, _payer: LookupPayer) -> Any:
    best = await leaderboard_json(request, game)
    title = _titles(request)[game]
    return templates.TemplateResponse(
        request, "leaderboard.html", {"best": best, "title": title, "games": _titles(request)}
    )
