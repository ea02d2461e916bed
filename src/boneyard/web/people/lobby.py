"""Open games, the lobby, light identities and the continuing Obonto game between two people.

- A light identity is a display name and a secret the browser keeps (no sign-up): the server
  stores the secret's hash only.
- An open game is created with the other human seats open and listed in the lobby; *Join* takes
  a free seat and answers that seat's link. Live games may be watched from the lobby.
- Obonto between two known people (obonto.txt): "between any two people there is only one
  continuing Obonto game". When two people meet over Obonto again, the join leads both to their
  continuing game: resumed where it stands when unfinished, otherwise continued from its end
  (animals where they stood, the loser first, the totals carried).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from boneyard.core.spec import spec_of
from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import PAGE, GamePayer, GuardedRouter, PersonPayer
from boneyard.web.guard.signin import own_seat, refuse_account_names
from boneyard.web.guard.turns import LookupPayer, ReadPayer
from boneyard.web.names import NAME_LIMIT, distinct_name, given_name
from boneyard.web.pages.routes import templates
from boneyard.web.people.ratings import seat_ratings_json
from boneyard.web.play.clocks import PRESETS, SPEEDS, clock_summary
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.play.rated import check_rated, start_rated
from boneyard.web.play.routes import ERRORS, kind_json
from boneyard.web.play.views import seat_view
from boneyard.web.schemas import (
    CLOCK_CHOICE,
    HINTS_CHOICE,
    RATED_CHOICE,
    ClockSpec,
    ParamValue,
    SeatSpec,
)
from boneyard.web.store.clocks import ClockStore
from boneyard.web.store.ratings import RatingStore
from boneyard.web.store.sessions import SeriesGame
from boneyard.web.table.series import pair_key
from boneyard.web.table.session import session_of
from boneyard.web.table.sessions import SessionManager

router = GuardedRouter(prefix="/api", responses=ERRORS)
pages = GuardedRouter(include_in_schema=False)


class PersonIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: StrictStr
    secret: StrictStr


class NewPerson(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(
        min_length=1,
        max_length=200,
        description="The name others see: one line of visible text (no direction controls, "
        f"not only invisible characters), trimmed to {NAME_LIMIT} characters.",
    )


class OpenGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: StrictStr
    params: dict[str, ParamValue] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(
        default=None, description="One entry per seat; default: every seat a person."
    )
    seat: StrictInt = Field(default=0, description="The seat the creator takes.")
    person: PersonIn | None = None
    listed: bool = Field(default=True, description="Show it in the lobby.")
    hints: StrictBool = Field(default=False, description=HINTS_CHOICE)
    rated: StrictBool = Field(default=False, description=RATED_CHOICE)
    clock: ClockSpec | None = Field(default=None, description=CLOCK_CHOICE)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    person: PersonIn | None = None


def _managers(request: Request) -> tuple[GameManager, SessionManager]:
    return request.app.state.manager, request.app.state.sessions


async def _person(sessions: SessionManager, given: PersonIn | None) -> dict[str, str] | None:
    if given is None:
        return None
    found: dict[str, str] | None = await sessions.manager.in_store(
        sessions.store.person, given.id, given.secret
    )
    if found is None:
        raise WebError(403, "wrong_person", "that name's secret does not match: make a new one")
    return found


@router.post("/people", status_code=201, summary="A light identity: a name and a secret")
async def new_person(body: NewPerson, request: Request, _payer: PersonPayer) -> dict[str, str]:
    """Answers ``{"id", "name", "secret"}``; the browser keeps the secret (it is shown once)."""
    _manager, sessions = _managers(request)
    name = given_name(body.name)
    await refuse_account_names(request, name)
    person_id, secret = secrets.token_urlsafe(12), secrets.token_urlsafe(24)
    await sessions.manager.in_store(sessions.store.add_person, person_id, name, secret)
    return {"id": person_id, "name": name, "secret": secret}


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid")

    secret: StrictStr
    name: StrictStr = Field(
        min_length=1, max_length=200, description=NewPerson.model_fields["name"].description
    )


@router.post("/people/{person_id}/name", summary="Change the name others see")
async def rename(
    person_id: str, body: Rename, request: Request, _payer: PersonPayer
) -> dict[str, str]:
    _manager, sessions = _managers(request)
    await _person(sessions, PersonIn(id=person_id, secret=body.secret))
    name = given_name(body.name)
    await refuse_account_names(request, name)
    await sessions.manager.in_store(sessions.store.rename_person, person_id, name)
    return {"id": person_id, "name": name}


@router.post("/people/{person_id}/games", summary="A person's continuing games")
async def person_games(
    person_id: str, body: PersonIn, request: Request, _payer: LookupPayer
) -> list[dict[str, Any]]:
    """Each continuing game with this person's own link into it (proved by the secret). The
    body's ``id`` must be the address's ``person_id`` (else 400)."""
    manager, sessions = _managers(request)
    if body.id != person_id:
        raise WebError(400, "bad_request", "the body's id is not the address's")
    await _person(sessions, body)
    found = []
    for _pair, game_id in await manager.read_store(sessions.store.continuing_of, person_id):
        live = await manager.get(game_id)
        series = session_of(live).series
        if series is None or person_id not in series.people:
            continue
        seat = series.people.index(person_id)
        token = live.stored.seats[seat]["token"]
        view = seat_view(live, seat, draw=False)
        names = await _names(manager, sessions, series)
        found.append(
            {
                "id": live.id,
                "tokens": [token],
                "title": live.game.title,
                "game": live.game.name,
                "opponents": [n for s, n in enumerate(names) if s != seat],
                "status": view["status"],
                "yourMove": view["current_player"] == seat and not view["terminal"],
                "over": view["terminal"],
                "continuing": True,
            }
        )
    return found


async def _names(manager: GameManager, sessions: SessionManager, series: SeriesGame) -> list[str]:
    known = await manager.read_store(sessions.store.names, [p for p in series.people if p])
    return [known.get(p, "Someone") if p else "Someone" for p in series.people]


@router.post("/open", status_code=201, summary="Create a game with open seats")
async def open_game(body: OpenGame, request: Request, payer: GamePayer) -> dict[str, Any]:
    """The creator takes ``seat``; the other human seats wait for someone to *Join* (listed in
    the lobby unless ``listed`` is false). Answers the creator's link."""
    manager, sessions = _managers(request)
    person = await _person(sessions, body.person)
    game_class = manager.catalog.game_class(body.game)  # unknown: 404 before any set-up
    # Where the rules draw for seats, a creator who chose none gets one at random.
    draw_seat = (
        "seat" not in body.model_fields_set and spec_of(game_class).series.random_first_seats
    )
    creator = body.seat
    if body.seats is not None:
        await refuse_account_names(request, *(seat.name for seat in body.seats))
    if body.rated:
        await check_rated(
            request, None if body.seats is None else [s.model_dump() for s in body.seats]
        )

    def seats(count: int) -> list[dict[str, Any]]:
        """Every seat a person unless given: the game's seat count comes from its set-up in
        the work pool, within the server's parameter limits (never built here on the loop)."""
        chosen = (
            [{"kind": "human"} for _ in range(count)]
            if body.seats is None
            else [seat.model_dump() for seat in body.seats]
        )
        nonlocal creator
        if draw_seat:
            people = [s for s, seat in enumerate(chosen) if seat["kind"] == "human"]
            creator = secrets.SystemRandom().choice(people) if people else creator
        if not 0 <= creator < len(chosen) or chosen[creator]["kind"] != "human":
            raise WebError(400, "bad_seats", "the creator's seat must be one of the people's seats")
        return chosen

    live = await manager.create(
        body.game, dict(body.params), seats, client=payer.client, hints=body.hints,
        clock=None if body.clock is None else body.clock.control(), clock_waits=True,
    )  # fmt: skip
    open_seats = [
        s for s, info in enumerate(live.stored.seats) if info["kind"] == "human" and s != creator
    ]
    if not open_seats:
        raise WebError(400, "bad_seats", "an open game needs a seat for someone else to join")
    if body.rated:
        await start_rated(request, live)
    await own_seat(request, live.id, creator)
    people: list[str | None] = [None] * live.num_seats
    people[creator] = person["id"] if person else None
    entry = SeriesGame(
        game_id=live.id,
        series_id=live.id,
        number=1,
        members=list(range(live.num_seats)),
        people=people,
        next_game=None,
        open_seats=open_seats,
        listed=body.listed,
        created=time.time(),
        carried={},
    )
    await manager.in_store(sessions.store.add_series_game, entry, None)
    session_of(live).series = entry
    token = live.stored.seats[creator]["token"]
    return {"id": live.id, "url": f"/game/{live.id}?t={token}", "token": token}


