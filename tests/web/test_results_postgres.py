"""``test_results.py``'s rules on PostgreSQL: a rated game counts once each side has moved, the
claim instead of a stand-in, a pair's daily games, a rated rematch, and an existing
``rated_games`` table given its new column. Each test starts on an empty database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import httpx2
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, inspect

from boneyard.web.people.ratings import rate
from boneyard.web.store.games import Store
from boneyard.web.store.ratings import RatingStore
from tests.web import test_results
from tests.web.test_results import app_on, rated_games_table_of_before, serve_in_thread


def empty(url: str) -> None:
    """Drop every table: the next test starts as on a new server."""
    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()


@pytest.fixture
def client(postgres_url: str) -> Iterator[TestClient]:
    """A client of the app served in a thread (every client's requests on its one event loop,
    as in production: TestClients beside one another each run their own)."""
    empty(postgres_url)
    for address in serve_in_thread(app_on(postgres_url)):
        with httpx2.Client(base_url=address, timeout=30) as http:
            yield cast(TestClient, http)
    empty(postgres_url)


def test_a_resignation_before_each_side_moved_calls_a_rated_game_off(client: TestClient) -> None:
    test_results.test_a_resignation_before_each_side_moved_calls_a_rated_game_off(client)


def test_eighteen_resignations_of_a_sock_move_no_rating(client: TestClient) -> None:
    test_results.test_eighteen_resignations_of_a_sock_move_no_rating(client)


def test_a_draw_agreed_before_each_side_moved_is_no_draw(client: TestClient) -> None:
    test_results.test_a_draw_agreed_before_each_side_moved_is_no_draw(client)


def test_a_rated_game_offers_a_claim_never_the_computer(client: TestClient) -> None:
    test_results.test_a_rated_game_offers_a_claim_never_the_computer(client)


def test_calling_a_rated_game_off_after_the_silence_counts_for_nobody(client: TestClient) -> None:
    test_results.test_calling_a_rated_game_off_after_the_silence_counts_for_nobody(client)


def test_a_stand_in_in_a_casual_game_counts_for_nobody_and_brings_no_hint(
    client: TestClient,
) -> None:
    test_results.test_a_stand_in_in_a_casual_game_counts_for_nobody_and_brings_no_hint(client)


def test_the_same_pairs_rated_games_count_a_few_times_a_day(client: TestClient) -> None:
    test_results.test_the_same_pairs_rated_games_count_a_few_times_a_day(client)


def test_a_rematch_of_a_rated_game_is_rated_on_the_same_terms(client: TestClient) -> None:
    test_results.test_a_rematch_of_a_rated_game_is_rated_on_the_same_terms(client)


def test_an_existing_rated_games_table_gets_its_unrated_column(postgres_url: str) -> None:
    empty(postgres_url)
    rated_games_table_of_before(postgres_url)
    store = Store(postgres_url)
    try:
        RatingStore(store, rate)
        columns = {c["name"] for c in inspect(store.engine).get_columns("rated_games")}
        assert "unrated" in columns
        RatingStore(store, rate)  # a second start finds it there
    finally:
        store.close()
        empty(postgres_url)


def test_the_custom_game_page_makes_a_rated_game_on_postgresql(client: TestClient) -> None:
    test_results.test_the_custom_game_page_makes_a_rated_game_between_two_accounts(client)


def test_a_challenge_by_name_on_postgresql(client: TestClient) -> None:
    test_results.test_a_challenge_by_name_is_accepted_into_a_rated_game(client)


def test_a_challenge_declined_or_taken_back_on_postgresql(client: TestClient) -> None:
    test_results.test_a_challenge_declined_or_taken_back(client)


def test_a_person_who_left_a_rated_game_of_three_ranks_last_on_postgresql(
    client: TestClient, postgres_url: str
) -> None:
    beside = Store(postgres_url)  # another process's store, its rating hook with it
    try:
        RatingStore(beside, rate)
        test_results.left_a_game_of_three(client, beside)
    finally:
        beside.close()
