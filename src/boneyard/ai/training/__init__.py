"""Self-play training of a policy-value network on the JAX batch engines (the ``train`` extra).

``boneyard train GAME`` runs ``train``: a batch of games plays itself on the game's rules engine
(``boneyard.native``'s where it has one), each move chosen by the ``expert`` bot's own search
guided by the network, each seat's search seeing only what that seat knows; the network (numpy
in the games, JAX on the CPU for its update) then learns the search's visit shares and every
seat's outcome.
The result is a model file that ``boneyard.ai.network`` reads with numpy alone and the
``expert`` bot plays with. See ``selfplay.py`` for the self-play step, ``runs.py`` for runs
that survive (checkpoints, signals, sittings, strength against ``hard``) and docs/ai.md for
what it reaches.
"""

from __future__ import annotations

try:
    import jax as _jax  # noqa: F401
    import optax as _optax  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "boneyard train needs JAX and optax: pip install 'boneyard[train]'"
    ) from error

from boneyard.ai.training.runs import train
from boneyard.ai.training.selfplay import TrainConfig

__all__ = ["TrainConfig", "train"]
