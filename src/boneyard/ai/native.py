"""Bots whose whole search runs in Rust over the native engines (``native/engine/src/search``).

The Python bots stay the readable references and the yardstick; these are new bots under their
own names, held to them by tests/native/test_search_alphabeta.py and test_search_mcts.py. A
native bot takes a Python or a native state: a Python one is rebuilt natively from its document
(its history, or its snapshot), the search runs with the GIL released (``State.search``), and
the chosen action is the same id in both engines. Each keeps what its last search reported
(the action, the values, the visits or action values, the iterations) as ``last_result``.

``boneyard.native`` is imported when a bot is made, not with this module, so ``boneyard.ai``
still loads in a source tree whose Rust was never built.
"""

from __future__ import annotations

import contextlib
import json
import math
from typing import TYPE_CHECKING, Any

from boneyard.ai.base import Bot, Budget, time_limit_seconds, whole_number
from boneyard.ai.greedy import EVALUATIONS
from boneyard.ai.repetition import repeating_actions
from boneyard.core.game import Game, State

if TYPE_CHECKING:
    from boneyard.native.game import NativeGame, NativeState


# ----- alpha-beta / expectiminimax (search/alphabeta.rs) ---------------------------------------

MOST_ALPHABETA_DEPTH = 64
"""The deepest ``max_depth`` and the most ``threat_plies`` of the native alpha-beta
(``alphabeta.rs``'s ``MOST_DEPTH``)."""


def _native_engine(game: Game) -> NativeGame:
    """The native twin of ``game`` with the same parameters (an error where there is none)."""
    from boneyard import native

    return native.load_game(game.name, **game.params)


def _as_native(native_game: Any, state: Any) -> NativeState:
    """``state`` in ``native_game``'s engine: itself, or rebuilt from its document."""
    from boneyard.native.game import NativeState

    if isinstance(state, NativeState):
        return state
    native_state: NativeState = native_game.state_from_json(state.to_json())
    return native_state


def _run_search(
    root: NativeState,
    search: str,
    options_json: str,
    time_limit: float | None,
    iterations: int | None,
    seed: int,
) -> dict[str, Any]:
    """One native search from ``root``, its budget in the engine's words (milliseconds)."""
    time_limit_ms = None if time_limit is None else max(1, round(time_limit * 1000))
    return root.search(search, options_json, time_limit_ms, iterations, seed)


