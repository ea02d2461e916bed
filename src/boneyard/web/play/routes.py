"""The JSON API (OpenAPI at /docs): game kinds, new games, views, actions, hints, replays."""

from __future__ import annotations

from typing import Any

from fastapi import Query, Request

from boneyard.ai.levels import level_choices
from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import PAGE, GamePayer, GuardedRouter, HintPayer, Payer, Spend
from boneyard.web.guard.signin import own_seat, refuse_account_names, require_seat_holder
from boneyard.web.guard.turns import MovePayer, ReadPayer
from boneyard.web.play.live import LOG_IN_VIEW, LiveGame, render
from boneyard.web.play.manager import GameManager
from boneyard.web.play.own_views import OwnViewPayer
from boneyard.web.play.rated import check_rated, start_rated
from boneyard.web.play.views import log_lines, seat_view
from boneyard.web.schemas import (
    DIGITS,
    Act,
    CreatedGame,
    CreateGame,
    ErrorBody,
    Frame,
    GameKind,
    Hint,
    HintRequest,
    LogPage,
    SeatLink,
    View,
    number_in_path,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 403, 404, 409, 413, 422, 429, 503)
}

router = GuardedRouter(prefix="/api", responses=ERRORS)


def manager_of(request: Request) -> GameManager:
    manager: GameManager = request.app.state.manager
    return manager


def kind_json(manager: GameManager, name: str) -> dict[str, Any]:
    game_cls = manager.catalog.game_class(name)
    info = game_cls().info.to_json()
    return {
        "name": name,
        "title": game_cls.title,
        "info": info,
        "rules_url": f"/rules/{name}",
        "new_url": f"/new/{name}",
        "levels": level_choices(game_cls),
    }


def created_json(live: LiveGame) -> dict[str, Any]:
    base = f"/game/{live.id}"
    seats = []
    human_tokens = []
    for seat, info in enumerate(live.stored.seats):
        human = info["kind"] == "human"
        if human:
            human_tokens.append(info["token"])
        seats.append(
            SeatLink(
                seat=seat,
                label=live.seat_label(seat),
                kind=info["kind"],
                level=info["level"],
                token=info["token"] if human else None,
                url=f"{base}?t={info['token']}" if human else None,
            )
        )
    together = f"{base}?t={','.join(human_tokens)}" if len(human_tokens) > 1 else None
    return CreatedGame(
        id=live.id,
        game=live.game.name,
        params=dict(live.game.params),
        seed_hash=live.stored.seed_hash,
        seats=seats,
        spectator_url=base,
        replay_url=f"{base}/replay",
        together_url=together,
    ).model_dump()


@router.get(
    "/kinds",
    response_model=list[GameKind],
    summary="The games this server offers",
    dependencies=[PAGE],
)
async def kinds(request: Request) -> list[dict[str, Any]]:
    manager = manager_of(request)
    return [kind_json(manager, name) for name in manager.catalog.names()]


@router.get(
    "/kinds/{name}",
    response_model=GameKind,
    summary="One game: parameters, seats",
    dependencies=[PAGE],
)
async def kind(name: str, request: Request) -> dict[str, Any]:
    return kind_json(manager_of(request), name)


@router.post("/games", response_model=CreatedGame, status_code=201, summary="Create a game")
async def create_game(body: CreateGame, request: Request, payer: GamePayer) -> dict[str, Any]:
    """Refused with 429 past the server's games per client a minute, 503 when its memory for
    live games is full or setting the game up takes too long (nothing is stored then)."""
    manager = manager_of(request)
    seats = None if body.seats is None else [seat.model_dump() for seat in body.seats]
    await refuse_account_names(request, *(seat["name"] for seat in seats or []))
    if body.rated:
        await check_rated(request, seats)
    live = await manager.create(
        body.game, dict(body.params), seats, client=payer.client, hints=body.hints,
        clock=None if body.clock is None else body.clock.control(),
    )  # fmt: skip
    if body.rated:
        await start_rated(request, live)
    people = [s for s, info in enumerate(live.stored.seats) if info["kind"] == "human"]
    if people:  # the creator's seat is the first person's (the others are invitations)
        await own_seat(request, live.id, people[0])
    return created_json(live)


