"""The server-rendered pages: home, new-game form, invite links, game, replay, rules."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from boneyard.cli import main
from boneyard.core.registry import game_class, list_games
from boneyard.core.version import __version__
from boneyard.web.pages.markdown import to_html
from tests.web.conftest import all_games, create

FORM = {"content-type": "application/x-www-form-urlencoded"}


def test_home_lists_every_game(client: TestClient) -> None:
    page = client.get("/").text
    for name in all_games():
        assert f'data-game="{name}"' in page
        assert f'href="/new/{name}"' in page and f'href="/rules/{name}"' in page


def test_the_api_is_offered_to_programmers_in_the_footer_not_the_menu(client: TestClient) -> None:
    page = client.get("/").text
    menu = page.split("<nav>", 1)[1].split("</nav>", 1)[0]
    assert "/docs" not in menu
    footer = page.split('<footer class="site-footer">', 1)[1].split("</footer>", 1)[0]
    assert '<a href="/docs">API for programmers</a>' in footer


def test_every_page_says_which_boneyard_serves_it(client: TestClient) -> None:
    for path in ("/", "/lobby", "/rules/toy_walk", "/no-such-page"):
        footer = client.get(path).text.split('<footer class="site-footer">', 1)[1]
        assert f"boneyard {__version__}" in footer.split("</footer>", 1)[0], path


@pytest.mark.parametrize("name", sorted(all_games()))
def test_new_game_form_asks_for_each_parameter_in_words(client: TestClient, name: str) -> None:
    page = client.get(f"/new/{name}").text
    game_cls = all_games()[name]

    def escaped(text: str) -> str:
        return text.replace("'", "&#39;").replace('"', "&#34;")

    for spec in game_cls.parameters:
        shown = f'name="p_{spec.name}"' in page
        assert shown != spec.local_only, f"{spec.name}: local-only parameters stay off the form"
        if shown:  # asked as the game asks it, else described (the first letter capitalised)
            asked = (spec.question or spec.description)[1:]
            assert escaped(asked) in page
        if spec.question:  # the description is for programs: raw keys, seat numbers
            besides = page.replace(escaped(spec.question), "")
            assert escaped(spec.description) not in besides, spec.description
    assert page.count('<label class="seat"') == game_cls.max_players


def test_form_creates_a_game_against_the_computer(client: TestClient) -> None:
    response = client.post(
        "/new/toy_walk",
        content="p_max_moves=30&seat0=human&seat1=easy",
        headers=FORM,
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert re.fullmatch(r"/game/[\w-]+\?t=[\w-]{32}", response.headers["location"])
    game_page = client.get(response.headers["location"])
    assert game_page.status_code == 200 and 'id="board"' in game_page.text


def test_form_with_several_people_shows_invite_links(client: TestClient) -> None:
    response = client.post(
        "/new/toy_secret", content="p_players=3&seat0=human&seat1=human&seat2=hard", headers=FORM
    )
    assert response.status_code == 200
    assert response.text.count('class="invite"') == 2
    assert "Play every seat at this screen" in response.text


def test_form_errors_are_shown_and_nothing_is_created(client: TestClient) -> None:
    response = client.post("/new/toy_secret", content="p_players=9&seat0=human", headers=FORM)
    assert response.status_code == 400
    assert "players" in response.text and 'role="alert"' in response.text
    assert 'value="9"' in response.text, "the form keeps what was typed"
    response = client.post("/new/toy_walk", content="seat1=genius", headers=FORM)
    assert response.status_code == 400 and "genius" in response.text
    assert client.app.state.manager.store.game_ids() == []  # type: ignore[attr-defined]


def test_game_page_refuses_a_wrong_token(client: TestClient) -> None:
    created = create(client, "toy_walk")
    assert client.get(f"/game/{created['id']}?t=wrong").status_code == 403
    assert client.get(f"/game/{created['id']}").status_code == 200, "spectators are welcome"


def test_replay_page(client: TestClient) -> None:
    created = create(client, "toy_walk")
    page = client.get(f"/game/{created['id']}/replay").text
    assert "not over yet" in page


@pytest.mark.skipif("bondo_cones" not in list_games(), reason="bondo_cones is not registered")
def test_a_replay_steps_over_a_set_up_hidden_from_spectators(client: TestClient) -> None:
    people = [{"kind": "human"}, {"kind": "human"}]
    created = create(client, "bondo_cones", seats=people)
    for seat in created["seats"]:  # each side's 16 cones, hidden, and its ring
        with client.websocket_connect(f"/ws/games/{created['id']}?token={seat['token']}") as ws:
            ws.receive_json()
            ws.send_json({"type": "quick_setup"})
            while ws.receive_json()["type"] != "ack":
                pass
    resign = {"token": created["seats"][0]["token"], "do": "resign"}
    assert client.post(f"/api/games/{created['id']}/session", json=resign).status_code == 200
    page = client.get(f"/game/{created['id']}/replay").text
    found = re.search(r'data-steps="(\d+)" data-stops="([\d,-]+)"', page)
    assert found, "the replay page names its steps"
    # black's cones (1-16) and ring (17), white's (18-33 and 34), who begins, the first roll;
    # runs of stops written "first-last" (a page the same size however long the game)
    steps, stops = int(found[1]), found[2]
    assert steps == 36 and stops == "0,16-17,33-36", "a side's set-up is one stop"
    assert 'max="6"' in page, "the slider goes over the seven stops"
    last = client.get(f"/api/games/{created['id']}/replay/16").json()["log"]
    assert [line["words"] for line in last if line["words"]] == [
        "Black put their 16 cones on their start fields, in secret."  # a replay's spectator
    ]


@pytest.mark.parametrize("name", list_games())
def test_rules_page_of_each_registered_game(client: TestClient, name: str) -> None:
    response = client.get(f"/rules/{name}")
    assert response.status_code == 200
    assert '<details class="for-programs"><summary>Parameters</summary>' in response.text
    # the title, then the rules in short, before anything else the page says
    headings = re.findall(r"<h([12])[^>]*>", response.text)
    assert headings[:2] == ["1", "2"] and "<h2>How to play, in short</h2>" in response.text
    in_short = response.text.split("<h2>How to play, in short</h2>")[1].split("</ul>")[0]
    assert sentences(in_short) == list(game_class(name).how_to_play)


def sentences(html_list: str) -> list[str]:
    """The items of an HTML list, as text."""
    return [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", html_list, re.S)]


@pytest.mark.parametrize("name", list_games())
def test_the_game_page_has_the_rules_in_short(client: TestClient, name: str) -> None:
    created = create(client, name)
    page = client.get(f"/game/{created['id']}").text
    box = page[page.index('<details id="how-to-play"') :]
    box = box[: box.index("</details>")]
    assert "<summary>How to play</summary>" in box and f'href="/rules/{name}"' in box
    assert sentences(box) == list(game_class(name).how_to_play)


def test_rules_images_are_served_and_paths_are_checked(client: TestClient) -> None:
    images = Path(client.app.state.rules_dir) / "img"  # type: ignore[attr-defined]
    found = sorted(images.glob("*")) if images.is_dir() else []
    if found:
        assert client.get(f"/rules/img/{found[0].name}").status_code == 200
    assert client.get("/rules/img/..%2F..%2Fpyproject.toml").status_code == 404
    assert client.get("/rules/img/nothing.svg").status_code == 404


def test_a_section_for_programs_is_folded_and_comments_are_left_out() -> None:
    html = to_html(
        "# T\n\nRules.\n\n<!-- for programs -->\n## Notation\n\nIds.\n\n### Ids\n\nMore.\n\n"
        "## Next\n\n<!-- a note for editors -->\nText.\n\n<!-- for programs -->\n## Last\n\nEnd."
    )
    folded = '<details class="for-programs"><summary>Notation</summary>'
    assert html.index("Rules.") < html.index(folded) < html.index("Ids.") < html.index("<h3>Ids")
    assert html.index("More.") < html.index("</details>") < html.index("<h2>Next</h2>")
    assert html.endswith(
        '<details class="for-programs"><summary>Last</summary>\n<p>End.</p>\n</details>'
    )
    assert "editors" not in html and "&lt;!--" not in html


@pytest.mark.parametrize("name", ["obonto", "bones", "bondo_cones", "bonbon", "oyno"])
def test_a_rules_page_folds_its_notation_for_programs(client: TestClient, name: str) -> None:
    page = client.get(f"/rules/{name}").text
    assert '<details class="for-programs"><summary>' in page
    unfolded = re.sub(r'<details class="for-programs">.*?</details>', "", page, flags=re.S)
    assert "seat 0" not in unfolded.lower(), "the rules a player reads name the sides"


def test_markdown_is_converted_safely() -> None:
    html = to_html(
        "# Title\n\nSome *words* and **bold** `code <b>`.\n\n- one\n- two\n\n"
        "1. first\n2. second\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "![board](img/board.svg) [next](obonto.md) [bad](javascript:alert(1))\n\n"
        "<script>alert(1)</script>\n\n```\nx < y\n```\n"
    )
    assert "<h1>Title</h1>" in html
    assert "<em>words</em>" in html and "<strong>bold</strong>" in html
    assert "<code>code &lt;b&gt;</code>" in html
    assert "<ul><li>one</li><li>two</li></ul>" in html
    assert "<ol><li>first</li><li>second</li></ol>" in html
    assert "<th>a</th>" in html and "<td>2</td>" in html
    assert '<img src="/rules/img/board.svg" alt="board">' in html
    assert '<a href="obonto">next</a>' in html
    assert "javascript" not in html.replace("javascript:alert(1)", "")  # shown as text only
    assert 'href="javascript' not in html
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<pre><code>x &lt; y</code></pre>" in html


def test_serve_command_is_registered() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--db" in result.output and "--port" in result.output


def test_serve_refuses_a_bad_database_url() -> None:
    result = CliRunner().invoke(main, ["serve", "--db", "nosuchdb://x"])
    assert result.exit_code != 0
    assert "cannot open the database" in result.output


def test_serve_refuses_a_taken_port(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            main, ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}"]
        )
    assert result.exit_code != 0
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_rules_page_adds_what_the_game_is_like_when_written(
    client: TestClient, tmp_path: Path
) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    real = state.rules_dir
    (tmp_path / "bones.md").write_text("# Bones\n\nThe rules.\n")
    try:
        state.rules_dir = tmp_path
        assert 'class="rules like"' not in client.get("/rules/bones").text
        (tmp_path / "bones-like.md").write_text(
            "## What this game is like\n\nThe first player wins **54%**.\n\n"
            "![lengths](img/bones-length.png)\n"
        )
        page = client.get("/rules/bones").text
    finally:
        state.rules_dir = real
    assert 'class="rules like"' in page
    assert "<h2>What this game is like</h2>" in page and "<strong>54%</strong>" in page
    assert '<img src="/rules/img/bones-length.png" alt="lengths">' in page
    assert page.index("The rules.") < page.index("What this game is like")


def test_every_figure_of_the_what_it_is_like_pages_is_there(client: TestClient) -> None:
    rules = Path(client.app.state.rules_dir)  # type: ignore[attr-defined]
    for page in sorted(rules.glob("*-like.md")):
        name = page.name.removesuffix("-like.md")
        html = client.get(f"/rules/{name}").text
        assert 'class="rules like"' in html, name
        for figure in re.findall(r"\(img/([^)]+)\)", page.read_text()):
            assert client.get(f"/rules/img/{figure}").status_code == 200, (page.name, figure)


@pytest.mark.parametrize("name", sorted(all_games()))
def test_an_empty_field_means_the_default(client: TestClient, name: str) -> None:
    """The form as a browser without scripts sends it: every field, the empty ones empty."""
    fields = [f"p_{spec.name}=" for spec in all_games()[name].parameters if not spec.local_only]
    body = "&".join([*fields, "seat0=human", "seat1=easy", "seat2=easy"])
    response = client.post(f"/new/{name}", content=body, headers=FORM, follow_redirects=False)
    assert response.status_code in (200, 303), response.text


def test_the_home_page_starts_a_game_against_the_computer_in_one_submit(
    client: TestClient,
) -> None:
    home = client.get("/").text
    assert 'class="play-computer"' in home and 'name="level"' in home
    response = client.post(
        "/new/toy_walk", content="name0=Ann&level=medium", headers=FORM, follow_redirects=False
    )
    assert response.status_code == 303
    game_id = response.headers["location"].split("/")[2].split("?")[0]
    view = client.get(f"/api/games/{game_id}").json()
    assert [p["name"] for p in view["players"]] == [
        "Ann (North)",
        "South (computer, level 2 of 3 · medium)",
    ]


def test_the_home_page_and_the_form_offer_numbered_levels_in_words(
    client: TestClient,
) -> None:
    home = client.get("/").text
    assert '<option value="1">Level 1 of ' in home and "· easy" in home
    assert "about 1" not in home, "no rating-like numbers where a player picks a level"
    assert "alphabeta" not in home and "ismcts" not in home
    form = client.get("/new/bones").text
    assert "computer: Level 4 of 5 · hard" in form and "about 1" not in form
    response = client.post(
        "/new/toy_walk", content="name0=Ann&level=2", headers=FORM, follow_redirects=False
    )
    assert response.status_code == 303
    game_id = response.headers["location"].split("/")[2].split("?")[0]
    view = client.get(f"/api/games/{game_id}").json()
    assert view["players"][1]["name"] == "South (computer, level 2 of 3 · medium)"
    refused = client.post("/new/toy_walk", content="seat0=human&seat1=12", headers=FORM)
    assert refused.status_code == 400 and "a person or a computer level" in refused.text


def test_play_a_friend_gives_invite_links_for_every_seat(client: TestClient) -> None:
    response = client.post("/new/toy_walk", content="friends=yes&name0=Ann", headers=FORM)
    assert response.status_code == 200
    assert response.text.count('class="invite"') == 2


def test_each_home_picture_is_the_games_own_drawing_of_a_game_in_progress(
    client: TestClient,
) -> None:
    for name, game_cls in all_games().items():
        game = game_cls()
        try:
            start = game.render_svg(game.new_initial_state().observation(None))
        except NotImplementedError:
            assert client.get(f"/picture/{name}.svg").status_code == 404
            continue
        response = client.get(f"/picture/{name}.svg")
        assert response.status_code == 200 and response.text.startswith("<svg")
        assert response.headers["content-type"].startswith("image/svg+xml")
        if name in list_games():
            assert response.text != start, f"{name}: a game in progress, not an empty board"


def test_a_question_about_seats_is_answered_with_their_names(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dataclasses

    from tests.web.toygames import WalkGame

    asked = dataclasses.replace(
        WalkGame.parameters[0], name="first", default=0, minimum=0, maximum=1,
        question="Who is younger?", advanced=True,
    )  # fmt: skip
    monkeypatch.setattr(WalkGame, "parameters", (*WalkGame.parameters, asked))
    page = client.get("/new/toy_walk").text
    advanced = page[page.index("<summary>Advanced</summary>") :]
    assert "Who is younger?" in advanced, "folded under Advanced"
    assert '<option value="0" selected>North</option><option value="1" >South</option>' in advanced


@pytest.mark.parametrize("name", list_games())
def test_rules_pages_keep_terminal_commands_for_programs(client: TestClient, name: str) -> None:
    """A player reads the rules; the commands to type at a terminal are folded away."""
    page = client.get(f"/rules/{name}").text
    command = re.compile(r"boneyard (play|solve) ")
    assert command.search(page), "the commands are still there, folded"
    unfolded = re.sub(r'<details class="for-programs">.*?</details>', "", page, flags=re.S)
    assert not command.search(unfolded)
