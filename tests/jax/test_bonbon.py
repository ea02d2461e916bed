"""Bon-Bon's batch engine beyond the conformance variants: its other parameters (decks, tiles,
round caps) replayed against the rules engine, and its chance drawn with the rules engine's
probabilities."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp

import boneyard.jax
from boneyard.core.errors import InvalidParameterError
from boneyard.core.registry import load_game
from boneyard.games.bonbon import notation as nt
from tests.games.bonbon.bonbon_helpers import write_deck
from tests.jax.equality import Replay

CHAINS = (
    # a second helping and a peek that must go face up: a draw draws again within one step
    ("chocolate 1", 1, 10, False, "none"),
    ("chocolate 2", 2, 6, False, "none"),
    ("face-up chocolate 3", 3, 3, True, "none"),
    ("second helping", 1, 4, True, "second"),
    ("peek", 0, 3, True, "peek"),
    ("empty wrapper", 0, 3, True, "wrapper"),
    ("gift", 2, 2, True, "gift"),
    ("caught!", 0, 2, True, "caught"),
)
SHORT = (
    # a deck that runs out: no draw from an empty deck, no effect once it is empty
    ("chocolate 0", 0, 3, False, "none"),
    ("chocolate 1", 1, 2, False, "none"),
    ("peek", 1, 2, False, "peek"),
    ("second helping", 0, 2, False, "second"),
    ("empty wrapper", 0, 1, True, "wrapper"),
)
HEAVY = (
    # big values: limits break at once, the observation's fractions reach far
    ("chocolate 9", 9, 5, False, "none"),
    ("face-up chocolate 40", 40, 2, True, "none"),
    ("gift", 30, 2, True, "gift"),
    ("caught!", 0, 3, True, "caught"),
)
DECKS = {"chains": CHAINS, "short": SHORT, "heavy": HEAVY}

CASES: list[tuple[str, dict[str, Any]]] = [
    ("chains-2", {"players": 2, "deck": "chains"}),
    ("chains-5", {"players": 5, "deck": "chains"}),
    ("short-3", {"players": 3, "deck": "short"}),
    ("short-6", {"players": 6, "deck": "short"}),
    ("heavy-4", {"players": 4, "deck": "heavy"}),
    ("tiles-2", {"players": 2, "tiles": "0,0,9,9"}),
    ("tiles-4", {"players": 4, "tiles": "0,1,2,3,4,5,6,7,8,9,9,9"}),
    ("one-round-3", {"players": 3, "max_rounds": 1}),
    ("two-rounds-6", {"players": 6, "max_rounds": 2}),
]


def _params(params: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    params = dict(params)
    if "deck" in params:
        params["deck"] = write_deck(tmp_path / "deck.toml", *DECKS[params["deck"]])
    return params


@pytest.mark.parametrize(("label", "params"), CASES, ids=[label for label, _ in CASES])
def test_other_parameters_equal_the_rules_engine(
    label: str, params: dict[str, Any], tmp_path: Path
) -> None:
    params = _params(params, tmp_path)
    replay = Replay(boneyard.jax.make("bonbon", **params), load_game("bonbon", **params))
    assert replay.run(12, seed=3) >= 12


def test_bad_parameters_are_refused_by_the_rules_engine() -> None:
    with pytest.raises(InvalidParameterError, match="players"):
        boneyard.jax.make("bonbon", players=7)
    with pytest.raises(InvalidParameterError, match="tiles"):
        boneyard.jax.make("bonbon", tiles="1,2")


def test_a_face_up_second_helping_chains_card_events(tmp_path: Path) -> None:
    env = boneyard.jax.make("bonbon", deck=write_deck(tmp_path / "deck.toml", *CHAINS))
    # four face-up second helpings: a step can draw five cards, then peek
    assert env.init(jax.random.PRNGKey(0))._chance.shape == (6,)
    assert boneyard.jax.make("bonbon").init(jax.random.PRNGKey(0))._chance.shape == (2,)


def _frequencies(outcomes: np.ndarray, ids: list[int]) -> np.ndarray:
    return np.asarray([np.mean(outcomes == i) for i in ids])


def test_chance_follows_the_rules_engine_probabilities() -> None:
    games = 20_000
    env = boneyard.jax.make("bonbon", players=3)
    game = load_game("bonbon", players=3)
    keys = jax.random.split(jax.random.PRNGKey(7), games)
    states = jax.jit(jax.vmap(env.init))(keys)
    # the round's tiles, in init
    ids, wanted = zip(*game.tile_outcomes)
    got = _frequencies(np.asarray(states._chance[:, -1]), list(ids))
    spread = np.sqrt(np.asarray(wanted) * (1 - np.asarray(wanted)) / games)
    assert np.all(np.abs(got - wanted) < 5 * spread), (got, wanted)
    # the first card, in the step that draws it
    draws = jnp.full(games, nt.DRAW, jnp.int32)
    drawn = jax.jit(jax.vmap(env.step))(states, draws, jax.random.split(keys[0], games))
    ids, wanted = zip(*game.new_initial_state().game.full_deck_outcomes)
    got = _frequencies(np.asarray(drawn._chance[:, 0]), list(ids))
    spread = np.sqrt(np.asarray(wanted) * (1 - np.asarray(wanted)) / games)
    assert np.all(np.abs(got - wanted) < 5 * spread), (got, wanted)
