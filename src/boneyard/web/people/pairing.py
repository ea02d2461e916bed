"""Quick pairing: "play someone now" pairs the two nearest seekers of a two-player game.

A seeker waits in the pool (``web/store/pairing.py``) until someone near their rating comes
(the gap allowed widens while they wait, as lichess's pools do). The newcomer's request makes
the game at once: both seats people, drawn at random, each seat its account's; rated when both
seekers have accounts. The one who waited finds the link on their next look.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from boneyard.web import names
from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GamePayer, GuardedRouter, SessionPayer
from boneyard.web.guard.signin import account_store, in_store, refuse_account_names, signed_in
from boneyard.web.play.manager import GameManager
from boneyard.web.play.rated import start_rated
from boneyard.web.play.routes import ERRORS
from boneyard.web.store.pairing import PairingStore, Seek
from boneyard.web.store.ratings import FRESH, RatingStore

router = GuardedRouter(prefix="/api", responses=ERRORS)


class SeekRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: StrictStr = Field(max_length=64, description="A two-player game's name.")
    name: StrictStr | None = Field(
        default=None,
        max_length=200,
        description="The name others see (someone without an account); an account's is its own.",
    )


def _pool(request: Request) -> PairingStore:
    pool: PairingStore = request.app.state.pairing
    return pool


@router.post("/pairing", summary="Quick pairing: play the nearest seeker now, or wait")
async def seek(body: SeekRequest, request: Request, payer: GamePayer) -> dict[str, Any]:
    """Answers ``{"url", "id", "token"}`` when paired at once, else ``{"seek": id}``: ask
    ``POST /api/pairing/<seek>`` every few seconds until it answers the link."""
    manager: GameManager = request.app.state.manager
    game_class = manager.catalog.game_class(body.game)  # an unknown game: 404
    if game_class().info.num_players != 2:
        raise WebError(
            400, "bad_game", f"quick pairing is for games of two: {game_class.title} is not one"
        )
    account = await signed_in(request)
    if account is not None:
        ratings: RatingStore = request.app.state.ratings
        rating = (await in_store(request, ratings.ratings_of, account.id)).get(body.game, FRESH)
        mine = Seek(
            secrets.token_urlsafe(12), body.game, f"account:{account.id}", account.id,
            account.name, rating.rating, 0.0,
        )  # fmt: skip
    else:
        name = names.given_name(body.name)
        await refuse_account_names(request, name)
        mine = Seek(
            secrets.token_urlsafe(12), body.game, f"address:{payer.client}", None, name,
            FRESH.rating, 0.0,
        )  # fmt: skip
    partner: Seek | None = await in_store(request, _pool(request).seek, mine)
    if partner is None:
        return {"seek": mine.id}
    try:
        return await _pair(request, manager, payer.client, mine, partner)
    except Exception:
        await in_store(request, _pool(request).release, partner.id)
        raise


async def _pair(
    request: Request, manager: GameManager, client: str, mine: Seek, partner: Seek
) -> dict[str, Any]:
    """The pair's game: seats drawn at random; the partner's link left in the pool."""
    seekers = [mine, partner]
    random.SystemRandom().shuffle(seekers)
    seats = [{"kind": "human", "name": seeker.name} for seeker in seekers]
    live = await manager.create(mine.game, {}, seats, client=client)
    store = account_store(request)
    for seat, seeker in enumerate(seekers):
        if seeker.account_id is not None and await in_store(
            request, store.own_seat, live.id, seat, seeker.account_id
        ):
            await manager.seat_named(live.id, seat, seeker.name)
    if all(seeker.account_id for seeker in seekers):
        await start_rated(request, live)
    links = {
        seeker.id: f"/game/{live.id}?t={live.stored.seats[seat]['token']}"
        for seat, seeker in enumerate(seekers)
    }
    await in_store(request, _pool(request).paired, partner.id, links[partner.id])
    seat = seekers.index(mine)
    token = live.stored.seats[seat]["token"]
    return {"url": links[mine.id], "id": live.id, "token": token}


@router.post("/pairing/{seek_id}", summary="A waiting seek: still waiting, or its game")
async def look(seek_id: str, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    """``{"waiting": true}`` (and the seek stays in the pool), or ``{"url"}`` once paired;
    404 ``no_seek`` for a seek that is gone (cancelled, or its page stopped asking)."""
    known, url = await in_store(request, _pool(request).look, seek_id)
    if not known:
        raise WebError(404, "no_seek", "this search for an opponent is over: start another")
    return {"waiting": True} if url is None else {"url": url}


@router.post("/pairing/{seek_id}/cancel", summary="Stop waiting for an opponent")
async def cancel(seek_id: str, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    await in_store(request, _pool(request).cancel, seek_id)
    return {"waiting": False}
