"""The puzzle ladder and the daily puzzle, of the game whose spec has a ``PuzzleLadder``.

Today that is the OYNO puzzle (oyno.txt: one more bone each level): level N deals N + 1 bones
from the game's own seed; the daily puzzle's set-up comes from the date alone, so everyone who
asks for the same date gets the same bones. Each puzzle is noted with the length of its
shortest solution (the game's optimal solver); *Show solution* plays the solver's line in a
game of its own, which the replay page steps through. Progress lives in the browser.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from boneyard import solvers
from boneyard.core.registry import game_specs
from boneyard.core.spec import GameSpec, PuzzleLadder
from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import (
    PAGE,
    GamePayer,
    GuardedRouter,
    Payer,
    SolvingPayer,
)
from boneyard.web.guard.signin import refuse_account_names, require_seat_holder
from boneyard.web.pages.routes import templates
from boneyard.web.play.live import LiveGame
from boneyard.web.play.manager import GameManager
from boneyard.web.play.routes import ERRORS
from boneyard.web.schemas import Number, PersonName, form_fields, number_in_path, parse_form
from boneyard.web.table.session import session_of
from boneyard.web.table.sessions import SessionManager

router = GuardedRouter(prefix="/api/ladder", responses=ERRORS)
pages = GuardedRouter(include_in_schema=False)

DATE_PATTERN = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
"""A day as YYYY-MM-DD in ASCII digits."""


def puzzle_game() -> tuple[GameSpec, PuzzleLadder]:
    """The game with a ladder, and its ladder."""
    for spec in game_specs():
        if spec.ladder is not None:
            return spec, spec.ladder
    raise WebError(404, "no_ladder", "no game here has a ladder of puzzles")


def value_of_level(level: int) -> int:
    _spec, ladder = puzzle_game()
    value = ladder.value_of_level(level)
    if value is None:
        raise WebError(404, "no_level", f"the ladder has levels 1 to {ladder.levels}, not {level}")
    return value


def daily_start(date: str) -> str:
    """The daily puzzle's set-up for ``date`` (YYYY-MM-DD): the same for everyone."""
    try:
        return puzzle_game()[1].daily_start(date)
    except ValueError as error:
        raise WebError(400, "bad_date", str(error)) from None


def shortest_solution(position: str) -> list[str]:
    state = puzzle_game()[0].game(start=position).new_initial_state()
    solution = solvers.shortest_line(state)
    if solution is None:  # never seen on 5x5 with at most 10 bones; said plainly if it happens
        raise WebError(500, "unsolvable", "this puzzle has no solution: deal another one")
    return solution


def _managers(request: Request) -> tuple[GameManager, SessionManager]:
    return request.app.state.manager, request.app.state.sessions


async def _deal(
    request: Request,
    payer: Payer,
    params: dict[str, Any],
    detail: dict[str, Any],
    name: str | None = None,
) -> dict[str, Any]:
    """A puzzle dealt for one person (``name``: the name they gave, if any)."""
    manager, sessions = _managers(request)
    spec, ladder = puzzle_game()
    await refuse_account_names(request, name)
    seats = [{"kind": "human", "name": name}]
    live = await manager.create(spec.name, params, seats, client=payer.client)
    start = str(live.state.observation(None)["position"])
    solution = await asyncio.get_running_loop().run_in_executor(None, shortest_solution, start)
    detail = {**detail, "start": start, "shortest": len(solution), "solution": solution}
    await sessions.note(live, "puzzle", detail)
    token = live.stored.seats[0]["token"]
    return {
        "id": live.id,
        "url": f"/game/{live.id}?t={token}",
        "token": token,
        ladder.parameter: detail[ladder.parameter],
        "shortest": len(solution),
        "level": detail.get("level"),
        "date": detail.get("date"),
    }


class DailyRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    date: StrictStr = Field(
        pattern=DATE_PATTERN, description="The day, YYYY-MM-DD (the player's own calendar)."
    )


