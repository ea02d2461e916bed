"""Adding a game is one folder: a copy of the template, renamed and registered, plays everywhere.

The test does what docs/adding_a_game.md tells a newcomer to do, in a temporary package outside
the source tree: copy ``games/race/``, rename it (its imports, the game's name and title),
register its spec; then it plays the new game through the command line (``games``, ``play``,
``arena``) and the web API (the home page, the form, a game against the computer, two people
and a rematch that follows its series rules), with no edit anywhere else; and it writes the
game's golden playthroughs and rules page into its folder alone, where make test's checks of
every game (conformance, words, parameters, playthroughs, rules page) find them and pass.
"""

from __future__ import annotations

import importlib
import random
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import boneyard
from boneyard.cli import main
from boneyard.core.registry import game_spec, unregister
from boneyard.core.rules_pages import game_folder, rules_markdown
from boneyard.core.spec import GameSpec
from boneyard.testing import check_game, check_parameter_errors
from boneyard.testing.playthroughs import (
    difference,
    expected_files,
    golden_path,
    stale_files,
    write_all,
)
from boneyard.testing.word_check import check_words

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient
from tests.web.conftest import app_settings

from boneyard.web.app import create_app

TEMPLATE = Path(boneyard.__file__).parent / "games" / "race"
PACKAGE = "newgames"
NAME = "dash"
TITLE = "Dash"


def copy_the_template(root: Path) -> None:
    """What a newcomer does: copy the folder, rename what names it, register its spec."""
    package = root / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text('"""Games made outside boneyard."""\n')
    folder = package / NAME
    shutil.copytree(TEMPLATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for path in folder.glob("*.py"):
        text = path.read_text()
        text = text.replace("boneyard.games.race", f"{PACKAGE}.{NAME}")
        text = text.replace('name = "race"', f'name = "{NAME}"')
        text = text.replace('title = "Race"', f'title = "{TITLE}"')
        path.write_text(text)
    init = folder / "__init__.py"
    init.write_text(
        init.read_text() + "\nfrom boneyard.core.registry import register\n\nregister(SPEC)\n"
    )


@pytest.fixture(scope="module")
def new_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameSpec]:
    root = tmp_path_factory.mktemp("elsewhere")
    copy_the_template(root)
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(f"{PACKAGE}.{NAME}")
        spec: GameSpec = module.SPEC
        yield spec
    finally:
        unregister(NAME)
        sys.path.remove(str(root))
        for loaded in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[loaded]


def test_the_copy_is_registered_with_its_own_spec(new_game: GameSpec) -> None:
    assert NAME in boneyard.list_games()
    assert game_spec(NAME) is new_game
    game = boneyard.load_game(NAME, goal=9)
    assert game.title == TITLE and game.spec is new_game
    assert game.render_text(game.new_initial_state().observation(None)) == "total 0 / 9"
    assert game.prompt(game.new_initial_state().observation(0), 0).startswith("Add one or two")


# ----- the command line ----------------------------------------------------------------------


def test_the_terminal_lists_and_plays_it(new_game: GameSpec) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["games"])
    assert listed.exit_code == 0 and NAME in listed.output and TITLE in listed.output
    played = runner.invoke(main, ["play", NAME, "--vs", "easy", "--seed", "3"], input="+1\n" * 40)
    assert played.exit_code == 0, played.output
    assert "Add one or two to the total" in played.output
    assert any(ending in played.output for ending in ("You won", "won.", "drawn"))


def test_the_arena_plays_its_levels(new_game: GameSpec) -> None:
    result = CliRunner().invoke(main, ["arena", NAME, "random", "easy", "-n", "4", "--quiet"])
    assert result.exit_code == 0, result.output
    assert "random" in result.output and "easy" in result.output


# ----- the web -----------------------------------------------------------------------------------

PEOPLE = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def client(new_game: GameSpec, tmp_path: Path) -> Iterator[TestClient]:
    settings = app_settings()  # the TestClient's host, budgets for a test that plays fast
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", settings=settings)) as client:
        yield client


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    seen: dict[str, Any] = client.get(f"/api/games/{game_id}", params=params).json()
    return seen


def finish(client: TestClient, game_id: str, tokens: dict[int, str], seed: int) -> dict[str, Any]:
    """Play the seats of ``tokens`` at random until the end (the computer plays the others)."""
    rng = random.Random(seed)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        seen = view(client, game_id)
        if seen["terminal"]:
            return seen
        mover = seen["current_player"]
        if mover not in tokens:
            time.sleep(0.02)  # chance or the computer, off the request path
            continue
        mine = view(client, game_id, tokens[mover])
        response = client.post(
            f"/api/games/{game_id}/actions",
            json={
                "token": tokens[mover],
                "seq": mine["seq"],
                "action": rng.choice(mine["legal"])["id"],
            },
        )
        assert response.status_code in (200, 409), response.text  # 409: the computer was first
    raise AssertionError("the game did not end")


