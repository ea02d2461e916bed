"""Live games: the one place a game's full state lives while the server runs.

A ``LiveGame`` is rebuilt from the stored action log, and every change goes through its asyncio
lock: check the sequence number, the seat and the action, resolve the chance nodes that follow
from the game's seed, store the new actions (committed before anyone hears of them), then tell
the subscribers. What leaves this module for a seat is ``view(seat)``: that seat's observation,
its legal actions when it is to move, and the move log as that seat sees it. Never the state,
``to_json``, the seed (until the end) or another seat's hidden values.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Protocol

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.game import CHANCE, Game, State
from boneyard.core.registry import game_class as registry_game_class
from boneyard.core.registry import list_games as registry_list_games
from boneyard.web.store import Store, StoredGame

log = logging.getLogger("boneyard.web")

LEVELS = ("easy", "medium", "hard")
SEND_TIMEOUT = 5.0
"""Seconds a socket may take to accept one message before it is dropped."""


class WebError(Exception):
    """A refused request: an HTTP status, a short code and a message for the person."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail


class Catalog:
    """Which games the app offers. The default is the registry; tests may pass their own."""

    def __init__(self, classes: dict[str, type[Game]] | None = None) -> None:
        self._classes = classes

    def names(self) -> list[str]:
        if self._classes is not None:
            return sorted(self._classes)
        return registry_list_games()

    def game_class(self, name: str) -> type[Game]:
        if self._classes is not None:
            if name not in self._classes:
                known = ", ".join(sorted(self._classes))
                raise WebError(404, "unknown_game", f"unknown game {name!r}; games: {known}")
            return self._classes[name]
        try:
            return registry_game_class(name)
        except BoneyardError as error:
            raise WebError(404, "unknown_game", str(error)) from None


def seat_count_for(game_cls: type[Game], params: dict[str, Any]) -> int:
    """How many seats a game with ``params`` has (loads it: the game decides)."""
    return game_cls(**params).info.num_players


def parse_params(game_cls: type[Game], given: dict[str, Any]) -> dict[str, Any]:
    """Check parameters (text from a form, or JSON values) with each Parameter's ``validate``.

    Empty text means the default. Returns the full parameter dict, JSON-safe.
    """
    specs = {spec.name: spec for spec in game_cls.parameters}
    params: dict[str, Any] = {}
    for name, value in given.items():
        if name not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise WebError(
                400,
                "bad_parameter",
                f"unknown parameter '{name}' for game '{game_cls.name}'; parameters: {known}",
            )
        if isinstance(value, str) and value.strip() == "" and specs[name].type is not str:
            continue
        if specs[name].local_only and value != specs[name].default:
            raise WebError(
                400,
                "bad_parameter",
                f"parameter '{name}' names a file on the server, which web players cannot choose; "
                f"leave it at {specs[name].default!r}",
            )
        try:
            params[name] = specs[name].validate(value)
        except BoneyardError as error:
            raise WebError(400, "bad_parameter", str(error)) from None
    try:
        game = game_cls(**params)
    except BoneyardError as error:
        raise WebError(400, "bad_parameter", str(error)) from None
    return dict(game.params)


def chance_outcome(state: State, seed: str, seq: int) -> int:
    """The outcome the server draws at a chance node: from the game's seed and the sequence number.

    ``random.Random(int(sha256("<seed>:<seq>")))`` draws one number in [0, 1); the outcomes,
    sorted by id, take consecutive slices of that interval by their probabilities. Anyone holding
    the revealed seed can check every roll and shuffle of a finished game this way.
    """
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    draw = random.Random(int.from_bytes(digest, "big")).random()
    outcomes = state.chance_outcomes()
    total = sum(p for _, p in outcomes)
    cumulative = 0.0
    for outcome, probability in outcomes:
        cumulative += probability / total
        if draw < cumulative:
            return outcome
    return outcomes[-1][0]


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


