"""Server-rendered pages: home, new game, game, replay, rules. Small ES modules do the rest."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from boneyard.ai.levels import is_level_name
from boneyard.core.game import CHANCE, Game
from boneyard.core.phrasing import capital
from boneyard.core.rules_pages import page_markdown
from boneyard.core.spec import spec_of
from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import PAGE, GamePayer, GuardedRouter
from boneyard.web.guard.signin import (
    other_owner,
    own_seat,
    page_context,
    refuse_account_names,
    require_seat_holder,
)
from boneyard.web.guard.turns import ReadPayer
from boneyard.web.pages.markdown import to_html
from boneyard.web.play import words
from boneyard.web.play.clocks import PRESETS, preset_control
from boneyard.web.play.live import LiveGame, render
from boneyard.web.play.manager import GameManager
from boneyard.web.play.own_views import OwnViewPayer
from boneyard.web.play.rated import RATED_SEATS, check_rated, start_rated
from boneyard.web.play.routes import created_json, kind_json
from boneyard.web.schemas import (
    LevelText,
    ParamValue,
    PersonName,
    SeatSpec,
    form_fields,
    parse_form,
)

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates", context_processors=[page_context])
router = GuardedRouter(include_in_schema=False)


def wants_html(request: Request) -> bool:
    """Errors on pages are pages; errors of the API (and anything else) are JSON."""
    return not request.url.path.startswith(
        ("/api/", "/ws/", "/static", "/openapi", "/docs", "/redoc")
    )


def error_page(request: Request, status: int, detail: str) -> Any:
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "detail": detail}, status_code=status
    )


def _manager(request: Request) -> GameManager:
    manager: GameManager = request.app.state.manager
    return manager


@router.get("/favicon.ico", dependencies=[PAGE])
async def favicon() -> Response:
    return Response(status_code=204)


@router.get("/", response_class=HTMLResponse, dependencies=[PAGE])
async def home(request: Request) -> Any:
    manager = _manager(request)
    kinds = []
    for name in manager.catalog.names():
        kind = _kind_in_words(manager, name)
        kind["pitch"] = manager.catalog.game_class(name).pitch
        kind["picture"] = _start_picture(manager.catalog.game_class(name)) is not None
        # A game with a ladder of puzzles deals a level of it (and its page leads on to the next).
        ladder = spec_of(manager.catalog.game_class(name)).ladder
        kind["ladder"] = (
            None
            if ladder is None
            else [(level, ladder.value_of_level(level)) for level in range(1, ladder.levels + 1)]
        )
        # A game for a number of players asks how many beside Play a friend (Bon-Bon).
        players = _players_spec(kind["info"])
        kind["friends_counts"] = (
            None if players is None else list(range(players["minimum"], players["maximum"] + 1))
        )
        kinds.append(kind)
    return templates.TemplateResponse(
        request, "home.html", {"kinds": kinds, "clock_presets": PRESETS}
    )


def _kind_in_words(manager: GameManager, name: str) -> dict[str, Any]:
    """A kind of game for a page: its levels in a player's words ("Level 3 of 5 · medium"),
    never the measured ratings, which read like a player's rating and are not one."""
    kind = kind_json(manager, name)
    game_class = manager.catalog.game_class(name)
    kind["levels"] = [
        {**level, "words": capital(words.level_words(game_class, level["number"]))}
        for level in kind["levels"]
    ]
    return kind


def _players_spec(info: dict[str, Any]) -> dict[str, Any] | None:
    """The ``players`` parameter of a game played by a number of players, or None."""
    return next((p for p in info["parameter_specs"] if p["name"] == "players"), None)


PICTURE_STEPS = 60
"""Actions played (at most) before the home page's picture of a game: a game in progress says
more than an empty board (Bond O Cones' set-up alone is 34 of them)."""