class NativeAlphaBetaBot(Bot):
    """The native alpha-beta / expectiminimax search (``search/alphabeta.rs``): the Python
    ``alphabeta`` bot's values at a fixed depth, many times faster.

    ``max_depth`` plies (an exact, reproducible search: the same value as ``alphabeta`` at that
    depth), or iterative deepening within ``time_limit`` seconds (the deepest finished iteration
    answers), or both (whichever ends first). With neither, depth 3, as ``alphabeta``.

    ``threat_plies`` (0: off, the Python bot's search) lets the search go on past its depth
    through forcing positions alone (the mover can win at once, or must parry an immediate win:
    the game's ``forcing_moves``, Bones' so far), up to that many plies, as a chess engine
    extends checks: then its values are no longer ``alphabeta``'s.

    ``avoid_repeats`` makes the bot, as a player, treat the moves that bring back a position the
    game has seen (``ai/repetition.py``) as a hint does: played only when better than every
    other move by more than ``REPEAT_MARGIN``. A search sees no history: in Bones it otherwise
    answers a threat by laying a piece back where it was, move after move, and the game runs
    out of pieces in a draw (docs/ai.md, "Native alpha-beta").
    """

    name = "native_alphabeta"
    reads_native_states = True

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        max_depth: int | None = None,
        time_limit: float | None = None,
        threat_plies: int = 0,
        avoid_repeats: bool = False,
        forcing_cuts: bool = False,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver)
        if not isinstance(forcing_cuts, bool):
            raise ValueError(f"forcing_cuts is true or false, not {forcing_cuts!r}")
        self.forcing_cuts = forcing_cuts
        self.threat_plies = whole_number(
            "threat_plies", threat_plies, 0, MOST_ALPHABETA_DEPTH, unit="plies"
        )
        if not isinstance(avoid_repeats, bool):
            raise ValueError(f"avoid_repeats is true or false, not {avoid_repeats!r}")
        self.avoid_repeats = avoid_repeats
        if max_depth is not None:
            max_depth = whole_number("max_depth", max_depth, 1, MOST_ALPHABETA_DEPTH, unit="plies")
        self.time_limit = time_limit_seconds(time_limit)
        if max_depth is None and time_limit is None:
            max_depth = 3
        self.max_depth = max_depth
        self._native_game = _native_engine(game)
        self.last_value = 0.0
        """The root's value for this bot's seat at the last move searched (``alphabeta``'s)."""
        self.last_depth = 0
        """The deepest iteration the last search finished."""
        self.last_result: dict[str, Any] = {}
        """What the native search said the last time (action, values, visits, ...)."""

    def python_state(self, state: State | NativeState) -> State:
        """``state`` in the Python engine: itself, or rebuilt from its document."""
        if isinstance(state, State):
            return state
        return self.game.state_from_json(state.to_json())

    def native_state(self, state: State | NativeState) -> NativeState:
        """``state`` in the native engine: itself, or rebuilt from its document."""
        return _as_native(self._native_game, state)

    def _choose(self, state: State) -> int:
        root = self.native_state(state)
        options: dict[str, Any] = {}
        if self.max_depth is not None:
            options["depth"] = self.max_depth
        if self.threat_plies:
            options["threat_plies"] = self.threat_plies
        if self.forcing_cuts:
            options["forcing_cuts"] = True
        avoid = set(self.avoid)
        if self.avoid_repeats:
            avoid |= repeating_actions(self.python_state(state))
        if avoid:
            options["avoid"] = sorted(a for a in avoid if a in root.legal_actions())
        result = _run_search(
            root, "alphabeta", json.dumps(options), self.time_limit, None, self.rng.getrandbits(64)
        )
        self.last_result = result
        self.last_depth = int(result["iterations"])
        value = result["values"][self.seat]
        if not math.isnan(value):
            self.last_value = float(value)
        return int(result["action"])


# ----- what every native search bot shares --------------------------------------------------------


class _NativeSearchBot(Bot):
    """A bot whose move is one native search (``_search``) from a native state: it takes a
    Python or a native state, and where an exact solver decides a perfect-information position
    it plays the solver's move, as the Python bots do (``Bot.step``)."""

    native_game: NativeGame | None
    reads_native_states = True

    def _choose(self, state: State) -> int:
        assert self.native_game is not None
        return self._search(_as_native(self.native_game, state))

    def _search(self, root: NativeState) -> int:
        raise NotImplementedError


# ----- MCTS and information-set MCTS (search/mcts.rs, search/ismcts.rs) -------------------------


