"""The invite page after the new-game form: Post/Redirect/Get, so a reload makes no game."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_the_form_redirects_to_an_invite_page_that_a_reload_only_reads(
    client: TestClient,
) -> None:
    made = client.post(
        "/new/obonto", data={"seat0": "human", "seat1": "human"}, follow_redirects=False
    )
    assert made.status_code == 303
    where = made.headers["location"]
    assert where.startswith("/game/") and "/invite?t=" in where
    game_id = where.split("/game/")[1].split("/")[0]
    tokens = where.split("?t=")[1].split(",")
    assert len(tokens) == 2
    for _ in range(2):  # shown, then reloaded: the same game, the same links
        page = client.get(where)
        assert page.status_code == 200
        assert page.text.count('class="invite"') == 2
        assert f"/game/{game_id}?t={tokens[1]}" in page.text
    # One seat's link alone does not open the others' links.
    assert client.get(f"/game/{game_id}/invite?t={tokens[0]}").status_code == 403
    assert client.get(f"/game/{game_id}/invite").status_code == 403