class Subscriber(Protocol):
    seat: int | None
    draw: bool

    async def send(self, message: dict[str, Any]) -> None: ...

    async def send_text(self, text: str) -> None:
        """Send a message already encoded as JSON (one encoding per seat, not per socket)."""
        ...


@dataclass
class LogEntry:
    seq: int
    player: int
    strings: list[str]
    """How the action looks to each seat, then (last) to a spectator."""


@dataclass
class Settings:
    bot_delay: float = 0.8
    """Seconds a computer seat waits before it moves, so a person can follow."""
    bot_time_limit: float | None = None
    """Seconds a computer move may take; ``None``: the level's own budget."""
    bot_processes: int = 0
    """Worker processes for computer seats and hints (0: threads, as the tests use)."""
    replay_finished_only: bool = True
    max_live_games: int = 1000
    """Games kept in memory. Beyond it the least recently used idle games are dropped: the store
    holds every move, so a dropped game is replayed from it when next asked for."""
    live_idle_seconds: float = 600.0
    """How long a game must go unused (nobody watching, no computer move pending) to be dropped."""


BotChooser = Callable[[str, Game, int, int, State, "float | None"], int]


def _bot_choose(
    level: str, game: Game, seat: int, seed: int, state: State, limit: float | None
) -> int:
    from boneyard.ai import make_bot

    bot = make_bot(level, game, seat, seed=seed, time_limit=limit)
    return int(bot.step(state))


def _bot_in_process(
    level: str,
    name: str,
    params: dict[str, Any],
    seat: int,
    seed: int,
    document: dict[str, Any],
    limit: float | None,
) -> int:
    """A computer move in a worker process: the state travels as its ``to_json`` document."""
    from boneyard.core.registry import load_game

    game = load_game(name, **params)
    return _bot_choose(level, game, seat, seed, game.state_from_json(document), limit)


def _hint_in_process(name: str, params: dict[str, Any], document: dict[str, Any]) -> int:
    from boneyard.ai import hint
    from boneyard.core.registry import load_game

    game = load_game(name, **params)
    return int(hint(game.state_from_json(document)))


def _warm_up() -> int:
    """Import the games and bots in a fresh worker process, before the first computer move."""
    from boneyard.ai import make_bot  # noqa: F401
    from boneyard.core.registry import list_games

    return len(list_games())


def _hint(state: State) -> int:
    from boneyard.ai import hint

    return int(hint(state))


