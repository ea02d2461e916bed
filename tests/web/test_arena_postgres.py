"""The arena's rules of issue 41 on PostgreSQL (items 4 and 5): a game scores once each side
moved, a sock account farms nothing, a lapsed first move pauses its player until they resume,
the first move waits for the page, and a called-off game is "called off" on the profile. The
same bodies as on SQLite (``test_arena_play.py``, ``test_tournaments.py``), on one throwaway
server."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from boneyard.web.app import create_app
from boneyard.web.play.catalog import Catalog
from boneyard.web.store.games import Store
from boneyard.web.store.tournaments import TournamentStore
from tests.web.conftest import all_games, app_settings
from tests.web.test_arena_play import PEOPLE, RULES, in_an_arena
from tests.web.test_tournaments import a_sock_farms_nothing, scores_only_games_each_side_moved_in

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'boneyard[postgres]')")


@pytest.mark.parametrize("rule", RULES)
def test_an_arena_rule_on_postgresql(postgres_url: str, rule: str) -> None:
    players, body = RULES[rule]
    prefix = f"P{list(RULES).index(rule)}"  # one database for the module: names of its own
    in_an_arena(postgres_url, [prefix + name for name in PEOPLE[:players]], body)


def test_a_game_scores_once_each_side_moved_on_postgresql(postgres_url: str) -> None:
    scores_only_games_each_side_moved_in(TournamentStore(Store(postgres_url)))


def test_a_sock_account_farms_nothing_on_postgresql(postgres_url: str) -> None:
    app = create_app(postgres_url, catalog=Catalog(all_games()), settings=app_settings())
    with TestClient(app) as client:
        a_sock_farms_nothing(client)
