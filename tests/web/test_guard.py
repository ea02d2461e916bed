"""The one guard every way in passes (web/budgets.py, web/connections.py, the Guard's hosts).

The attacks of issue 24, each at a small scale on loopback and bounded in count and time, with
an honest client's answer measured in the same run where the attack is about time.
"""

from __future__ import annotations

import asyncio
import itertools
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from boneyard.web.app import create_app
from boneyard.web.guard import connections
from boneyard.web.guard.budgets import Charge, GuardedRouter, Spend, unguarded_routes
from boneyard.web.guard.connections import BoundedHttp
from tests.web.conftest import Server, app_settings, create, free_port, make_app, token

OTHER = "127.0.0.2"
"""The honest client's address; the attacker's are 127.0.3.x."""
_attackers = itertools.count(10)


def attacker() -> str:
    return f"127.0.3.{next(_attackers)}"


# ----- every route is charged ----------------------------------------------------------------


def test_every_route_that_changes_something_is_charged(client: TestClient) -> None:
    assert unguarded_routes(list(client.app.routes)) == []  # type: ignore[attr-defined]


def test_a_route_without_a_charge_cannot_be_defined_or_served(db_path: Path) -> None:
    router = GuardedRouter()
    with pytest.raises(TypeError, match="declares no Charge"):

        @router.post("/api/forgotten")
        async def forgotten() -> None: ...

    @router.post("/api/charged", dependencies=[Depends(Charge(Spend.GAME))])
    async def charged() -> None: ...

    app = make_app(db_path)
    assert unguarded_routes(list(app.routes)) == []

    @app.post("/api/sneaked")  # straight on the app, past the guarded routers
    async def sneaked() -> None: ...

    assert unguarded_routes(list(app.routes)) == ["['POST'] /api/sneaked"]


# ----- one budget of games, whatever the way in ------------------------------------------------


@pytest.fixture(scope="module")
def budget_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("guard") / "web.db"
    running = Server(
        db,
        *("--bot-processes", "0", "--work-processes", "1", "--games-per-minute", "6"),
    )
    yield running
    running.stop()


def test_one_address_makes_its_budget_of_games_by_every_way_in_together(
    budget_server: Server,
) -> None:
    """Six games a minute: whatever mix of ways in, and whatever X-Forwarded-For it claims,
    one address gets six (no proxy is trusted by default); another address is untouched."""
    spoof = itertools.count(1)

    def forged() -> dict[str, str]:
        return {"X-Forwarded-For": f"10.9.{next(spoof) % 250}.{next(spoof) % 250}"}

    with budget_server.client(attacker()) as client:
        person = client.post("/api/people", json={"name": "Mallory"}).json()
        proof = {"id": person["id"], "secret": person["secret"]}
        ways = [
            lambda: client.post("/api/games", json={"game": "obonto"}, headers=forged()),
            lambda: client.post(
                "/new/obonto", data={"level": "easy"}, headers=forged(), follow_redirects=False
            ),
            lambda: client.post(
                "/api/open", json={"game": "bones", "person": proof}, headers=forged()
            ),
            lambda: client.post("/api/ladder/levels/1", headers=forged()),
            lambda: client.post("/api/ladder/daily", json={"date": "2026-11-26"}, headers=forged()),
        ]
        answers = [way() for _ in range(4) for way in ways]
        made = [a for a in answers if a.status_code in (201, 303)]
        refused = [a for a in answers if a.status_code == 429]
        assert len(made) == 6, [a.status_code for a in answers]
        assert len(made) + len(refused) == len(answers), [a.text for a in answers]
        assert all(int(a.headers["retry-after"]) >= 1 for a in refused)
        said = [a.json()["detail"] for a in refused if "json" in a.headers["content-type"]]
        assert "new games in the last minute" in said[0]
        page = next(a.text for a in refused if "html" in a.headers["content-type"])
        assert "new games in the last minute" in page, "the form's page says it too"
    with budget_server.client(OTHER) as other:
        assert other.post("/api/games", json={"game": "obonto"}).status_code == 201


