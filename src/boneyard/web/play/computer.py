"""Computer seats and hints: when a computer moves, how long it waits, and asking for hints.

A service of ``GameManager`` (``manager.py``), given the manager's ``act`` and ``freshen``: a
computer's answer is played like a person's move. The pace: the full ``bot_delay`` at the start of a
computer's turn, ``bot_step_delay`` between the steps of one turn. The work runs in ``bots``.

Each computer move and hint is charged to a client (``LiveGame.payer``: the address of the
person who moved last, or who made the game; a hint: the asker's) by the CPU seconds it took,
and runs in that client's turn (``compute/fairness.py``). A client whose thinking budget is spent
has its computer moves wait until the budget refills (the person's move stays stored: nothing is
lost, the computer answers later, as a slower opponent would) and its hints refused with the
seconds to wait: a waiting request would hold a connection for nothing. A game of computers
alone thinks only while someone watches it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from boneyard.core.game import CHANCE
from boneyard.web.compute.bots import COMPUTER_MOVE, HINT, JobFailed, bot_move, budget_of, hint_move
from boneyard.web.compute.chance import bot_seed
from boneyard.web.compute.runners import BotRunner
from boneyard.web.errors import WebError
from boneyard.web.play.live import LiveGame
from boneyard.web.play.metrics import Metrics
from boneyard.web.settings import Settings

log = logging.getLogger("boneyard.web")


Act = Callable[[LiveGame, int, int, int], Awaitable[None]]
"""Plays an action for a seat on top of a sequence number (``GameManager.act``)."""
Freshen = Callable[[LiveGame], Awaitable[None]]
"""Catches a live game up with the store (``GameManager.freshen``)."""
Show = Callable[[LiveGame], Awaitable[None]]
"""Sends a live game's sockets its views again (its status changed, not its moves)."""


async def _show_nothing(live: LiveGame) -> None:
    """Where nobody watches the games (a service alone, in a test)."""


