"""Words for people in a seat's view: what to decide now, the panel, button labels, the others'
last actions in words, the result, and each player's name.

``for_seat(live, seat, observation)`` is the one entry point ``views.seat_view`` calls; everything
here comes from the game's own hooks (``Game.prompt``, ``describe_action``, ``action_label``,
``panel``, ``result``, ``seat_name``), and each is given only what that seat may see: its own
observation and the move log as ``action_string_for(seat, ...)`` shows it.

Describing an action needs the viewer's observation from *before* it: a small per-game memory
keeps a state walking along the stored log, so each action is described once for every seat.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from boneyard.ai.levels import LEVEL_NAMES, AnyGame, level_label, scale_for
from boneyard.core.errors import BoneyardError
from boneyard.core.game import CHANCE, Game, State
from boneyard.core.phrasing import capital
from boneyard.web.names import clean_name

if TYPE_CHECKING:
    from boneyard.web.play.live import LiveGame, LogEntry

log = logging.getLogger("boneyard.web")

RECENT_LIMIT = 8
"""The most actions by others the status line describes at once."""

T = TypeVar("T")


def _safe(what: str, game: Game, hook: Callable[[], T], fallback: T) -> T:
    """A words hook's answer; a bug in one must not take the game page down."""
    try:
        return hook()
    except Exception:
        log.exception("%s failed for %s", what, game.name)
        return fallback


@dataclass
class _Memory:
    """A state before stored action ``seq`` of one live game, and what was said so far."""

    game: Game
    seq: int
    state: State
    said: dict[int, list[str]] = field(default_factory=dict)
    """Stored action number -> its description for each seat, then for a spectator."""
    rounds: dict[int, list[dict[str, Any] | None]] = field(default_factory=dict)
    """Stored action number that ended a round -> the round in words for each seat, then for
    a spectator (``Game.round_summary``; only in a game played in rounds)."""
    silent: list[int] = field(default_factory=list)
    """Stored action numbers a spectator was told nothing of, in order (a replay steps over
    them: ``replay_stops`` reads them, never the whole log)."""


def _memory(live: LiveGame) -> _Memory:
    """What was said of ``live``'s moves, kept on the game (and gone with it)."""
    memory = live.words_memory
    if not isinstance(memory, _Memory) or memory.game is not live.game:
        memory = _Memory(live.game, 0, live.game.new_initial_state())
        live.words_memory = memory
    return memory


def forget(live: LiveGame) -> None:
    """Drop what was said of ``live``'s moves: its log was rewritten (a takeback, a reload)."""
    live.words_memory = None


def described(live: LiveGame, seq: int, column: int) -> str:
    """Stored action ``seq`` in words, as seat ``column`` (the seat count: a spectator) saw it."""
    memory = _memory(live)
    if seq not in memory.said:
        if memory.seq > seq:  # asked about an older action: walk again from the start
            memory.seq, memory.state = 0, live.game.new_initial_state()
        names = short_names(live.game, live.stored.seats)
        _walk(memory, live.log, live.stored.actions, names, seq)
    return memory.said[seq][column]


def _walk(
    memory: _Memory,
    log: Sequence[LogEntry],
    actions: Sequence[tuple[int, int]],
    names: list[str],
    upto: int,
) -> None:
    """Walk ``memory`` along the log through stored action ``upto``, saying each action once
    for every seat and a spectator."""
    game = memory.game
    seats = game.info.num_players
    viewers: list[int | None] = [*range(seats), None]
    in_rounds = game.spec.round_words is not None
    while memory.seq <= upto:
        entry = log[memory.seq]
        actor = None if entry.player == CHANCE else entry.player
        new = memory.seq not in memory.said
        befores = []
        if new:
            said = []
            for viewer in viewers:
                string = entry.strings[seats if viewer is None else viewer]
                observation = memory.state.observation(viewer)
                befores.append(observation)
                said.append(
                    _safe(
                        "describe_action",
                        game,
                        partial(game.describe_action, observation, actor, string),
                        string,
                    )
                )
            memory.said[memory.seq] = said
            if not said[-1]:
                memory.silent.append(memory.seq)
        memory.state.apply_action(actions[memory.seq][0])
        if new and in_rounds:
            _remember_round(memory, viewers, befores, names)
        memory.seq += 1


