from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import boneyard
from boneyard.core.errors import UnknownGameError
from boneyard.core.registry import register, unregister
from boneyard.core.spec import GameSpec, Solver


def test_unknown_game_suggests_and_lists() -> None:
    with pytest.raises(UnknownGameError) as error:
        boneyard.load_game("obontoo")
    message = str(error.value)
    assert "unknown game 'obontoo'" in message
    assert "did you mean 'obonto'?" in message
    for name in boneyard.list_games():
        assert name in message


def test_list_games_is_sorted_and_loadable() -> None:
    names = boneyard.list_games()
    assert names == sorted(names)
    for name in names:
        assert boneyard.load_game(name).info.name == name


def test_public_api_is_exactly_the_contract() -> None:
    for name in ("list_games", "load_game", "CHANCE", "TERMINAL", "IllegalActionError"):
        assert hasattr(boneyard, name)
    assert (boneyard.CHANCE, boneyard.TERMINAL) == (-1, -4)


# ----- what a spec names is checked when its game registers ---------------------------------


def _race_spec(**changes: object) -> GameSpec:
    from boneyard.games.race import RaceGame, RaceState

    class Misnamed(RaceGame):
        name = "misnamed"

    return GameSpec(game=Misnamed, state=RaceState, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"solver": Solver("boneyard.solvers.obonto_sollo")},
            "solver module 'boneyard.solvers.obonto_sollo' does not exist; modules in "
            "boneyard.solvers: boneyard.solvers.obonto_solo,",
        ),
        (
            {"solver": Solver("boneyard.solvers.oyno_analysis")},
            "solver module 'boneyard.solvers.oyno_analysis' defines no best_action; it defines:",
        ),
        (
            {"batch_engine": "boneyard.jax.obonto:ObontoEnvv"},
            "batch engine module 'boneyard.jax.obonto' defines no ObontoEnvv; it defines: "
            "GAME_FIELDS, MOST_PATHS, ObontoEnv,",
        ),
        ({"batch_engine": "boneyard.jax.obonto"}, "a batch engine is 'module:Class'"),
    ],
)
def test_a_misspelt_solver_or_batch_engine_stops_the_registration(
    changes: dict[str, object], message: str
) -> None:
    try:
        with pytest.raises(ValueError, match=re.escape(message)):
            register(_race_spec(**changes))
        assert "misnamed" not in boneyard.list_games()
    finally:
        unregister("misnamed")


def test_registration_checks_the_batch_engine_without_importing_jax() -> None:
    code = (
        "import sys, boneyard; boneyard.list_games(); "
        "print(sorted(m for m in ('jax', 'boneyard.jax', 'pgx') if m in sys.modules))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_the_core_finds_the_games_without_importing_them_by_name() -> None:
    source = (Path(boneyard.__file__).parent / "core" / "registry.py").read_text()
    assert "import boneyard.games" not in source and "from boneyard.games" not in source
    assert set(boneyard.list_games()) >= {"bonbon", "bondo_cones", "bones", "obonto", "oyno"}
