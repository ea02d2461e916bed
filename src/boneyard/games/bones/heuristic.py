"""The greedy Bones heuristic behind ``BonesGame.evaluate``, for the bots.

It reads nothing but what every seat sees (Bones has no secrets): the top colours, the stacks and
the pieces.

* **Windows.** Every five consecutive squares of a rank or file is a *window* (the places a win can
  happen). A window scores for a colour by how many of its squares show that colour
  (``WEIGHTS``); squares of the other colour in it cut that score by ``MIXED`` each, not to zero,
  because in Bones any square can be covered again. A placement that extends its own line raises
  its windows; one that covers opponent squares cuts the opponent's.
* **Immediate wins.** ``winning_placements(state, seat)`` finds every legal placement that would
  give ``seat`` five in a line: a window whose other squares already show ``seat``'s colour and
  whose one or two missing squares a single piece covers. The side to move with such a placement
  is valued ``WIN_SOON``.
* **Threats.** When the side *not* to move holds immediate wins, ``blocking_placements`` tries
  the side to move's placements that touch those windows (no other placement can take a win
  away). If none leaves the threatening side without a win, the threat is unstoppable and valued
  ``UNSTOPPABLE``; a threat that can be blocked is worth ``THREAT`` points (it forces the reply).
* ``evaluate(state, seat)`` is the value for ``seat`` in ``(-1, 1)``; at the end, the result.
* ``score_placement(state, action)`` is what a greedy player maximises: the value, for the side to
  move, of the position after ``action``. ``best_placements(state)`` lists its best placements: an
  immediate win when there is one, otherwise (when it can) a placement after which the opponent
  cannot win at once, preferring threats the opponent cannot stop, then the strongest lines.
"""

from __future__ import annotations

import math
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING

from boneyard.core.game import TERMINAL

if TYPE_CHECKING:
    from boneyard.games.bones.rules import BonesState

LINE = 5
WEIGHTS = (0.0, 1.0, 4.0, 16.0, 64.0, 256.0)
"""A window's worth to a colour by how many of its five squares show that colour."""
MIXED = 0.25
"""Factor per square of the other colour inside a window."""
THREAT = 30.0
"""What a blockable threat (immediate wins) of the side not to move costs the side to move."""
TEMPO = 2.0
"""The side to move is a little better off."""
SCALE = 60.0
WIN_SOON = 0.95
"""The value of being to move with an immediate win."""
UNSTOPPABLE = 0.9
"""The value of having just made threats that no placement of the opponent blocks."""
SPREAD = 0.85
"""Other positions are valued ``SPREAD * tanh(score / SCALE)``, below ``UNSTOPPABLE``."""


