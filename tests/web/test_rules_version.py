"""Each stored game records the version of its game's rules (``Game.rules_version``): a game
stored under other rules is refused with words that say so, never replayed into another
position; a game of the same version loads as before."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from boneyard.core.registry import game_specs
from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from tests.web.conftest import all_games, app_settings, create, make_app, play_random, token
from tests.web.toygames import WalkGame


class WalkGameRulesChanged(WalkGame):
    """toy_walk after a change of its rules that changes what its action numbers mean."""

    rules_version = 2


def app_with_walk(db_path: Path, walk: type[WalkGame]) -> TestClient:
    games = {**all_games(), "toy_walk": walk}
    return TestClient(
        create_app(f"sqlite:///{db_path}", catalog=Catalog(games), settings=app_settings())
    )


def test_a_new_game_stores_its_rules_version(db_path: Path) -> None:
    with app_with_walk(db_path, WalkGameRulesChanged) as client:
        made = create(client, "toy_walk")
    engine = create_engine(f"sqlite:///{db_path}")
    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT rules_version FROM games WHERE id = :id"), {"id": made["id"]}
        ).scalar_one()
    engine.dispose()
    assert stored == 2


def test_a_game_stored_under_other_rules_is_refused_with_words(db_path: Path) -> None:
    with TestClient(make_app(db_path)) as before:
        made = create(before, "toy_walk")
        play_random(before, made, 4, seed=1)
    with app_with_walk(db_path, WalkGameRulesChanged) as after:
        seat = {"token": token(made, 0)}
        refused = after.get(f"/api/games/{made['id']}", params=seat)
        assert refused.status_code == 409, refused.text
        body = refused.json()
        assert body["error"] == "rules_changed"
        assert "version 1 of its rules" in body["detail"] and "plays version 2" in body["detail"]
        move = {"token": token(made, 0), "seq": 4, "action": 0}
        assert after.post(f"/api/games/{made['id']}/actions", json=move).status_code == 409
        page = after.get(f"/game/{made['id']}")
        assert page.status_code == 409 and "version 1 of its rules" in page.text
    with TestClient(make_app(db_path)) as again:  # the rules it was played under: as it was
        view = again.get(f"/api/games/{made['id']}", params={"token": token(made, 0)})
        assert view.status_code == 200 and view.json()["seq"] >= 4


def test_every_game_declares_its_rules_version() -> None:
    for spec in game_specs():
        assert "rules_version" in vars(spec.game) or any(
            "rules_version" in vars(base)
            for base in spec.game.__mro__[1:-1]
            if base.__module__.startswith("boneyard.games")
        ), f"{spec.name} says which version of its rules it plays"
        assert spec.game.rules_version >= 1