@router.post("/levels/{level}", status_code=201, summary="Deal a puzzle of the ladder")
async def deal_level(
    request: Request,
    payer: GamePayer,
    level: str = number_in_path("a level of the ladder, from 1"),
) -> dict[str, Any]:
    """Level N deals N + 1 bones on 5x5 at random; answers the game's link and the length of
    the shortest solution."""
    value = value_of_level(int(level))
    parameter = puzzle_game()[1].parameter
    return await _deal(request, payer, {parameter: value}, {"level": int(level), parameter: value})


@router.get("/daily/{date}", summary="The daily puzzle of a date")
async def daily(_payer: SolvingPayer, date: str = Path(pattern=DATE_PATTERN)) -> dict[str, Any]:
    start = daily_start(date)
    solution = await asyncio.get_running_loop().run_in_executor(None, shortest_solution, start)
    ladder = puzzle_game()[1]
    return {"date": date, "start": start, ladder.parameter: ladder.daily, "shortest": len(solution)}


@router.post("/daily", status_code=201, summary="Play the daily puzzle of a date")
async def play_daily(body: DailyRequest, request: Request, payer: GamePayer) -> dict[str, Any]:
    start = daily_start(body.date)
    ladder = puzzle_game()[1]
    return await _deal(
        request, payer, {"start": start}, {"date": body.date, ladder.parameter: ladder.daily}
    )


class SolutionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: StrictStr


@router.post("/games/{game_id}/solution", summary="Show the shortest solution of a puzzle")
async def solution(
    game_id: str, body: SolutionRequest, request: Request, payer: GamePayer
) -> dict[str, Any]:
    """Plays the solver's line from the puzzle's start in a game of its own and answers its
    replay address (the same one when asked again)."""
    manager, sessions = _managers(request)
    live = await manager.get(game_id)
    seat = live.seat_of(body.token)
    if seat is None:
        raise WebError(403, "spectator", "the solution is for the player of the puzzle")
    await require_seat_holder(request, live.id, seat)
    session = session_of(live)
    note = next((e for e in session.events if e.kind == "puzzle"), None)
    if note is None:
        raise WebError(404, "not_a_puzzle", "this game is not a puzzle of the ladder")
    shown = next((e for e in session.events if e.kind == "solution_shown"), None)
    if shown is not None:
        return {"replay_url": shown.detail["replay_url"], "moves": note.detail["solution"]}
    replay = await _play_line(manager, payer, note.detail["start"], note.detail["solution"])
    url = f"/game/{replay.id}/replay"
    await sessions.note(live, "solution_shown", {"replay_url": url}, seat)
    return {"replay_url": url, "moves": note.detail["solution"]}


async def _play_line(manager: GameManager, payer: Payer, start: str, moves: list[str]) -> LiveGame:
    name = puzzle_game()[0].name
    live = await manager.create(name, {"start": start}, [{"kind": "human"}], client=payer.client)
    for move in moves:
        await manager.act(live, 0, live.seq, move)
    return live


class LadderForm(BaseModel):
    """The home page's ladder form, in the API's types."""

    model_config = ConfigDict(extra="forbid")

    level: Number = "1"
    name0: PersonName | None = None


@pages.post("/ladder/play")
async def play_level_form(request: Request, payer: GamePayer) -> RedirectResponse:
    """The home page's form: deal the chosen level, then go to its board (Post/Redirect/Get);
    solved, its page offers the next level and the ladder."""
    form = parse_form(LadderForm, await form_fields(request))
    value = value_of_level(int(form.level))
    parameter = puzzle_game()[1].parameter
    detail = {"level": int(form.level), parameter: value}
    dealt = await _deal(request, payer, {parameter: value}, detail, form.name0)
    return RedirectResponse(dealt["url"], status_code=303)


@pages.get("/ladder", response_class=HTMLResponse, dependencies=[PAGE])
async def ladder_page(request: Request) -> Any:
    return templates.TemplateResponse(
        request,
        "ladder.html",
        {
            "levels": [
                (level, value_of_level(level)) for level in range(1, puzzle_game()[1].levels + 1)
            ]
        },
    )