@router.post("/open/{game_id}/join", summary="Take a free seat of an open game")
async def join(game_id: str, body: Join, request: Request, payer: GamePayer) -> dict[str, Any]:
    """Answers the new seat's link. Two people meeting again over Obonto are both sent to their
    continuing game instead."""
    manager, sessions = _managers(request)
    person = await _person(sessions, body.person)
    live = await manager.get(game_id)
    session = session_of(live)
    series = session.series
    if series is None or not series.open_seats:
        raise WebError(409, "full", "this game has no free seat any more")
    if live.over:
        raise WebError(409, "game_over", "this game is over")
    if person is not None and person["id"] in series.people:
        raise WebError(409, "already_seated", "you already have a seat in this game")
    if person is not None:  # the lobby shows who sits at each table: no two look alike
        seated = await manager.in_store(sessions.store.names, [p for p in series.people if p])
        distinct_name(person["name"], seated.values())
    seat = series.open_seats[0]
    taken = await manager.in_store(
        sessions.store.fill_seat, live.id, seat, person["id"] if person else None
    )
    if not taken:
        raise WebError(409, "full", "someone else took that seat first: try another game")
    await own_seat(request, live.id, seat)
    fresh = await manager.in_store(sessions.store.series_game, live.id)
    session.series = fresh
    async with live.lock:
        await manager.announce(live, live.seq)  # a seat taken: the game may start
    if (
        fresh is not None
        and person is not None
        and live.game.spec.series.continues
        and all(fresh.people)
    ):
        moved = await _continuing(manager, sessions, live, fresh, person["id"], payer.client)
        if moved is not None:
            return moved
    token = live.stored.seats[seat]["token"]
    return {"id": live.id, "url": f"/game/{live.id}?t={token}", "token": token}