class NativeMctsBot(_NativeSearchBot):
    """UCT with chance nodes, in Rust: ``mcts``'s algorithm (``ai/mcts.py``) at native speed.

    Budget: ``iterations`` and/or ``time_limit`` seconds a move (whichever ends first; an
    iteration budget alone gives the same move twice for the same seed). ``rollout_depth`` cuts
    rollouts after that many moves, scored by the game's native heuristic (``None``: play to the
    end). ``max_nodes`` bounds the tree (the search goes on without adding nodes past it). In a
    hidden-information game every iteration searches a fresh resample of the bot's seat's
    information, as the Python bots do. No tree is kept between moves (search/mcts.rs says why).
    """

    name = "native_mcts"
    search = "mcts"
    native_game: NativeGame

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        iterations: int | None = 20000,
        time_limit: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 10,
        max_nodes: int | None = None,
    ) -> None:
        from boneyard.native import NativeGame, has_native_engine

        python_game = getattr(game, "python_game", game)
        if not has_native_engine(python_game.name):
            raise ValueError(
                f"{self.name} plays the games with a native engine, not {python_game.name}"
            )
        super().__init__(python_game, seat, seed=seed, use_solver=use_solver)
        self.native_game = game if isinstance(game, NativeGame) else NativeGame(python_game)
        self.budget = Budget(iterations, time_limit)
        options: dict[str, Any] = {
            "exploration": exploration,
            "rollout_depth": rollout_depth,
            "utility_range": [python_game.info.min_utility, python_game.info.max_utility],
        }
        if max_nodes is not None:
            options["max_nodes"] = max_nodes
        self.options_json = json.dumps(options)
        self.last_result: dict[str, Any] = {}
        """What the last move's search reported: ``action``, ``values`` (per seat),
        ``visits`` (per root action), ``iterations``, ``elapsed_ms``."""
        self.last_iterations = 0
        # A bad option is refused now, by the search itself, not at the first move.
        self._check_options()

    def _check_options(self) -> None:
        from boneyard.core.errors import InvalidStateError

        probe = self.native_game.new_initial_state()
        # At a first state that is chance's the options are still read (and refused) first.
        with contextlib.suppress(InvalidStateError):
            probe.search(self.search, self.options_json, None, 1, 0)

    def _search(self, root: NativeState) -> int:
        budget = self.budget
        found = _run_search(
            root,
            self.search,
            self.options_json,
            budget.time_limit,
            budget.iterations,
            self.rng.getrandbits(64),
        )
        self.last_result = found
        self.last_iterations = int(found["iterations"])
        return int(found["action"])


class NativeIsmctsBot(NativeMctsBot):
    """Single-observer information-set MCTS in Rust (``ismcts``'s algorithm): every iteration
    resamples the world from the bot's seat's information alone, and chance edges are keyed by
    what that seat sees of the outcome, so the tree is over its information sets."""

    name = "native_ismcts"
    search = "ismcts"


# ----- greedy (search/greedy.rs) ------------------------------------------------------------------

MOST_GREEDY_EVALUATIONS = 1_000_000
"""The most ``evaluations`` the native greedy takes (``greedy.rs``'s ``MAX_EVALUATIONS``)."""
MOST_GREEDY_SAMPLES = 100_000_000
"""The most ``samples`` (resamples a move) it takes: a native search's most iterations
(``mcts.rs``'s ``MAX_ITERATIONS``, which ``greedy.rs`` checks its budget against)."""


class NativeGreedyBot(_NativeSearchBot):
    """``greedy``'s one ply in Rust: every action tried, the chance right after it averaged, the
    game's native heuristic; in a hidden-information game summed over ``samples`` resamples of
    the seat's view (fewer once ``time_limit`` runs out; never none). Options and choices as
    ``greedy``'s: the same values (tests/ai/test_native_greedy_bot.py), the ties broken by its own
    generator. It is what the analyses play (``boneyard analyze --engine native``)."""

    name = "native_greedy"
    native_game: NativeGame

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        samples: int = 4,
        evaluations: int = EVALUATIONS,
        time_limit: float | None = None,
    ) -> None:
        from boneyard.native import NativeGame

        python_game = getattr(game, "python_game", game)
        super().__init__(python_game, seat, seed=seed, use_solver=use_solver)
        self.native_game = game if isinstance(game, NativeGame) else _native_engine(python_game)
        samples = whole_number("samples", samples, 1, MOST_GREEDY_SAMPLES)
        self.samples = samples if not python_game.perfect_information else 1
        self.evaluations = whole_number("evaluations", evaluations, 1, MOST_GREEDY_EVALUATIONS)
        self.time_limit = time_limit_seconds(time_limit)
        self.options_json = json.dumps(
            {
                "evaluations": self.evaluations,
                "utility_range": [python_game.info.min_utility, python_game.info.max_utility],
            }
        )
        self.last_result: dict[str, Any] = {}
        """What the last move's search reported: ``action``, ``action_values`` (per legal action,
        its value averaged over the resamples), ``iterations`` (the resamples looked at)."""

    def _search(self, root: NativeState) -> int:
        found = _run_search(
            root,
            "greedy",
            self.options_json,
            self.time_limit,
            self.samples,
            self.rng.getrandbits(64),
        )
        self.last_result = found
        return int(found["action"])


