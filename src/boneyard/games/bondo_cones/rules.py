"""Bond O Cones: dice, hidden cone values, BondO rings and battles (RULINGS.md, "Bond O Cones").

Two players, 26 cones each on a 10x12 board. Under each cone is a value only its owner knows.
Every turn a die decides what the player does: move a cone 1-4 steps, peek at an own cone, or move
a ring. A cone carrying a ring (a BondO cone) walks king steps and may turn; a cone carrying both
rings (a Double BondO) walks twice as far. Capturing a cone scores its value; the first player to
``target`` points wins. A player who lost its rings may fight a BondO battle to win one back.

Action ids and strings are documented in ``notation.py`` and ``docs/rules/bondo_cones.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, Any, cast

from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, declared_parameters, read_parameters
from boneyard.core.record import Copied, Derived, Nested, Value, declared
from boneyard.games.bondo_cones import notation as nt
from boneyard.games.bondo_cones.board import (
    RED_FIELDS,
    START_FIELDS,
    ConeBoards,
    squares_of,
)
from boneyard.games.bondo_cones.observation import BondoObservation, BondoStatus

SQUARES = nt.SQUARES
NAMES = nt.NAMES

SETUP_ORDER = (8, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1)
"""The values a player places one by one, in value order; the ten 0s fill the fields left."""
VALUES = (*SETUP_ORDER, *([0] * 10))
"""All 26 values of one side (41 points)."""
PUTS = len(SETUP_ORDER)
SETUP_DONE = PUTS + 1
"""``setup_progress`` of a seat that has placed all its cones and its ring."""
WINDOW = 3
"""Turns a battle window stays open."""

PEEKED = 1
"""Cone flag: its owner has looked at it (public: the peek is seen)."""
SPIED = 2
"""Cone flag: the opponent learned its value after a lost battle (public; the value is not)."""


class Phase(IntEnum):
    """What the state waits for; the observation names it in lower case (``"setup_put"``)."""

    SETUP_PUT = 0
    SETUP_RING = 1
    FIRST = 2
    DECIDE = 3
    BATTLE = 4
    TAKE = 5
    PUNISH = 6
    ROLL = 7
    ACT = 8
    OVER = 9


SETUP_PUT, SETUP_RING, FIRST, DECIDE, BATTLE, TAKE, PUNISH, ROLL, ACT, OVER = Phase
PHASES = tuple(phase.name.lower() for phase in Phase)
_CHANCE_PHASES = (FIRST, BATTLE, ROLL)
DRAW = 2
"""``winner`` of a game ended by the turn cap."""


_TOKENS = [
    [[f"{nt.cone_token(seat, value, rings):<4}" for rings in range(3)] for value in range(9)]
    for seat in range(2)
]
"""``_TOKENS[seat][value][rings]``: the cone's padded text token, precomputed for ``__str__``."""


_OBSERVED_TOKENS = [
    [
        [
            [
                nt.observed_token(
                    seat, None if value == 9 else value, rings, bool(f & PEEKED), bool(f & SPIED)
                )
                for f in range(4)
            ]
            for rings in range(3)
        ]
        for value in range(10)
    ]
    for seat in range(2)
]
"""``_OBSERVED_TOKENS[seat][value or 9 if unknown][rings][flags]``: the observation's token."""


def _empty_list() -> list[int]:
    return [-1] * SQUARES


@dataclass(frozen=True)
class BondoConesParameters:
    """BondoConesGame's parameters, declared once: the form's fields and the rules' typed view."""

    target: Annotated[
        int,
        About(
            "points a player must capture to win",
            minimum=1,
            maximum=41,
            question="How many captured points win?",
        ),
    ] = 28
    max_turns: Annotated[
        int,
        About(
            "turns after which the game ends as a draw",
            minimum=1,
            maximum=100_000,
            advanced=True,
            question="Call it a draw after how many turns?",
        ),
    ] = 1000
    setup: Annotated[
        str,
        About(
            "choose: each player places its cones; random: a chance event places them",
            choices=("choose", "random"),
            question="How are the cones set up?",
            choice_labels=("Each player places their own", "At random, by chance"),
        ),
    ] = "choose"