def told(
    game: Game, log: Sequence[LogEntry], actions: Sequence[tuple[int, int]], names: list[str]
) -> _Memory:
    """Every action of a log said, from the start: a game's whole memory of words, made once
    off the event loop (a loaded game, a takeback, a long game nobody watched) and kept with
    ``keep_told``, so that views and replays on the loop only look words up."""
    memory = _Memory(game, 0, game.new_initial_state())
    if actions:
        _walk(memory, log, actions, names, len(actions) - 1)
    return memory


def keep_told(live: LiveGame, memory: object) -> None:
    """Keep ``memory`` (from ``told``, over ``live``'s present log) as what was said of
    ``live``'s moves, unless what is kept already goes further."""
    if not isinstance(memory, _Memory):
        return
    memory.game = live.game  # a copy came back from a worker process
    kept = live.words_memory
    if not isinstance(kept, _Memory) or kept.game is not live.game or kept.seq <= memory.seq:
        live.words_memory = memory


def untold(live: LiveGame) -> int:
    """How many of ``live``'s actions are not yet said (what a view would walk to say them)."""
    memory = live.words_memory
    said = memory.seq if isinstance(memory, _Memory) and memory.game is live.game else 0
    return max(0, len(live.log) - said)


def _remember_round(
    memory: _Memory, viewers: list[int | None], befores: list[dict[str, Any]], names: list[str]
) -> None:
    """Keep the round action ``memory.seq`` (just applied) ended in words, if it ended one."""
    game = memory.game
    summaries = [
        _safe(
            "round_summary",
            game,
            partial(game.round_summary, before, memory.state.observation(viewer), viewer, names),
            None,
        )
        for viewer, before in zip(viewers, befores, strict=True)
    ]
    if any(summary is not None for summary in summaries):
        memory.rounds[memory.seq] = summaries


def last_round(live: LiveGame, seat: int | None) -> dict[str, Any] | None:
    """The last round that ended, in ``seat``'s words, with ``seq``: the action that ended it
    (the page shows it until the seat closes it or plays on)."""
    memory = _memory(live)
    column = live.num_seats if seat is None else seat
    for seq in reversed(memory.rounds):  # kept in the order said: the latest first here
        if seq < len(live.log) and memory.rounds[seq][column] is not None:
            return {"seq": seq, **memory.rounds[seq][column]}  # type: ignore[dict-item]
    return None


def replay_stops(live: LiveGame) -> tuple[str, int]:
    """The steps a replay stops at, as runs (``"0,16-17,33-36"``), and how many: the start,
    then after each action a spectator is told of.

    An action a spectator is told nothing of is one step of a longer hidden one (a side's
    secret set-up, told once at its last cone): stopping there would show the board change with
    nothing said. The end is always a stop. Read from the silent actions kept as the moves are
    said (``_Memory.silent``), so a replay page costs the same however long the game."""
    if live.seq:
        described(live, live.seq - 1, live.num_seats)  # every action said (the last few here)
    skipped = [seq + 1 for seq in _memory(live).silent if seq + 1 < live.seq]
    runs: list[tuple[int, int]] = []
    first = 0
    for step in skipped:
        if step > first:
            runs.append((first, step - 1))
        first = step + 1
    runs.append((first, live.seq))
    text = ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
    return text, live.seq + 1 - len(skipped)


def recent(live: LiveGame, seat: int | None) -> list[str]:
    """What happened since ``seat`` last acted (a spectator: the last action), in words."""
    column = live.num_seats if seat is None else seat
    start = len(live.log)
    while start > 0 and live.log[start - 1].player != seat and len(live.log) - start < 64:
        start -= 1
    if seat is None:
        start = max(0, len(live.log) - 1)
    lines = [described(live, seq, column) for seq in range(start, len(live.log))]
    return [line for line in lines if line][-RECENT_LIMIT:]


def short_names(game: Game, seats: Sequence[dict[str, Any]]) -> list[str]:
    """Each seat in a sentence that names every player (a round's summary): the person's own
    name where they gave one, else the seat as the game names it ("Ann", "Blue")."""
    names = []
    for seat, info in enumerate(seats):
        name = str(info.get("name") or "").strip() if info["kind"] != "computer" else ""
        names.append(name or capital(game.seat_name(seat)))
    return names


