"""Arena tournaments (issue 34 item 4): pairing, points, exactly-once pairing on a shared
database, the end, results from the games, the API's errors and the socket."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.web.store import arena
from boneyard.web.store.arena import Entrant
from boneyard.web.store.games import Store
from boneyard.web.store.tournaments import PENDING_SECONDS, Pairing, Tournament, TournamentStore
from tests.web.conftest import another_person, make_app

PASSWORD = "correct horse battery"


# ----- the rules alone ---------------------------------------------------------------------------


def test_the_free_are_paired_with_the_nearest_in_score() -> None:
    free = [Entrant("low", 0, None, 1.0), Entrant("top", 8, None, 1.0),
            Entrant("mid", 2, None, 1.0), Entrant("high", 6, None, 1.0)]  # fmt: skip
    pairs = arena.pair(free, playing=0, now=10.0)
    assert {frozenset(p) for p in pairs} == {frozenset({"top", "high"}), frozenset({"mid", "low"})}


def test_no_one_meets_their_last_opponent_when_another_is_free() -> None:
    free = [Entrant("ann", 4, "bob", 1.0), Entrant("bob", 4, "ann", 1.0),
            Entrant("cy", 0, "dee", 1.0), Entrant("dee", 0, "cy", 1.0)]  # fmt: skip
    pairs = {frozenset(p) for p in arena.pair(free, playing=0, now=2.0)}
    assert len(pairs) == 2
    assert frozenset({"ann", "bob"}) not in pairs and frozenset({"cy", "dee"}) not in pairs


def test_a_third_player_is_not_left_out_while_two_meet_again_and_again() -> None:
    """Seen in the four-account arena: Cy's last game was with Bob, Bob's since then with Ann;
    all three free, Bob on top: Bob played Ann and Ann Bob, again and again, Cy waiting."""
    free = [Entrant("ann", 4, "bob", 1.0), Entrant("bob", 6, "ann", 1.0),
            Entrant("cy", 2, "bob", 1.0)]  # fmt: skip
    assert {frozenset(p) for p in arena.pair(free, playing=0, now=2.0)} == {
        frozenset({"bob", "cy"})
    }


def test_a_rematch_waits_while_others_play_then_is_allowed() -> None:
    free = [Entrant("ann", 2, "bob", 100.0), Entrant("bob", 0, "ann", 100.0)]
    assert arena.pair(free, playing=2, now=101.0) == []  # others may be free soon
    waited = 100.0 + arena.REMATCH_WAIT_SECONDS + 1
    assert {frozenset(p) for p in arena.pair(free, playing=2, now=waited)} == {
        frozenset({"ann", "bob"})
    }
    assert len(arena.pair(free, playing=0, now=101.0)) == 1  # nobody else: they play again


def test_a_rematch_waits_as_long_as_one_game_of_the_arena_clock() -> None:
    """Issue 41 item 5: an owner and a sock are not paired again every 20 seconds while an
    honest pair plays a slow game; the wait is the longest a game of the clock lasts."""
    wait = arena.rematch_wait({"initial": 180, "increment": 2})
    assert wait == 360.0
    assert arena.rematch_wait({"initial": 5, "increment": 0}) == arena.REMATCH_WAIT_SECONDS
    free = [Entrant("owner", 0, "sock", 100.0), Entrant("sock", 0, "owner", 100.0)]
    assert arena.pair(free, playing=2, now=100.0 + 30, wait=wait) == []
    assert len(arena.pair(free, playing=2, now=100.0 + wait + 1, wait=wait)) == 1


def test_a_game_scores_only_once_each_side_has_moved() -> None:
    assert not arena.scores([0, 0]) and not arena.scores([3, 0]) and not arena.scores([0, 1])
    assert arena.scores([1, 1]) and arena.scores([5, 4])


def test_with_an_odd_count_the_last_freed_of_the_lowest_waits() -> None:
    free = [Entrant("a", 2, None, 1.0), Entrant("b", 2, None, 2.0), Entrant("c", 0, None, 3.0)]
    pairs = arena.pair(free, playing=0, now=5.0)
    assert [frozenset(p) for p in pairs] == [frozenset({"a", "b"})]


def test_first_seat_goes_to_who_had_it_less() -> None:
    free = [Entrant("often", 2, None, 1.0, firsts=3), Entrant("seldom", 2, None, 1.0, firsts=1)]
    assert arena.pair(free, playing=0, now=2.0) == [("seldom", "often")]


def test_points_win_two_draw_one_and_a_streak_doubles() -> None:
    streak, sheet = 0, []
    for result in ["win", "win", "win", "draw", "win", "loss", "win", "win", "win"]:
        gained, streak = arena.points(result, streak)
        sheet.append(gained)
    assert sheet == [2, 2, 4, 2, 2, 0, 2, 2, 4]
    assert arena.outcome([1.0, -1.0], 0) == "win" and arena.outcome([1.0, -1.0], 1) == "loss"
    assert arena.outcome([0.0, 0.0], 1) == "draw"


# ----- the store: pairing once, the end ----------------------------------------------------------


def arena_in(store: TournamentStore, players: int, minutes: float = 10.0) -> Tournament:
    now = time.time()
    tournament = Tournament(
        f"t{players}{now}"[:30], "toy_walk", "arena", minutes, {"initial": 60, "increment": 0},
        "maker", now - 1, now + minutes * 60, False, 0,
    )  # fmt: skip
    assert store.create(tournament, most_open=100)
    for n in range(players):
        assert store.join(tournament.id, f"acc{n}", f"Player {n}") is None
    return tournament


def test_two_pairers_on_one_database_pair_each_player_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first, second = TournamentStore(Store(url)), TournamentStore(Store(url))  # two processes
    for _ in range(5):
        tournament = arena_in(first, 20)
        gate = threading.Barrier(2)
        claimed: list[list[Pairing]] = [[], []]

        def pair(
            index: int,
            store: TournamentStore,
            tid: str = tournament.id,
            gate: threading.Barrier = gate,
            claimed: list[list[Pairing]] = claimed,
        ) -> None:
            gate.wait()
            claimed[index] = store.claim_pairs(tid, time.time())

        threads = [
            threading.Thread(target=pair, args=(i, s)) for i, s in enumerate([first, second])
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        everyone = [a for found in claimed for p in found for a in p.accounts]
        assert sorted(everyone) == sorted(f"acc{n}" for n in range(20))  # each once, all paired
        assert [] in claimed  # one process paired them all; the other found nobody free
        assert first.claim_pairs(tournament.id, time.time()) == []


def played(store: TournamentStore, pairing: Pairing, game_id: str, moves: list[int]) -> None:
    """Store ``game_id`` as the pairing's game (a toy walk) with ``moves`` (the seat of each)."""
    seats = [{"token": f"{game_id}-{seat}", "kind": "human"} for seat in range(2)]
    actions = [(0, seat) for seat in moves]
    store.store.create_game(game_id, "toy_walk", {}, "seed", "hash", seats, actions)
    store.started(pairing, game_id)