class BondoConesGame(Game):
    """Bond O Cones for two players; seat 0 black at ranks 1-4, seat 1 white at ranks 9-12."""

    name = "bondo_cones"
    title = "Bond O Cones"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    min_players = 2
    max_players = 2
    chance = True
    perfect_information = False
    seat_names = ("black", "white")
    parameters = declared_parameters(BondoConesParameters)
    pitch = (
        "Hidden values under every cone, a die that decides what you may do, and rings "
        "that make a cone a king: capture 28 points first."
    )
    how_to_play = (
        "Black and white each have 26 cones with a number under each that only their owner "
        "knows. Before play, each side puts its numbered cones on its own start fields in secret "
        "(the zeros fill the rest) and its ring on one of its cones on a red field.",
        "Each turn the die says what you may do: a 1 to 4 moves one of your cones that many "
        "steps, the eye lets you look under one of your cones, and the ring moves your ring to "
        "another of your cones.",
        "A plain cone moves in one straight line, in any of eight directions; a cone wearing a "
        "ring may turn after every step. No cone jumps over another.",
        "End a move on your opponent's cone to capture it: its number is added to your score, "
        "and any ring it wore passes to your cone.",
        "Lost your last ring? For your next three turns you may call a battle, a coin toss that "
        "wins you a ring back or lets your opponent learn one of your numbers.",
        "The first to capture the target (28 points, unless the game was set otherwise) wins.",
    )
    text_styles = {
        r"\bb[\d?]": "bold bright_white on grey23",
        r"\bw[\d?]": "bold black on grey93",
        r"(?<=[\d?])[+#]": "bold red",
        r"(?<= )\*(?= |$)": "red",
    }
    conformance_variants = (
        {},
        {"setup": "random"},
        {"target": 10},
        {"target": 10, "setup": "random"},
    )

    def _configure(self) -> None:
        self.options = read_parameters(BondoConesParameters, self.params)
        self.target = self.options.target
        self.max_turns = self.options.max_turns
        self.random_setup = self.options.setup == "random"

    def max_game_length(self) -> int:
        # Set-up: 16 puts and a ring per seat; who starts; then at most 5 actions a turn
        # (battle, its result, take, roll, act).
        return 2 * SETUP_DONE + 1 + 5 * self.max_turns

    def utility_range(self) -> tuple[float, float]:
        return (-1.0, 1.0)

    def num_distinct_actions(self) -> int:
        return nt.NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return nt.MAX_CHANCE_OUTCOMES

    def new_initial_state(self) -> BondoConesState:
        return BondoConesState(self)

    def position(
        self,
        cones: Mapping[str, str],
        *,
        to_move: int = 0,
        die: str | None = None,
        scores: tuple[int, int] = (0, 0),
        windows: tuple[int, int] = (0, 0),
        set_aside: bool = False,
        turns: int = 1,
    ) -> BondoConesState:
        """A state mid-game from a hand-built position (tests, docs, analysis).

        ``cones`` maps squares to tokens such as ``"b8"`` or ``"w4+"`` (see
        ``notation.parse_cone_token``). The state is at the start of ``to_move``'s turn (before
        its battle choice), or with ``die`` (``"3"``, ``"eye"``, ``"ring"``) just after the roll.
        ``windows`` are the battle windows before that turn starts (the turn uses one), and
        ``turns`` is the number of the turn.
        """
        state = BondoConesState(self)
        for name, token in cones.items():
            seat, value, rings = nt.parse_cone_token(token)
            state._place(nt.GRID.parse(name), seat, value, rings)
        state.setup_progress = [SETUP_DONE, SETUP_DONE]
        state.scores = list(scores)
        state.first = 0
        state.windows = list(windows)
        state.set_aside = set_aside
        state.turns = turns - 1
        state._start_turn(to_move)
        if die is not None:
            state.phase = ACT
            state.die = nt.FACES.index(die)
        return state