# ----- Bond O Cones' own lookahead (games/bondo_cones/lookahead.rs) ------------------------------


def _has_own_lookahead(game: Game) -> bool:
    """Whether ``game`` names a search of its own (its spec's ``search``, the ``lookahead``
    bot's ``Game.lookahead_values``): the games whose lookahead is native too (Bond O Cones')."""
    return game.spec.search is not None


MOST_LOOKAHEAD_DEPTH = 8
"""The deepest ``max_depth`` the native lookahead takes (``lookahead.rs``'s ``MOST_DEPTH``)."""
MOST_LOOKAHEAD_WIDTH = 100
"""The widest ``width``, ``move_width`` or ``reply_width`` (``lookahead.rs``'s ``read_count``)."""


class _OwnLookaheadBot(Bot):
    """A search over the game's own native lookahead (``_has_own_lookahead``): it takes a Python
    or a native state, and in a game without that lookahead plays the greedy bot's choice.
    A subclass says how it searches (``_search``)."""

    reads_native_states = True

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None,
        use_solver: bool,
        time_limit: float | None,
    ) -> None:
        from boneyard.ai.greedy import GreedyBot

        python_game = getattr(game, "python_game", game)
        super().__init__(python_game, seat, seed=seed, use_solver=use_solver)
        self.time_limit = time_limit_seconds(time_limit)
        self.native = _has_own_lookahead(python_game)
        self._native_game = _native_engine(python_game) if self.native else None
        self._fallback = GreedyBot(
            python_game, seat, seed=seed, use_solver=False, time_limit=time_limit
        )
        self.last_result: dict[str, Any] = {}
        """What the native search said the last time: ``action``, ``action_values`` (per legal
        action), ``iterations``, ``elapsed_ms``."""

    def step(self, state: Any) -> int:
        """The search's action for this bot's seat in ``state`` (Python or native)."""
        from boneyard.native.game import NativeState

        if not isinstance(state, NativeState):
            return super().step(state)
        self.check_turn(state)
        if not self.native:
            return super().step(self.game.state_from_json(state.to_json()))
        return self._search(state)

    def _choose(self, state: State) -> int:
        if self._native_game is None:
            return self._fallback._choose(state)
        return self._search(_as_native(self._native_game, state))

    def _search(self, root: NativeState) -> int:
        raise NotImplementedError


class NativeLookaheadBot(_OwnLookaheadBot):
    """The game's own lookahead in Rust (Bond O Cones: ``games/bondo_cones/lookahead.rs``), and
    deeper: at ``max_depth`` 0 the ``lookahead`` bot's three plies, value for value; each depth
    above adds the seat's next roll and best move and the opponent's reply to it (a minimising
    opponent among its best one-ply answers). With ``time_limit`` seconds it deepens one depth
    at a time until the time runs out (or ``max_depth``); with neither, depth 0.

    It reads what its seat sees alone (the native search builds its model from the seat's view,
    never the hidden values), and the seed breaks ties between equal moves. In a game without a
    native lookahead it plays the greedy bot's choice, as ``lookahead`` does without the hook.
    """

    name = "native_lookahead"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        time_limit: float | None = None,
        max_depth: int | None = None,
        width: int | None = None,
        move_width: int | None = None,
        reply_width: int | None = None,
    ) -> None:
        super().__init__(game, seat, seed=seed, use_solver=use_solver, time_limit=time_limit)
        if max_depth is not None:
            max_depth = whole_number("max_depth", max_depth, 0, MOST_LOOKAHEAD_DEPTH)
        options: dict[str, Any] = {
            key: whole_number(key, count, 1, MOST_LOOKAHEAD_WIDTH)
            for key, count in (
                ("width", width),
                ("move_width", move_width),
                ("reply_width", reply_width),
            )
            if count is not None
        }
        if max_depth is not None:
            options["depth"] = max_depth
        elif time_limit is None:
            options["depth"] = 0
        self.max_depth = max_depth
        self.options_json = json.dumps(options)
        # (last_result: ``iterations`` is the deepest depth finished)

    def _search(self, root: NativeState) -> int:
        found = _run_search(
            root, "lookahead", self.options_json, self.time_limit, None, self.rng.getrandbits(64)
        )
        self.last_result = found
        return int(found["action"])