@lru_cache(maxsize=64)
def _start_picture(game_cls: type[Game]) -> str | None:
    """The game's own drawing of a game in progress, as a spectator sees it: random legal
    actions from a fixed seed, stopped before the end, at the fullest drawing on the way (the
    most on the table: a round of cards under way, not one just begun)."""
    game = game_cls()
    state = game.new_initial_state()
    rng = random.Random(f"picture {game.name}")
    fullest, _text = render(game, state.observation(None))
    for _ in range(PICTURE_STEPS):
        if state.current_player() == CHANCE:
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, weights)[0]
        else:
            action = rng.choice(state.legal_actions())
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal():
            break
        state = after
        svg, _text = render(game, state.observation(None))
        if svg is not None and fullest is not None and len(svg) > len(fullest):
            fullest = svg
    return fullest


@router.get("/picture/{name}.svg", dependencies=[PAGE])
async def start_picture(name: str, request: Request) -> Response:
    svg = _start_picture(_manager(request).catalog.game_class(name))
    if svg is None:
        raise WebError(404, "not_found", f"{name} has no picture")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


def _form_context(manager: GameManager, name: str) -> dict[str, Any]:
    kind = _kind_in_words(manager, name)
    info = kind["info"]
    players_spec = _players_spec(info)
    return {
        "kind": kind,
        "players_spec": players_spec,
        "specs": [spec for spec in info["parameter_specs"] if spec is not players_spec],
        "max_seats": info["max_players"],
        "seats_from_players": players_spec is not None,
        "default_seats": info["num_players"],
        "seat_names": info["seat_names"],
        "levels": kind["levels"],
        "values": {},
        "choices": {},
        "error": None,
        "clock_presets": PRESETS,
    }


@router.get("/new/{name}", response_class=HTMLResponse, dependencies=[PAGE])
async def new_game_form(name: str, request: Request) -> Any:
    return templates.TemplateResponse(request, "new.html", _form_context(_manager(request), name))


SEAT_FIELD = re.compile(r"(seat|name)([0-9]{1,2})")
"""A seat's fields of the new-game form: ``seat3`` (a person or a level) and ``name3``."""


class SeatForm(BaseModel):
    """One seat of the new-game form: ``human`` or a computer level, and a person's name."""

    model_config = ConfigDict(extra="forbid")

    choice: LevelText | None = None
    """``human``, or a computer level."""
    name: PersonName | None = None


class NewGameForm(BaseModel):
    """The new-game forms' fields (*Custom game* and the home page's one-click forms), read
    into the API's own types before anything is built."""

    model_config = ConfigDict(extra="forbid")

    params: dict[str, ParamValue] = Field(default_factory=dict)
    seats: dict[int, SeatForm] = Field(default_factory=dict)
    level: LevelText | None = None
    """The home page's one-click game: every seat after the first a computer at this level."""
    friends: StrictStr | None = Field(default=None, max_length=20)
    """The home page's *Play a friend*: every seat a person."""
    hints: Literal["on", ""] | None = None
    rated: Literal["on", ""] | None = None
    """A rated game between accounts: every seat a person, the creator signed in."""
    clock: StrictStr | None = Field(default=None, max_length=20)
    """A time control of ``PRESETS`` (``web/play/clocks.py``), empty for none."""


def form_field_name(where: tuple[Any, ...]) -> str:
    """A ``NewGameForm`` field named as the form sends it: ``seats.1.name`` is ``name1``."""
    if len(where) == 3 and where[0] == "seats":
        return f"{'seat' if where[2] == 'choice' else 'name'}{where[1]}"
    if len(where) >= 2 and where[0] == "params":
        return f"p_{where[1]}"
    return ".".join(str(part) for part in where)


def new_game_fields(fields: dict[str, str]) -> dict[str, Any]:
    """The form's flat fields as ``NewGameForm`` reads them. An empty parameter means "the
    default": it is never passed on (an empty start position is not a start position)."""
    shaped: dict[str, Any] = {"params": {}, "seats": {}}
    for key, value in fields.items():
        seat_field = SEAT_FIELD.fullmatch(key)
        if key.startswith("p_"):
            if value.strip() != "":
                shaped["params"][key[2:]] = value
        elif seat_field is not None:
            which = "choice" if seat_field[1] == "seat" else "name"
            shaped["seats"].setdefault(int(seat_field[2]), {})[which] = value
        else:
            shaped[key] = value  # the form's own fields, or an unknown one it refuses
    return shaped