PHASE_ASKS = {
    SETUP_RING: "put the ring on one of the cones on your red fields",
    DECIDE: "declare a BondO battle or roll the die",
    TAKE: "you won the battle: take a ring of your opponent's and put it on your cone",
    PUNISH: "your opponent lost the battle: pick one of their cones",
}
"""What each phase that asks one thing asks for: the reason any other action is refused."""


@declared
class BondoConesState(State, ConeBoards):
    """A Bond O Cones position, written on ``ConeBoards``: where the cones stand and how they
    move are its bitboards (rebuilt on restore); the per-square lists beside them are the
    saved record and what each cone carries (its value, who has seen it)."""

    game: BondoConesGame
    saves_record = True  # a resampled state has no history to replay

    owner: Copied[list[int]]
    """Per square the seat of the cone on it, or -1."""
    value: Copied[list[int]]
    """Per square the value of the cone on it, or -1."""
    rings: Copied[list[int]]
    flags: Copied[list[int]]
    """Per square ``PEEKED`` and ``SPIED`` bits."""
    cones: Derived[list[int]]
    """Per seat a bitboard of its cones (``ConeBoards``; rebuilt from ``owner`` on restore)."""
    ringed: Derived[list[int]]
    """Per seat a bitboard of its cones that carry a ring."""
    double: Derived[list[int]]
    """Per seat a bitboard of its cones that carry both rings."""
    scores: Copied[list[int]]
    captured: Nested[list[list[int]]]
    phase: Value[Phase]
    actor: Value[int]
    """Who acts at a player node; during set-up the seat setting up; else the turn's player,
    except in ``punish`` where the opponent of the turn's player chooses."""
    turn_player: Value[int]
    setup_progress: Copied[list[int]]
    die: Value[int]
    windows: Copied[list[int]]
    set_aside: Value[bool]
    turns: Value[int]
    first: Value[int]
    winner: Value[int]
    last_move: Value[tuple[int, int] | None]
    last_peek: Value[int]

    def __init__(self, game: BondoConesGame) -> None:
        super().__init__(game)
        self.owner = _empty_list()
        self.value = _empty_list()
        self.rings = [0] * SQUARES
        self.flags = [0] * SQUARES
        self.cones = [0, 0]
        self.ringed = [0, 0]
        self.double = [0, 0]
        self.scores = [0, 0]
        self.captured = [[], []]
        self.phase = SETUP_PUT
        self.actor = 0
        self.turn_player = 0
        self.setup_progress = [0, 0]
        self.die = -1
        self.windows = [0, 0]
        self.set_aside = False
        self.turns = 0
        self.first = -1
        self.winner = -1
        self.last_move = None
        self.last_peek = -1

    # ----- board helpers -----------------------------------------------------------------------

    def _place(self, square: int, seat: int, value: int, rings: int = 0) -> None:
        self.put_cone(seat, square, rings)
        self.owner[square] = seat
        self.value[square] = value
        self.rings[square] = rings
        self.flags[square] = 0

    def _remove(self, square: int) -> None:
        self.lift_cone(self.owner[square], square)
        self._clear(square)

    def _clear(self, square: int) -> None:
        """The per-square record of an empty ``square``."""
        self.owner[square] = -1
        self.value[square] = -1
        self.rings[square] = 0
        self.flags[square] = 0

    def _rings_changed(self, seat: int, *squares: int) -> None:
        """The per-square record of rings follows the bitboards on ``squares`` (of ``seat``)."""
        for square in squares:
            self.rings[square] = self.rings_on(seat, square)

    # ----- the contract ----------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in _CHANCE_PHASES or (phase < FIRST and self.game.random_setup):
            return CHANCE
        return self.actor

    def _free_start_fields(self, seat: int) -> list[int]:
        owner = self.owner
        return [sq for sq in START_FIELDS[seat] if owner[sq] < 0]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == ROLL:
            return [(face, 1 / 6) for face in range(6)]
        if phase == BATTLE:
            return [(nt.BATTLE_WON, 0.5), (nt.BATTLE_LOST, 0.5)]
        if phase == FIRST:
            return [(nt.FIRST_BASE, 0.5), (nt.FIRST_BASE + 1, 0.5)]
        if phase == SETUP_PUT:
            free = self._free_start_fields(self.actor)
            return [(nt.CHANCE_PUT_BASE + sq, 1 / len(free)) for sq in free]
        return [(nt.CHANCE_RING_BASE + sq, 0.5) for sq in RED_FIELDS[self.actor]]

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        me = self.actor
        if phase == ACT:
            return self._act_actions(me)
        if phase == DECIDE:
            return [nt.BATTLE, nt.ROLL]
        if phase == SETUP_PUT:
            return [nt.PUT_BASE + sq for sq in self._free_start_fields(me)]
        if phase == SETUP_RING:
            return [nt.SETUP_RING_BASE + sq for sq in RED_FIELDS[me]]
        if phase == TAKE:
            theirs = squares_of(self.ringed[1 - me])
            mine = squares_of(self.cones[me])
            return [nt.TAKE_BASE + x * SQUARES + y for x in theirs for y in mine]
        # PUNISH: the actor picks one cone of the player who lost the battle.
        base = nt.SEIZE_BASE if self.has_double(me) else nt.SPY_BASE
        victims = squares_of(self.cones[1 - me])
        return [base + sq for sq in victims] or [nt.PASS]

    def _act_actions(self, me: int) -> list[int]:
        die = self.die
        if die < nt.FACE_EYE:
            return self.cone_moves(me, die + 1) or [nt.PASS]
        if die == nt.FACE_EYE:
            return [nt.PEEK_BASE + sq for sq in squares_of(self.cones[me])] or [nt.PASS]
        ringed = self.ringed[me]
        plain = squares_of(self.cones[me] & ~ringed)
        if self.set_aside:
            return [nt.SET_ASIDE_BASE + sq for sq in plain] or [nt.PASS]
        moves = [nt.RING_MOVE_BASE + x * SQUARES + y for x in squares_of(ringed) for y in plain]
        return moves or [nt.PASS]

    # ----- playing -----------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        phase = self.phase
        if phase == ROLL:
            self.die = action
            self.phase = ACT
        elif phase == ACT:
            self._act(action)
        elif phase == DECIDE:
            self.phase = BATTLE if action == nt.BATTLE else ROLL
        elif phase == BATTLE:
            self._battle_result(action == nt.BATTLE_WON)
        elif phase == TAKE:
            self._take(*divmod(action - nt.TAKE_BASE, SQUARES))
        elif phase == PUNISH:
            self._punish(action)
        elif phase == SETUP_PUT:
            base = nt.CHANCE_PUT_BASE if self.game.random_setup else nt.PUT_BASE
            self._put(action - base)
        elif phase == SETUP_RING:
            base = nt.CHANCE_RING_BASE if self.game.random_setup else nt.SETUP_RING_BASE
            self._setup_ring(action - base)
        else:  # FIRST
            self.first = action - nt.FIRST_BASE
            self._start_turn(self.first)

    def _put(self, square: int) -> None:
        seat = self.actor
        done = self.setup_progress[seat]
        self._place(square, seat, SETUP_ORDER[done])
        done += 1
        self.setup_progress[seat] = done
        if done == PUTS:
            for free in self._free_start_fields(seat):
                self._place(free, seat, 0)
            self.phase = SETUP_RING

    def _setup_ring(self, square: int) -> None:
        seat = self.actor
        self.set_rings(seat, square, 1)
        self._rings_changed(seat, square)
        self.setup_progress[seat] = SETUP_DONE
        if seat == 0:
            self.actor = 1
            self.phase = SETUP_PUT
        else:
            self.phase = FIRST

    def _start_turn(self, seat: int) -> None:
        self.turns += 1
        self.turn_player = seat
        self.actor = seat
        self.die = -1
        may_battle = self.windows[seat] > 0 and not self.ringed[seat] and self.ringed[1 - seat] != 0
        if self.windows[seat] > 0:
            self.windows[seat] -= 1
        self.phase = DECIDE if may_battle else ROLL

    def _end_turn(self) -> None:
        if self.winner >= 0:
            self.phase = OVER
        elif self.turns >= self.game.max_turns:
            self.winner = DRAW
            self.phase = OVER
        else:
            self._start_turn(1 - self.turn_player)

    def _score(self, seat: int, value: int) -> None:
        self.scores[seat] += value
        self.captured[seat].append(value)
        if self.scores[seat] >= self.game.target:
            self.winner = seat

    def _act(self, action: int) -> None:
        if action < nt.RING_MOVE_BASE:
            self._move(*divmod(action, SQUARES))
        elif action < nt.TAKE_BASE:
            origin, target = divmod(action - nt.RING_MOVE_BASE, SQUARES)
            self.move_rings(self.actor, origin, target)
            self._rings_changed(self.actor, origin, target)
        elif action == nt.PASS:
            pass
        elif action >= nt.PEEK_BASE:
            square = action - nt.PEEK_BASE
            self.flags[square] |= PEEKED
            self.last_peek = square
        else:  # the set-aside ring
            square = action - nt.SET_ASIDE_BASE
            self.move_rings(self.actor, -1, square)
            self._rings_changed(self.actor, square)
            self.set_aside = False
        self._end_turn()

    def _move(self, origin: int, target: int) -> None:
        me = self.owner[origin]
        them = 1 - me
        had_rings = self.ringed[them] != 0
        captured_value = self.value[target]
        if self.move_cone(me, origin, target):
            self._score(me, captured_value)
            if had_rings and not self.ringed[them]:
                self.windows[them] = WINDOW
        self.owner[target] = me
        self.value[target] = self.value[origin]
        self.flags[target] = self.flags[origin]
        self._rings_changed(me, target)
        self._clear(origin)
        self.last_move = (origin, target)

    def _battle_result(self, won: bool) -> None:
        me = self.turn_player
        if won:
            self.windows[me] = 0
            self.phase = TAKE
        else:
            self.windows[me] = WINDOW
            self.actor = 1 - me
            self.phase = PUNISH

    def _take(self, origin: int, target: int) -> None:
        me = self.actor
        them = 1 - me
        if self.take_ring(me, origin, target):
            self.set_aside = True
        self._rings_changed(them, origin)
        self._rings_changed(me, target)
        if not self.ringed[them]:
            self.windows[them] = WINDOW
        self.phase = ROLL

    def _punish(self, action: int) -> None:
        if action >= nt.SEIZE_BASE and action < nt.BATTLE:
            square = action - nt.SEIZE_BASE
            self._score(self.actor, self.value[square])
            self._remove(square)
        elif action >= nt.SPY_BASE and action < nt.SEIZE_BASE:
            self.flags[action - nt.SPY_BASE] |= SPIED
        self._end_turn()

    def returns(self) -> list[float]:
        if self.winner in (0, 1):
            return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]
        return [0.0, 0.0]

    # ----- notation ---------------------------------------------------------------------------

    def _action_to_string(self, action: int) -> str:
        if self.current_player() == CHANCE:
            return nt.chance_outcome_to_string(action)
        return nt.player_action_to_string(action)

    def _string_to_action(self, text: str) -> int:
        if self.current_player() == CHANCE:
            return nt.string_to_chance_outcome(text)
        return nt.string_to_player_action(text)

    def action_string_for(self, seat: int | None, action: int) -> str:
        if self.phase == SETUP_PUT and seat != self.actor:
            text = self._action_to_string(action)
            if text.startswith("put "):
                return "put ?"
            return text
        return self._action_to_string(action)

    def _why_illegal(self, action: int) -> str | None:
        """The rule ``action`` breaks: what this phase asks for, in the rule text's words."""
        phase = self.phase
        if phase == SETUP_PUT:
            value = SETUP_ORDER[self.setup_progress[self.actor]]
            return f"put your cone of value {value} on one of your free start fields"
        if phase == ACT:
            return self._why_not_acted(action)
        return PHASE_ASKS.get(phase)

    def _why_not_acted(self, action: int) -> str:
        """Why ``action`` is not a move the rolled die allows: the cone or ring it names, else
        what the die asks for."""
        face = nt.FACES[self.die]
        me = self.actor
        if self.die < nt.FACE_EYE and action < nt.RING_MOVE_BASE:
            origin, target = divmod(action, SQUARES)
            if self.owner[origin] != me:
                return f"there is no cone of yours on {NAMES[origin]}"
            if self.owner[target] == me:
                return f"{NAMES[target]} holds a cone of yours: no cone lands on its own side"
        if self.die == nt.FACE_RING and nt.RING_MOVE_BASE <= action < nt.TAKE_BASE:
            origin, target = divmod(action - nt.RING_MOVE_BASE, SQUARES)
            if self.owner[origin] != me or not self.rings[origin]:
                return f"the cone on {NAMES[origin]} carries no ring of yours"
        if self.die < nt.FACE_EYE:
            return (
                f"the die shows {face}: move one cone exactly {face} "
                f"step{'' if face == '1' else 's'} in a straight line "
                "(a BondO cone may turn), never over another cone"
            )
        if self.die == nt.FACE_EYE:
            return "the die shows the eye: peek at one of your cones"
        return "the die shows a ring: move a ring to one of your cones without a ring"

    # ----- what each seat knows --------------------------------------------------------------

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> BondoObservation:
        """``observation(seat)`` as its declared type."""
        cones: dict[str, str] = {}
        progress = self.setup_progress
        owner, value, rings, flags = self.owner, self.value, self.rings, self.flags
        tokens = _OBSERVED_TOKENS
        for sq in squares_of(self.cones[0] | self.cones[1]):
            who = owner[sq]
            if who != seat and progress[who] < PUTS:
                continue
            flag = flags[sq]
            known = who == seat or (flag & SPIED and seat == 1 - who)
            cones[NAMES[sq]] = tokens[who][value[sq] if known else 9][rings[sq]][flag]
        player = self.current_player()
        return {
            "seat": seat,
            "current_player": player,
            "phase": PHASES[self.phase],
            "actor": self.actor,
            "turn_player": self.turn_player,
            "turn": self.turns,
            "max_turns": self.game.max_turns,
            "target": self.game.target,
            "setup": self.game.options.setup,
            "setup_progress": list(progress),
            "next_value": (SETUP_ORDER[progress[self.actor]] if self.phase == SETUP_PUT else None),
            "first_player": self.first if self.first >= 0 else None,
            "die": nt.FACES[self.die] if self.die >= 0 else None,
            "scores": list(self.scores),
            "captured": [list(self.captured[0]), list(self.captured[1])],
            "battle_windows": list(self.windows),
            "set_aside_ring": self.set_aside,
            "cones": cones,
            "last_move": (
                [NAMES[self.last_move[0]], NAMES[self.last_move[1]]] if self.last_move else None
            ),
            "last_peek": NAMES[self.last_peek] if self.last_peek >= 0 else None,
            "winner": None if self.winner < 0 else ("draw" if self.winner == DRAW else self.winner),
        }

    def _resample(self, seat: int, rng: random.Random) -> State:
        self._check_seat(seat)
        return resample_from_observation(self.game, self._typed_observation(seat), rng)

    def __str__(self) -> str:
        from boneyard.games.bondo_cones.draw import EMPTY_CELLS, board_lines, status_line

        tokens = _TOKENS
        value, rings = self.value, self.rings
        cells = EMPTY_CELLS[:]
        for sq in squares_of(self.cones[0] | self.cones[1]):
            cells[sq] = tokens[self.owner[sq]][value[sq]][rings[sq]]
        lines = board_lines(cells)
        lines.append(status_line(self._public_status()))
        return "\n".join(lines)

    def _public_status(self) -> BondoStatus:
        return {
            "phase": PHASES[self.phase],
            "next_value": (
                SETUP_ORDER[self.setup_progress[self.actor]] if self.phase == SETUP_PUT else None
            ),
            "turn": self.turns,
            "max_turns": self.game.max_turns,
            "winner": None if self.winner < 0 else ("draw" if self.winner == DRAW else self.winner),
            "current_player": self.current_player(),
            "die": nt.FACES[self.die] if self.die >= 0 else None,
            "scores": self.scores,
            "target": self.game.target,
            "battle_windows": self.windows,
            "set_aside_ring": self.set_aside,
        }

    # ----- snapshots (the record is declared above; the core saves and restores it) -----------

    def _after_restore(self) -> None:
        """Check each saved field, rebuild the bitboards, and refuse an incoherent document."""
        for name, length, low, high in (
            ("owner", SQUARES, -1, 1),
            ("value", SQUARES, -1, 8),
            ("rings", SQUARES, 0, 2),
            ("flags", SQUARES, 0, PEEKED | SPIED),
            ("scores", 2, 0, 41),
            ("setup_progress", 2, 0, SETUP_DONE),
            ("windows", 2, 0, WINDOW),
        ):
            items = getattr(self, name)
            if len(items) != length:
                raise ValueError(f"'{name}' must be a list of {length} integers")
            for item in items:
                _checked_int(item, name, low, high)
        self._rebuild_bitboards()
        if len(self.captured) != 2:
            raise ValueError("'captured' must be two lists of values")
        for taken in self.captured:
            _checked_values(taken, "captured")
        for name, low, high in (
            ("actor", 0, 1),
            ("turn_player", 0, 1),
            ("die", -1, 5),
            ("turns", 0, self.game.max_turns),
            ("first", -1, 1),
            ("winner", -1, DRAW),
            ("last_peek", -1, SQUARES - 1),
        ):
            _checked_int(getattr(self, name), name, low, high)
        for square in self.last_move or ():
            _checked_int(square, "last_move", 0, SQUARES - 1)
        if self.phase == ACT and self.die < 0:
            raise ValueError("phase 'act' needs a die")
        self._check_coherent()

    def _rebuild_bitboards(self) -> None:
        """Each side's cones and ringed cones as bitboards, from the squares' saved lists;
        ValueError for a cone of no value or an empty square with cone data."""
        owner, value, rings = self.owner, self.value, self.rings
        self.cones, self.ringed, self.double = [0, 0], [0, 0], [0, 0]
        for sq in range(SQUARES):
            if owner[sq] >= 0:
                if value[sq] not in VALUES:
                    raise ValueError(f"cone on {NAMES[sq]} has value {value[sq]}")
                self.put_cone(owner[sq], sq, rings[sq])
            elif value[sq] != -1 or rings[sq] or self.flags[sq]:
                raise ValueError(f"empty square {NAMES[sq]} has cone data")

    def _check_coherent(self) -> None:
        """Raise ValueError where a restored snapshot breaks what the rules keep true."""
        progress = self.setup_progress
        if self.phase == SETUP_PUT and progress[self.actor] >= PUTS:
            raise ValueError("phase 'setup_put' for a seat that has placed its cones")
        if self.phase == SETUP_RING and progress[self.actor] != PUTS:
            raise ValueError("phase 'setup_ring' before the cones are placed")
        if self.phase > SETUP_RING and progress != [SETUP_DONE, SETUP_DONE]:
            raise ValueError(f"phase '{PHASES[self.phase]}' before both set-ups are done")
        for seat in (0, 1):
            mine = [v for v, o in zip(self.value, self.owner) if o == seat]
            if Counter(mine + self.captured[1 - seat]) - Counter(VALUES):
                raise ValueError(f"seat {seat} has cones beyond its 26 values")
        if sum(self.rings) + self.set_aside > 2:
            raise ValueError("more than two rings")


