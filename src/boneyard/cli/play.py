"""``boneyard play GAME``: a game in the terminal against the computer or a friend at the screen.

A person types moves in the game's notation (``d1-d2``) or a command: ``help``, ``moves``,
``hint``, ``board``, ``quit``. A typo or an illegal move is explained, with the legal moves,
and the game goes on.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import click
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from boneyard.cli.common import GAME_NAME, fail_on_bad_input, game_from_options
from boneyard.core.errors import BoneyardError
from boneyard.core.game import CHANCE, Game, State, sample_chance_outcome

HUMAN = "human"

HELP = """\
Type a move in the game's notation (for example the first of `moves`), or a command:
  moves   list the legal moves
  hint    ask the strongest computer level for a move
  board   show the board again
  help    show this help
  quit    leave the game"""


class Quit(Exception):
    """The person asked to leave."""


@dataclass
class TerminalGame:
    """One game at the terminal. ``ask`` reads a line (``input`` in real use, a script in tests)."""

    game: Game
    players: list[str]
    """Per seat: ``"human"`` or a bot name / level."""
    console: Console
    ask: Callable[[str], str]
    seed: int = 0
    state: State = field(init=False)

    def __post_init__(self) -> None:
        from boneyard.ai import make_bot

        self.state = self.game.new_initial_state()
        self.chance = random.Random(self.seed)
        self.bots = {
            seat: make_bot(kind, self.game, seat, seed=self.seed + seat)
            for seat, kind in enumerate(self.players)
            if kind != HUMAN
        }

    def run(self) -> None:
        self.console.print(f"[bold]{self.game.info.title}[/bold]: type [bold]help[/bold] for help.")
        try:
            while not self.state.is_terminal():
                self.play_one()
        except Quit:
            self.console.print("Game abandoned.")
            return
        self.show_board()
        self.console.print(self.result())

    def play_one(self) -> None:
        player = self.state.current_player()
        if player == CHANCE:
            action = sample_chance_outcome(self.state, self.chance)
            self.console.print(f"[dim]chance:[/dim] {self.describe(action)}")
            self.state.apply_action(action)
            return
        if player in self.bots:
            action = self.bots[player].step(self.state)
            self.console.print(
                f"{self.seat_name(player)} (computer) plays [bold]{self.describe(action)}[/bold]"
            )
            self.state.apply_action(action)
            return
        self.human_turn(player)

    def human_turn(self, seat: int) -> None:
        self.show_board()
        while True:
            try:
                line = self.ask(f"{self.seat_name(seat)} to move> ")
            except EOFError:
                raise Quit from None
            command = line.strip().lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                raise Quit
            if command in ("help", "?"):
                self.console.print(HELP)
            elif command == "moves":
                self.console.print("legal: " + self.legal_strings())
            elif command == "board":
                self.show_board()
            elif command == "hint":
                self.console.print(f"hint: [bold]{self.hint()}[/bold]")
            elif self.try_move(command):
                return

    def try_move(self, text: str) -> bool:
        try:
            action = self.state.string_to_action(text)
            self.state.apply_action(action)
        except BoneyardError as error:
            message = str(error)
            if "legal:" not in message:
                message += "; legal: " + self.legal_strings()
            self.console.print(Text(message, style="red"))
            return False
        return True

    def hint(self) -> str:
        from boneyard.ai import hint

        return self.state.action_to_string(hint(self.state))

    def describe(self, action: int) -> str:
        viewer = self.viewer()
        return self.state.action_string_for(viewer, action)

    def legal_strings(self) -> str:
        return ", ".join(self.state.action_to_string(a) for a in self.state.legal_actions())

    def viewer(self) -> int | None:
        """Whose eyes the board is shown through: a human seat, the one to move if several."""
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        if not humans:
            return None
        player = self.state.current_player()
        return player if player in humans else humans[0]

    def show_board(self) -> None:
        self.console.print(Panel(board_text(self.game, self.state, self.viewer()), expand=False))

    def seat_name(self, seat: int) -> str:
        names = self.game.info.seat_names
        return names[seat] if seat < len(names) else f"seat {seat}"

    def result(self) -> str:
        returns = self.state.returns()
        best = max(returns)
        winners = [self.seat_name(seat) for seat, value in enumerate(returns) if value == best]
        scores = ", ".join(f"{self.seat_name(s)} {v:+g}" for s, v in enumerate(returns))
        if len(winners) == len(returns):
            return f"[bold]Draw.[/bold] ({scores})"
        return f"[bold]{' and '.join(winners)} won.[/bold] ({scores})"


def board_text(game: Game, state: State, viewer: int | None) -> Text:
    """The board as ``viewer`` may see it, coloured with the game's ``text_styles``.

    Only board rows (lines that start with a rank number) are coloured, so that file letters and
    status lines keep their plain look.
    """
    if game.perfect_information:
        plain = str(state)
    else:
        plain = game.render_text(state.observation(viewer))
    text = Text(plain)
    offset = 0
    for line in plain.splitlines(keepends=True):
        if line.lstrip()[:1].isdigit():
            for pattern, style in game.text_styles.items():
                for match in re.finditer(pattern, line):
                    text.stylize(style, offset + match.start(), offset + match.end())
        offset += len(line)
    return text


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("game", type=GAME_NAME)
@click.option(
    "--vs",
    "opponent",
    default="random",
    show_default=True,
    help="The other seats: a level (easy, medium, hard), a bot name, or 'human' (same screen).",
)
@click.option("--seat", default=0, show_default=True, help="Your seat (0 moves first).")
@click.option("-p", "--param", "params", multiple=True, help="A game parameter, name=value.")
@click.option("--seed", default=None, type=int, help="Seed for chance and the computer.")
@click.pass_context
@fail_on_bad_input
def play(
    ctx: click.Context,
    game: str,
    opponent: str,
    seat: int,
    params: tuple[str, ...],
    seed: int | None,
) -> None:
    """Play GAME in the terminal. Game parameters: -p name=value or --name value."""
    loaded = game_from_options(game, params, list(ctx.args))
    players = loaded.info.num_players
    if not 0 <= seat < players:
        raise click.BadParameter(
            f"seat {seat}: {game} has seats 0 to {players - 1}", param_hint="--seat"
        )
    kinds = [HUMAN if s == seat else opponent for s in range(players)]
    session = TerminalGame(
        game=loaded,
        players=kinds,
        console=Console(),
        ask=lambda prompt: input(prompt),
        seed=seed if seed is not None else random.randrange(2**31),
    )
    session.run()
