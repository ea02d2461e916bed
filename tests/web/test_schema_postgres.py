"""``test_schema.py``'s checks on PostgreSQL: older databases (890c5a2's, 0.1.0's) upgrade with
every row intact and their games play on, a newer one is refused by both versions, migrating by
hand is honoured, the revisions make exactly the models. Each test starts on an empty database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import MetaData, create_engine

from tests.web import test_schema


def empty(url: str) -> None:
    """Drop every table (Alembic's too): the next test starts as on a new server."""
    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine)
    tables.drop_all(engine)
    engine.dispose()


@pytest.fixture
def url(postgres_url: str) -> Iterator[str]:
    empty(postgres_url)
    yield postgres_url
    empty(postgres_url)


@pytest.mark.parametrize("boneyard", test_schema.OLDER_BONEYARDS)
def test_an_older_database_upgrades_with_every_row(url: str, boneyard: str) -> None:
    test_schema.upgrades_with_every_row(url, boneyard)


@pytest.mark.parametrize("boneyard", test_schema.OLDER_BONEYARDS)
def test_a_game_of_an_older_database_plays_on(url: str, boneyard: str, tmp_path: Path) -> None:
    test_schema.plays_on_after_the_upgrade(url, boneyard, tmp_path / "today.db")


def test_a_database_newer_than_the_code_is_refused_by_both_versions(url: str) -> None:
    test_schema.refuses_a_newer_database(url)


def test_migrating_by_hand_refuses_to_start_until_upgraded(url: str) -> None:
    test_schema.migrates_by_hand(url)


def test_the_revisions_make_exactly_the_models(url: str) -> None:
    test_schema.revisions_make_the_models(url)
