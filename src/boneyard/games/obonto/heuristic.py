"""The Obonto heuristic the bots use: points already won plus an estimate of the current game.

Everything in Obonto is public, so the heuristic may read the whole board. During play the
estimate of the current game weighs two things for the seat against its opponent:

* **mobility**: legal moves now;
* **room**: light empty squares the seat's animals reach before the opponent's do (a flood over
  light squares from both sides at once, one step per round; squares reached in the same round
  count for nobody).

With alpha-beta at depth 2, room and mobility together beat mobility alone in about 85 of 100
games (seats alternating, two random opening moves); the weights below come from such matches.

In the solo phase the winner's points are 1 + solo moves so far + an optimistic guess of the
moves left (half the light empty squares the winner's animals can still reach). The value is
clipped into the game's utility range.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boneyard.games.obonto.notation import GRID, KINDS, SIZE, SQUARES
from boneyard.games.obonto.observation import ObontoObservation, observe

if TYPE_CHECKING:
    from boneyard.core.game import State
    from boneyard.games.obonto.rules import ObontoGame

MOBILITY_WEIGHT = 0.2
ROOM_WEIGHT = 0.2
SOLO_REMAINING_SHARE = 0.5

FULL = (1 << SQUARES) - 1
_NOT_FILE_A = FULL & ~sum(1 << (rank * SIZE) for rank in range(SIZE))
_NOT_FILE_I = FULL & ~sum(1 << (rank * SIZE + SIZE - 1) for rank in range(SIZE))


def _grow(squares: int) -> int:
    return (
        squares
        | (squares << SIZE)
        | (squares >> SIZE)
        | ((squares & _NOT_FILE_I) << 1)
        | ((squares & _NOT_FILE_A) >> 1)
    )


def board_from_observation(observation: ObontoObservation) -> tuple[int, list[int]]:
    """(dark bitmask, six animal squares) of an observation."""
    dark = 0
    for name in observation["dark"]:
        dark |= 1 << GRID.parse(name)
    animals = [GRID.parse(side[kind]) for side in observation["animals"] for kind in KINDS]
    return dark, animals


def _seeds(animals: list[int] | tuple[int, ...], seat: int) -> int:
    seeds = 0
    for square in animals[seat * 3 : seat * 3 + 3]:
        seeds |= 1 << square
    return seeds


def reachable_light(dark: int, animals: list[int] | tuple[int, ...], seat: int) -> int:
    """How many light empty squares ``seat``'s animals can reach by any chain of light squares."""
    light = FULL & ~dark
    region = _seeds(animals, seat)
    while True:
        grown = _grow(region) & light
        if grown == region:
            break
        region = grown
    occupied = _seeds(animals, 0) | _seeds(animals, 1)
    return (region & ~occupied).bit_count()


def room_difference(dark: int, animals: list[int] | tuple[int, ...], seat: int) -> int:
    """Light empty squares ``seat`` reaches first minus those the opponent reaches first."""
    light = FULL & ~dark
    mine, theirs = _seeds(animals, seat), _seeds(animals, 1 - seat)
    claimed = mine | theirs
    own, other = mine, theirs
    while True:
        new_mine = _grow(mine) & light & ~claimed
        new_theirs = _grow(theirs) & light & ~claimed
        if not (new_mine | new_theirs):
            break
        contested = new_mine & new_theirs
        mine = new_mine & ~contested
        theirs = new_theirs & ~contested
        own |= mine
        other |= theirs
        claimed |= new_mine | new_theirs
    occupied = _seeds(animals, 0) | _seeds(animals, 1)
    return (own & ~occupied).bit_count() - (other & ~occupied).bit_count()


def evaluate_board(
    game: ObontoGame,
    seat: int,
    dark: int,
    animals: list[int] | tuple[int, ...],
    phase: str,
    loser: int | None,
    solo_moves: int,
    totals: list[int],
    moves_of_seat: int,
    moves_of_other: int,
) -> float:
    """The heuristic on plain values (``evaluate_observation`` and the rules' fast path both call
    it)."""
    low, high = game.utility_range()
    value = float(totals[seat] - totals[1 - seat])
    if phase == "solo" and loser is not None:
        winner = 1 - loser
        remaining = SOLO_REMAINING_SHARE * reachable_light(dark, animals, winner)
        points = 1 + solo_moves + remaining
        value += points if winner == seat else -points
    elif phase == "play":
        value += MOBILITY_WEIGHT * (moves_of_seat - moves_of_other)
        value += ROOM_WEIGHT * room_difference(dark, animals, seat)
    return max(low, min(high, value))


def evaluate(state: State, seat: int) -> float:
    """``Game.evaluate``: a value of ``state`` for ``seat``, inside the utility range."""
    from boneyard.games.obonto.rules import ObontoState

    if isinstance(state, ObontoState):
        # Everything is public: the fields are what the observation shows, only faster.
        return state.evaluate_for(seat)
    return evaluate_observation(state.game, observe(state, seat), seat)  # type: ignore[arg-type]


def evaluate_observation(game: ObontoGame, observation: ObontoObservation, seat: int) -> float:
    """A value of the observed position for ``seat``, inside ``game.utility_range()``."""
    from boneyard.games.obonto.rules import moves_of

    dark, animals = board_from_observation(observation)
    occupied = _seeds(animals, 0) | _seeds(animals, 1)
    phase = observation["phase"]
    own = other = 0
    if phase == "play":
        own = len(moves_of(animals, seat, dark, occupied))
        other = len(moves_of(animals, 1 - seat, dark, occupied))
    return evaluate_board(
        game,
        seat,
        dark,
        animals,
        phase,
        observation["loser"],
        observation["solo_moves"],
        observation["totals"],
        own,
        other,
    )