def test_a_rematch_and_a_join_are_new_games_too(db_path: Path) -> None:
    with TestClient(make_app(db_path, games_per_minute=3)) as client:
        people = [{"kind": "human"}, {"kind": "human"}]
        created = create(client, "bones", seats=people)
        for seat in (0, 1):
            answer = client.post(
                f"/api/games/{created['id']}/session",
                json={"token": token(created, seat), "do": "resign" if seat == 0 else "rematch"},
            )
            assert answer.status_code == 200, answer.text
        opened = client.post("/api/open", json={"game": "bones"})
        assert opened.status_code == 201  # the third game of the minute
        joined = client.post(f"/api/open/{opened.json()['id']}/join", json={})
        assert joined.status_code == 429, joined.text


def test_people_are_charged(db_path: Path) -> None:
    with TestClient(make_app(db_path, people_per_minute=3)) as client:
        codes = [client.post("/api/people", json={"name": f"P{n}"}).status_code for n in range(6)]
        assert codes == [201] * 3 + [429] * 3


# ----- heavy set-up never on the event loop --------------------------------------------------


def test_oversized_open_games_do_not_stall_an_honest_player(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four clients open OYNO games of size 25 (the web offers 15), three times each, and every
    worker of the work pool is held at such a set-up: the honest player's views and move are
    all answered meanwhile (nothing of theirs waits behind the set-ups), the set-ups ran in the
    pool's threads, never on the event loop, and each is refused, storing nothing. Told by
    events, never by timing (a loaded machine answers everyone late)."""
    from boneyard.web.play import manager as manager_module

    real_set_up = manager_module.set_up
    release = threading.Event()
    held = threading.Semaphore(0)
    where: list[tuple[str, bool]] = []

    def held_set_up(game_cls: Any, params: dict[str, Any], *args: Any) -> Any:
        if params.get("size") == 25:
            where.append((threading.current_thread().name, running_loop()))
            held.release()
            release.wait(60)
        return real_set_up(game_cls, params, *args)

    monkeypatch.setattr(manager_module, "set_up", held_set_up)
    app = make_app(db_path, work_processes=0)
    addresses = [attacker() for _ in range(4)]
    # each client by its own address, named by a proxy the server trusts (as --trusted-proxy)
    behind_proxy = ProxyHeadersMiddleware(app, trusted_hosts="127.0.9.1")  # type: ignore[arg-type]
    with TestClient(behind_proxy, client=("127.0.9.1", 50000)) as client:  # type: ignore[arg-type]
        honest = {"X-Forwarded-For": OTHER}
        created = client.post(
            "/api/games",
            json={"game": "bones", "seats": [{"kind": "human"}, {"kind": "human"}]},
            headers=honest,
        ).json()

        def attack(address: str) -> list[int]:
            body = {"game": "oyno", "params": {"size": 25}}
            headers = {"X-Forwarded-For": address}
            return [
                client.post("/api/open", json=body, headers=headers).status_code for _ in range(3)
            ]

        with ThreadPoolExecutor(4) as pool:
            attacks = [pool.submit(attack, address) for address in addresses]
            try:
                for _ in range(4):  # every worker of the pool (4 threads) holds a set-up
                    assert held.acquire(timeout=60), "the set-ups reach the work pool"
                path = f"/api/games/{created['id']}"
                views = [client.get(path, headers=honest).status_code for _ in range(20)]
                view = client.get(path, params={"token": token(created, 0)}).json()
                moved = client.post(
                    f"{path}/actions",
                    json={"token": token(created, 0), "seq": view["seq"], "action": 0},
                    headers=honest,
                )
                assert not release.is_set() and views == [200] * 20
                # a client's second set-up while its first runs: refused, counted in /metrics
                again = client.post(
                    "/api/open",
                    json={"game": "oyno", "params": {"size": 25}},
                    headers={"X-Forwarded-For": addresses[0]},
                )
                assert again.status_code == 429 and again.json()["error"] == "busy"
                metrics = client.get("/metrics", headers=honest).text
                assert 'boneyard_refusals_total{reason="set_up_running"} 1.0' in metrics
                assert moved.status_code in (200, 409, 422), moved.text  # answered, not held
                assert not any(done.done() for done in attacks), "the set-ups were still held"
            finally:
                release.set()
            codes = [code for done in attacks for code in done.result(timeout=60)]
    assert codes == [400] * 12, codes
    assert len(where) == 12 and all(
        name.startswith("work") and not on_loop for name, on_loop in where
    ), where
    assert app.state.manager.store.game_ids() == [created["id"]], "nothing of theirs stored"


def running_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


# ----- session events --------------------------------------------------------------------------


def test_two_thousand_renames_keep_a_game_small(db_path: Path) -> None:
    """A seat renames itself once in ``rename_seconds``; the spectator's view stays small."""
    app = make_app(db_path, rename_seconds=10.0)
    with TestClient(app) as client:
        created = create(client, "bones", seats=[{"kind": "human"}, {"kind": "human"}])
        before = client.get(f"/api/games/{created['id']}")
        start = time.monotonic()
        codes = [
            client.post(
                f"/api/games/{created['id']}/session",
                json={"token": token(created, 1), "do": "name", "name": f"Ben {n}"},
            ).status_code
            for n in range(2000)
        ]
        allowed = 1 + int((time.monotonic() - start) / 10.0)  # one a seat each ten seconds
        assert 1 <= codes.count(200) <= allowed and codes.count(429) == 2000 - codes.count(200)
        view = client.get(f"/api/games/{created['id']}")
        assert len(view.content) - len(before.content) < 2_000  # the one new name and its event
        plain = client.get(f"/api/games/{created['id']}", params={"draw": "false"})
        assert len(plain.content) < 20_000  # without the board's drawing


def test_a_games_events_are_capped_but_a_person_can_always_leave(db_path: Path) -> None:
    app = make_app(db_path, session_events_per_game=5, events_in_view=3)
    with TestClient(app) as client:
        created = create(client, "bones", seats=[{"kind": "human"}, {"kind": "human"}])
        live = app.state.manager.games[created["id"]]
        memory = live.memory

        def ask(seat: int, do: str, **more: Any) -> Any:
            body = {"token": token(created, seat), "do": do, **more}
            return client.post(f"/api/games/{created['id']}/session", json=body)

        codes = [ask(n % 2, "name", name=f"Name {n}").status_code for n in range(8)]
        assert codes == [200] * 5 + [429] * 3
        assert "the most this server keeps" in ask(0, "name", name="More").json()["detail"]
        assert live.memory > memory, "stored events count in the game's memory"
        view = client.get(f"/api/games/{created['id']}").json()["session"]
        assert len(view["events"]) == 3 and view["events_total"] == 5
        every = client.get(f"/api/games/{created['id']}/session").json()
        assert len(every["events"]) == 5
        assert ask(0, "resign").status_code == 200
        assert client.get(f"/api/games/{created['id']}").json()["terminal"]


# ----- seats belong to people while they sit ---------------------------------------------------


def test_a_seat_that_left_a_game_of_three_moves_no_more(db_path: Path) -> None:
    with TestClient(make_app(db_path, bot_delay=30.0)) as client:
        people = [{"kind": "human"}] * 3
        created = create(client, "toy_secret", seats=people, params={"players": 3})
        game_id = created["id"]
        mover = client.get(f"/api/games/{game_id}").json()["current_player"]
        leaver = token(created, mover)
        left = client.post(f"/api/games/{game_id}/session", json={"token": leaver, "do": "resign"})
        assert left.status_code == 200, left.text
        mine = client.get(f"/api/games/{game_id}", params={"token": leaver})
        assert mine.status_code == 200, "it can still watch"
        seq = mine.json()["seq"]
        legal = client.get(f"/api/games/{game_id}", params={"token": leaver}).json()["legal"]
        action = legal[0]["id"] if legal else 0
        moved = client.post(
            f"/api/games/{game_id}/actions", json={"token": leaver, "seq": seq, "action": action}
        )
        assert moved.status_code == 403 and moved.json()["error"] == "seat_taken_over"
        hint = client.post(f"/api/games/{game_id}/hint", json={"token": leaver})
        assert hint.status_code == 403 and hint.json()["error"] == "seat_taken_over"
        assert client.get(f"/api/games/{game_id}").json()["seq"] == seq, "nothing changed"
        with client.websocket_connect(f"/ws/games/{game_id}?token={leaver}") as socket_:
            assert socket_.receive_json()["type"] == "view"
            socket_.send_json({"type": "act", "seq": seq, "action": action})
            refused = socket_.receive_json()
            assert refused["type"] == "error" and refused["error"] == "seat_taken_over"


# ----- names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("\u202eevil\u202c", "direction"),
        ("Ann\u2067Bob", "direction"),
        ("\u200b\u200b", "visible"),
        ("\u200d", "visible"),
        ("Ann\x07", "control"),
    ],
)
def test_names_are_one_line_of_visible_text(client: TestClient, name: str, reason: str) -> None:
    refused = client.post("/api/people", json={"name": name})
    assert refused.status_code == 400 and reason in refused.json()["detail"], refused.text
    created = create(client, "bones", seats=[{"kind": "human"}, {"kind": "human"}])
    asked = client.post(
        f"/api/games/{created['id']}/session",
        json={"token": token(created, 0), "do": "name", "name": name},
    )
    assert asked.status_code == 400 and asked.json()["error"] == "bad_name"
    made = client.post("/api/games", json={"game": "bones", "seats": [{"name": name}, {}]})
    assert made.status_code == 400 and made.json()["error"] == "bad_name"
    assert client.post("/api/people", json={"name": "Zoë 李"}).status_code == 201