def _checked_int(item: Any, name: str, low: int, high: int) -> int:
    """``item`` if it is an integer from ``low`` to ``high``; else ValueError naming ``name``."""
    if not isinstance(item, int) or isinstance(item, bool) or not low <= item <= high:
        raise ValueError(f"'{name}' is {item!r}; allowed are {low} to {high}")
    return item


def _checked_values(items: Any, name: str) -> list[int]:
    """``items`` if it is a list of cone values; else ValueError naming ``name``."""
    if not isinstance(items, list):
        raise ValueError(f"'{name}' must hold lists of values")
    return [_checked_int(item, name, 0, 8) for item in items]


def resample_from_observation(
    game: BondoConesGame, observation: BondoObservation, rng: random.Random
) -> BondoConesState:
    """A full state that looks exactly like ``observation`` to its seat, unknown values drawn
    from ``rng``: the opponent's hidden values are a random arrangement of the values it has
    left (its 26 values minus those captured from it and those the seat has spied), and during
    the opponent's secret set-up its placed cones go on random start fields."""
    seat = observation["seat"]
    if seat is None:
        raise ValueError("a spectator's view has no seat to resample for")
    state = BondoConesState(game)
    _copy_public(state, observation)
    _deal_cones(state, observation, seat, rng)
    return state