class ComputerSeats:
    """When the computer seats of an app's games move, and the hints its people ask for."""

    def __init__(
        self,
        settings: Settings,
        bots: BotRunner,
        act: Act,
        freshen: Freshen,
        show: Show = _show_nothing,
        metrics: Metrics | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        """Where refusals and waits are counted (``/metrics``), never logged one by one."""
        self.bots = bots
        self.act = act
        self.freshen = freshen
        self.show = show

    def watched(self, live: LiveGame) -> bool:
        """Someone looks at ``live``: a request, a socket opened or a socket's message lately
        (``last_used``). A socket open but silent is not someone: a page that is seen says
        ``watching`` every few seconds."""
        return time.monotonic() - live.last_used < self.settings.watch_seconds

    async def _wait_for_budget(self, live: LiveGame) -> None:
        """Wait while the client this game's thinking is charged to has spent its budget
        (looked at again each second: the game's payer may change meanwhile)."""
        if self.bots.thinking.wait(live.payer) <= 0:
            return
        live.resting = True
        self.metrics.thinking_waits.inc()
        await self.show(live)  # the status says why the computer does not answer yet
        try:
            while (wait := self.bots.thinking.wait(live.payer)) > 0:
                await asyncio.sleep(min(wait, 1.0))
        finally:
            live.resting = False

    def schedule(self, live: LiveGame, standby: bool = False) -> None:
        """Start the computer's turn if a computer is to move. ``standby``: the move was made
        through another process, which asks for the reply; this one only stands by for it."""
        if live.bot_task is not None and not live.bot_task.done():
            if live.bot_standby_at is None or live.bot_standby_at == live.seq:
                return
            live.bot_task.cancel()  # stood by for a reply that came meanwhile
        live.bot_standby_at = None
        player = live.to_move()
        if player < 0 or live.stored.seats[player]["kind"] != "computer":
            return
        if live.computers_only and not self.watched(live):
            return  # nobody is watching: it goes on when someone looks
        if standby:
            live.bot_standby_at = live.seq
        live.bot_task = asyncio.get_running_loop().create_task(
            self._bot_turn(live, player, standby)
        )

    def pause_before(self, live: LiveGame, seat: int) -> float:
        """The full delay at a new turn; a short one between steps of the same computer."""
        moved = [entry.player for entry in live.log if entry.player != CHANCE]
        same_turn = bool(moved) and moved[-1] == seat
        if same_turn or len(live.state.legal_actions()) == 1:
            return min(self.settings.bot_step_delay, self.settings.bot_delay)
        return self.settings.bot_delay

    async def _stand_by(self, live: LiveGame, seat: int) -> bool:
        """Wait for the process that made the last move to play the computer's reply; True
        when it did not come (that process may be gone): this one plays it then."""
        seq = live.seq
        level = str(live.stored.seats[seat]["level"])
        budget = budget_of(live.game, level, self.settings.bot_time_limit)
        await asyncio.sleep(self.settings.bot_delay + budget + self.settings.bot_standby_seconds)
        live.bot_standby_at = None  # from here on this turn is this process's own
        await self.freshen(live)  # a notice missed: the store has the reply
        if live.seq == seq:
            return True
        live.bot_task = None
        self.schedule(live, standby=True)
        return False

    async def _bot_turn(self, live: LiveGame, seat: int, standby: bool = False) -> None:
        if standby:
            if not await self._stand_by(live, seat):
                return
        else:
            await asyncio.sleep(self.pause_before(live, seat))
        await self._wait_for_budget(live)
        seq = live.seq
        if live.to_move() != seat:
            return
        if live.computers_only and not self.watched(live):
            live.bot_task = None
            return
        level = str(live.stored.seats[seat]["level"])
        state = live.state
        limit = self.settings.bot_time_limit
        try:
            action = await self.bots.run(
                COMPUTER_MOVE,
                budget_of(live.game, level, limit),
                bot_move,
                level,
                seat,
                bot_seed(live.stored.seed, seat, seq),
                limit,
                self.bots.payload(state),
                client=live.payer,
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
            # Stale: another process holding this game played the same computer move first.
            level_of = logging.INFO if error.code == "stale" else logging.WARNING
            log.log(level_of, "computer move refused in game %s: %s", live.id, error.detail)
            self.schedule(live)

    async def hint(
        self,
        live: LiveGame,
        seat: int | None,
        others: frozenset[int] = frozenset(),
        client: str | None = None,
    ) -> dict[str, Any]:
        """The hint for ``seat``, asked by a page that also holds the seats ``others``, charged
        to ``client`` (by default the client that seat last played from)."""
        if seat is None:
            raise WebError(403, "spectator", "a spectator gets no hints: open an invite link")
        live.check_person(seat)
        if not live.hints_for({seat, *others}):
            raise WebError(
                403,
                "hints_off",
                "this game between people was created with hints off: hints are for games "
                "against the computer, at one screen, or created with hints on",
            )
        if live.to_move() != seat:
            raise WebError(409, "not_your_turn", "a hint is for the seat to move")
        now = time.monotonic()
        wait = live.hint_at.get(seat, -1e9) + self.settings.hint_interval - now
        if wait > 0:
            self.metrics.refuse("hint_interval")
            raise WebError(
                429,
                "too_many_hints",
                f"one hint every {self.settings.hint_interval:g} seconds; "
                f"ask again in {wait:.1f} seconds",
                retry_after=wait,
            )
        payer = client or live.seat_clients.get(seat, live.payer)
        rest = self.bots.thinking.wait(payer)
        if rest > 0:
            self.metrics.refuse("too_much_thinking")
            raise WebError(
                429,
                "too_much_thinking",
                "the computer has thought a lot for you in the last minutes; "
                f"ask for a hint again in {max(1, round(rest))} seconds",
                retry_after=rest,
            )
        if self.bots.waiting(HINT) >= self.settings.hints_waiting:
            self.metrics.refuse("hints_waiting")
            raise WebError(503, "busy", "the computer is busy; ask again soon", retry_after=5)
        live.hint_at[seat] = now
        state = live.state.clone()
        seq = live.seq
        limit = self.settings.bot_time_limit
        try:
            action = await self.bots.run(
                HINT,
                budget_of(live.game, "hard", limit),
                hint_move,
                limit,
                self.bots.payload(state),
                client=payer,
            )
        except ImportError:
            raise WebError(503, "no_hints", "hints are not available") from None
        except TimeoutError:
            raise WebError(
                503, "busy", "the hint took too long; ask again", retry_after=5
            ) from None
        except JobFailed:
            raise WebError(
                503, "busy", "the computer could not answer; ask again", retry_after=5
            ) from None
        return {"seq": seq, "action": action, "string": state.action_to_string(action)}