@router.post("/new/{name}", response_class=HTMLResponse)
async def new_game(name: str, request: Request, payer: GamePayer) -> Any:
    manager = _manager(request)
    game_class = manager.catalog.game_class(name)  # an unknown game: 404
    fields = await form_fields(request)
    context = _form_context(manager, name)
    shaped = new_game_fields(fields)
    context["values"] = shaped["params"]
    context["choices"] = {
        k: v for k, v in fields.items() if k.startswith("seat") or k in ("hints", "clock", "rated")
    }
    try:
        form = parse_form(NewGameForm, shaped, form_field_name)
    except WebError as error:
        context["error"] = error.detail
        return templates.TemplateResponse(request, "new.html", context, status_code=error.status)
    given = dict(form.params)
    quick = str(form.level) if form.level is not None else ""
    if form.level is None and form.friends is not None:
        quick = "friends"

    def seats(count: int) -> list[dict[str, Any]]:
        chosen = []
        for seat in range(count):
            default = "human" if seat == 0 or quick in ("", "friends") else quick
            sent = form.seats.get(seat, SeatForm())
            choice = default if sent.choice is None else sent.choice
            if choice == "human":
                chosen.append(SeatSpec(kind="human", name=sent.name).model_dump())
            elif form.rated == "on":
                raise WebError(400, "bad_seats", RATED_SEATS)
            elif is_level_name(choice):
                chosen.append(SeatSpec(kind="computer", level=choice).model_dump())
            else:
                raise WebError(
                    400, "bad_seats", f"each seat is a person or a computer level, not {choice!r}"
                )
        if quick and spec_of(game_class).series.random_first_seats:
            # A one-click game chose no seat: the rules draw for it.
            random.SystemRandom().shuffle(chosen)
        return chosen

    try:
        await refuse_account_names(request, *(seat.name for seat in form.seats.values()))
        await _check_rated_form(request, form, quick)
        live = await manager.create(
            name, given, seats, client=payer.client, hints=form.hints == "on",
            clock=preset_control(form.clock),
        )  # fmt: skip
    except WebError as error:
        context["error"] = error.detail
        return templates.TemplateResponse(request, "new.html", context, status_code=error.status)
    await _start_rated_form(request, live, form)
    return await _to_the_new_game(request, live)


async def _start_rated_form(request: Request, live: LiveGame, form: NewGameForm) -> None:
    """Note the new game rated when its form asked for it."""
    if form.rated == "on":
        await start_rated(request, live)


async def _check_rated_form(request: Request, form: NewGameForm, quick: str) -> None:
    """Refuse, before anything is made, a rated game the form may not ask for: its creator
    signed in (its seats, all people's, are checked as they are made), and not a one-click
    game against the computer."""
    if form.rated != "on":
        return
    await check_rated(request, None if quick in ("", "friends") else [{"kind": "computer"}])


async def _to_the_new_game(request: Request, live: LiveGame) -> RedirectResponse:
    """Where a new game's creator goes: the board (one person against the computer) or the
    page of every person's invite link."""
    humans = [seat for seat in created_json(live)["seats"] if seat["url"]]
    if humans:  # a signed-in creator's seat is the first person's
        await own_seat(request, live.id, humans[0]["seat"])
    if len(humans) == 1:
        # One person against the computer: straight to the board.
        return RedirectResponse(humans[0]["url"], status_code=303)
    # Post/Redirect/Get: the invite page is reached by a GET, so reloading it makes no game.
    every_person = ",".join(str(seat["token"]) for seat in humans)
    return RedirectResponse(f"/game/{live.id}/invite?t={every_person}", status_code=303)


@router.get("/game/{game_id}/invite", response_class=HTMLResponse)
async def invite_page(game_id: str, request: Request, payer: OwnViewPayer, t: str = "") -> Any:
    """Every person's link of a new game, for whoever holds them all (its creator)."""
    live = await _manager(request).get(game_id, payer=payer)
    given = {live.seat_of(token) for token in t.split(",") if token}
    for seat in given:
        await require_seat_holder(request, live.id, seat)
    people = {seat for seat, info in enumerate(live.stored.seats) if info["kind"] == "human"}
    if given != people:
        raise WebError(403, "wrong_token", "the invite page is opened with every person's link")
    names = [words.display_name(live, seat) for seat in range(live.num_seats)]
    created = created_json(live)
    return templates.TemplateResponse(
        request,
        "created.html",
        {"created": created, "names": names, "title": live.game.title, "rated": live.rated},
    )


