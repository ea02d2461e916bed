"""Quick pairing (issue 34 item 3): the two nearest seekers of a game play each other."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from boneyard.web.store.pairing import SeekRow
from boneyard.web.store.ratings import RatingRow
from tests.web.conftest import another_person

PASSWORD = "correct horse battery"


def person(client: TestClient, address: str, name: str | None = None) -> TestClient:
    """Someone at ``address``; with ``name``, signed up with an account of that name."""
    someone = another_person(client, address)
    if name is not None:
        answer = someone.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
    return someone


def seek(someone: TestClient, game: str = "toy_walk", name: str | None = None) -> dict[str, Any]:
    answer = someone.post("/api/pairing", json={"game": game, "name": name})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def look(someone: TestClient, seek_id: str) -> dict[str, Any]:
    answer = someone.post(f"/api/pairing/{seek_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def set_rating(client: TestClient, name: str, game: str, rating: float) -> None:
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    account = accounts.account_named(name)
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.engine.begin() as connection:
        connection.execute(
            RatingRow.__table__.insert().values(
                account_id=account.id, game=game, rating=rating, deviation=80.0,
                volatility=0.06, games=20, updated=0.0,
            )
        )  # fmt: skip


def test_two_accounts_seeking_play_a_rated_game(client: TestClient) -> None:
    ann, bob = person(client, "127.0.0.2", "Ann"), person(client, "127.0.0.3", "Bob")
    waiting = seek(ann)
    assert set(waiting) == {"seek"}
    assert look(ann, waiting["seek"]) == {"waiting": True}
    paired = seek(bob)
    assert paired["url"] == f"/game/{paired['id']}?t={paired['token']}"
    found = look(ann, waiting["seek"])
    assert found["url"].startswith(f"/game/{paired['id']}?t=") and found["url"] != paired["url"]
    # The link is delivered once; the seek is over then.
    assert ann.post(f"/api/pairing/{waiting['seek']}").status_code == 404
    view = client.get(f"/api/games/{paired['id']}").json()
    assert sorted(seat["label"].split(" ")[0] for seat in view["seats"]) == ["Ann", "Bob"]
    assert client.get(f"/api/games/{paired['id']}/rating").json()["rated"] is True
    assert [g["id"] for g in ann.get("/api/me/games").json()] == [paired["id"]]
    assert [g["token"] for g in bob.get("/api/me/games").json()] == [paired["token"]]


def test_people_without_accounts_play_an_unrated_game(client: TestClient) -> None:
    one, two = person(client, "127.0.0.4"), person(client, "127.0.0.5")
    refused = one.post("/api/pairing", json={"game": "toy_walk"})
    assert refused.status_code == 400 and refused.json()["error"] == "bad_name"
    waiting = seek(one, name="Cy")
    assert seek(one, name="Cy").keys() == {"seek"}  # the same person is never their own pair
    paired = seek(two, name="Di")
    assert "url" in paired
    assert client.get(f"/api/games/{paired['id']}/rating").json()["rated"] is False
    # The first seek was replaced by the second: only the second is paired.
    assert one.post(f"/api/pairing/{waiting['seek']}").status_code == 404


def test_the_newcomer_plays_the_nearest_rating_within_the_gap(client: TestClient) -> None:
    names = {"Low": 1200.0, "Mid": 1500.0, "High": 1900.0, "Far": 2600.0}
    seekers = {}
    for number, (name, rating) in enumerate(names.items()):
        seekers[name] = person(client, f"127.0.1.{number}", name)
        set_rating(client, name, "toy_walk", rating)
    seeks = {name: seek(seekers[name])["seek"] for name in names}
    newcomer = person(client, "127.0.2.1", "New")
    set_rating(client, "New", "toy_walk", 1830.0)
    paired = seek(newcomer)
    assert "url" in look(seekers["High"], seeks["High"])
    assert all(look(seekers[name], seeks[name]) == {"waiting": True} for name in ("Low", "Mid"))
    # A newcomer at 3200 is too far from everyone waiting (2600 the nearest): it waits too.
    far_newcomer = person(client, "127.0.2.2", "Faraway")
    set_rating(client, "Faraway", "toy_walk", 3200.0)
    assert "seek" in seek(far_newcomer)
    assert look(seekers["Far"], seeks["Far"]) == {"waiting": True}
    assert client.get(f"/api/games/{paired['id']}/rating").json()["rated"] is True


def test_the_gap_widens_while_a_seeker_waits(client: TestClient) -> None:
    low, high = person(client, "127.0.3.1", "Lowe"), person(client, "127.0.3.2", "Hugh")
    set_rating(client, "Lowe", "toy_walk", 1100.0)
    set_rating(client, "Hugh", "toy_walk", 1900.0)
    waiting = seek(low)["seek"]
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.engine.begin() as connection:  # Lowe has waited 40 s: 200 + 40 x 20 points
        connection.execute(
            SeekRow.__table__.update().values(created=SeekRow.created - 40, seen=SeekRow.seen)
        )
    assert "url" in seek(high)
    assert "url" in look(low, waiting)


def test_a_cancelled_or_forgotten_seek_is_over(client: TestClient) -> None:
    ann, bob = person(client, "127.0.4.1", "Ana"), person(client, "127.0.4.2", "Ben")
    waiting = seek(ann)["seek"]
    assert ann.post(f"/api/pairing/{waiting}/cancel").status_code == 200
    assert ann.post(f"/api/pairing/{waiting}").json()["error"] == "no_seek"
    assert "seek" in seek(bob)  # nobody to play: Bob waits
    store = client.app.state.manager.store  # type: ignore[attr-defined]
    with store.engine.begin() as connection:  # Bob's page closed 30 s ago
        connection.execute(SeekRow.__table__.update().values(seen=SeekRow.seen - 30))
    assert "seek" in seek(ann)  # Bob's stale seek is not paired


def test_only_games_of_two_are_paired(client: TestClient) -> None:
    someone = person(client, "127.0.5.1", "Solo")
    refused = someone.post("/api/pairing", json={"game": "oyno_puzzle"})
    assert refused.status_code == 400 and "games of two" in refused.json()["detail"]
    assert someone.post("/api/pairing", json={"game": "nope"}).status_code == 404


def test_a_paired_game_is_listed_to_watch_in_the_lobby(client: TestClient) -> None:
    ann, bob = person(client, "127.0.0.2", "Ann"), person(client, "127.0.0.3", "Bob")
    seek(ann)
    paired = seek(bob)
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    against_computer = ann.post("/api/games", json={"game": "toy_walk", "seats": seats})
    assert against_computer.status_code == 201, against_computer.text
    live = client.get("/api/lobby").json()["live"]
    # The seats are drawn at random.
    assert [(g["id"], sorted(g["people"])) for g in live] == [(paired["id"], ["Ann", "Bob"])]
