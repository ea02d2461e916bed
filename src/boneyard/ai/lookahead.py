"""The lookahead bot: plays a game's own lookahead, where the game exports one.

Some games know more about their own play than a generic search can find in a second: Bond O
Cones' rules cost about a millisecond a node, so ISMCTS and alpha-beta over the contract stay
near greedy, while a search on the game's compact model sees three plies. Such a game exports
the hook ``Game.lookahead_values(observation, actions, time_limit=None) -> {action: value}``: a
value for each legal action of the seat whose observation it is given (higher is better),
computed from that observation alone. This bot asks it and plays the best action (ties broken
at random). Where the game has no such search (the hook's default answers ``None``) it plays
the greedy bot's choice.
"""

from __future__ import annotations

import math

from boneyard.ai.base import Bot, time_limit_seconds
from boneyard.ai.greedy import GreedyBot
from boneyard.core.game import Game, State


class LookaheadBot(Bot):
    """Plays the best action by the game's ``lookahead_values`` hook (greedy without one).

    It hands the hook ``state.observation(seat)`` and the legal actions only, so in a
    hidden-information game it sees nothing its seat may not know. ``time_limit`` (seconds a
    move) goes to the hook, which may leave the actions it had no time for at ``-inf``.
    """

    name = "lookahead"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        time_limit: float | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        self.time_limit = time_limit_seconds(time_limit)
        self._fallback = GreedyBot(game, seat, seed=seed, use_solver=False, time_limit=time_limit)

    def _choose(self, state: State) -> int:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        values = self.game.lookahead_values(
            state.observation(self.seat), actions, time_limit=self.time_limit
        )
        if values is None:
            return self._fallback._choose(state)
        best = max(values.get(action, -math.inf) for action in actions)
        tied = [action for action in actions if values.get(action, -math.inf) >= best - 1e-9]
        return self.rng.choice(tied)