@router.get("/games/{game_id}", response_model=View, summary="What one seat sees")
async def view(
    game_id: str,
    request: Request,
    payer: OwnViewPayer,
    token: str | None = None,
    draw: bool = True,
) -> dict[str, Any]:
    """With a seat's ``token``: that seat's view; without: a spectator's. ``draw=false``
    leaves out the board drawing."""
    live = await manager_of(request).get(game_id, payer=payer)
    seat = live.seat_of(token)
    await require_seat_holder(request, live.id, seat)
    return seat_view(live, seat, draw)


@router.post("/games/{game_id}/actions", response_model=View, summary="Play an action")
async def act(game_id: str, body: Act, request: Request, payer: MovePayer) -> dict[str, Any]:
    """Refused (nothing changes) when the token is wrong or its seat passed to the computer
    (403), ``seq`` is stale (409), it is not the seat's turn (409) or the action is malformed or
    illegal (422)."""
    manager = manager_of(request)
    live = await manager.get(game_id, payer=payer)
    seat = live.seat_of(body.token)
    await require_seat_holder(request, live.id, seat)
    if (body.action is None) == (body.action_string is None):
        raise WebError(422, "bad_action", "send exactly one of 'action' (id) or 'action_string'")
    action: int | str = body.action if body.action is not None else str(body.action_string)
    await manager.act_as_person(live, seat, body.seq, action, client=payer.client)
    return seat_view(live, seat)


@router.post("/games/{game_id}/hint", response_model=Hint, summary="Ask the computer for a move")
async def hint(
    game_id: str, body: HintRequest, request: Request, payer: HintPayer
) -> dict[str, Any]:
    manager = manager_of(request)
    live = await manager.get(game_id, payer=payer)
    seat = live.seat_of(body.token)
    for held in [seat, *(live.seat_of(other) for other in body.tokens or [])]:
        await require_seat_holder(request, live.id, held)
    return await manager.hint(live, seat, body.tokens, client=payer.client)


@router.get("/games/{game_id}/log", response_model=LogPage, summary="Earlier moves of the log")
async def log_page(
    game_id: str,
    request: Request,
    payer: OwnViewPayer,
    token: str | None = None,
    before: str | None = Query(
        None, pattern=DIGITS, description="the sequence number the lines end before (none: the end)"
    ),
    words_too: bool = True,
) -> dict[str, Any]:
    """The move log's lines before ``before`` (at most 100), as the seat of ``token`` (none: a
    spectator) saw them: a view carries only the latest lines, and a page asks for the rest
    page by page, each a read."""
    live = await manager_of(request).get(game_id, payer=payer)
    seat = live.seat_of(token)
    await require_seat_holder(request, live.id, seat)
    stop = live.seq if before is None else min(int(before), live.seq)
    start = max(0, stop - LOG_IN_VIEW)
    column = live.num_seats if seat is None else seat
    return {"log_from": start, "log": log_lines(live, column, start, stop, words_too)}


@router.get("/games/{game_id}/replay/{step}", response_model=Frame, summary="A replay step")
async def replay_frame(
    game_id: str,
    request: Request,
    payer: ReadPayer,
    step: str = number_in_path("actions played, 0 to the end"),
) -> dict[str, Any]:
    """The position after ``step`` actions, as a spectator saw it (finished games only). A
    frame of a long game not replayed lately costs more reads (its snapshots are made)."""
    return await _frame(manager_of(request), payer, game_id, int(step))


async def _frame(manager: GameManager, payer: Payer, game_id: str, step: int) -> dict[str, Any]:
    live = await manager.get(game_id, payer=payer)
    if manager.settings.replay_finished_only and not live.over:
        raise WebError(409, "not_finished", "a game can be replayed once it is over")
    steps = live.seq
    if not 0 <= step <= steps:
        raise WebError(404, "bad_step", f"step is 0 to {steps}, not {step}")
    extra = manager.replays.cost(live, step) - 1
    if extra > 0:
        payer.charge(Spend.READ, extra)
    state = await manager.state_at(live, step)
    observation = state.observation(None)
    svg, text = render(live.game, observation)
    spectator = live.num_seats
    return {
        "step": step,
        "steps": steps,
        "status": f"after {step} of {steps} actions",
        "observation": observation,
        "svg": svg,
        "text": text,
        "log_from": max(0, step - LOG_IN_VIEW),
        "log": log_lines(live, spectator, max(0, step - LOG_IN_VIEW), step, True),
        "seats": [
            {"seat": s, "label": live.seat_label(s), "kind": live.stored.seats[s]["kind"]}
            for s in range(live.num_seats)
        ],
        "seed": live.stored.seed if live.over else None,
        "seed_hash": live.stored.seed_hash,
    }