def test_nothing_is_paired_after_the_end_and_the_end_comes_once(tmp_path: Path) -> None:
    store = TournamentStore(Store(f"sqlite:///{tmp_path / 'end.db'}"))
    tournament = arena_in(store, 4, minutes=1.0)
    pairs = store.claim_pairs(tournament.id, time.time())
    assert len(pairs) == 2
    played(store, pairs[0], "game-one", [0, 1])
    after = tournament.ends + 1
    assert store.claim_pairs(tournament.id, after) == []
    # the second pairing was never made a game: undone at the end; the first game runs on
    assert store.finish(tournament.id, after) is False
    assert {p["account"] for p in store.standings(tournament.id) if p["game"]} == set(
        pairs[0].accounts
    )
    with store.store.engine.begin() as connection:
        store.score(connection, "game-one", [1.0, -1.0], "resign")  # it ends and counts
    assert store.finish(tournament.id, after) is True
    assert store.finish(tournament.id, after) is False  # once
    table = store.standings(tournament.id)
    assert table[0]["account"] == pairs[0].accounts[0] and table[0]["score"] == 2
    assert all(p["game"] is None for p in table)
    with store.store.engine.connect() as connection:
        busy = connection.exec_driver_sql(
            "SELECT count(*) FROM tournament_players WHERE game_id IS NOT NULL"
        ).scalar()
    assert busy == 0