async def _continuing(
    manager: GameManager,
    sessions: SessionManager,
    live: LiveGame,
    entry: SeriesGame,
    joiner: str,
    client: str,
) -> dict[str, Any] | None:
    """Lead two people who meet again to their one continuing game, or make this one it."""
    pair = pair_key(live.game.name, entry.people)
    previous_id = await manager.in_store(sessions.store.continuing, pair)
    if previous_id is None or previous_id == live.id:
        await manager.in_store(sessions.store.set_continuing, pair, live.id)
        return None
    previous = await manager.get(previous_id)
    if previous.over:
        # Continue from its end: a rematch of the last game keeps the people in their seats.
        seat = next(iter(_seats_of(previous, entry.people[0])), 0)
        await sessions.rematch(previous, seat, client)
        target_id = session_of(previous).series.next_game  # type: ignore[union-attr]
        assert target_id is not None
        target = await manager.get(target_id)
    else:
        target = previous
    target_series = session_of(target).series
    assert target_series is not None
    # This open game is replaced: each person's page follows its own link to the pair's game.
    await manager.in_store(sessions.load_moved_urls, session_of(live), target.id)
    await sessions.replace_game(live, target.id)
    await manager.in_store(sessions.store.set_continuing, pair, target.id)
    joiner_seat = target_series.people.index(joiner)
    token = target.stored.seats[joiner_seat]["token"]
    return {"id": target.id, "url": f"/game/{target.id}?t={token}", "token": token}


def _seats_of(live: LiveGame, person: str | None) -> list[int]:
    series = session_of(live).series
    if series is None or person is None:
        return []
    return [s for s, p in enumerate(series.people) if p == person]