@cache
def line_windows(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Every five consecutive squares of a rank or file, as square indices."""
    windows: list[tuple[int, ...]] = []
    for rank in range(height):
        for file in range(width - LINE + 1):
            start = rank * width + file
            windows.append(tuple(range(start, start + LINE)))
    for file in range(width):
        for rank in range(height - LINE + 1):
            start = rank * width + file
            windows.append(tuple(range(start, start + LINE * width, width)))
    return tuple(windows)


@cache
def _window_readers(width: int, height: int) -> tuple[tuple[tuple[int, ...], itemgetter], ...]:
    """Each window with a getter that reads its five squares' colours in one C call."""
    return tuple((window, itemgetter(*window)) for window in line_windows(width, height))


_FACTORS = tuple(
    tuple(WEIGHTS[own] * MIXED**other for other in range(LINE + 1)) for own in range(LINE + 1)
)


def _scan(state: BonesState) -> tuple[list[float], list[set[int]], list[list[tuple[int, ...]]]]:
    """Window scores of both colours, their immediate wins, and the windows those wins are in."""
    table = state.game.table
    top = state.top_colours()
    white_score = black_score = 0.0
    wins: list[set[int]] = [set(), set()]
    win_windows: list[list[tuple[int, ...]]] = [[], []]
    factors = _FACTORS
    for window, read in _window_readers(table.width, table.height):
        colours = read(top)
        white = colours.count(0)
        black = colours.count(1)
        white_score += factors[white][black]
        black_score += factors[black][white]
        if white >= LINE - 2 or black >= LINE - 2:
            for seat, count in ((0, white), (1, black)):
                if count >= LINE - 2:
                    found = _completions(state, window, colours, seat)
                    if found:
                        wins[seat].update(found)
                        win_windows[seat].append(window)
    return [white_score, black_score], wins, win_windows


def _completions(
    state: BonesState, window: tuple[int, ...], colours: tuple[int, ...], seat: int
) -> list[int]:
    """The legal placements that fill ``window`` with ``seat``'s colour (its other squares are)."""
    table = state.game.table
    missing = [s for s, c in zip(window, colours) if c != seat]
    if len(missing) == 1:
        candidates: tuple[int, ...] = table.touching[missing[0]]
    elif len(missing) == 2:
        action = table.by_pair.get((missing[0], missing[1]))
        if action is None:
            return []
        candidates = (action,)
    else:
        return []
    return [a for a in candidates if state.is_legal_placement(a)]


def _has_win_in(state: BonesState, windows: list[tuple[int, ...]], seat: int) -> bool:
    top = state.top_colours()
    for window in windows:
        colours = tuple(top[s] for s in window)
        if colours.count(seat) >= LINE - 2 and _completions(state, window, colours, seat):
            return True
    return False


def winning_placements(state: BonesState, seat: int) -> list[int]:
    """The legal placements that would give ``seat`` five in a line now, sorted."""
    if state.current_player() == TERMINAL:
        return []
    return sorted(_scan(state)[1][seat])


def blocking_placements(state: BonesState) -> list[int]:
    """The placements after which the side not to move has no immediate win (sorted).

    When that side has no immediate win now, every legal placement. A placement that wins for the
    side to move counts as a block.
    """
    if state.current_player() == TERMINAL:
        return []
    mover = state.current_player()
    _, wins, windows = _scan(state)
    if not windows[1 - mover]:
        return state.legal_actions()
    blocks = _blocks(state, 1 - mover, windows[1 - mover], first_only=False)
    return sorted(set(blocks) | wins[mover])


def _blocks(
    state: BonesState, attacker: int, windows: list[tuple[int, ...]], *, first_only: bool
) -> list[int]:
    """Blocking placements among those touching ``windows``: no other one changes those wins."""
    table = state.game.table
    candidates = sorted(
        {a for window in windows for s in window for a in table.touching[s]}
        & set(state.legal_actions())
    )
    # Lines that a placement could open (by freeing a covered piece's spot) lie in windows where
    # the attacker already shows three: check all of them after each try.
    top = state.top_colours()
    watched = [
        w
        for w in line_windows(table.width, table.height)
        if sum(1 for s in w if top[s] == attacker) >= LINE - 2
    ]
    found = []
    for action in candidates:
        child = state.clone()
        child.apply_action(action)
        if child.is_terminal() or not _has_win_in(child, watched, attacker):
            found.append(action)
            if first_only:
                break
    return found


def line_score(state: BonesState, seat: int) -> float:
    """``seat``'s window score minus the opponent's (no threats, no tempo)."""
    scores = _scan(state)[0]
    return scores[seat] - scores[1 - seat]


def evaluate(state: BonesState, seat: int) -> float:
    """The value of ``state`` for ``seat``, inside (-1, 1); the result once the game is over."""
    if state.current_player() == TERMINAL:
        return state.returns()[seat]
    mover = state.current_player()
    scores, wins, windows = _scan(state)
    if wins[mover]:
        return WIN_SOON if seat == mover else -WIN_SOON
    score = scores[mover] - scores[1 - mover] + TEMPO
    if wins[1 - mover]:
        if not _blocks(state, 1 - mover, windows[1 - mover], first_only=True):
            return -UNSTOPPABLE if seat == mover else UNSTOPPABLE
        score -= THREAT
    value = SPREAD * math.tanh(score / SCALE)
    return value if seat == mover else -value


def score_placement(state: BonesState, action: int) -> float:
    """The value, for the side to move, of the position after it places ``action``."""
    mover = state.current_player()
    child = state.clone()
    child.apply_action(action)
    return evaluate(child, mover)


def best_placements(state: BonesState) -> list[int]:
    """The legal placements with the highest ``score_placement`` (sorted; ties all listed)."""
    best: list[int] = []
    top = -math.inf
    for action in state.legal_actions():
        value = score_placement(state, action)
        if value > top + 1e-12:
            top, best = value, [action]
        elif abs(value - top) <= 1e-12:
            best.append(action)
    return best
