"""Computer seats and hints: when a computer moves, how long it waits, and asking for hints.

A service of ``GameManager`` (``manager.py``), called by it and calling nothing back: the manager
drives a computer's turn (``turn_to_start``, ``pause`` or ``stand_by``, ``rest``, ``choose``) and
plays the answer as it plays a person's move. The pace: the full ``bot_delay`` at the start of a
computer's turn, ``bot_step_delay`` between the steps of one turn, the thinking done meanwhile
(``choose_while_pausing``: a reply comes after the longer of the pause and the thinking). The
work runs in ``bots``.

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


class ComputerSeats:
    """When the computer seats of an app's games move, and the hints its people ask for."""

    def __init__(self, settings: Settings, bots: BotRunner, metrics: Metrics | None = None) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        """Where refusals and waits are counted (``/metrics``), never logged one by one."""
        self.bots = bots

    def watched(self, live: LiveGame) -> bool:
        """Someone looks at ``live``: a request, a socket opened or a socket's message lately
        (``last_used``). A socket open but silent is not someone: a page that is seen says
        ``watching`` every few seconds."""
        return time.monotonic() - live.last_used < self.settings.watch_seconds

    def turn_to_start(self, live: LiveGame, standby: bool = False) -> int | None:
        """The computer seat whose turn starts now, or None: no computer is to move, its turn
        is under way, or only computers play and nobody watches (it goes on when someone
        looks). ``standby``: the move was made through another process, which asks for the
        reply; this one only stands by for it (a stand-by the news overtook is cancelled)."""
        if live.bot_task is not None and not live.bot_task.done():
            if live.bot_standby_at is None or live.bot_standby_at == live.seq:
                return None
            live.bot_task.cancel()  # stood by for a reply that came meanwhile
        live.bot_standby_at = None
        player = live.to_move()
        if player < 0 or live.stored.seats[player]["kind"] != "computer":
            return None
        if live.computers_only and not self.watched(live):
            return None
        if standby:
            live.bot_standby_at = live.seq
        return player

    def pause_before(self, live: LiveGame, seat: int) -> float:
        """The full delay at a new turn; a short one between steps of the same computer."""
        moved = [entry.player for entry in live.log if entry.player != CHANCE]
        same_turn = bool(moved) and moved[-1] == seat
        if same_turn or len(live.state.legal_actions()) == 1:
            return min(self.settings.bot_step_delay, self.settings.bot_delay)
        return self.settings.bot_delay

    async def pause(self, live: LiveGame, seat: int) -> None:
        """The pace a person can follow (``pause_before``)."""
        await asyncio.sleep(self.pause_before(live, seat))

    async def choose_while_pausing(self, live: LiveGame, seat: int) -> tuple[int, int] | None:
        """``choose``, thinking while the pause runs (``pause``): the answer comes once both
        are over, so a person waits the longer of the two, not their sum. A reply that waited
        for a bot worker behind a crowd's searches (issue 44, row 5) has waited inside the
        pause a person would have waited anyway."""
        thought = asyncio.ensure_future(self.choose(live, seat))
        try:
            await self.pause(live, seat)
            return await thought
        finally:
            thought.cancel()  # the turn was cancelled during the pause: so is its thinking

    async def stand_by(self, live: LiveGame, seat: int) -> None:
        """Wait as long as the process that made the last move may take to play the
        computer's reply; from then on the turn is this process's own."""
        level = str(live.stored.seats[seat]["level"])
        budget = budget_of(live.game, level, self.settings.bot_time_limit)
        await asyncio.sleep(self.settings.bot_delay + budget + self.settings.bot_standby_seconds)
        live.bot_standby_at = None

    def must_rest(self, live: LiveGame) -> bool:
        """Whether the client this game's thinking is charged to has spent its budget: the
        game rests (``resting``) until ``rest`` is over."""
        if self.bots.thinking.wait(live.payer) <= 0:
            return False
        live.resting = True
        self.metrics.thinking_waits.inc()
        return True

    async def rest(self, live: LiveGame) -> None:
        """Wait while the payer's budget is spent (looked at again each second: the game's
        payer may change meanwhile)."""
        try:
            while (wait := self.bots.thinking.wait(live.payer)) > 0:
                await asyncio.sleep(min(wait, 1.0))
        finally:
            live.resting = False

    async def choose(self, live: LiveGame, seat: int) -> tuple[int, int] | None:
        """The computer's action for ``seat`` and the move number it is chosen on; None when
        the turn is gone (moved meanwhile) or only computers play and nobody watches now. A bot
        that fails plays the first legal move."""
        seq = live.seq
        if live.to_move() != seat:
            return None
        if live.computers_only and not self.watched(live):
            live.bot_task = None
            return None
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
        return seq, action

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
