"""``boneyard admin`` on the web app's database (``web/store/admin.py``, ``cli/admin.py``): ban
and unban, rename, delete an account and all its data, a new password, who is online, the
maintenance notice, the log of actions. On SQLite here; test_admin_postgres.py runs the same
checks on PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import httpx2
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient
from sqlalchemy import MetaData, create_engine, select, text

from boneyard.cli import main
from boneyard.web.store.admin import FORMER_PLAYER
from tests.web.test_accounts import PASSWORD
from tests.web.test_results import (
    account,
    app_on,
    client_at,
    rated_pair,
    seat_view,
    serve_in_thread,
)


def admin(url: str, *words: str) -> Result:
    return CliRunner().invoke(main, ["admin", *words, "--db", url])


def ok(url: str, *words: str) -> str:
    answer = admin(url, *words)
    assert answer.exit_code == 0, answer.output
    return answer.output


def log_in(player: TestClient, name: str, password: str = PASSWORD) -> Any:
    return player.post("/api/login", json={"name": name, "password": password})


def account_id(url: str, name: str) -> str:
    engine = create_engine(url)
    with engine.connect() as connection:
        found = connection.execute(
            text("SELECT id FROM accounts WHERE name = :name"), {"name": name}
        ).scalar_one()
    engine.dispose()
    return str(found)


def everything_stored(url: str) -> str:
    """Every row of every table, as text (to look for a datum anywhere)."""
    engine = create_engine(url)
    tables = MetaData()
    tables.reflect(engine)
    rows = []
    with engine.connect() as connection:
        for table in tables.sorted_tables:
            for row in connection.execute(select(table)):
                rows.append(f"{table.name}: {json.dumps(list(row), default=str)}")
    engine.dispose()
    return "\n".join(rows)


@contextmanager
def serving(url: str) -> Iterator[TestClient]:
    """A client of the app on ``url``; on PostgreSQL the app served in a thread (its clients'
    requests on its one event loop, as in production: TestClients beside one another would
    each run their own)."""
    if url.startswith("sqlite"):
        with TestClient(app_on(url)) as client:
            yield client
        return
    for address in serve_in_thread(app_on(url)):
        with httpx2.Client(base_url=address, timeout=30) as http:
            yield cast(TestClient, http)


def each_moves(players: list[TestClient], game: dict[str, Any]) -> None:
    """Moves (the first legal one) until each seat has moved once."""
    moved: set[int] = set()
    while moved != {0, 1}:
        moved.add(move_once(players, game))


def move_once(players: list[TestClient], game: dict[str, Any]) -> int:
    """The seat to move plays its first legal action; answers that seat."""
    mover = players[0].get(f"/api/games/{game['id']}").json()["current_player"]
    view = seat_view(players[mover], game, mover)
    answer = players[mover].post(
        f"/api/games/{game['id']}/actions",
        json={
            "token": game["tokens"][mover],
            "seq": view["seq"],
            "action": view["legal"][0]["id"],
        },
    )
    assert answer.status_code == 200, answer.text
    return int(mover)


# ----- bans ------------------------------------------------------------------------------------


def bans(url: str) -> None:
    """A ban ends the account's sessions, resigns its game under way, refuses its log-ins, and
    keeps its name from everyone else; an unban lets it in again. Both are in the log."""
    with serving(url) as client:
        # a registered game: the command's own server knows only those
        ann, bob, game = rated_pair(client, "Ann", "Bob", game="obonto")
        each_moves([ann, bob], game)
        assert ann.get("/api/me").status_code == 200
    said = ok(url, "ban", "Ann", "--reason", "abuse in the chat")
    assert "1 session(s) ended" in said and f"{game['id']}: resigned" in said, said
    with serving(url) as client:
        ann, bob = client_at(client, "127.0.0.2"), client_at(client, "127.0.0.3")
        assert log_in(bob, "Bob").status_code == 200
        refused = log_in(ann, "Ann")
        assert refused.status_code == 403 and "banned" in refused.json()["detail"], refused.text
        over = seat_view(bob, game, 1)
        assert over["terminal"] and over["session"]["ending"]["kind"] == "resign"
        assert over["returns"] == [-1.0, 1.0], "the banned account's side lost"
        taken = client_at(client, "127.0.0.4").post(
            "/api/accounts", json={"name": "ann", "password": PASSWORD}
        )
        assert taken.status_code == 409, "the banned account's name is still its own"
        ok(url, "unban", "Ann")
        assert log_in(ann, "Ann").status_code == 200
    actions = ok(url, "log")
    assert "ban  Ann  abuse in the chat" in actions and "unban  Ann" in actions, actions


def test_a_ban_ends_sessions_resigns_games_refuses_log_ins_keeps_the_name(db_path: Path) -> None:
    bans(f"sqlite:///{db_path}")


def test_a_running_sqlite_server_shows_a_bans_resignation_at_the_next_look(
    db_path: Path,
) -> None:
    url = f"sqlite:///{db_path}"
    with TestClient(app_on(url)) as client:
        ann, bob, game = rated_pair(client, "Ann", "Bob", game="obonto")
        each_moves([ann, bob], game)
        assert "resigned" in ok(url, "ban", "Ann")  # the server above holds the game meanwhile
        over = seat_view(bob, game, 1)  # SQLite: no notice came; the store says it is over
        assert over["terminal"] and over["returns"] == [-1.0, 1.0], over["status"]
        assert over["session"]["ending"]["kind"] == "resign"


def test_a_session_opened_before_the_ban_opens_nothing(db_path: Path) -> None:
    url = f"sqlite:///{db_path}"
    with TestClient(app_on(url)) as client:
        ann = account(client, "127.0.0.2", "Ann")
        ok(url, "ban", "Ann")
        assert ann.get("/api/me").status_code == 401, "its session ended at once"


# ----- names, passwords ------------------------------------------------------------------------


def renames(url: str) -> None:
    with TestClient(app_on(url)) as client:
        _ann, _bob, game = rated_pair(client, "Ann", "Bob")
    refused = admin(url, "rename", "Ann", "B0b")
    assert refused.exit_code == 1 and "looks like" in refused.output, refused.output
    refused = admin(url, "rename", "Ann", "no spaces")
    assert refused.exit_code == 1 and "no spaces" in refused.output, refused.output
    ok(url, "rename", "Ann", "Annabel")
    with TestClient(app_on(url)) as client:
        bob = client_at(client, "127.0.0.3")
        assert log_in(bob, "Bob").status_code == 200  # an account's seat opens with its session
        seen = seat_view(bob, game, 1)
        assert seen["seats"][0]["label"].startswith("Annabel"), seen["seats"]
        assert log_in(client_at(client, "127.0.0.2"), "Annabel").status_code == 200
        assert log_in(client_at(client, "127.0.0.5"), "Ann").status_code == 401


def test_a_rename_shows_on_the_accounts_games_and_keeps_the_rules_of_names(db_path: Path) -> None:
    renames(f"sqlite:///{db_path}")


def resets_a_password(url: str) -> None:
    with TestClient(app_on(url)) as client:
        ann = account(client, "127.0.0.2", "Ann")
        said = ok(url, "reset-password", "Ann")
        password = said.split("(shown once): ", 1)[1].split()[0]
        assert "1 session(s) ended" in said
        assert ann.get("/api/me").status_code == 401, "every session ended"
        assert log_in(ann, "Ann").status_code == 401, "the old password opens nothing"
        assert log_in(ann, "Ann", password).status_code == 200


def test_a_new_password_ends_every_session(db_path: Path) -> None:
    resets_a_password(f"sqlite:///{db_path}")


def test_an_unknown_account_changes_nothing(db_path: Path) -> None:
    url = f"sqlite:///{db_path}"
    with TestClient(app_on(url)):
        pass
    before = everything_stored(url)
    for words in (["ban", "Nobody"], ["rename", "Nobody", "Else"], ["reset-password", "Nobody"]):
        answer = admin(url, *words)
        assert answer.exit_code == 1 and "no account is called 'Nobody'" in answer.output
    answer = admin(url, "delete", "Nobody", "--yes")
    assert answer.exit_code == 1 and "no account is called 'Nobody'" in answer.output
    assert everything_stored(url) == before


# ----- deleting an account ----------------------------------------------------------------------


def deletes_an_account(url: str) -> None:
    """Nothing of the account is left in any table, its name in others' games reads "a former
    player"; the games and the other player's rating stay."""
    with serving(url) as client:
        ann, bob, game = rated_pair(client, "Ann", "Bob")
        each_moves([ann, bob], game)
        assert ann.post(
            f"/api/games/{game['id']}/session", json={"token": game["tokens"][0], "do": "resign"}
        ).is_success
        open_game = ann.post("/api/open", json={"game": "toy_walk", "rated": True, "seat": 0})
        assert open_game.status_code == 201
    ann_id = account_id(url, "Ann")
    ok(url, "notice", "Ann's", "games", "are", "moving")  # the log names no account
    said = ok(url, "delete", "Ann", "--yes")
    assert "deleted Ann" in said, said
    stored = everything_stored(url)
    assert ann_id not in stored, [line for line in stored.splitlines() if ann_id in line]
    assert '"Ann"' not in stored, [line for line in stored.splitlines() if '"Ann"' in line]
    with TestClient(app_on(url)) as client:
        bob = client_at(client, "127.0.0.3")
        assert log_in(bob, "Bob").status_code == 200
        seen = seat_view(bob, game, 1)
        assert seen["seats"][0]["label"].startswith(FORMER_PLAYER), seen["seats"]
        ratings = client.get("/api/players/Bob").json()["ratings"]
        assert ratings["toy_walk"]["games"] == 1, "the other player's result stays"
        again = client_at(client, "127.0.0.6").post(
            "/api/accounts", json={"name": "Ann", "password": PASSWORD}
        )
        assert again.status_code == 201, "the name is free again"


