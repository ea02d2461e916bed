"""The OYNO puzzle ladder and the daily puzzle."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from boneyard.solvers.oyno_puzzle import solve_position
from tests.web.conftest import make_app


def test_level_n_deals_n_plus_one_bones_with_the_shortest_solution(client: TestClient) -> None:
    for level in (1, 4, 9):
        dealt = client.post(f"/api/ladder/levels/{level}")
        assert dealt.status_code == 201, dealt.text
        body = dealt.json()
        view = client.get(f"/api/games/{body['id']}", params={"token": body["token"]}).json()
        position = view["observation"]["position"]
        assert sum(position.count(c) for c in "UD") == level + 1 == body["bones"]
        solution = solve_position(position)
        assert solution is not None and body["shortest"] == len(solution)
        puzzle = view["session"]["puzzle"]
        assert puzzle["level"] == level and puzzle["shortest"] == len(solution)
        assert puzzle["used"] == 0 and not puzzle["solved"]
    for level in (0, 10):
        refused = client.post(f"/api/ladder/levels/{level}")
        assert refused.status_code == 404 and refused.json()["error"] == "no_level"


def test_a_level_solved_shows_moves_used_and_the_solution_replays(client: TestClient) -> None:
    body = client.post("/api/ladder/levels/3").json()
    game, token = body["id"], body["token"]
    view = client.get(f"/api/games/{game}", params={"token": token}).json()
    solution = solve_position(view["observation"]["position"])
    assert solution is not None
    for move in solution:
        seq = client.get(f"/api/games/{game}").json()["seq"]
        played = client.post(
            f"/api/games/{game}/actions",
            json={"token": token, "seq": seq, "action_string": move},
        )
        assert played.status_code == 200, played.text
    puzzle = client.get(f"/api/games/{game}", params={"token": token}).json()["session"]["puzzle"]
    assert puzzle["solved"] and puzzle["used"] == puzzle["shortest"] == len(solution)
    shown = client.post(f"/api/ladder/games/{game}/solution", json={"token": token}).json()
    assert shown["moves"] == solution
    replay_id = shown["replay_url"].split("/")[2]
    last = client.get(f"/api/games/{replay_id}/replay/{len(solution)}").json()
    assert last["observation"]["solved"], "the solver's line solves the puzzle"
    again = client.post(f"/api/ladder/games/{game}/solution", json={"token": token}).json()
    assert again["replay_url"] == shown["replay_url"]


def test_the_daily_puzzle_is_the_same_for_everyone_on_a_date(db_path: Path, tmp_path: Path) -> None:
    with TestClient(make_app(db_path)) as one, TestClient(make_app(tmp_path / "b.db")) as two:
        first = one.get("/api/ladder/daily/2026-11-24").json()
        second = two.get("/api/ladder/daily/2026-11-24").json()
        assert first == second and first["bones"] == 6
        assert one.get("/api/ladder/daily/2026-11-25").json()["start"] != first["start"]
        played = [
            c.post("/api/ladder/daily", json={"date": "2026-11-24"}).json() for c in (one, two)
        ]
        positions = [
            c.get(f"/api/games/{p['id']}", params={"token": p["token"]}).json()["observation"][
                "position"
            ]
            for c, p in zip((one, two), played, strict=True)
        ]
        assert positions[0] == positions[1] == first["start"]
        # the form is the schema's (422); a well-formed day that is no day is the ladder's (400)
        for text in ("yesterday", "2026-١١-24", "20261124"):
            bad = one.get(f"/api/ladder/daily/{text}")
            assert bad.status_code == 422 and "date" in bad.json()["detail"], bad.text
        bad = one.get("/api/ladder/daily/2026-13-45")
        assert bad.status_code == 400 and bad.json()["error"] == "bad_date"