# ----- the API says what it enforces -------------------------------------------------------------


def test_refusals_speak_the_apis_words(client: TestClient) -> None:
    wrong_method = client.delete("/api/games")
    assert wrong_method.status_code == 405 and wrong_method.headers["allow"] == "POST"
    assert wrong_method.json()["error"] == "method_not_allowed"
    bad = client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_json"
    for level in ("١", "1_2", "+1", "01x"):
        answer = client.post(f"/api/ladder/levels/{level}")
        assert answer.status_code == 422, (level, answer.text)
    for size in ("١٣", "1_3", "１３"):
        answer = client.post("/api/games", json={"game": "oyno", "params": {"size": size}})
        assert answer.status_code == 400 and "digits 0-9" in answer.json()["detail"], answer.text
    assert (
        client.post("/api/games", json={"game": "oyno", "params": {"size": "7"}}).status_code == 201
    )


def test_the_schema_names_the_rules_the_server_enforces(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    parts = schema["components"]["schemas"]
    assert parts["DailyRequest"]["properties"]["date"]["pattern"].startswith("^[0-9]{4}")
    assert parts["NewPerson"]["properties"]["name"]["minLength"] == 1
    assert {"required": ["action"]} in parts["Act"]["oneOf"]
    names = parts["SessionRequest"]["properties"]["name"]
    assert any(option.get("minLength") == 1 for option in names.get("anyOf", [names]))
    level = schema["paths"]["/api/ladder/levels/{level}"]["post"]["parameters"][0]
    assert level["schema"]["pattern"] == "^[0-9]{1,9}$"
    games = schema["paths"]["/api/people/{person_id}/games"]["post"]["description"]
    assert "must be the address's" in games


# ----- hosts and proxies -------------------------------------------------------------------------


def test_a_foreign_host_is_refused(client: TestClient) -> None:
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    answer = client.get("/api/kinds", headers=evil)
    assert answer.status_code == 400 and answer.json()["error"] == "bad_host"
    assert client.get("/api/kinds", headers={"host": "localhost:8000"}).status_code == 200
    assert client.get("/api/kinds", headers={"host": "[::1]:8000"}).status_code == 200


def test_serve_answers_to_its_address_and_given_names(tmp_path: Path) -> None:
    server = Server(tmp_path / "web.db", "--bot-processes", "0", "--host-name", "games.test")
    try:
        with server.client() as client:
            assert client.get("/api/kinds").status_code == 200
            assert client.get("/api/kinds", headers={"host": "games.test"}).status_code == 200
            foreign = client.get("/api/kinds", headers={"host": "rebound.test"})
            assert foreign.status_code == 400
    finally:
        server.stop()


# ----- connections -------------------------------------------------------------------------------


class ThreadedServer:
    """The app under uvicorn with the bounded protocol, in a thread, with small limits."""

    def __init__(self, app: FastAPI, **limits: Any) -> None:
        self.saved = connections.ConnectionLimits(**vars(connections.LIMITS))
        connections.configure(**limits)
        self.port = free_port()
        config = uvicorn.Config(app, port=self.port, http=BoundedHttp, log_level="error")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        vars(connections.LIMITS).update(vars(self.saved))


def closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before it closed the connection (fails if it stays open)."""
    sock.settimeout(seconds)
    received = b""
    while True:
        chunk = sock.recv(4096)
        if not chunk:
            return received
        received += chunk


def test_slow_and_silent_connections_are_closed_and_the_cap_answers_503(db_path: Path) -> None:
    server = ThreadedServer(  # one address may take the whole cap here: the cap is tested
        make_app(db_path), max_connections=3, header_seconds=0.5, body_seconds=0.5,
        connection_share=1.0,
    )  # fmt: skip
    try:
        silent = server.connect()
        start = time.monotonic()
        assert closed_within(silent, 30) == b"", "closed, with nothing said"
        assert time.monotonic() - start >= 0.4, "not before its head's time ran out"
        slow = server.connect()
        slow.sendall(b"POST /api/people HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 40\r\n\r\n")
        assert closed_within(slow, 3) == b"", "a body that never comes"
        held = [server.connect() for _ in range(3)]
        extra = server.connect()
        extra.sendall(b"GET /api/kinds HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
        answer = closed_within(extra, 3)
        assert answer.startswith(b"HTTP/1.1 503") and b"retry-after: 5" in answer.lower()
        for sock in held:
            sock.close()
        time.sleep(0.2)
        with httpx2.Client(base_url=f"http://127.0.0.1:{server.port}") as client:
            assert client.get("/api/kinds").status_code == 200, "room again"
    finally:
        server.stop()


class LimitedServer(Server):
    """``boneyard serve`` under the usual limit of 1,024 open files."""

    def command(self, url: str, options: tuple[str, ...]) -> list[str]:
        inner = " ".join(f"'{part}'" for part in super().command(url, options))
        return ["sh", "-c", f"ulimit -n 1024 && exec {inner}"]


@pytest.mark.slow
def test_eleven_hundred_silent_connections_leave_room_for_an_answer(tmp_path: Path) -> None:
    server = LimitedServer(tmp_path / "web.db", "--bot-processes", "0", "--work-processes", "0")
    held: list[socket.socket] = []
    try:
        address = attacker()
        for _ in range(1100):
            sock = socket.socket()
            sock.bind((address, 0))
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", server.port))
            held.append(sock)
        time.sleep(1.5)  # the server has taken what it takes
        start = time.monotonic()
        with server.client(OTHER) as honest:  # answered, not left hanging (generous: any load)
            answer = honest.get("/api/kinds", timeout=30)
        took = time.monotonic() - start
        print(f"the honest request answered {answer.status_code} in {took:.2f} s")
        assert answer.status_code in (200, 503), answer.status_code
        if answer.status_code == 503:
            assert int(answer.headers["retry-after"]) >= 1
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_sockets_are_capped_server_wide_and_count_as_memory(db_path: Path) -> None:
    app = make_app(db_path, max_sockets=2, sockets_per_client=10)
    with TestClient(app) as client:
        created = create(client, "bones")
        manager = app.state.manager
        before = manager.live_bytes
        path = f"/ws/games/{created['id']}"
        with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
            assert one.receive_json()["type"] == two.receive_json()["type"] == "view"
            assert manager.live_bytes == before + 2 * manager.settings.socket_bytes
            with client.websocket_connect(path) as three:
                refused = three.receive_json()
                assert refused["status"] == 503 and refused["error"] == "too_many_sockets"
        assert manager.live_bytes == before


def test_sockets_are_charged_to_their_address(db_path: Path) -> None:
    app = create_app(f"sqlite:///{db_path}", settings=app_settings(sockets_per_minute=2))
    with TestClient(app) as client:
        created = create(client, "bones")
        path = f"/ws/games/{created['id']}"
        for _ in range(2):
            with client.websocket_connect(path) as sock:
                assert sock.receive_json()["type"] == "view"
        with client.websocket_connect(path) as sock:
            refused = sock.receive_json()
            assert refused["status"] == 429 and "new sockets" in refused["detail"]