def test_the_web_offers_it_on_the_home_page_and_its_form(client: TestClient) -> None:
    assert TITLE in client.get("/").text
    assert NAME in [kind["name"] for kind in client.get("/api/kinds").json()]
    form = client.get(f"/new/{NAME}")
    assert form.status_code == 200 and 'name="p_goal"' in form.text
    too_far = client.post("/api/games", json={"game": NAME, "params": {"goal": 40}})
    assert too_far.status_code == 400, "the web's limit from its spec (goal at most 30)"


def test_the_web_plays_it_against_the_computer(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]
    created = client.post("/api/games", json={"game": NAME, "seats": seats}).json()
    end = finish(client, created["id"], {0: created["seats"][0]["token"]}, seed=1)
    assert end["terminal"] and len(end["returns"]) == 2


def test_a_rematch_follows_its_series_rules(client: TestClient) -> None:
    for seed in range(20):  # a game the coin ends is drawn: look for one a seat wins
        created = client.post("/api/games", json={"game": NAME, "seats": PEOPLE}).json()
        tokens = {seat: created["seats"][seat]["token"] for seat in (0, 1)}
        end = finish(client, created["id"], tokens, seed)
        if end["returns"][0] != end["returns"][1]:
            break
    else:
        raise AssertionError("every game was drawn")
    loser = end["returns"].index(-1.0)
    asked = client.post(
        f"/api/games/{created['id']}/session", json={"token": tokens[loser], "do": "rematch"}
    )
    assert asked.status_code == 200, asked.text
    link = view(client, created["id"], tokens[loser])["session"]["next_url"]
    next_id, next_token = link.split("/")[2].split("?t=")
    opened = view(client, next_id, next_token)
    assert opened["seat"] == 0 and opened["current_player"] == 0, "the loser starts (its spec)"
    assert opened["session"]["series"]["number"] == 2


# ----- its playthroughs and rules page, in its folder alone ---------------------------------------

SHARED_PLAYTHROUGHS = Path(__file__).resolve().parents[1] / "playthroughs"
"""The repository's tests/playthroughs, where boneyard's own games keep their golden files."""


def test_its_playthroughs_and_rules_page_live_in_its_folder_and_pass_the_checks(
    new_game: GameSpec, client: TestClient
) -> None:
    folder = game_folder(new_game.game)
    # `make playthroughs` writes the new game's golden files into its own folder, none in tests/
    before = sorted(SHARED_PLAYTHROUGHS.iterdir())
    written = write_all(SHARED_PLAYTHROUGHS, only_game=NAME)
    assert sorted(SHARED_PLAYTHROUGHS.iterdir()) == before
    assert written and {path.parent for path in written} == {folder / "playthroughs"}
    # its rules page, beside its rules
    page = f"# {TITLE}\n\nTwo players take turns adding one or two to a total; a coin follows.\n"
    (folder / f"{NAME}.md").write_text(page, encoding="utf-8")

    # make test's checks of every registered game, on the new one
    mine = {name: entry for name, entry in expected_files().items() if entry[0] == NAME}
    assert len(mine) == len(new_game.game.conformance_variants)
    for filename, (name, params) in mine.items():
        assert difference(golden_path(filename, name, SHARED_PLAYTHROUGHS), name, params) is None
        check_game(boneyard.load_game(name, **params), playouts=2, seed=1)
        check_words(boneyard.load_game(name, **params), playouts=2, seed=1)
    assert stale_files(SHARED_PLAYTHROUGHS) == []
    check_parameter_errors(NAME)
    shown = client.get(f"/rules/{NAME}")
    assert shown.status_code == 200 and re.search(rf"<h1[^>]*>{TITLE}</h1>", shown.text)
    assert "a coin follows" in shown.text
    assert "<h2>How to play, in short</h2>" in shown.text and "not written yet" not in shown.text
    assert "not written yet" not in rules_markdown(NAME)

    # a changed golden file is caught, as for boneyard's own games
    variant = next(iter(mine))
    golden = golden_path(variant, NAME, SHARED_PLAYTHROUGHS)
    golden.write_text(golden.read_text().replace("total 0 / 7", "total 1 / 7", 1))
    assert "differs" in str(difference(golden, *mine[variant]))