@dataclass
class LiveGame:
    id: str
    stored: StoredGame
    game: Game
    state: State
    log: list[LogEntry]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    last_by: str = ""
    last_used: float = field(default_factory=time.monotonic)
    extra_view: Callable[[int | None], dict[str, Any]] | None = None
    """Adds the session of play (``web/sessions.py``: offers, series, rematch) to each view."""

    def is_idle(self, now: float, idle_seconds: float) -> bool:
        """Nobody watches it, nothing is moving in it, and it went unused for ``idle_seconds``."""
        return (
            not self.subscribers
            and (self.bot_task is None or self.bot_task.done())
            and not self.lock.locked()
            and now - self.last_used >= idle_seconds
        )

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def num_seats(self) -> int:
        return self.game.info.num_players

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token stands for; ``None`` (no token) is a spectator; a wrong one: 403."""
        if token is None or token == "":
            return None
        given = token.encode("utf-8", "replace")
        for seat, info in enumerate(self.stored.seats):
            if info["token"] is not None and secrets.compare_digest(
                str(info["token"]).encode(), given
            ):
                return seat
        raise WebError(403, "wrong_token", f"that token is not a seat of game {self.id}")

    def seat_label(self, seat: int) -> str:
        names = self.game.info.seat_names
        label = names[seat] if seat < len(names) else f"Player {seat + 1}"
        info = self.stored.seats[seat]
        if info["kind"] == "computer":
            label += f" (computer, {info['level']})"
        return str(label)

    def status_text(self) -> str:
        state = self.state
        ending_words = getattr(state, "ending_words", None)
        if ending_words:  # ended by the web layer: a resignation, an agreed draw, an abort
            return str(ending_words)
        if state.is_terminal():
            returns = state.returns()
            best = max(returns)
            winners = [s for s, r in enumerate(returns) if r == best]
            shown = ", ".join(f"{self.seat_label(s)} {r:g}" for s, r in enumerate(returns))
            if len(returns) == 1:
                return f"Game over: {shown}"
            if len(winners) == len(returns):
                return f"Game over: a draw ({shown})"
            names = " and ".join(self.seat_label(s) for s in winners)
            return f"Game over: {names} {'win' if len(winners) > 1 else 'wins'} ({shown})"
        player = state.current_player()
        if player == CHANCE:
            return "Chance to move"
        return f"{self.seat_label(player)} to move"

    def view(self, seat: int | None, draw: bool = True, log_from: int = 0) -> dict[str, Any]:
        """Everything ``seat`` (``None``: a spectator) may be sent, as JSON-safe data.

        ``draw=False`` leaves out the board drawing (programs that read the observation);
        ``log_from`` sends only the move log from that sequence number on (live updates: the
        client already has the rest).
        """
        state = self.state
        observation = state.observation(seat)
        player = state.current_player()
        legal: list[dict[str, Any]] = []
        if seat is not None and player == seat:
            legal = [{"id": a, "string": state.action_to_string(a)} for a in state.legal_actions()]
        column = seat if seat is not None else self.num_seats
        terminal = state.is_terminal()
        svg, text = render(self.game, observation) if draw else (None, "")
        return {
            "game_id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "params": dict(self.game.params),
            "seq": self.seq,
            "seat": seat,
            "seats": [
                {"seat": s, "label": self.seat_label(s), "kind": self.stored.seats[s]["kind"]}
                for s in range(self.num_seats)
            ],
            "current_player": player if player >= 0 else None,
            "terminal": terminal,
            "returns": state.returns() if terminal else None,
            "status": self.status_text(),
            "observation": observation,
            "legal": legal,
            "log_from": log_from,
            "log": [
                {"seq": e.seq, "player": e.player, "string": e.strings[column]}
                for e in self.log[log_from:]
            ],
            "svg": svg,
            "text": text,
            "seed_hash": self.stored.seed_hash,
            "seed": self.stored.seed if terminal else None,
            "session": self.extra_view(seat) if self.extra_view is not None else None,
        }


def render(game: Game, observation: dict[str, Any], **options: Any) -> tuple[str | None, str]:
    """The board drawn from an observation: SVG when the game draws one, else text.

    The text is empty when there is an SVG (it is drawn on every move for every seat: the
    time matters).
    """
    svg: str | None
    try:
        svg = game.render_svg(observation, **options)
    except NotImplementedError:
        svg = None
    except Exception:  # a drawing bug must not take the game page down
        log.exception("render_svg failed for %s", game.name)
        svg = None
    if svg is not None:
        return svg, ""
    try:
        text = game.render_text(observation)
    except NotImplementedError:
        text = json.dumps(observation, indent=1, sort_keys=True)
    except Exception:
        log.exception("render_text failed for %s", game.name)
        text = json.dumps(observation, indent=1, sort_keys=True)
    return svg, text


class GameManager:
    """All live games of one app: loading, creating, acting, computer seats and subscribers."""

    def __init__(
        self,
        store: Store,
        catalog: Catalog | None = None,
        settings: Settings | None = None,
        bot_choose: BotChooser | None = None,
    ) -> None:
        self.store = store
        self.catalog = catalog or Catalog()
        self.settings = settings or Settings()
        self.bot_choose: BotChooser = bot_choose or _bot_choose
        self.games: dict[str, LiveGame] = {}
        self.new_seed: Callable[[], str] = lambda: secrets.token_hex(32)
        """Where game seeds come from (tests may fix it; the server never should)."""
        self._loading: dict[str, asyncio.Lock] = {}
        self.load_hooks: list[Callable[[LiveGame], None]] = []
        """Called on every live game made (created or replayed from the store): the session
        layer (``web/sessions.py``) attaches itself and re-applies endings it stored."""
        # SQLite takes one writer at a time: one storage thread keeps commits in order.
        self.store_executor = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="store"
        )
        self.bot_executor: Executor
        if self.settings.bot_processes > 0:
            # Bots are pure Python: in processes they never hold the server's GIL.
            self.bot_executor = ProcessPoolExecutor(
                max_workers=self.settings.bot_processes, mp_context=get_context("spawn")
            )
        else:
            self.bot_executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")

    async def _in_store(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.store_executor, fn, *args)

    def warm_up(self) -> None:
        """Start the worker processes now (spawning and importing takes seconds)."""
        if isinstance(self.bot_executor, ProcessPoolExecutor):
            for _ in range(self.settings.bot_processes):
                self.bot_executor.submit(_warm_up)

    def shutdown(self) -> None:
        for live in self.games.values():
            if live.bot_task is not None:
                live.bot_task.cancel()
        self.bot_executor.shutdown(wait=False, cancel_futures=True)
        self.store_executor.shutdown(wait=True)

    # ----- creating and loading ---------------------------------------------------------------

    async def create(
        self, name: str, params: dict[str, Any], seats: list[dict[str, Any]]
    ) -> LiveGame:
        game_cls = self.catalog.game_class(name)
        resolved = parse_params(game_cls, params)
        game = game_cls(**resolved)
        count = game.info.num_players
        if len(seats) != count:
            raise WebError(
                400,
                "bad_seats",
                f"{name} with these parameters has {count} seats; {len(seats)} were given",
            )
        seat_rows: list[dict[str, Any]] = []
        for number, seat in enumerate(seats):
            kind = seat.get("kind", "human")
            level = seat.get("level")
            if kind not in ("human", "computer"):
                raise WebError(
                    400, "bad_seats", f"seat {number}: kind is 'human' or 'computer', not {kind!r}"
                )
            if kind == "computer" and level not in LEVELS:
                raise WebError(
                    400,
                    "bad_seats",
                    f"seat {number}: a computer level is one of {', '.join(LEVELS)}, not {level!r}",
                )
            seat_rows.append(
                {
                    "token": secrets.token_urlsafe(24),
                    "kind": kind,
                    "level": level if kind == "computer" else None,
                }
            )
        game_id = secrets.token_urlsafe(9)
        seed = self.new_seed()
        await self._in_store(
            self.store.create_game, game_id, name, resolved, seed, seed_hash(seed), seat_rows
        )
        stored = await self._in_store(self.store.load, game_id)
        live = LiveGame(game_id, stored, game, game.new_initial_state(), [])
        for hook in self.load_hooks:
            hook(live)
        self._keep(live)
        async with live.lock:
            await self._commit(live, [])  # chance nodes at the start (a shuffle, a set-up)
        self._schedule_bot(live)
        return live

    async def get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None:
            self._touch(live)
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self.games.get(game_id)
                if live is not None:
                    return live
                stored: StoredGame | None = await self._in_store(self.store.load, game_id)
                if stored is None:
                    raise WebError(404, "unknown_game_id", f"no game with id {game_id!r}")
                live = self._replay(stored)
                self._keep(live)
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)
        self._schedule_bot(live)
        return live

    # ----- memory: the store is the truth, live games are a cache of it ------------------------

    def _touch(self, live: LiveGame) -> None:
        """Mark ``live`` as just used: the games dict runs from least to most recently used."""
        live.last_used = time.monotonic()
        self.games[live.id] = self.games.pop(live.id)

    def _keep(self, live: LiveGame) -> None:
        """Hold ``live`` in memory, dropping idle games beyond ``max_live_games`` first."""
        self.games[live.id] = live
        excess = len(self.games) - self.settings.max_live_games
        if excess <= 0:
            return
        now = time.monotonic()
        for game_id, other in list(self.games.items()):
            if excess <= 0:
                break
            if other is not live and other.is_idle(now, self.settings.live_idle_seconds):
                del self.games[game_id]
                excess -= 1

    def _replay(self, stored: StoredGame) -> LiveGame:
        game = self.catalog.game_class(stored.name)(**stored.params)
        state = game.new_initial_state()
        entries: list[LogEntry] = []
        for seq, (action, player) in enumerate(stored.actions):
            entries.append(LogEntry(seq, player, self._strings(state, action)))
            state.apply_action(action)
        live = LiveGame(stored.id, stored, game, state, entries)
        for hook in self.load_hooks:
            hook(live)
        return live

    def state_at(self, live: LiveGame, step: int) -> State:
        """The state after the first ``step`` stored actions (for the replay page)."""
        state = live.game.new_initial_state()
        for action, _player in live.stored.actions[:step]:
            state.apply_action(action)
        return state

    def _strings(self, state: State, action: int) -> list[str]:
        seats = state.game.info.num_players
        return [state.action_string_for(s, action) for s in range(seats)] + [
            state.action_string_for(None, action)
        ]

    # ----- acting -------------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: int | None, seq: int, action: int | str) -> None:
        """Play ``action`` (an id or a string) for ``seat`` on top of sequence number ``seq``."""
        async with live.lock:
            self._check_turn(live, seat, seq)
            assert seat is not None  # _check_turn refuses spectators
            action_id = self._action_id(live.state, action)
            await self._commit(live, [(action_id, seat)])

    def _check_turn(self, live: LiveGame, seat: int | None, seq: int) -> None:
        if seat is None:
            raise WebError(403, "spectator", "a spectator cannot act: open an invite link")
        if live.state.is_terminal():
            raise WebError(409, "game_over", f"game {live.id} is over: {live.status_text()}")
        if seq != live.seq:
            raise WebError(
                409,
                "stale",
                f"you acted on move {seq} but the game is at move {live.seq}: "
                "someone moved first (or this was sent twice); reload the board",
            )
        player = live.state.current_player()
        if player != seat:
            raise WebError(409, "not_your_turn", f"it is not your turn: {live.status_text()}")

    def _action_id(self, state: State, action: int | str) -> int:
        if isinstance(action, bool):
            raise WebError(422, "bad_action", "an action is an id (integer) or an action string")
        if isinstance(action, str):
            try:
                action = state.string_to_action(action)
            except BoneyardError as error:
                raise WebError(422, "bad_action", str(error)) from None
            except (ValueError, IndexError, KeyError) as error:
                raise WebError(422, "bad_action", f"cannot read action: {error}") from None
        if action not in state.legal_actions():
            try:
                state.clone().apply_action(action)
            except IllegalActionError as error:
                raise WebError(422, "illegal", str(error)) from None
            raise WebError(422, "illegal", f"illegal action {action!r}")
        return action

    async def _commit(self, live: LiveGame, actions: list[tuple[int, int]]) -> None:
        """Apply ``actions`` and the chance outcomes after them; store; then announce. Locked."""
        first = live.seq
        state = live.state.clone()
        entries: list[LogEntry] = []
        applied: list[tuple[int, int]] = []
        for action, player in actions:
            entries.append(LogEntry(first + len(applied), player, self._strings(state, action)))
            state.apply_action(action)
            applied.append((action, player))
        while state.current_player() == CHANCE:
            seq = first + len(applied)
            outcome = chance_outcome(state, live.stored.seed, seq)
            entries.append(LogEntry(seq, CHANCE, self._strings(state, outcome)))
            state.apply_action(outcome)
            applied.append((outcome, CHANCE))
        if not applied:
            return
        returns = state.returns() if state.is_terminal() else None
        # Committed before anyone is told: an acknowledged move survives a killed server.
        if self.store.is_sqlite:
            # An embedded SQLite commit takes well under a millisecond: cheaper here than the
            # hop to a thread and back. A database over the network gets the thread.
            self.store.append_actions(live.id, first, applied, returns)
        else:
            await self._in_store(self.store.append_actions, live.id, first, applied, returns)
        live.state = state
        live.log.extend(entries)
        live.stored.actions.extend(applied)
        await self._announce(live, first)
        self._schedule_bot(live)

    async def _announce(self, live: LiveGame, log_from: int) -> None:
        """Send every subscriber its new view, with the log entries from ``log_from`` on."""
        views: dict[tuple[int | None, bool], str] = {}
        sends: list[Awaitable[None]] = []
        for subscriber in list(live.subscribers):
            key = (subscriber.seat, subscriber.draw)
            if key not in views:
                view = {"type": "view", **live.view(*key, log_from=log_from)}
                views[key] = json.dumps(view, separators=(",", ":"))
            sends.append(self._send_safely(live, subscriber, views[key]))
        if sends:
            await asyncio.gather(*sends)

    async def _send_safely(self, live: LiveGame, subscriber: Subscriber, text: str) -> None:
        # Sent under the game's lock (so every socket sees the moves in order): a client that
        # stops reading is dropped after a while rather than holding up the game.
        try:
            await asyncio.wait_for(subscriber.send_text(text), timeout=SEND_TIMEOUT)
        except Exception:
            live.subscribers.discard(subscriber)

    # ----- computer seats and hints ------------------------------------------------------------

    def _schedule_bot(self, live: LiveGame) -> None:
        if live.bot_task is not None and not live.bot_task.done():
            return
        player = live.state.current_player()
        if player < 0 or live.stored.seats[player]["kind"] != "computer":
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(live, player))

    async def _bot_turn(self, live: LiveGame, seat: int) -> None:
        await asyncio.sleep(self.settings.bot_delay)
        seq = live.seq
        if live.state.current_player() != seat:
            return
        state = live.state.clone()
        level = str(live.stored.seats[seat]["level"])
        digest = hashlib.sha256(f"{live.stored.seed}:bot:{seat}:{seq}".encode()).digest()
        bot_seed = int.from_bytes(digest[:8], "big")
        loop = asyncio.get_running_loop()
        limit = self.settings.bot_time_limit
        try:
            if isinstance(self.bot_executor, ProcessPoolExecutor):
                action = await loop.run_in_executor(
                    self.bot_executor,
                    _bot_in_process,
                    level,
                    live.game.name,
                    dict(live.game.params),
                    seat,
                    bot_seed,
                    state.to_json(),
                    limit,
                )
            else:
                action = await loop.run_in_executor(
                    self.bot_executor,
                    self.bot_choose,
                    level,
                    live.game,
                    seat,
                    bot_seed,
                    state,
                    limit,
                )
        except Exception:
            log.exception(
                "the %s bot failed in game %s; it plays its first legal move", level, live.id
            )
            action = state.legal_actions()[0]
        live.bot_task = None
        try:
            await self.act(live, seat, seq, action)
        except WebError as error:
            log.warning("computer move refused in game %s: %s", live.id, error.detail)
            self._schedule_bot(live)

    async def hint(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        if seat is None:
            raise WebError(403, "spectator", "a spectator gets no hints: open an invite link")
        if live.state.is_terminal() or live.state.current_player() != seat:
            raise WebError(409, "not_your_turn", "a hint is for the seat to move")
        state = live.state.clone()
        seq = live.seq

        loop = asyncio.get_running_loop()
        try:
            if isinstance(self.bot_executor, ProcessPoolExecutor):
                action = await loop.run_in_executor(
                    self.bot_executor,
                    _hint_in_process,
                    live.game.name,
                    dict(live.game.params),
                    state.to_json(),
                )
            else:
                action = await loop.run_in_executor(self.bot_executor, _hint, state)
        except ImportError:
            raise WebError(503, "no_hints", "hints are not available") from None
        return {"seq": seq, "action": action, "string": state.action_to_string(action)}


__all__ = [
    "LEVELS",
    "Catalog",
    "GameManager",
    "LiveGame",
    "Settings",
    "WebError",
    "chance_outcome",
    "parse_params",
    "render",
    "seed_hash",
]
