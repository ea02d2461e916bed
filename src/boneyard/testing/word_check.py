"""The words check: a game's words for people read like words, at every step of random games.

Anyone adding a game runs it beside ``check_game``::

    from boneyard.testing.word_check import check_words
    check_words(load_game("obonto"), playouts=3, seed=0)

At every step of seeded random playouts it asks every hook (``prompt`` for the seat to act,
``describe_action`` and ``action_label`` of sampled actions, ``panel`` for every seat and a
spectator, ``result`` at the end, ``State.why_illegal``) and checks that the text is non-empty
and has no snake_case word, no Python value (``None``, ``[``, ``{``), no seat number ("seat 0",
"player 1"), no observation key with a number after it ("to move 0", "setup progress 12"), and that
``describe_action`` never names what the viewer's action string hides.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from boneyard.core.game import CHANCE, Game, State
from boneyard.testing import ConformanceError, random_action

SNAKE_CASE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b", re.IGNORECASE)
PYTHON_VALUE = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|[\[\]{}]")
SEAT_NUMBER = re.compile(r"\b(seat|player)\s*#?\d", re.IGNORECASE)
SAMPLED_ACTIONS = 6
"""Actions per step whose labels and descriptions are checked (all of them would be slow)."""


def check_words(game: Game, *, playouts: int = 2, seed: int = 0, max_actions: int = 400) -> None:
    """Check the words of ``playouts`` random games of ``game``, each cut at ``max_actions``."""
    if not game.pitch or len(game.pitch) > 160:
        raise ConformanceError(f"{game!r}: the pitch should be one line, got {game.pitch!r}")
    check_how_to_play(game)
    for seat in range(game.info.num_players):
        check_text(game.seat_name(seat), {}, f"{game!r} seat name {seat}")
    for playout in range(playouts):
        rng = random.Random(seed * 1_000_003 + playout)
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal() and step < max_actions:
            action = random_action(state, rng)
            _check_step(game, state, action, rng, f"{game!r} playout {playout} step {step}")
            state.apply_action(action)
            step += 1
        if state.is_terminal():
            for viewer in _viewers(game):
                observation = state.observation(viewer)
                text = game.result(observation, viewer, state.returns())
                check_text(text, observation, f"{game!r} playout {playout}: result for {viewer}")
                _check_panel(game, state, viewer, f"{game!r} playout {playout} at the end")


HOW_TO_PLAY_LINES = (3, 7)
HOW_TO_PLAY_LENGTH = 300


def check_how_to_play(game: Game) -> None:
    """``Game.how_to_play`` is a few short sentences in words for people."""
    lines = game.how_to_play
    least, most = HOW_TO_PLAY_LINES
    if not least <= len(lines) <= most:
        raise ConformanceError(
            f"{game!r}: how_to_play should have {least} to {most} sentences, has {len(lines)}"
        )
    for number, line in enumerate(lines, 1):
        where = f"{game!r} how_to_play line {number}"
        check_text(line, {}, where)
        if len(line) > HOW_TO_PLAY_LENGTH or not line.rstrip().endswith((".", "!", "?")):
            raise ConformanceError(
                f"{where}: a line is one or two sentences of at most {HOW_TO_PLAY_LENGTH} "
                f"characters, ending with a full stop; got {line!r}"
            )


def check_text(text: str, observation: dict[str, object], where: str) -> None:
    """``text`` reads like words for people, not like developer output."""
    if not isinstance(text, str) or not text.strip():
        raise ConformanceError(f"{where}: empty text {text!r}")
    for pattern, what in (
        (SNAKE_CASE, "a snake_case word"),
        (PYTHON_VALUE, "a Python value"),
        (SEAT_NUMBER, "a seat number"),
    ):
        found = pattern.search(text)
        if found:
            raise ConformanceError(f"{where}: {what} {found.group()!r} in {text!r}")
    for key in _raw_keys(observation):
        if re.search(rf"\b{re.escape(key)}\b\s*[:=]?\s*-?\d", text, re.IGNORECASE):
            raise ConformanceError(f"{where}: the raw key {key!r} in {text!r}")


def _raw_keys(observation: dict[str, object]) -> Iterable[str]:
    return (key.replace("_", " ") for key in observation if "_" in key)


def _viewers(game: Game) -> list[int | None]:
    return [*range(game.info.num_players), None]


def _check_step(game: Game, state: State, action: int, rng: random.Random, where: str) -> None:
    """Every word hook at one step of the kit's games: the panel, the mover's prompt, labels and
    reasons, and ``action`` described to each viewer."""
    player = state.current_player()
    for viewer in _viewers(game):
        _check_panel(game, state, viewer, where)
    if player != CHANCE:
        _check_mover_words(game, state, player, rng, where)
    _check_descriptions(game, state, action, None if player == CHANCE else player, where)


def _check_mover_words(
    game: Game, state: State, player: int, rng: random.Random, where: str
) -> None:
    """The prompt, some actions' labels and an action's reason, as the mover reads them."""
    observation = state.observation(player)
    check_text(game.prompt(observation, player), observation, f"{where}: prompt")
    legal = state.legal_actions()
    for sampled in rng.sample(legal, min(SAMPLED_ACTIONS, len(legal))):
        label = game.action_label(observation, state.action_to_string(sampled))
        check_text(label, observation, f"{where}: label of {sampled}")
    illegal = rng.randrange(game.info.num_distinct_actions)
    reason = state.why_illegal(illegal)
    if illegal in legal:
        if reason:
            raise ConformanceError(f"{where}: a legal action gets a reason {reason!r}")
        return
    check_text(reason, observation, f"{where}: why {illegal} is illegal")
    if "legal:" in reason:
        raise ConformanceError(f"{where}: the reason lists legal actions: {reason!r}")


def _check_descriptions(
    game: Game, state: State, action: int, actor: int | None, where: str
) -> None:
    """``action`` described to each viewer: in words, and showing nothing the viewer's notation
    of it hides."""
    full = state.action_to_string(action)
    for viewer in _viewers(game):
        observation = state.observation(viewer)
        seen = state.action_string_for(viewer, action)
        text = game.describe_action(observation, actor, seen)
        if text == "" and (actor is None or seen != full):
            # A chance step, or a move the viewer could not follow, told with its run (a deal,
            # a hidden set-up); a move the viewer saw whole is always told.
            continue
        check_text(text, observation, f"{where}: {full!r} described to {viewer}")
        words = set(re.findall(r"[a-z0-9!]+", text.lower()))
        for hidden in set(full.split()) - set(seen.split()):
            if hidden in words:
                raise ConformanceError(
                    f"{where}: {text!r} shows {hidden!r}, which {seen!r} hides from {viewer}"
                )


def _check_panel(game: Game, state: State, viewer: int | None, where: str) -> None:
    observation = state.observation(viewer)
    for item in game.panel(observation, viewer):
        check_text(item.label, observation, f"{where}: panel label for {viewer}")
        check_text(item.value, observation, f"{where}: panel value for {viewer}")
        if item.picture is not None and not item.picture.lstrip().startswith("<svg"):
            raise ConformanceError(f"{where}: a panel picture is not SVG: {item.picture[:40]!r}")
