"""The stored action log is the truth: games survive a restart, chance replays from the seed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from boneyard.core.registry import list_games
from boneyard.web.compute.chance import chance_outcome, seed_hash
from boneyard.web.store.games import Store, move_notice, read_move_notice
from tests.web.conftest import all_games, create, lasting, make_app, play_random, token


@pytest.mark.parametrize("name", sorted(all_games()))
def test_a_game_survives_a_restart(db_path: Path, name: str) -> None:
    with TestClient(make_app(db_path)) as first:
        created = create(first, name)
        play_random(first, created, 8, seed=3)
        views = [
            lasting(first.get(f"/api/games/{created['id']}", params={"token": s["token"]}).json())
            for s in created["seats"]
        ]
    with TestClient(make_app(db_path)) as second:
        again = [
            lasting(second.get(f"/api/games/{created['id']}", params={"token": s["token"]}).json())
            for s in created["seats"]
        ]
        assert again == views
        play_random(second, created, 4, seed=4)
        assert second.get(f"/api/games/{created['id']}").json()["seq"] >= views[0]["seq"]


def test_chance_outcomes_are_drawn_from_the_committed_seed(client: TestClient) -> None:
    created = create(client, "toy_secret", params={"players": 3})
    game_id = created["id"]
    spectator = client.get(f"/api/games/{game_id}").json()
    assert spectator["seed"] is None and spectator["seed_hash"] == created["seed_hash"]
    assert [line["string"] for line in spectator["log"]] == ["deal ?"] * 3
    for seat in range(3):
        client.post(
            f"/api/games/{game_id}/actions",
            json={"token": token(created, seat), "seq": 3 + seat, "action": 0},
        )
    final = client.get(f"/api/games/{game_id}").json()
    assert final["terminal"]
    seed = final["seed"]
    assert seed_hash(seed) == created["seed_hash"], "the revealed seed matches its commitment"
    # Anyone can redo the deals from the seed.
    game = all_games()["toy_secret"](players=3)
    state = game.new_initial_state()
    for seq, secret in enumerate(final["observation"]["secrets"]):
        assert chance_outcome(state, seed, seq) == secret
        state.apply_action(secret)


def test_computer_seats_move_by_themselves(client: TestClient) -> None:
    created = create(
        client, "toy_walk", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    )
    assert created["seats"][1]["token"] is None, "a computer seat has no invite link"
    response = client.post(
        f"/api/games/{created['id']}/actions",
        json={"token": token(created, 0), "seq": 0, "action_string": "a1-a2"},
    )
    assert response.status_code == 200
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if client.get(f"/api/games/{created['id']}").json()["seq"] >= 2:
            break
        time.sleep(0.02)
    spectator = client.get(f"/api/games/{created['id']}").json()
    assert spectator["seq"] == 2 and spectator["log"][1]["player"] == 1
    assert spectator["current_player"] == 0


def test_a_game_of_computers_alone_finishes(client: TestClient) -> None:
    created = create(
        client,
        "toy_walk",
        seats=[{"kind": "computer", "level": "easy"}, {"kind": "computer", "level": "medium"}],
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if client.get(f"/api/games/{created['id']}").json()["terminal"]:
            break
        time.sleep(0.05)
    final = client.get(f"/api/games/{created['id']}").json()
    assert final["terminal"] and final["seed"] is not None
    frame = client.get(f"/api/games/{created['id']}/replay/{final['seq']}").json()
    assert frame["observation"] == final["observation"]
    # the replay's move log is in the game's words, as a spectator saw each move
    assert [line["words"] for line in frame["log"]] == [line["words"] for line in final["log"]]
    assert all(line["words"] for line in frame["log"] if line["player"] >= 0)
    assert client.get(f"/api/games/{created['id']}/replay/0").json()["log"] == []
    assert client.get(f"/api/games/{created['id']}/replay/{final['seq'] + 1}").status_code == 404


def test_an_unfinished_game_has_no_replay(client: TestClient) -> None:
    created = create(client, "toy_walk")
    response = client.get(f"/api/games/{created['id']}/replay/0")
    assert response.status_code == 409 and response.json()["error"] == "not_finished"


@pytest.mark.skipif("obonto" not in list_games(), reason="obonto is not registered")
def test_computer_seats_in_worker_processes(db_path: Path) -> None:
    """What ``boneyard serve`` does: bots in spawned processes, the state sent as its document."""
    with TestClient(make_app(db_path, bot_processes=1)) as client:
        created = create(
            client, "obonto", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
        )
        mine = client.get(f"/api/games/{created['id']}", params={"token": token(created, 0)})
        first = mine.json()["legal"][0]["id"]
        client.post(
            f"/api/games/{created['id']}/actions",
            json={"token": token(created, 0), "seq": 0, "action": first},
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if client.get(f"/api/games/{created['id']}").json()["seq"] >= 2:
                break
            time.sleep(0.05)
        assert client.get(f"/api/games/{created['id']}").json()["log"][1]["player"] == 1
        hint = client.post(f"/api/games/{created['id']}/hint", json={"token": token(created, 0)})
        assert hint.status_code == 200, hint.text


@pytest.mark.skipif("obonto" not in list_games(), reason="obonto is not registered")
def test_a_killed_server_loses_no_acknowledged_move(db_path: Path) -> None:
    """SIGKILL right after the answers: every acknowledged move is in the database."""
    import os
    import signal
    import socket
    import subprocess
    import sys

    import httpx2

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from boneyard.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db_path}",
            "--bot-processes",
            "0",
            "--work-processes",
            "0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx2.get(base + "/api/kinds", timeout=2)
                break
            except httpx2.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        created = httpx2.post(base + "/api/games", json={"game": "obonto"}, timeout=10).json()
        tokens = [seat["token"] for seat in created["seats"]]
        played = []
        for seq in range(6):
            view = httpx2.get(
                f"{base}/api/games/{created['id']}", params={"token": tokens[seq % 2]}
            ).json()
            action = view["legal"][-1]
            answer = httpx2.post(
                f"{base}/api/games/{created['id']}/actions",
                json={"token": tokens[seq % 2], "seq": seq, "action": action["id"]},
            )
            assert answer.status_code == 200
            played.append(action["string"])
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    with TestClient(make_app(db_path)) as client:
        after = client.get(f"/api/games/{created['id']}").json()
        assert [line["string"] for line in after["log"]] == played


def test_chance_draws_follow_the_probabilities() -> None:
    from collections import Counter

    from boneyard.core.game import State

    class Weighted:
        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(2, 0.5), (5, 0.0), (7, 0.25), (9, 0.25)]

    state: State = Weighted()  # type: ignore[assignment]
    draws = Counter(chance_outcome(state, "seed", seq) for seq in range(4000))
    assert set(draws) == {2, 7, 9}, "an outcome of probability 0 is never drawn"
    assert abs(draws[2] / 4000 - 0.5) < 0.04
    assert abs(draws[7] / 4000 - 0.25) < 0.04
    assert [chance_outcome(state, "seed", n) for n in range(20)] == [
        chance_outcome(state, "seed", n) for n in range(20)
    ], "the same seed and number always draw the same outcome"
    assert [chance_outcome(state, "other", n) for n in range(20)] != [
        chance_outcome(state, "seed", n) for n in range(20)
    ]


def test_idle_games_leave_memory_and_come_back_from_the_store(db_path: Path) -> None:
    with TestClient(make_app(db_path, max_live_games=1, live_idle_seconds=0.0)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        first = create(client, "obonto")
        play_random(client, first, 3, seed=5)
        views = [
            lasting(client.get(f"/api/games/{first['id']}", params={"token": s["token"]}).json())
            for s in first["seats"]
        ]
        second = create(client, "bones")
        assert list(manager.games) == [second["id"]], "the idle first game was dropped"
        again = [
            lasting(client.get(f"/api/games/{first['id']}", params={"token": s["token"]}).json())
            for s in first["seats"]
        ]
        assert again == views, "replayed from the store, nothing lost"
        assert list(manager.games) == [first["id"]]
        play_random(client, first, 2, seed=6)
        assert client.get(f"/api/games/{first['id']}").json()["seq"] == views[0]["seq"] + 2


def test_a_watched_game_stays_in_memory(db_path: Path) -> None:
    with TestClient(make_app(db_path, max_live_games=1, live_idle_seconds=0.0)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        watched = create(client, "obonto")
        with client.websocket_connect(f"/ws/games/{watched['id']}") as socket:
            assert socket.receive_json()["type"] == "view"
            other = create(client, "bones")
            assert set(manager.games) == {watched["id"], other["id"]}
        # once nobody watches, the next game to load pushes out the least recently used
        create(client, "oyno")
        assert watched["id"] not in manager.games


def test_a_recently_used_game_is_not_dropped(db_path: Path) -> None:
    with TestClient(make_app(db_path, max_live_games=1, live_idle_seconds=3600.0)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        first = create(client, "obonto")
        second = create(client, "bones")
        assert set(manager.games) == {first["id"], second["id"]}


def test_a_move_notice_carries_the_stored_actions_or_only_the_number() -> None:
    """Other processes apply the actions a notice brings; one too long for PostgreSQL's
    notices (under 8,000 bytes) brings only the number, and they read the store instead."""
    actions = [(12, 0), (3, -1), (40, 1)]
    notice = move_notice("a-B_9", 7, actions)
    assert read_move_notice(notice) == ("a-B_9", 7, actions)
    long_run = [(1000 + n, n % 4 - 1) for n in range(2000)]
    notice = move_notice("game", 2000, long_run)
    assert len(notice.encode()) < 8000
    assert read_move_notice(notice) == ("game", 2000, None)


@pytest.mark.parametrize("url", ["sqlite:///sqlite:", "sqlite:///run/sqlite:", "sqlite:///a:b.db"])
def test_a_sqlite_file_named_like_a_url_is_refused_and_not_made(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # three files named sqlite:, sqlite:-shm and sqlite:-wal were once committed from a run
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run").mkdir()
    with pytest.raises(ValueError, match="give a file path"):
        Store(url)
    assert [path.name for path in tmp_path.rglob("*") if path.is_file()] == []
