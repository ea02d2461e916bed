"""The terminal game: typed moves, commands, typos and a whole game as a person would play it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from rich.console import Console

from boneyard import load_game
from boneyard.cli import main
from boneyard.cli.play import HUMAN, TerminalGame, board_text


def _session(answers: Iterator[str], players: list[str], **params: object) -> TerminalGame:
    console = Console(record=True, width=120, color_system=None)
    return TerminalGame(
        game=load_game("obonto", **params),
        players=players,
        console=console,
        ask=lambda prompt: next(answers),
        seed=5,
    )


def test_a_whole_game_against_the_computer_by_typing_moves() -> None:
    rng = random.Random(1)
    holder: list[TerminalGame] = []

    def person() -> Iterator[str]:
        # A new user: asks for help and the moves, makes a typo and an illegal move, then plays.
        yield from ("help", "rules", "moves", "d1-d3", "zz", "board")
        while True:
            state = holder[0].state
            yield state.action_to_string(rng.choice(state.legal_actions()))

    session = _session(person(), [HUMAN, "random"])
    holder.append(session)
    session.run()
    assert session.state.is_terminal()
    out = session.console.export_text()
    assert "moves" in out and "legal:" in out
    assert "type rules for how to play" in out
    for sentence in session.game.how_to_play:  # "rules": the rules in short
        assert " ".join(sentence.split()[:8]) in " ".join(out.split())
    assert "The whole rules: boneyard rules obonto" in out
    assert "The lion moves exactly 1 step" in out  # one reason for the illegal d1-d3
    assert "illegal action" not in out
    assert "no square" in out or "'zz'" in out
    assert "Move one of your animals: the lion 1 step" in out  # the game's prompt
    assert "(computer) North moved the" in out  # the computer's moves in words
    assert "South (you)" in out and "To move" in out  # the panel
    assert "seat 0" not in out and "seat 1" not in out
    ending = out.strip().splitlines()[-1]
    assert ending.startswith(("You won", "You lost")), ending  # told as the seat it played


def test_two_people_at_one_screen_and_quit() -> None:
    session = _session(iter(["e1-e3", "e9-e7", "quit"]), [HUMAN, HUMAN])
    session.run()
    assert len(session.state.history()) == 2
    out = session.console.export_text()
    assert "South moved the zebra from e1 to e3." in out  # told to the friend at the screen
    assert "Game abandoned." in out


@pytest.mark.parametrize(
    ("name", "told"),
    [
        ("bondo_cones", "Put your cone worth 8 on one of your shaded start fields."),
        ("bonbon", "This round's bonus tiles are"),
        ("oyno_puzzle", "The puzzle is dealt: 8 bones"),
    ],
)
def test_games_with_chance_and_secrets_are_told_in_words(name: str, told: str) -> None:
    rng = random.Random(2)
    game = load_game(name)
    holder: list[TerminalGame] = []

    def person() -> Iterator[str]:
        for _ in range(20):
            state = holder[0].state
            yield state.action_to_string(rng.choice(state.legal_actions()))
        yield "quit"

    answers = person()
    console = Console(record=True, width=120, color_system=None)
    session = TerminalGame(
        game=game,
        players=[HUMAN, *["random"] * (game.info.num_players - 1)],
        console=console,
        ask=lambda prompt: next(answers),
        seed=3,
    )
    holder.append(session)
    session.run()
    assert told in console.export_text()


def test_end_of_input_leaves_cleanly() -> None:
    def nothing(prompt: str) -> str:
        raise EOFError

    session = _session(iter([]), [HUMAN, "random"])
    session.ask = nothing
    session.run()
    assert session.state.history() == []


def test_hint_suggests_a_legal_move() -> None:
    session = _session(iter(["hint", "quit"]), [HUMAN, "random"])
    session.run()
    out = session.console.export_text()
    hinted = out.split("hint: ")[1].split()[0]
    state = load_game("obonto").new_initial_state()
    assert state.string_to_action(hinted) in state.legal_actions()


def test_play_command_with_parameters_and_bad_input() -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["play", "obonto", "--games", "2", "--vs", "human"], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    bad = runner.invoke(main, ["play", "obonto", "--games", "zero"])
    assert bad.exit_code == 2
    assert "games" in bad.output and "integer" in bad.output
    unknown = runner.invoke(main, ["play", "obontoo"])
    assert unknown.exit_code == 2 and "unknown game 'obontoo'" in unknown.output
    seat = runner.invoke(main, ["play", "obonto", "--seat", "5"])
    assert seat.exit_code == 2 and "seats 0 to 1" in seat.output


@pytest.mark.parametrize(
    "command", [["games"], ["rules", "obonto"], ["bench", "obonto", "--seconds", "0.1"]]
)
def test_informational_commands(command: list[str]) -> None:
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    assert "obonto" in result.output.lower()


def test_board_rows_are_coloured_but_not_the_file_letters() -> None:
    game = load_game("obonto")
    text = board_text(game, game.new_initial_state(), viewer=0)
    styled = {text.plain[span.start : span.end] for span in text.spans}
    assert styled == {"L", "Z", "C", "l", "z", "c", "#"}
    for span in text.spans:
        line_start = text.plain.rfind("\n", 0, span.start) + 1
        assert text.plain[line_start:].lstrip()[0].isdigit(), "a file letter was coloured"


def test_the_board_names_seats_as_the_game_does() -> None:
    game = load_game("bonbon", players=3)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("tiles 1 2 3"))
    plain = board_text(game, state, viewer=0).plain
    assert "seat 0" not in plain and "seat 2" not in plain
    assert "red to play" in plain and "green: in play" in plain


def _typed(name: str, lines: list[str]) -> TerminalGame:
    answers = iter([*lines, "quit"])
    session = TerminalGame(
        game=load_game(name),
        players=[HUMAN, HUMAN],
        console=Console(record=True, width=120, color_system=None),
        ask=lambda prompt: next(answers),
    )
    return session


def test_a_bare_square_plays_the_one_move_it_can_mean() -> None:
    session = _typed("oyno", ["c3", "c2"])
    first = session.state.clone()
    session.run()
    out = session.console.export_text()
    assert "bad action" not in out
    assert "No move of yours uses c3 now" in out  # the round centre takes no bone
    first.apply_action(first.string_to_action("place c2"))
    assert str(session.state) == str(first), "c2 was played as place c2"


def test_a_bare_square_with_several_meanings_lists_them() -> None:
    session = _typed("bones", ["e5"])
    state = session.state
    meant = [
        move
        for move in (state.action_to_string(a) for a in state.legal_actions())
        if "e5" in move.split("-")
    ]
    assert len(meant) > 1
    session.run()
    out = " ".join(session.console.export_text().split())
    assert f"e5 can mean {', '.join(meant)}: type the one you mean" in out
    assert not session.state.history(), "nothing was played"


def test_play_takes_a_level_number_or_an_old_name() -> None:
    runner = CliRunner()
    for level in ("2", "easy"):
        result = runner.invoke(main, ["play", "bones", "--vs", level], input="quit\n")
        assert result.exit_code == 0, result.output
    bad = runner.invoke(main, ["play", "bones", "--vs", "9"], input="quit\n")
    assert bad.exit_code != 0 and "1 to 5 or easy, medium, hard" in bad.output