def _side(live: LiveGame, seat: int) -> str:
    """The seat as the game names it, capitalised for a name on its own ("Black", "Red")."""
    return capital(live.game.seat_name(seat))


def level_words(game: AnyGame, level: object) -> str:
    """A computer's level as a player reads it, where it sits on the game's scale and its name:
    "level 3 of 5 · medium", "level 5 of 5 · strongest", "level 2 of 5". (The measured ratings,
    which read like a player's rating but are measured per game from a greedy level 1, stay on
    the rules page and in docs/ai.md.)"""
    scale = scale_for(game)
    try:
        number = scale.number(str(level))
    except ValueError:
        return level_label(level)
    names = [name for name in LEVEL_NAMES if scale.aliases[name] == number]
    if not names and number == max(scale.numbers):
        names = ["strongest"]
    words = f"level {number} of {len(scale.numbers)}"
    return f"{words} · {' or '.join(names)}" if names else words


def display_name(live: LiveGame, seat: int) -> str:
    """The seat as the game names it, with the person's own name or the computer's level."""
    side = _side(live, seat)
    info = live.stored.seats[seat]
    if info["kind"] == "computer":
        return f"{side} (computer, {level_words(live.game, info['level'])})"
    name = str(info.get("name") or "").strip()
    return f"{name} ({side})" if name else side


YOU = " (you)"
"""The mark of a page's own seat where its person plays it: the games' panels and drawings mark
the viewer's seat so ("White (you)")."""
IN_YOUR_PLACE = ", in your place"
"""The mark of a page's own seat once the computer took it over: its person left (resigned a
game of three or more, or was replaced while away), so "(you)" would be untrue."""


def you_mark(live: LiveGame, seat: int | None) -> str:
    """How ``seat``'s page marks its own seat: " (you)", ", in your place" once the computer
    plays it, nothing for a spectator."""
    if seat is None:
        return ""
    return YOU if live.is_persons(seat) else IN_YOUR_PLACE


def as_seat_reads(live: LiveGame, seat: int | None, text: str) -> str:
    """``text`` (a panel's label, a drawing) with the game's " (you)" made true for ``seat``'s
    page: ", in your place" once the computer took the seat over."""
    mark = you_mark(live, seat)
    return text.replace(YOU, mark) if mark == IN_YOUR_PLACE else text


def _listed(live: LiveGame, seat: int, viewer: int | None) -> str:
    """``seat``'s line in the list of players as ``viewer`` reads it: "Ann (Red, you)" (one
    pair of brackets), "Red (you)" without a name, or "Green (computer, medium), in your
    place" once the computer took it over."""
    name = display_name(live, seat)
    if seat != viewer:
        return name
    person = str(live.stored.seats[seat].get("name") or "").strip()
    if person and live.is_persons(seat):
        return f"{person} ({_side(live, seat)}, you)"
    return name + you_mark(live, seat)


def short_result(live: LiveGame, seat: int | None) -> str:
    """The end of a game in a word or two as ``seat`` reads it ("you won", "North won", "a
    draw", "called off"): the panel's, beside the prompt's whole sentence."""
    if live.ending is not None and live.ending.kind == "abort":
        return "called off"
    returns = live.returns()
    best = max(returns)
    winners = [s for s, r in enumerate(returns) if r == best]
    if len(returns) > 1 and len(winners) == len(returns):
        return "a draw"
    if seat is not None and live.is_persons(seat) and len(returns) > 1:
        return "you won" if seat in winners else "you lost"
    return " and ".join(display_name(live, s) for s in winners) + " won"