@router.get("/game/{game_id}", response_class=HTMLResponse)
async def game_page(game_id: str, request: Request, payer: OwnViewPayer, t: str = "") -> Any:
    live = await _manager(request).get(game_id, payer=payer)
    tokens = [token for token in t.split(",") if token]
    seats = [live.seat_of(token) for token in tokens]
    tournaments = request.app.state.tournaments
    arena = (await _manager(request).read_store(tournaments.tournament_of_games, [game_id])).get(
        game_id
    )
    here = f"/game/{game_id}?t={','.join(tokens)}" if tokens else f"/game/{game_id}"
    # A seat that is an account's opens only with its session: else the page watches, and
    # says whose seat it is (never the seat's hidden information).
    owners = [await other_owner(request, live.id, seat) for seat in seats]
    others = [owner for owner in owners if owner is not None]
    tokens = [token for token, owner in zip(tokens, owners) if owner is None]
    seats = [seat for seat, owner in zip(seats, owners) if owner is None]
    return templates.TemplateResponse(
        request,
        "game.html",
        {
            "game_id": game_id,
            "title": live.game.title,
            "name": live.game.name,
            "tokens": tokens,
            "seats": seats,
            "owned_elsewhere": others[0] if others else None,
            "log_in_here": "/login?" + urlencode({"next": here}),
            "hidden_information": not live.game.perfect_information,
            "how_to_play": live.game.how_to_play,
            # a seen page says "watching" three times in the server's watch_seconds
            "watching_ms": round(_manager(request).settings.watch_seconds * 1000 / 3),
            "timed": live.clock is not None,  # the clocks' script and socket only where needed
            "arena": arena,  # the tournament it is a game of: a way back to it
        },
    )


@router.get("/game/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(game_id: str, request: Request, payer: ReadPayer) -> Any:
    live = await _manager(request).get(game_id, payer=payer)  # its moves said in words off the loop
    finished = live.over
    # (a game still played shows no steps: its moves need not be put in words yet)
    stops, count = words.replay_stops(live) if finished else ("0", 1)
    return templates.TemplateResponse(
        request,
        "replay.html",
        {
            "game_id": game_id,
            "title": live.game.title,
            "name": live.game.name,
            "finished": finished,
            "steps": live.seq,
            "stops": stops,
            "last_stop": count - 1,
        },
    )


@router.get("/rules/img/{filename}", dependencies=[PAGE])
async def rules_image(filename: str, request: Request) -> Response:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", filename) or filename.startswith("."):
        raise WebError(404, "not_found", f"no image {filename!r}")
    path: Path = request.app.state.rules_dir / "img" / filename
    if not path.is_file():
        raise WebError(404, "not_found", f"no image {filename!r}")
    return FileResponse(path)


@router.get("/rules/{name}", response_class=HTMLResponse, dependencies=[PAGE])
async def rules_page(name: str, request: Request) -> Any:
    manager = _manager(request)
    game_cls = manager.catalog.game_class(name)
    body = to_html(page_markdown(game_cls, request.app.state.rules_dir))
    # "What this game is like" (docs/rules/<game>-like.md, from `boneyard analyze`), if written
    like_path: Path = request.app.state.rules_dir / f"{name}-like.md"
    like = to_html(like_path.read_text(encoding="utf-8")) if like_path.is_file() else None
    info = game_cls().info.to_json()
    return templates.TemplateResponse(
        request,
        "rules.html",
        {
            "title": game_cls.title,
            "name": name,
            "body": body,
            "like": like,
            "specs": info["parameter_specs"],
            # the computer's levels with the ratings the arena measured (docs/ai.md)
            "levels": _kind_in_words(manager, name)["levels"] if info["num_players"] > 1 else [],
        },
    )
