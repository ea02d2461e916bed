"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from boneyard.ai.base import Bot
from boneyard.core.game import State


class RandomBot(Bot):
    """Plays a uniformly random legal action (the legal actions are the mover's to know)."""

    name = "random"
    reads_native_states = True  # it reads the legal actions alone

    def _choose(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())