@router.get("/lobby", summary="Open games waiting for players, and live games to watch")
async def lobby(request: Request, _payer: ReadPayer) -> dict[str, Any]:
    """Read on the store's reader threads: a lobby read never waits behind a move's commit,
    nor a commit behind it."""
    return await _lobby(
        *_managers(request), request.app.state.ratings, request.app.state.clocks.store
    )


async def _lobby(
    manager: GameManager, sessions: SessionManager, ratings: RatingStore, clocks: ClockStore
) -> dict[str, Any]:
    entries = await manager.read_store(sessions.store.listed_games)
    # Games between people made elsewhere (quick pairing, invitations, arenas) to watch too.
    listed_ids = {e.game_id for e in entries}
    others = [
        (game_id, seat_names)
        for game_id, seat_names in await manager.read_store(sessions.store.games_between_people)
        if game_id not in listed_ids
    ]
    ids = [e.game_id for e in entries] + [game_id for game_id, _ in others]
    finished = await manager.read_store(sessions.store.finished_ids, ids)
    rated = await manager.read_store(ratings.rated_ids, ids)
    accounts = await manager.read_store(ratings.seat_ratings, ids)
    names = await manager.read_store(sessions.store.game_names, ids)
    controls = await manager.read_store(clocks.controls, ids)
    created = await manager.read_store(sessions.store.created_of, ids)
    people = await manager.read_store(
        sessions.store.names, sorted({p for e in entries for p in e.people if p})
    )
    waiting: list[dict[str, Any]] = []
    live_games: list[dict[str, Any]] = []

    def item(game_id: str, people_names: list[str | None], open_seats: list[int]) -> dict[str, Any]:
        name, params, hints_on = names[game_id]
        kind = kind_json(manager, name)
        return {
            "id": game_id,
            "game": name,
            "title": kind["title"],
            "params": _params_words(kind, params),
            "hints_on": hints_on,
            "rated": game_id in rated,
            "clock": clock_summary(controls.get(game_id)),
            "ratings": seat_ratings_json(accounts.get(game_id, {}), len(people_names)),
            "people": people_names,
            "open_seats": open_seats,
            "watch_url": f"/game/{game_id}",
            "created": created.get(game_id),
        }

    for entry in entries:
        if entry.game_id in finished or entry.game_id not in names:
            continue
        shown = [people.get(p, "Someone") if p else None for p in entry.people]
        listing = waiting if entry.open_seats else live_games
        listing.append(item(entry.game_id, shown, entry.open_seats))
    for game_id, seat_names in others:
        if game_id not in finished and game_id in names:
            live_games.append(item(game_id, [n or "Someone" for n in seat_names], []))
    return {"waiting": waiting, "live": live_games}


def _params_words(kind: dict[str, Any], params: dict[str, Any]) -> str:
    """The parameters that differ from the defaults, as "games 3, wild on, setup: at random"."""
    specs = {spec["name"]: spec for spec in kind["info"]["parameter_specs"]}
    changed = [
        _param_words(specs[name], value)
        for name, value in params.items()
        if name in specs and value != specs[name]["default"]
    ]
    return ", ".join(changed) or "the usual rules"


def _param_words(spec: dict[str, Any], value: Any) -> str:
    name = spec["name"].replace("_", " ")
    if isinstance(value, bool):
        return f"{name} {'on' if value else 'off'}"
    if spec["choices"] and spec["choice_labels"] and value in spec["choices"]:
        label = spec["choice_labels"][spec["choices"].index(value)]
        return f"{name}: {label[:1].lower()}{label[1:]}"  # the Custom game form's words
    return f"{name} {value}"


@pages.get("/lobby", response_class=HTMLResponse, dependencies=[PAGE])
async def lobby_page(request: Request) -> Any:
    manager, _sessions = _managers(request)
    kinds = [kind_json(manager, name) for name in manager.catalog.names()]
    shown = [k for k in kinds if k["info"]["max_players"] > 1]
    return templates.TemplateResponse(
        request, "lobby.html", {"kinds": shown, "clock_presets": PRESETS, "speeds": SPEEDS}
    )