def test_a_game_with_a_side_that_never_moved_scores_nothing(tmp_path: Path) -> None:
    scores_only_games_each_side_moved_in(TournamentStore(Store(f"sqlite:///{tmp_path / 'm.db'}")))


def scores_only_games_each_side_moved_in(store: TournamentStore) -> None:
    """A resignation before moving (or after the other side's one move) gives nobody points,
    as lichess aborts a game before each side moved; a game where each moved counts."""
    tournament = arena_in(store, 2)
    for number, moves in enumerate([[], [0], [1], [0, 1]]):
        [pairing] = store.claim_pairs(tournament.id, time.time())  # only each other: at once
        game_id = f"g{number}-{tournament.id}"[:32]
        played(store, pairing, game_id, moves)
        with store.store.engine.begin() as connection:
            store.score(connection, game_id, [1.0, -1.0], "resign")
        winner = next(
            p for p in store.standings(tournament.id) if p["account"] == pairing.accounts[0]
        )
        assert winner["score"] == (2 if moves == [0, 1] else 0), moves
        assert winner["game"] is None  # free again either way
    assert sorted(len(p["sheet"]) for p in store.standings(tournament.id)) == [1, 1]


# ----- the API -----------------------------------------------------------------------------------


def person(client: TestClient, address: str, name: str) -> TestClient:
    someone = another_person(client, address)
    answer = someone.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return someone


def make(someone: TestClient, **body: Any) -> Any:
    return someone.post(
        "/api/tournaments",
        json={"game": "toy_walk", "kind": "arena", "minutes": 5,
              "clock": {"initial": 180, "increment": 2}, "starts_in": 0} | body,
    )  # fmt: skip


def tick(client: TestClient) -> None:
    """Run the director's look once, now."""
    director = client.app.state.director  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(director.tick)


def by_hand(client: TestClient) -> None:
    """Stop the director's own looks (every half second): the test's ``tick`` runs them, so
    that no look of the director's is half done when the test reads."""
    director = client.app.state.director  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(director.stop)


def seat_of(someone: TestClient, tid: str) -> tuple[str, str]:
    """``(game id, seat token)`` of ``someone``'s game in the arena, as their page has it."""
    link = someone.get(f"/api/tournaments/{tid}").json()["me"]["game_url"]
    assert link is not None
    game_id, token = link.removeprefix("/game/").split("?t=")
    return game_id, token


