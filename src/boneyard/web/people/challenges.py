"""Challenges by account name: *Challenge* on a profile asks that account for a game of two on
given terms (the game, its clock, rated or not); the challenged sees it on every page (a small
banner, ``static/challenges.js``) and accepts or declines; the challenger's pages see the
answer, and on acceptance the link into the game. As on lichess, the seats are drawn at random,
each seat its account's; a rated challenge is a rated game (``play/rated.py``).
"""

from __future__ import annotations

import random
from typing import Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GamePayer, GuardedRouter, SessionPayer
from boneyard.web.guard.signin import account_store, in_store
from boneyard.web.guard.turns import ReadPayer
from boneyard.web.people.accounts import require_account
from boneyard.web.play.clocks import PRESETS, preset_control
from boneyard.web.play.manager import GameManager
from boneyard.web.play.rated import start_rated
from boneyard.web.play.routes import ERRORS
from boneyard.web.store.accounts import Account
from boneyard.web.store.challenges import OPEN_PER_ACCOUNT, Challenge, ChallengeStore

router = GuardedRouter(prefix="/api", responses=ERRORS)


class ChallengeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: StrictStr = Field(max_length=40, description="The challenged account's name.")
    game: StrictStr = Field(max_length=64, description="A game of two, by its name.")
    clock: StrictStr = Field(
        default="",
        max_length=20,
        description="A preset time control (`300+3`, `3d`: the Custom game page's), or ''.",
    )
    rated: StrictBool = Field(default=False, description="A rated game between the two.")


def _challenges(request: Request) -> ChallengeStore:
    store: ChallengeStore = request.app.state.challenges
    return store


def _manager(request: Request) -> GameManager:
    manager: GameManager = request.app.state.manager
    return manager


def challenge_json(request: Request, challenge: Challenge, me: Account) -> dict[str, Any]:
    """A challenge as the account ``me`` sees it (its link into the game, once accepted)."""
    catalog = _manager(request).catalog
    mine = challenge.challenger == me.id
    links = challenge.links or {}
    return {
        "id": challenge.id,
        "from": challenge.challenger_name,
        "to": challenge.challenged_name,
        "mine": mine,
        "game": challenge.game,
        "title": catalog.game_class(challenge.game).title,
        "clock": dict(PRESETS).get(challenge.clock, challenge.clock),
        "rated": challenge.rated,
        "status": challenge.status,
        "url": links.get("challenger" if mine else "challenged"),
    }


@router.post("/challenges", status_code=201, summary="Challenge an account to a game")
async def challenge(body: ChallengeRequest, request: Request, _payer: SessionPayer) -> Any:
    """``{"id", ...}``; 401 when signed out, 404 for an unknown account or game, 400 for a game
    that is not of two or a clock that is not a preset, 409 for oneself, for a challenge
    already waiting for that account, or past ``OPEN_PER_ACCOUNT`` waiting."""
    me = await require_account(request)
    other = await in_store(request, account_store(request).account_named, body.to)
    if other is None:
        raise WebError(404, "no_player", f"nobody here has the account name {body.to[:40]!r}")
    if other.id == me.id:
        raise WebError(409, "yourself", "a challenge is for another account, not your own")
    game_class = _manager(request).catalog.game_class(body.game)  # an unknown game: 404
    if game_class().info.num_players != 2:
        raise WebError(
            400, "bad_game", f"a challenge is a game of two: {game_class.title} is not one"
        )
    preset_control(body.clock)  # a clock that is not a preset: 400, nothing stored
    try:
        challenge_id = await in_store(
            request, _challenges(request).add, me.id, other.id, body.game, body.clock, body.rated
        )
    except ValueError as refusal:
        if str(refusal) == "already":
            raise WebError(
                409, "already_challenged", f"your challenge to {other.name} is waiting already"
            ) from None
        raise WebError(
            409,
            "too_many_challenges",
            f"you have {OPEN_PER_ACCOUNT} challenges waiting, the most at once: wait for "
            "their answers",
        ) from None
    found = await in_store(request, _challenges(request).get, challenge_id)
    assert found is not None
    return challenge_json(request, found, me)


@router.get("/challenges", summary="The signed-in account's challenges")
async def my_challenges(request: Request, _payer: ReadPayer) -> dict[str, Any]:
    """``{"incoming": [...], "outgoing": [...]}``: open challenges either way, and the
    answers to one's own of the last minutes (with the link into an accepted one's game)."""
    me = await require_account(request)
    found = await in_store(request, _challenges(request).of, me.id)
    shown = [challenge_json(request, c, me) for c in found]
    return {
        "incoming": [c for c in shown if not c["mine"] and c["status"] == "open"],
        "outgoing": [c for c in shown if c["mine"]],
    }


async def _open_for(request: Request, challenge_id: str, me: Account, side: str) -> Challenge:
    """The open challenge ``challenge_id`` of which ``me`` is the ``side``; else 404 or 409."""
    found = await in_store(request, _challenges(request).get, challenge_id)
    who = None if found is None else getattr(found, side)
    if found is None or who != me.id:
        raise WebError(404, "no_challenge", "there is no such challenge for you")
    if found.status != "open":
        raise WebError(409, "answered", f"this challenge is {found.status} already")
    return found


@router.post("/challenges/{challenge_id}/accept", summary="Accept a challenge: its game")
async def accept(challenge_id: str, request: Request, payer: GamePayer) -> dict[str, Any]:
    """Makes the game (seats drawn, each its account's; rated if asked) and answers its
    ``{"url"}`` for the accepting account; the challenger's pages find theirs."""
    me = await require_account(request)
    found = await _open_for(request, challenge_id, me, "challenged")
    # answered first, once: a double click or a second tab makes no second game
    if not await in_store(request, _challenges(request).answer, challenge_id, "accepted"):
        raise WebError(409, "answered", "this challenge was answered at the same moment")
    manager = _manager(request)
    accounts = [(found.challenger, found.challenger_name), (found.challenged, me.name)]
    random.SystemRandom().shuffle(accounts)
    seats = [{"kind": "human", "name": name} for _id, name in accounts]
    live = await manager.create(
        found.game, {}, seats, client=payer.client, clock=preset_control(found.clock)
    )
    store = account_store(request)
    for seat, (account_id, _name) in enumerate(accounts):
        await in_store(request, store.own_seat, live.id, seat, account_id)
    if found.rated:
        await start_rated(request, live)
    links = {
        ("challenger" if account_id == found.challenger else "challenged"): (
            f"/game/{live.id}?t={live.stored.seats[seat]['token']}"
        )
        for seat, (account_id, _name) in enumerate(accounts)
    }
    await in_store(request, _challenges(request).set_links, challenge_id, links)
    return {"url": links["challenged"], "id": live.id}


@router.post("/challenges/{challenge_id}/decline", summary="Decline a challenge")
async def decline(challenge_id: str, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    me = await require_account(request)
    await _open_for(request, challenge_id, me, "challenged")
    await in_store(request, _challenges(request).answer, challenge_id, "declined")
    return {"status": "declined"}


@router.post("/challenges/{challenge_id}/cancel", summary="Take back one's own challenge")
async def cancel(challenge_id: str, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    me = await require_account(request)
    await _open_for(request, challenge_id, me, "challenger")
    await in_store(request, _challenges(request).answer, challenge_id, "cancelled")
    return {"status": "cancelled"}