# ----- Bond O Cones' lookahead improved by rollouts (games/bondo_cones/rollouts.rs) ------------

MOST_ROLLOUT_TURNS = 20
"""The most ``turns`` a rollout plays on (``rollouts.rs``'s ``MOST_TURNS``)."""
MOST_ROLLOUT_MARGIN = 10
"""The largest ``margin`` (standard errors; ``rollouts.rs`` reads 0 to 10)."""
MOST_ROLLOUT_WORLDS = 1_000_000
"""The most worlds an ``iterations`` budget asks for (``rollouts.rs``'s ``MOST_WORLDS``)."""


class NativeRolloutsBot(_OwnLookaheadBot):
    """The game's own lookahead improved by rollouts (Bond O Cones: ``rollouts.rs``): the
    depth-0 lookahead's best ``candidates`` actions, each played on in resampled worlds of the
    seat's view by the depth-0 lookahead for both seats (its width ``policy_width``) for the
    opponent's turn and ``turns`` more turns of the seat's, and scored by the lookahead's leaf.
    Every candidate meets the same worlds and dice; the depth-0 choice is kept unless another
    candidate's mean beats it by ``margin`` standard errors of their paired difference.

    Its budget is ``iterations`` worlds (reproducible for a seed) or ``time_limit`` seconds, or
    both (whichever ends first); with neither, 200 worlds. The set-up keeps the lookahead's
    rules of thumb. In a game without a native lookahead it plays the greedy bot's choice.
    """

    name = "native_rollouts"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        time_limit: float | None = None,
        iterations: int | None = None,
        candidates: int | None = None,
        turns: int | None = None,
        width: int | None = None,
        policy_width: int | None = None,
        margin: float | None = None,
    ) -> None:

        super().__init__(game, seat, seed=seed, use_solver=use_solver, time_limit=time_limit)
        if iterations is not None:
            iterations = whole_number("iterations", iterations, 1, MOST_ROLLOUT_WORLDS)
        elif time_limit is None:
            iterations = 200
        options: dict[str, Any] = {}
        for key, value, high in (
            ("candidates", candidates, 20),
            ("width", width, 100),
            ("policy_width", policy_width, 100),
        ):
            if value is not None:
                options[key] = whole_number(key, value, 1, high)
        if turns is not None:
            options["turns"] = whole_number("turns", turns, 0, MOST_ROLLOUT_TURNS)
        if margin is not None:
            if (
                isinstance(margin, bool)
                or not isinstance(margin, int | float)
                or not 0 <= margin <= MOST_ROLLOUT_MARGIN
            ):
                raise ValueError(
                    f"margin is a number from 0 to {MOST_ROLLOUT_MARGIN} (standard errors), "
                    f"not {margin!r}"
                )
            options["margin"] = float(margin)
        self.iterations = iterations
        self.options_json = json.dumps(options)
        # (last_result: ``action_values`` are the candidates' mean rollout values, the rest
        # below them; ``iterations``: worlds)

    def _search(self, root: NativeState) -> int:
        found = _run_search(
            root,
            "lookahead_rollouts",
            self.options_json,
            self.time_limit,
            self.iterations,
            self.rng.getrandbits(64),
        )
        self.last_result = found
        return int(found["action"])


# ----- the expert's PUCT search on its network (search/expert.rs) --------------------------------


MOST_EXPLORATION = 100
"""The largest PUCT ``exploration`` the native expert search takes (``expert.rs``: 0 to 100)."""


