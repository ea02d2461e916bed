"""``boneyard play GAME``: a game in the terminal against the computer or a friend at the screen.

The screen speaks the game's words (its ``prompt`` module): before each move of a person it shows
the board, the game's panel (scores, the die, limits) and what to decide now; every move of the
computer or chance is told in words, and the end as the game words its result. A person types
moves in the game's notation (``d1-d2``) or a command: ``help``, ``rules`` (``Game.how_to_play``),
``moves``, ``hint``, ``board``, ``quit``. A typo gets the notation explained, an illegal move one
short reason, and the game goes on.
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
from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.game import CHANCE, Game, State, sample_chance_outcome

HUMAN = "human"
SEAT_NUMBER = re.compile(r"\bseat (\d)\b")
BARE_SQUARE = re.compile(r"[a-z]{1,2}\d{1,2}")
"""A square alone ("c2"): the page plays the one action a click on it can mean; so does this."""

HELP = """\
Type a move in the game's notation (for example the first of `moves`), or a command:
  moves   list the legal moves
  rules   how to play, in short
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
        self.console.print(
            f"[bold]{self.game.info.title}[/bold]: type [bold]rules[/bold] for how to play, "
            "[bold]help[/bold] for the commands."
        )
        try:
            while not self.state.is_terminal():
                self.play_one()
        except Quit:
            self.console.print("Game abandoned.")
            return
        self.show_board()
        self.show_panel()
        self.console.print(Text(self.result(), style="bold"))

    def play_one(self) -> None:
        player = self.state.current_player()
        if player == CHANCE:
            action = sample_chance_outcome(self.state, self.chance)
            told = self.describe(None, action)
            if told:  # a step of a deal the board shows is not told on its own
                self.console.print(Text(told, style="dim"))
            self.state.apply_action(action)
            return
        if player in self.bots:
            action = self.bots[player].step(self.state)
            told = self.describe(player, action)
            if told:  # one of a run of hidden moves, told once at its end
                self.console.print(Text.assemble("(computer) ", (told, "bold")))
            self.state.apply_action(action)
            return
        self.human_turn(player)

    def human_turn(self, seat: int) -> None:
        self.show_turn(seat)
        while True:
            try:
                line = self.ask(f"{self.seat_name(seat)}> ")
            except EOFError:
                raise Quit from None
            command = line.strip().lower()
            if not command:
                continue
            if command in ("quit", "exit", "q"):
                raise Quit
            if not self.answer_command(seat, command) and self.try_move(seat, command):
                return

    def answer_command(self, seat: int, command: str) -> bool:
        """Answer one of the commands help lists (not a move); whether ``command`` was one."""
        answers: dict[str, Callable[[], object]] = {
            "help": lambda: self.console.print(HELP),
            "?": lambda: self.console.print(HELP),
            "rules": self.show_rules,
            "moves": lambda: self.console.print("legal: " + self.legal_strings()),
            "board": lambda: self.show_turn(seat),
            "hint": lambda: self.console.print(f"hint: [bold]{self.hint()}[/bold]"),
        }
        answer = answers.get(command)
        if answer is None:
            return False
        answer()
        return True

    def show_rules(self) -> None:
        sentences = self.game.how_to_play or ("The rules page says how to play.",)
        for sentence in sentences:
            self.console.print(Text("- " + sentence))
        self.console.print(f"The whole rules: boneyard rules {self.game.name}")

    def try_move(self, seat: int, text: str) -> bool:
        """Play ``text`` for ``seat``; a refusal is explained in one line and changes nothing."""
        state = self.state
        meant = self.meanings_of_square(text)
        if len(meant) > 1:
            listed = ", ".join(meant)
            self.console.print(Text(f"{text} can mean {listed}: type the one you mean", "red"))
            return False
        if meant:
            text = meant[0]
        elif self.is_bare_square(text):
            self.console.print(
                Text(f"No move of yours uses {text} now (moves: the legal moves)", "red")
            )
            return False
        try:
            action = state.string_to_action(text)
            description = self.describe(seat, action)
            state.apply_action(action)
        except IllegalActionError:
            self.console.print(Text(f"{state.why_illegal(text)} (moves: the legal moves)", "red"))
            return False
        except BoneyardError as error:
            self.console.print(Text(f"{error} (moves: the legal moves)", style="red"))
            return False
        if sum(kind == HUMAN for kind in self.players) > 1:
            self.console.print(Text(description, style="bold"))  # for the friend at the screen
        return True

    def is_bare_square(self, text: str) -> bool:
        """``text`` is a square alone, and no move of the game's own notation."""
        if not BARE_SQUARE.fullmatch(text):
            return False
        try:
            self.state.string_to_action(text)
        except BoneyardError:
            return True
        return False  # the game's own notation reads it: played as typed

    def meanings_of_square(self, text: str) -> list[str]:
        """The legal moves a bare square ``text`` can mean (those naming it), when ``text`` is
        not itself a move of the game's notation; otherwise none."""
        if not self.is_bare_square(text):
            return []
        state = self.state
        strings = [state.action_to_string(a) for a in state.legal_actions()]
        return [move for move in strings if text in re.split(r"[\s\-x:,]+", move)]

    def hint(self) -> str:
        from boneyard.ai import hint

        return self.state.action_to_string(hint(self.state))

    def describe(self, actor: int | None, action: int) -> str:
        """``action`` (about to be played by ``actor``; ``None``: chance) in the game's words,
        as the person at the screen sees it."""
        viewer = self.viewer()
        seen = self.state.action_string_for(viewer, action)
        return self.game.describe_action(self.state.observation(viewer), actor, seen)

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

    def show_panel(self) -> None:
        """The game's panel: its labelled facts (scores, the die, limits), one a line."""
        viewer = self.viewer()
        items = self.game.panel(self.state.observation(viewer), viewer)
        if items:
            width = max(len(item.label) for item in items)
            for item in items:
                self.console.print(Text.assemble((f"{item.label:>{width}}  ", "dim"), item.value))

    def show_turn(self, seat: int) -> None:
        """The board, the panel and what ``seat`` must decide now."""
        self.show_board()
        self.show_panel()
        prompt = self.game.prompt(self.state.observation(seat), seat)
        self.console.print(Text(prompt, style="bold"))

    def seat_name(self, seat: int) -> str:
        return self.game.seat_name(seat).capitalize()

    def result(self) -> str:
        viewer = self.viewer()
        observation = self.state.observation(viewer)
        # Friends sharing the screen read the result in the third person, not as "you".
        reader = viewer if sum(kind == HUMAN for kind in self.players) == 1 else None
        return self.game.result(observation, reader, self.state.returns())


def board_text(game: Game, state: State, viewer: int | None) -> Text:
    """The board as ``viewer`` may see it, coloured with the game's ``text_styles``.

    Only board rows (lines that start with a rank number) are coloured, so that file letters and
    status lines keep their plain look. The text drawings number the seats ("seat 0 to move": they
    are also the golden playthroughs' text); a person reads the game's names for them instead.
    """
    if game.perfect_information:
        plain = str(state)
    else:
        plain = game.render_text(state.observation(viewer))
    plain = SEAT_NUMBER.sub(lambda found: game.seat_name(int(found.group(1))), plain)
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
    help="The other seats: a level (1 up on the game's scale, or easy, medium, hard), a bot name, "
    "or 'human' (same screen).",
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
    try:
        session = TerminalGame(
            game=loaded,
            players=kinds,
            console=Console(),
            ask=lambda prompt: input(prompt),
            seed=seed if seed is not None else random.randrange(2**31),
        )
    except ValueError as error:  # an unknown level or bot: the message names the allowed ones
        raise click.BadParameter(str(error), param_hint="--vs") from None
    session.run()