def test_deleting_an_account_leaves_nothing_of_it(db_path: Path) -> None:
    deletes_an_account(f"sqlite:///{db_path}")


# ----- who is online, the notice ----------------------------------------------------------------


def test_who_is_online_lists_the_signed_in(db_path: Path) -> None:
    url = f"sqlite:///{db_path}"
    with TestClient(app_on(url)) as client:
        account(client, "127.0.0.2", "Ann")
        account(client, "127.0.0.3", "Bob")
        client_at(client, "127.0.0.4").get("/")  # a guest is nobody's account
        said = ok(url, "online")
    assert "Ann  seen 0 min ago  (1 session(s))" in said and "Bob  seen" in said, said
    assert "2 account(s) online" in said


def posts_a_notice(url: str) -> None:
    with TestClient(app_on(url)):
        pass  # a server made the database
    assert ok(url, "notice") == "no notice is up\n"
    ok(url, "notice", "The", "server", "stops", "at", "22:00", "for", "ten", "minutes.")
    assert ok(url, "notice").endswith(": The server stops at 22:00 for ten minutes.\n")
    with TestClient(app_on(url)) as client:
        for path in ("/", "/lobby", "/login", "/no-such-page"):
            page = client.get(path).text
            assert "The server stops at 22:00 for ten minutes." in page, path
    assert "notice taken down" in ok(url, "notice", "--clear")
    with TestClient(app_on(url)) as client:
        assert "server-notice" not in client.get("/").text
    answer = admin(url, "notice", "x" * 501)
    assert answer.exit_code == 1 and "at most 500 characters" in answer.output


def test_a_maintenance_notice_is_on_every_page_until_cleared(db_path: Path) -> None:
    posts_a_notice(f"sqlite:///{db_path}")


def test_the_operators_tools_never_migrate(tmp_path: Path) -> None:
    from tests.web.test_schema import old_database

    url = f"sqlite:///{tmp_path / 'old.db'}"
    old_database(url, "boneyard_0.1.0_main")
    answer = admin(url, "online")
    assert answer.exit_code == 1 and "boneyard db upgrade" in answer.output, answer.output
