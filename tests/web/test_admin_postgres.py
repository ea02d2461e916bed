"""``test_admin.py``'s checks on PostgreSQL: a ban (sessions, the game under way resigned,
log-ins refused, the name kept), a rename, deleting an account leaving nothing of it, a new
password, the notice. Each test starts on an empty database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web import test_admin
from tests.web.test_schema_postgres import empty


@pytest.fixture
def url(postgres_url: str) -> Iterator[str]:
    empty(postgres_url)
    yield postgres_url
    empty(postgres_url)


def test_a_ban_ends_sessions_resigns_games_refuses_log_ins_keeps_the_name(url: str) -> None:
    test_admin.bans(url)


def test_a_rename_shows_on_the_accounts_games_and_keeps_the_rules_of_names(url: str) -> None:
    test_admin.renames(url)


def test_a_new_password_ends_every_session(url: str) -> None:
    test_admin.resets_a_password(url)


def test_deleting_an_account_leaves_nothing_of_it(url: str) -> None:
    test_admin.deletes_an_account(url)


def test_a_maintenance_notice_is_on_every_page_until_cleared(url: str) -> None:
    test_admin.posts_a_notice(url)