def _copy_public(state: BondoConesState, observation: BondoObservation) -> None:
    """What both seats see: the phase, the turn, the die, scores, captures and windows."""
    state.phase = Phase(PHASES.index(observation["phase"]))
    state.actor = observation["actor"]
    state.turn_player = observation["turn_player"]
    state.turns = observation["turn"]
    state.setup_progress = list(observation["setup_progress"])
    first = observation["first_player"]
    state.first = -1 if first is None else first
    die = observation["die"]
    state.die = -1 if die is None else nt.FACES.index(die)
    state.scores = list(observation["scores"])
    state.captured = [list(observation["captured"][0]), list(observation["captured"][1])]
    state.windows = list(observation["battle_windows"])
    state.set_aside = observation["set_aside_ring"]
    winner = observation["winner"]
    state.winner = -1 if winner is None else (DRAW if isinstance(winner, str) else winner)
    last = observation["last_move"]
    state.last_move = (nt.INDEX[last[0]], nt.INDEX[last[1]]) if last else None
    peek = observation["last_peek"]
    state.last_peek = -1 if peek is None else nt.INDEX[peek]


def _deal_cones(
    state: BondoConesState, observation: BondoObservation, seat: int, rng: random.Random
) -> None:
    """The cones as ``seat`` sees them, the opponent's hidden values a random arrangement of
    those it has left (its placed cones on random start fields while its set-up is secret)."""
    them = 1 - seat
    left = list(VALUES)
    for taken in state.captured[seat]:
        left.remove(taken)
    hidden: list[int] = []
    cones = nt.observed_cones(observation)
    for name, cone in sorted(cones.items(), key=lambda item: nt.INDEX[item[0]]):
        square = nt.INDEX[name]
        known = cone["value"]
        state._place(square, cone["seat"], 0 if known is None else known, cone["rings"])
        state.flags[square] = (PEEKED if cone["peeked"] else 0) | (SPIED if cone["spied"] else 0)
        if cone["seat"] == them:
            if known is None:
                hidden.append(square)
            else:
                left.remove(known)
    placed = state.setup_progress[them]
    if placed < PUTS:
        # The opponent's set-up is under way and secret: its first cones are somewhere.
        fields = rng.sample(list(START_FIELDS[them]), placed)
        for square, cone_value in zip(fields, SETUP_ORDER):
            state._place(square, them, cone_value)
    else:
        rng.shuffle(left)
        for square, cone_value in zip(hidden, left):
            state.value[square] = cone_value
