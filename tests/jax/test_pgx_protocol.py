"""pgx's protocol for real: the batch engines are ``pgx.Env``s, their states ``pgx.State``s, and
pgx's own ``api_test`` passes on every game and conformance variant."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest

pytest.importorskip("jax")
pytest.importorskip("pgx")

import jax
import jax.numpy as jnp
import pgx
import pgx._src.api_test as pgx_api_test

import boneyard.jax
from boneyard.core.errors import InvalidParameterError
from boneyard.core.registry import game_class

GAME_FIELDS = ("_top_piece", "_heights", "_placed", "_player", "_winner")
"""Bones' own state fields, as ``BonesState`` declares them."""

VARIANTS = [
    pytest.param(name, dict(variant), id=f"{name}-{i}")
    for name in boneyard.jax.available_games()
    for i, variant in enumerate(game_class(name).conformance_variants)
]


@pytest.fixture
def pgx_checks(monkeypatch: pytest.MonkeyPatch) -> Any:
    """pgx's ``api_test`` as it is, with two things of pgx's own changed: the closed list of its
    ids (``EnvId``, which ``_validate_state`` checks) has boneyard's ids added, and its random
    player samples along the last axis (pgx 2.6's ``act_randomly`` uses ``axis=1``, which this
    JAX refuses for a single state's mask: pgx's own ``tic_tac_toe`` fails there the same)."""
    ids = typing.get_args(pgx_api_test.EnvId) + tuple(boneyard.jax.available_games())
    monkeypatch.setattr(pgx_api_test, "EnvId", typing.Literal[ids])  # type: ignore[valid-type]

    def act_randomly(key: jax.Array, mask: jax.Array) -> jax.Array:
        return jax.random.categorical(key, jnp.log(mask.astype(jnp.float32)), axis=-1)

    monkeypatch.setattr(pgx_api_test, "act_randomly", jax.jit(act_randomly))
    return pgx_api_test


@pytest.mark.parametrize(("name", "params"), VARIANTS)
def test_pgx_api_test_passes(name: str, params: dict[str, Any], pgx_checks: Any) -> None:
    try:
        env = boneyard.jax.make(name, **params)
    except InvalidParameterError as error:  # a variant the batch engine does not play
        pytest.skip(str(error))
    # api_test steps a game from its first state and counts every step: it assumes no deal ends
    # a game (a step on a finished game is not counted, in pgx as here)
    _, first_key = jax.random.split(jax.random.PRNGKey(849020))  # api_test's first game
    if bool(env.init(first_key).terminated):
        pytest.xfail(f"{name} {params}: the deal of api_test's first game ends it at once")
    pgx_checks.api_test(env, num=1)


@pytest.mark.parametrize("name", boneyard.jax.available_games())
def test_engines_and_states_are_pgx_classes(name: str, tmp_path: Path) -> None:
    env = boneyard.jax.make(name)
    assert isinstance(env, pgx.Env)
    assert env.id == name
    state = env.init(jax.random.PRNGKey(0))
    assert isinstance(state, pgx.State)
    assert state.env_id == env.id
    # pgx allows no public attribute but its six: a game's own fields are stored underscored
    public = [field for field in vars(state) if not field.startswith("_")]
    assert public == list(boneyard.jax.core.PUBLIC_FIELDS)
    path = tmp_path / "state.svg"
    state.save_svg(path)
    assert path.read_text().startswith("<svg") and name in path.read_text()
    assert state._repr_html_() == state.to_svg()


def test_a_state_is_a_plain_frozen_dataclass_with_its_fields_declared() -> None:
    env = boneyard.jax.make("bones", width=4, height=4)
    state = env.init(jax.random.PRNGKey(0))
    declared = [field.name for field in dataclasses.fields(state)]
    assert declared == [*boneyard.jax.core.PUBLIC_FIELDS, "_step_count", *GAME_FIELDS]
    assert list(vars(state)) == declared
    heights = np.asarray(state._heights)
    again = state.replace(_heights=state._heights + 1)
    assert np.array_equal(np.asarray(again._heights), heights + 1)
    assert np.array_equal(np.asarray(state._heights), heights)
    made = type(state)(**{field: getattr(state, field) for field in declared})
    leaves, tree = jax.tree_util.tree_flatten(state)
    assert len(leaves) == len(declared)
    for rebuilt in (made, jax.tree_util.tree_unflatten(tree, leaves)):
        assert type(rebuilt) is type(state)
        for field in declared:
            assert np.array_equal(np.asarray(getattr(rebuilt, field)), getattr(state, field))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state._heights = state._heights  # type: ignore[misc]
    with pytest.raises(TypeError, match="heights"):
        state.replace(heights=state._heights)


def test_a_batch_draws_one_card_per_game() -> None:
    env = boneyard.jax.make("obonto")
    batch = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 3))
    svg = batch.to_svg()
    assert svg.count("<rect") == 3 and "obonto game 2" in svg
    with pytest.raises(ValueError, match=r"must end with \.svg"):
        batch.save_svg("picture.png")


@pytest.mark.parametrize("name", boneyard.jax.available_games())
def test_a_state_draws_its_card_with_its_own_svg(name: str, tmp_path: Path) -> None:
    env = boneyard.jax.make(name)
    state = env.init(jax.random.PRNGKey(0))
    path = tmp_path / "state.svg"
    state.save_svg(path)
    svg = ElementTree.parse(path).getroot()
    texts = [element.text for element in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == name
    assert texts[1] == f"step 0: seat {int(state.current_player)} to act"


def test_pgx_private_modules_are_left_as_pgx_ships_them(tmp_path: Path) -> None:
    # pgx's own games draw through pgx's visualizer, which boneyard does not change
    import pgx._src.visualizer as visualizer

    assert visualizer.Visualizer._set_config_by_state.__module__ == "pgx._src.visualizer"
    pgx.save_svg(pgx.make("tic_tac_toe").init(jax.random.PRNGKey(0)), tmp_path / "pgx.svg")
    assert ElementTree.parse(tmp_path / "pgx.svg").getroot().tag.endswith("svg")