def seat_view(someone: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = someone.get(f"/api/games/{game_id}", params={"token": token, "draw": "false"})
    assert answer.status_code == 200, answer.text
    view: dict[str, Any] = answer.json()
    return view


def move_once(someone: TestClient, game_id: str, token: str) -> None:
    """Play ``someone``'s first legal move (it must be their turn)."""
    view = seat_view(someone, game_id, token)
    assert view["legal"], "not this seat's turn"
    moved = someone.post(
        f"/api/games/{game_id}/actions",
        json={"token": token, "seq": view["seq"], "action": view["legal"][0]["id"]},
    )
    assert moved.status_code == 200, moved.text


def each_moves_once(pair: list[TestClient], tid: str) -> None:
    """Both players of one arena game make a move, whoever is to move first."""
    seats = [seat_of(someone, tid) for someone in pair]
    for _ in pair:
        mover = next(i for i, seat in enumerate(seats) if seat_view(pair[i], *seat)["legal"])
        move_once(pair[mover], *seats[mover])


def resign(someone: TestClient, tid: str) -> None:
    game_id, token = seat_of(someone, tid)
    done = someone.post(f"/api/games/{game_id}/session", json={"token": token, "do": "resign"})
    assert done.status_code == 200, done.text


def test_an_arena_from_creation_to_the_scores(client: TestClient) -> None:
    by_hand(client)
    ann, bob = person(client, "127.0.0.2", "Ann"), person(client, "127.0.0.3", "Bob")
    made = make(ann)
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for someone in (ann, bob):
        assert someone.post(f"/api/tournaments/{tid}/join").status_code == 200
    tick(client)
    seen = ann.get(f"/api/tournaments/{tid}").json()
    assert seen["status"] == "running" and seen["clock"] == {"initial": 180, "increment": 2}
    assert all(p["playing"] for p in seen["standings"])
    link = seen["me"]["game_url"]
    game_id, token = link.removeprefix("/game/").split("?t=")
    games = ann.get("/api/me/games").json()
    assert [g["tournament"] for g in games if g["id"] == game_id] == [tid]
    each_moves_once([ann, bob], tid)  # a game counts once each side has moved
    resigned = ann.post(f"/api/games/{game_id}/session", json={"token": token, "do": "resign"})
    assert resigned.status_code == 200, resigned.text
    seen = bob.get(f"/api/tournaments/{tid}").json()
    assert [(p["name"], p["score"], p["sheet"]) for p in seen["standings"]] == [
        ("Bob", 2, [2]),
        ("Ann", 0, [0]),
    ]
    assert seen["podium"] == []  # still running
    # nobody else is free or playing: the two play again at once, the other in the first seat
    tick(client)
    again = ann.get(f"/api/tournaments/{tid}").json()["me"]["game_url"]
    assert again is not None and not again.startswith(f"/game/{game_id}?")
    first_seats = {link.split("?")[0]: link for link in (link, again)}
    assert len(first_seats) == 2


def test_the_api_refuses_what_it_cannot_do(client: TestClient) -> None:
    stranger = another_person(client, "127.0.0.9")
    assert make(stranger).status_code == 401
    ann = person(client, "127.0.0.2", "Ann")
    tid = make(ann).json()["id"]
    assert stranger.post(f"/api/tournaments/{tid}/join").json()["error"] == "not_signed_in"
    assert make(ann, kind="swiss").status_code == 422
    assert make(ann, minutes=0).status_code == 422
    assert make(ann, clock={"initial": 180}).status_code == 422
    assert make(ann, clock={"initial": 180, "increment": 2, "days": 1}).status_code == 422
    assert make(ann, starts_in=-5).status_code == 422
    unknown = make(ann, game="chesss")
    assert unknown.status_code == 404 and "toy_walk" in unknown.json()["detail"]
    assert ann.get("/api/tournaments/nothing").json()["error"] == "no_tournament"
    assert ann.post("/api/tournaments/nothing/join").status_code == 404
    assert ann.post(f"/api/tournaments/{tid}/withdraw").json()["error"] == "not_joined"
    assert ann.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert ann.post(f"/api/tournaments/{tid}/withdraw").json() == {"joined": False}
    assert len(ann.get("/api/tournaments").json()) == 1


def test_one_account_makes_a_few_tournaments_at_a_time(db_path: Path) -> None:
    with TestClient(make_app(db_path, tournaments_per_account=2)) as client:
        by_hand(client)
        ann = person(client, "127.0.0.2", "Ann")
        first, second = make(ann).json()["id"], make(ann).json()["id"]
        refused = make(ann)
        assert refused.status_code == 409 and refused.json()["error"] == "too_many_tournaments"
        assert "2 tournaments not yet finished" in refused.json()["detail"]
        assert {t["id"] for t in ann.get("/api/tournaments").json()} == {first, second}
        assert make(person(client, "127.0.0.3", "Bob")).status_code == 201  # each their own
        store = client.app.state.tournaments  # type: ignore[attr-defined]
        with store.store.engine.begin() as connection:  # the first one's time is up
            connection.exec_driver_sql("UPDATE tournaments SET ends = 0 WHERE id = ?", (first,))
        tick(client)
        assert make(ann).status_code == 201  # finished: it counts no more


def test_joining_a_finished_arena_is_refused(client: TestClient) -> None:
    by_hand(client)
    ann = person(client, "127.0.0.2", "Ann")
    tid = make(ann).json()["id"]
    store = client.app.state.tournaments  # type: ignore[attr-defined]
    with store.store.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE tournaments SET ends = 0 WHERE id = ?", (tid,))
    answer = ann.post(f"/api/tournaments/{tid}/join")
    assert answer.status_code == 409 and answer.json()["error"] == "tournament_over"
    tick(client)
    assert ann.get(f"/api/tournaments/{tid}").json()["status"] == "finished"


@pytest.mark.parametrize("starts_in", [0, 3600])
def test_the_socket_pushes_the_standings(client: TestClient, starts_in: int) -> None:
    # the app's own client: its socket runs on the event loop of the app's director
    answer = client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
    assert answer.status_code == 201
    tid = make(client, starts_in=starts_in).json()["id"]
    with client.websocket_connect(f"/ws/tournaments/{tid}") as socket:
        first = socket.receive_json()
        assert first["standings"] == [] and first["me"]["joined"] is False
        assert client.post(f"/api/tournaments/{tid}/join").status_code == 200
        pushed = socket.receive_json()
        while not pushed["standings"]:  # a push of the moment before the join
            pushed = socket.receive_json()
        assert [p["name"] for p in pushed["standings"]] == ["Ann"] and pushed["me"]["joined"]


def test_a_pairing_whose_game_was_never_made_is_undone(tmp_path: Path) -> None:
    store = TournamentStore(Store(f"sqlite:///{tmp_path / 'died.db'}"))
    tournament = arena_in(store, 2)
    now = time.time()
    [lost] = store.claim_pairs(tournament.id, now)  # its process dies before making the game
    assert store.due(now) == [(tournament.id, tournament.ends, 0)]
    assert store.claim_pairs(tournament.id, now + 1) == []
    later = now + PENDING_SECONDS + 1
    assert store.due(later) == [(tournament.id, tournament.ends, 2)]
    [again] = store.claim_pairs(tournament.id, later)
    assert sorted(again.accounts) == sorted(lost.accounts)


def test_the_standings_sockets_count_in_the_address_share(db_path: Path) -> None:
    """A tournament's socket takes a place of its address's share as a game's socket does:
    past the share the next is refused with words, and a closed one frees its place."""
    with TestClient(make_app(db_path, sockets_per_client=2)) as client:
        assert (
            client.post("/api/accounts", json={"name": "Ann", "password": PASSWORD}).status_code
            == 201
        )
        tid = make(client).json()["id"]
        manager = client.app.state.manager  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/tournaments/{tid}") as first:
            first.receive_json()
            with client.websocket_connect(f"/ws/tournaments/{tid}") as second:
                second.receive_json()
                assert manager.open_sockets == 2
                with client.websocket_connect(f"/ws/tournaments/{tid}") as third:
                    refusal = third.receive_json()
                    assert refusal["error"] == "too_many_sockets"
                    assert "this address" in refusal["detail"]
            # the second closed: its place is free again
            with client.websocket_connect(f"/ws/tournaments/{tid}") as again:
                assert "standings" in again.receive_json()
        assert manager.open_sockets == 0 and dict(manager.sockets_by_client) == {}


def test_a_sock_account_resigning_at_once_farms_nothing_for_its_owner(client: TestClient) -> None:
    a_sock_farms_nothing(client)


def a_sock_farms_nothing(client: TestClient) -> None:
    """Issue 41 item 6, written as the attack: an owner and a sock account join beside an
    honest pair; the sock resigns before any move. The owner gains nothing, and the two are not
    paired again while the honest pair plays (before: 2 points, and a rematch 20 s later)."""
    by_hand(client)
    owner, sock = person(client, "127.0.0.2", "Owner"), person(client, "127.0.0.2", "Sock")
    cy, dee = person(client, "127.0.0.3", "Cy"), person(client, "127.0.0.4", "Dee")
    tid = make(owner, minutes=30).json()["id"]
    for someone in (owner, sock, cy, dee):
        assert someone.post(f"/api/tournaments/{tid}/join").status_code == 200
    tick(client)
    assert seat_of(owner, tid)[0] == seat_of(sock, tid)[0]  # joined first, paired together
    resign(sock, tid)
    seen = owner.get(f"/api/tournaments/{tid}").json()
    assert {p["name"]: (p["score"], p["sheet"]) for p in seen["standings"]} == {
        "Owner": (0, []), "Sock": (0, []), "Cy": (0, []), "Dee": (0, []),
    }  # fmt: skip
    assert seen["me"]["game_url"] is None
    store = client.app.state.tournaments  # type: ignore[attr-defined]
    soon = time.time() + arena.REMATCH_WAIT_SECONDS + 10
    assert store.claim_pairs(tid, soon) == []  # the honest pair still plays: the two wait
    later = time.time() + arena.rematch_wait(make_clock) + 1
    [again] = store.claim_pairs(tid, later)  # no one came free in a whole game's time
    assert sorted(again.names) == ["Owner", "Sock"]


make_clock = {"initial": 180, "increment": 2}
"""The clock ``make`` gives an arena."""