class NativeExpertBot(_NativeSearchBot):
    """The ``expert``'s search in Rust (``search/expert.rs``), its network evaluated in Rust
    (``boneyard.native.network``): ``expert``'s selection, chance nodes and values, so with an
    iteration budget it gives the ``expert`` bot's root visits (tests/ai/test_native_expert.py),
    and at its one second a move it searches many times more positions.

    Options as ``expert``'s: ``iterations`` and/or ``time_limit`` (default 1 s), ``exploration``,
    ``model`` (default: the game's shipped network), ``exact_chance``. In a hidden-information
    game every iteration searches a resample of the seat's view. The move is the root action
    of most visits, ties to the network's prior (as ``expert``). Where the game has no native
    engine or no network fits it, it is the ``expert`` bot itself (the heuristic and uniform
    priors), so it plays every game.
    """

    name = "native_expert"

    def __init__(
        self,
        game: Game,
        seat: int,
        *,
        seed: int | None = None,
        use_solver: bool = True,
        iterations: int | None = None,
        time_limit: float | None = 1.0,
        exploration: float = 1.5,
        model: str | None = None,
        exact_chance: int = 12,
    ) -> None:
        from boneyard.ai.expert import ExpertBot
        from boneyard.ai.network import fitting_network
        from boneyard.native import NativeGame, has_native_engine
        from boneyard.native.network import MOST_ITERATIONS

        python_game = getattr(game, "python_game", game)
        super().__init__(python_game, seat, seed=seed, use_solver=use_solver)
        if iterations is None and time_limit is None:
            time_limit = 1.0
        if iterations is not None:
            iterations = whole_number("iterations", iterations, 1, MOST_ITERATIONS)
        self.budget = Budget(iterations, time_limit)
        if (
            isinstance(exploration, bool)
            or not isinstance(exploration, int | float)
            or not 0 <= exploration <= MOST_EXPLORATION
        ):
            raise ValueError(
                f"exploration is a number from 0 to {MOST_EXPLORATION}, not {exploration!r}"
            )
        self.exploration = float(exploration)
        self.exact_chance = exact_chance
        # The Python bot is made in every game: it checks the options with its sentences, and
        # it is the player where the native search has no network or no engine.
        self._fallback = ExpertBot(
            python_game,
            seat,
            seed=seed,
            use_solver=use_solver,
            iterations=iterations,
            time_limit=time_limit,
            exploration=exploration,
            model=model,
            exact_chance=exact_chance,
        )
        network = fitting_network(python_game, model)
        self.native = network is not None and has_native_engine(python_game.name)
        self._network = network.native() if self.native and network is not None else None
        self.native_game = NativeGame(python_game) if self.native else None
        self.last_result: dict[str, Any] = {}
        """What the last move's search reported: ``action``, ``visits`` and ``values`` (per
        root action: its mean value for the seat, 0 to 1), ``iterations``."""
        self.last_iterations = 0

    def step(self, state: Any) -> int:
        """The search's action for this bot's seat in ``state`` (Python or native), unchanged."""
        self.check_turn(state)
        if self.native_game is None:
            python_state = (
                state if isinstance(state, State) else self.game.state_from_json(state.to_json())
            )
            action = self._fallback.step(python_state)
            self.last_iterations = self._fallback.last_iterations
            return action
        return super().step(state)

    def _choose(self, state: State) -> int:
        if self.native_game is None:
            action = self._fallback._choose(state)
            self.last_iterations = self._fallback.last_iterations
            return action
        return super()._choose(state)

    def _search(self, root: NativeState) -> int:
        from boneyard.native.network import MOST_ITERATIONS, expert_search

        legal = root.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        assert self._network is not None
        budget = self.budget
        found = expert_search(
            [root],
            self._network,
            iterations=budget.iterations or MOST_ITERATIONS,
            seeds=[self.rng.getrandbits(64)],
            exploration=self.exploration,
            exact_chance=self.exact_chance,
            time_limit=budget.time_limit,
        )[0]
        most = max(found.visits)
        tied = [a for a, n in zip(found.actions, found.visits, strict=True) if n == most]
        action = tied[0]
        if len(tied) > 1:
            priors, _ = self._network.evaluate_seats(root)
            action = max(tied, key=lambda a: priors.get(a, 0.0))
        self.last_result = {
            "action": action,
            "visits": dict(zip(found.actions, found.visits, strict=True)),
            "values": dict(zip(found.actions, found.values, strict=True)),
            "iterations": found.iterations,
        }
        self.last_iterations = found.iterations
        return int(action)
