"""What ``Game.evaluate`` of both OYNO games uses.

It reads an observation dict (what the seat may see); the two-player game's value is read from
a state's fields where that gives the same number faster (every field is public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from boneyard.games.oyno.board import board
from boneyard.games.oyno.observation import DuelObservation, PuzzleObservation

if TYPE_CHECKING:
    from boneyard.core.game import State


def cells_of(position: str) -> list[str]:
    """The characters of a position, cell by cell from a1 (rank by rank, files left to right)."""
    ranks = position.split("/")
    return [char for rank in reversed(ranks) for char in rank]


def puzzle_value(observation: PuzzleObservation) -> float:
    """1 when solved; otherwise the fraction of bones up, scaled below the solved value."""
    if observation["solved"]:
        return 1.0
    bones = observation["bones"]
    ups = sum(1 for char in cells_of(observation["position"]) if char == "U")
    return 0.9 * ups / bones if bones else 0.0


def _duel_masks(observation: DuelObservation) -> tuple[list[int], int]:
    """The occupied mask of each colour and the mask of up bones, read from the position."""
    occupied = [0, 0]
    up = 0
    for cell, char in enumerate(cells_of(observation["position"])):
        if char in "RW":
            up |= 1 << cell
        if char in "Rr":
            occupied[0] |= 1 << cell
        elif char in "Ww":
            occupied[1] |= 1 << cell
    return occupied, up


def wins_next(
    occupied: list[int],
    up: int,
    supply: list[int],
    player: int,
    neighbours: tuple[int, ...],
    resting_mask: int,
) -> bool:
    """Whether ``player``, to move, has a winning action that needs no luck.

    Two cases are seen: one own bone down and none left in supply (flip it), and one bone left
    in supply with every own bone up (the forced place wins on an empty cell next to no own bone).
    """
    own = occupied[player]
    down = own & ~up
    if supply[player] == 0:
        return down != 0 and not down & (down - 1)
    if supply[player] == 1 and not down:
        empty = resting_mask & ~(occupied[0] | occupied[1])
        while empty:
            low = empty & -empty
            if not neighbours[low.bit_length() - 1] & own:
                return True
            empty ^= low
    return False


def duel_score(
    occupied: list[int],
    up: int,
    supply: list[int],
    player: int,
    per_player: int,
    neighbours: tuple[int, ...],
    resting_mask: int,
    seat: int,
) -> float:
    """The value of a running game for ``seat``, strictly inside (-1, 1).

    A bone placed from the supply never goes back, while an up bone can be turned down by the
    other player's next action, so each side's progress counts placed bones twice and up bones
    once: ``(2 * placed + up) / (3 * bones_per_player)``. The difference is scaled by 0.8; a
    player to move that wins next move (``wins_next``) is worth 0.9 to it instead.
    """
    if wins_next(occupied, up, supply, player, neighbours, resting_mask):
        return 0.9 if player == seat else -0.9
    other = 1 - seat
    mine = 2 * (per_player - supply[seat]) + (occupied[seat] & up).bit_count()
    theirs = 2 * (per_player - supply[other]) + (occupied[other] & up).bit_count()
    if supply[player] and not occupied[player] & ~up:
        # the player to move must place: a bone comes out of its supply next
        if player == seat:
            mine += 1
        else:
            theirs += 1
    return 0.8 * (mine - theirs) / (3 * per_player + 1)


def duel_value(observation: DuelObservation, seat: int) -> float:
    """``duel_score`` read from an observation; a finished game is +-1 (a draw 0)."""
    winner = observation.get("winner")
    if winner is not None:
        return 1.0 if winner == seat else -1.0
    if observation.get("draw"):
        return 0.0
    geometry = board(observation["size"])
    occupied, up = _duel_masks(observation)
    return duel_score(
        occupied,
        up,
        list(observation["supply"]),
        observation["player"],
        observation["bones_per_player"],
        geometry.neighbours,
        geometry.resting_mask,
        seat,
    )


class PuzzleHeuristic:
    """The puzzle's heuristic, as its spec names it (``core.hooks.Heuristic``)."""

    @staticmethod
    def evaluate(state: State, seat: int) -> float:
        return puzzle_value(cast(PuzzleObservation, state.observation(seat)))


class DuelHeuristic:
    """The two-player game's heuristic, as its spec names it (``core.hooks.Heuristic``)."""

    @staticmethod
    def evaluate(state: State, seat: int) -> float:
        from boneyard.games.oyno.duel import DuelState

        if not isinstance(state, DuelState) or state.rolling >= 0 or state.is_terminal():
            return duel_value(cast(DuelObservation, state.observation(seat)), seat)
        # The same value as from the observation (every field is public), without building it.
        geometry = state.game.geometry
        return duel_score(
            state.occupied,
            state.up,
            state.supply,
            state.player,
            state.game.bones_per_player,
            geometry.neighbours,
            geometry.resting_mask,
            seat,
        )