def _panel(live: LiveGame, seat: int | None, observation: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's panel for ``seat``, its labels as that seat's page must read them; once the
    game is over the result stands where the turn was."""
    items = []
    for item in live.game.panel(observation, seat):
        if item.turn and live.over:
            items.append({"label": "Result", "value": short_result(live, seat), "picture": None})
        else:
            items.append(item.to_json())
    return [{**item, "label": as_seat_reads(live, seat, str(item["label"]))} for item in items]


def _watching_words(live: LiveGame, seat: int) -> str:
    """The prompt of a seat the computer plays now: its person left, or was away."""
    side = _side(live, seat)
    if live.stored.seats[seat].get("away"):  # handed over by the others: it did not leave
        return (
            f"You were away, so the computer plays {side} for you now and this game counts "
            "for nobody; you watch."
        )
    return f"You have left this game: the computer plays {side} in your place; you watch."


def for_seat(live: LiveGame, seat: int | None, observation: dict[str, Any]) -> dict[str, Any]:
    """The words of ``seat``'s view (``None``: a spectator), to add to it."""
    game = live.game
    state = live.state
    player = live.to_move()
    terminal = live.over
    # A seat the computer took over from its person (who resigned a game of three or more, or
    # was replaced while away): its page watches, and is told so, never invited to move.
    watching = seat is not None and not live.is_persons(seat)
    players = [
        {
            "seat": s,
            "name": display_name(live, s),
            "listed": _listed(live, s, seat),
            "side": game.seat_name(s),
            "computer": live.stored.seats[s]["kind"] == "computer",
            "person_name": clean_name(live.stored.seats[s].get("name")),
            # an account's seat goes by the account's name: the page offers no other
            "account": bool(live.stored.seats[s].get("account")),
            "you": s == seat and not watching,
        }
        for s in range(live.num_seats)
    ]
    labels: dict[str, str] = {}
    if live.ending is not None:  # ended by the web layer (web/table/)
        prompt = live.ending.words
    elif terminal:
        returns = live.returns()
        # A seat that left did not win or lose: the computer played on; it reads as watched.
        reader = None if watching else seat
        prompt = _safe(
            "result", game, lambda: game.result(observation, reader, returns), "The game is over."
        )
    elif watching and seat is not None:
        prompt = _watching_words(live, seat)
    elif live.waiting_for_people():
        prompt = "Waiting for an opponent to join."
    elif player == seat:
        prompt = _safe("prompt", game, lambda: game.prompt(observation, player), "Your move.")
        for action in state.legal_actions():
            string = state.action_to_string(action)
            labels[string] = _safe(
                "action_label", game, partial(game.action_label, observation, string), string
            )
    elif player >= 0:
        mover = players[player]
        if not mover["computer"]:
            prompt = f"Waiting for {mover['name']} to move."
        elif live.resting:  # its payer's thinking budget is spent (compute/fairness.py)
            prompt = (
                f"{mover['name']} pauses a moment: the computer's thinking is shared fairly "
                "and this game has had its share for now. It moves again soon."
            )
        else:
            prompt = f"{mover['name']} is thinking…"
    else:
        prompt = "Waiting for chance."
    no_panel: list[dict[str, Any]] = []
    panel = _safe("panel", game, lambda: _panel(live, seat, observation), no_panel)
    nothing: list[str] = []
    return {
        "prompt": prompt,
        "watching": watching,
        "recent": _safe("describe_action", game, lambda: recent(live, seat), nothing),
        "labels": labels,
        "panel": panel,
        "players": players,
        "result": prompt if terminal else None,
        "quick_setup": not watching and player == seat and game.in_setup(observation),
        "round_summary": last_round(live, seat),
    }


# ----- one click for the dull parts ------------------------------------------------------------


def random_setup_action(live: LiveGame, seat: int) -> int | None:
    """A random legal set-up action for ``seat``, or ``None`` once its set-up is done."""
    state = live.state
    if live.to_move() != seat or not live.game.in_setup(state.observation(seat)):
        return None
    return random.SystemRandom().choice(state.legal_actions())


# ----- why a click is refused -----------------------------------------------------------------


def why_illegal(live: LiveGame, seat: int | None, action: str) -> str:
    """One short reason in plain words why ``action`` cannot be played now (never the legal
    list): the game's own ``State.why_illegal`` where it has one."""
    state = live.state
    if seat is None:
        return "You are watching: open an invite link to play."
    if live.over:
        return "The game is over."
    if live.to_move() != seat:
        return "It is not your move."
    try:
        action_id = state.string_to_action(action)
    except (BoneyardError, ValueError, IndexError, KeyError):
        return "That is not a move in this game."
    if action_id in state.legal_actions():
        return "That move is allowed: click it again."
    explain = getattr(state, "why_illegal", None)
    if callable(explain):
        reason = _safe("why_illegal", live.game, lambda: str(explain(action_id) or ""), "")
        if reason:
            return reason
    return "That move is not allowed now."
