"""Bon-Bon: push-your-luck chocolates for 2 to 6 players (RULINGS.md, "Bon-Bon").

A round: three bonus tiles are drawn (chance); in turn each player in play passes or draws a card
(chance, seen by the drawer alone) and plays it face up or face down at the right end of its run.
Face-up values move the collective marker and count toward the player's personal limit
(10 minus rounds won); breaking the collective limit ends the round. Round winners take a
chocolate; the first to three wins the game. Ids and strings: ``notation.py``; decks: ``deck.py``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, Any, cast

from boneyard.core.errors import (
    InvalidActionStringError,
    InvalidParameterError,
    InvalidStateError,
)
from boneyard.core.game import CHANCE, TERMINAL, Game, Observation, State
from boneyard.core.parameters import About, declared_parameters, read_parameters
from boneyard.core.record import Copied, Nested, Value, declared
from boneyard.games.bonbon import notation as nt
from boneyard.games.bonbon.deck import DEFAULT_DECK, EFFECTS, Deck, check_deck, load_deck
from boneyard.games.bonbon.observation import (
    BonBonObservation,
    CardView,
    DrawnView,
    PeekView,
    observe,
)

PERSONAL_LIMIT = 10
WINS_TO_WIN = 3
COLLECTIVE_LIMITS = {2: 10, 3: 15, 4: 20, 5: 30, 6: 36}

# Effect codes (index into EFFECTS, plus one; 0 is a plain chocolate).
NONE, WRAPPER, PEEK, SECOND, GIFT, CAUGHT = range(6)


class Phase(IntEnum):
    """What a state waits for (``PHASE_NAMES`` gives the observation's word for each)."""

    TILES = 0
    TURN = 1
    DRAWING = 2
    PLACE = 3
    GIFTING = 4
    CATCHING = 5
    WRAPPED = 6
    PEEKING = 7
    OVER = 8


TILES, TURN, DRAWING, PLACE, GIFTING, CATCHING, WRAPPED, PEEKING, OVER = Phase
PHASE_NAMES = ("tiles", "turn", "draw", "place", "gift", "catch", "wrapper", "peek", "over")

IN_PLAY, PASSED, ELIMINATED = range(3)
STATUS_NAMES = ("in play", "passed", "eliminated")

Card = tuple[int, bool, int]
"""A card in a run: (kind index, face up?, bit mask of the seats that know its kind)."""


@dataclass(frozen=True)
class BonBonParameters:
    """BonBonGame's parameters, declared once: the form's fields and the rules' typed view."""

    players: Annotated[
        int,
        About(
            "number of players",
            minimum=2,
            maximum=6,
            question="How many players?",
        ),
    ] = 2
    deck: Annotated[
        str,
        About(
            "path to a TOML deck file, or 'default' for the packaged deck",
            check=check_deck,
            local_only=True,
            advanced=True,
            question="Which deck file? (default: the packaged deck)",
        ),
    ] = DEFAULT_DECK
    tiles: Annotated[
        str,
        About(
            "values of the passing bonus tiles, comma-separated (three drawn each round)",
            check=nt.check_tiles,
            advanced=True,
            question="Values of the passing bonus tiles, separated by commas (three are drawn "
            "each round)",
        ),
    ] = "1,1,2,2,3,3"
    max_rounds: Annotated[
        int,
        About(
            "rounds after which the most chocolates win",
            minimum=1,
            maximum=1000,
            advanced=True,
            question="Stop after how many rounds at most?",
        ),
    ] = 40


class BonBonGame(Game):
    """Bon-Bon for 2 to 6 players, with its deck and bonus tiles as parameters."""

    name = "bonbon"
    title = "Bon-Bon"
    rules_version = 1  # raise it when a change of the rules changes what stored actions mean
    min_players = 2
    max_players = 6
    chance = True
    perfect_information = False
    parameters = declared_parameters(BonBonParameters)
    seat_names = ("red", "blue", "green", "yellow", "purple", "orange")
    pitch = (
        "Push your luck in a box of chocolates: play cards face down to dodge the limits, "
        "and hope nobody catches you."
    )
    how_to_play = (
        "Everyone draws chocolates from one deck. Win three rounds to win the game.",
        "On your turn, take a card or pass. A card you take goes at the end of your row, face "
        "up or face down as you choose; only you know a face-down card.",
        "Face-up cards count towards your own limit (10, less one for every round you have "
        "won) and move the shared marker, which counts everyone's. Go over your own limit and "
        "you are out of the round.",
        "Push the shared marker past its limit (10 with two players, more with more) and you "
        "are out and the round ends at once; everyone else loses the face-down cards after "
        "their last face-up card.",
        "The first to pass takes a bonus tile. Some cards do something: show you the next "
        "card, make you draw again, go to another player, or make someone turn cards up.",
        "At the end of a round, each player still in adds up all their cards, face up or down, "
        "the bonus tile, and 1 point for each face-down card after the first in a row. The "
        "highest score wins the round.",
    )
    conformance_variants = (
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 6},
    )

    def _configure(self) -> None:
        options = read_parameters(BonBonParameters, self.params)
        self.players = options.players
        self.deck: Deck = load_deck(options.deck)
        self.max_rounds = options.max_rounds
        self.collective_limit = COLLECTIVE_LIMITS[self.players]
        kinds = self.deck.kinds
        self.labels = [k.label for k in kinds]
        self.values = [k.value for k in kinds]
        self.face_up_only = [k.face_up_only for k in kinds]
        self.effects = [0 if k.effect == "none" else EFFECTS.index(k.effect) + 1 for k in kinds]
        self.full_counts = [k.count for k in kinds]
        self.kind_outcome = [self.deck.outcome_id(k) for k in kinds]
        self.outcome_kind = {o: i for i, o in enumerate(self.kind_outcome)}
        self.label_kind = {label: i for i, label in enumerate(self.labels)}
        size = self.deck.size
        self.full_deck_outcomes = [
            (o, c / size) for o, c in zip(self.kind_outcome, self.full_counts)
        ]
        tiles = nt.parse_tiles(options.tiles)
        if tiles is None:  # the parameter's check has already refused it
            raise InvalidParameterError(f"bad value for parameter 'tiles': {options.tiles}")
        self.tile_values = tuple(sorted(tiles))
        self.tile_base = self.deck.outcome_space
        self.triples = nt.tile_triples(max(self.tile_values))
        self.triple_id = {t: self.tile_base + i for i, t in enumerate(self.triples)}
        have = Counter(self.tile_values)
        total = math.comb(len(self.tile_values), 3)
        outcomes = []
        for triple in sorted(set(self._triples_of(self.tile_values))):
            ways = math.prod(math.comb(have[v], c) for v, c in Counter(triple).items())
            outcomes.append((self.triple_id[triple], ways / total))
        self.tile_outcomes = outcomes
        # The first pass of a round, by the tiles on offer: [without draw, with draw].
        self.bonus_actions: dict[tuple[int, ...], tuple[list[int], list[int]]] = {
            triple: (
                sorted({nt.BONUS + v for v in triple}),
                sorted({nt.DRAW, *(nt.BONUS + v for v in triple)}),
            )
            for triple in self.triples
        }
        self.all_seats = (1 << self.players) - 1
        self._tensor_tables: Any = None
        """What ``tensor.state_tensor`` shares between states, made at the first use."""

    @staticmethod
    def _triples_of(values: tuple[int, ...]) -> list[tuple[int, int, int]]:
        return [
            (values[i], values[j], values[k])
            for i in range(len(values))
            for j in range(i + 1, len(values))
            for k in range(j + 1, len(values))
        ]

    def num_players(self) -> int:
        return self.players

    def max_game_length(self) -> int:
        # Per round: the tile draw, at most four actions per card (draw, outcome, placing,
        # peek or a choice after it) and one pass per player.
        return self.max_rounds * (1 + 4 * self.deck.size + self.players)

    def utility_range(self) -> tuple[float, float]:
        return (0.0, 1.0)

    def num_distinct_actions(self) -> int:
        return nt.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return self.tile_base + len(self.triples)

    def new_initial_state(self) -> BonBonState:
        return BonBonState(self)


@declared
class BonBonState(State):
    """A Bon-Bon position. The deck is a count per kind: its order is a chance event."""

    game: BonBonGame
    saves_record = True  # a resampled state has no history to replay

    wins: Copied[list[int]]
    rounds_played: Value[int]
    round_starter: Value[int]
    last_drawer: Value[int]
    """The seat that drew last in the game, or -1."""
    last_scores: Copied[list[int | None]]
    last_cards: Copied[list[int]]
    last_winners: Copied[list[int]]
    winners: Copied[list[int]]
    phase: Value[Phase]
    turn: Value[int]
    tiles: Copied[list[int]]
    """The round's three bonus tiles, ascending (empty before they are drawn)."""
    tiles_open: Value[bool]
    tile_taken: Copied[list[int]]
    """Per seat the bonus tile it took, or -1."""
    status: Copied[list[int]]
    """Per seat ``IN_PLAY``, ``PASSED`` or ``ELIMINATED``."""
    runs: Nested[list[list[Card]]]
    up_total: Copied[list[int]]
    marker: Value[int]
    counts: Copied[list[int]]
    """The deck: how many cards of each kind it holds."""
    deck_left: Value[int]
    drawn: Value[int]
    """The kind of the card being played, or -1."""
    drawn_mask: Value[int]
    peek_kind: Value[int]
    peeker: Value[int]

    def __init__(self, game: BonBonGame) -> None:
        super().__init__(game)
        n = game.players
        self.wins = [0] * n
        self.rounds_played = 0
        self.round_starter = 0
        self.last_drawer = -1
        self.last_scores = [None] * n
        self.last_cards = [0] * n
        self.last_winners = []
        self.winners = []
        self._start_round()

    def _start_round(self) -> None:
        g = self.game
        n = g.players
        self.phase = TILES
        self.turn = self.round_starter
        self.tiles = []
        self.tiles_open = True
        self.tile_taken = [-1] * n
        self.status = [IN_PLAY] * n
        self.runs = [[] for _ in range(n)]
        self.up_total = [0] * n
        self.marker = 0
        self.counts = list(g.full_counts)
        self.deck_left = g.deck.size
        self.drawn = -1
        self.drawn_mask = 0
        self.peek_kind = -1
        self.peeker = -1

    # ----- the contract ---------------------------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase in (TILES, DRAWING, PEEKING):
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase in (TILES, DRAWING, PEEKING):
            return self._chance_outcomes()
        return []

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game
        if self.phase == TILES:
            return list(g.tile_outcomes)
        if self.phase == DRAWING and self.peek_kind >= 0:
            return [(g.kind_outcome[self.peek_kind], 1.0)]
        left = self.deck_left
        if left == g.deck.size:
            return list(g.full_deck_outcomes)
        return [(o, c / left) for o, c in zip(g.kind_outcome, self.counts) if c]

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == TURN:
            if self.tiles_open:
                return list(self.game.bonus_actions[tuple(self.tiles)][self.deck_left > 0])
            return [nt.PASS, nt.DRAW] if self.deck_left else [nt.PASS]
        if phase == PLACE:
            return [nt.UP, nt.DOWN]
        if phase == WRAPPED:
            return [nt.DRAW, nt.END]
        base = nt.GIFT if phase == GIFTING else nt.CATCH
        return [base + s for s in self._others_in_play()]

    def _others_in_play(self) -> list[int]:
        turn, status = self.turn, self.status
        return [s for s in range(len(status)) if s != turn and status[s] == IN_PLAY]

    def _apply_action(self, action: int) -> None:
        g = self.game
        phase = self.phase
        if phase == TURN:
            self._choose(action)
        elif phase == DRAWING:
            self._draw(g.outcome_kind[action])
        elif phase == PLACE:
            self._place(face_up=action == nt.UP)
        elif phase == GIFTING:
            self._place_up(action - nt.GIFT)
            if self.phase == GIFTING:
                self._end_turn()
        elif phase == CATCHING:
            self._catch(action - nt.CATCH)
        elif phase == WRAPPED:
            if action == nt.DRAW:
                self.phase = DRAWING
            else:
                self._end_turn()
        elif phase == PEEKING:
            self.peek_kind = g.outcome_kind[action]
            self.peeker = self.turn
            self._end_turn()
        else:  # TILES
            self.tiles = list(g.triples[action - g.tile_base])
            self.phase = TURN
            self.turn = self.round_starter

    def _choose(self, action: int) -> None:
        """The seat to act draws, or passes (taking a tile where ``action`` is a bonus)."""
        if action == nt.DRAW:
            self.phase = DRAWING
            return
        self.status[self.turn] = PASSED
        if action >= nt.BONUS:
            self.tile_taken[self.turn] = action - nt.BONUS
            self.tiles_open = False
        self._end_turn()

    def _draw(self, kind: int) -> None:
        """The seat to act draws a card of ``kind``: seen by it (and by a peeker), then placed
        face down or up by its choice, or, where it must lie face up, at once (a gift waits for
        its receiver)."""
        g = self.game
        self.counts[kind] -= 1
        self.deck_left -= 1
        mask = 1 << self.turn
        if self.peek_kind >= 0:
            mask |= 1 << self.peeker
            self.peek_kind = -1
            self.peeker = -1
        self.last_drawer = self.turn
        self.drawn = kind
        self.drawn_mask = mask
        if not g.face_up_only[kind]:
            self.phase = PLACE
        elif g.effects[kind] == GIFT and self._others_in_play():
            # A gift waits face up for its receiver: everyone sees it.
            self.drawn_mask = g.all_seats
            self.phase = GIFTING
        else:
            self._place_up(self.turn)
            self._after_placing(kind)

    def _place(self, *, face_up: bool) -> None:
        """The drawn card goes onto the seat's run, face up or face down (seen by those who saw
        it drawn)."""
        kind = self.drawn
        if face_up:
            self._place_up(self.turn)
        else:
            self.runs[self.turn].append((kind, False, self.drawn_mask))
            self.drawn = -1
        self._after_placing(kind)

    def _catch(self, target: int) -> None:
        """The seat to act catches ``target``: its trailing face-down cards are turned up."""
        added = self._reveal_trailing(target)
        if not self._check_limits(target, added):
            self._end_turn()

    # ----- the rules --------------------------------------------------------------------------

    def _place_up(self, owner: int) -> None:
        """The drawn card goes face up at the end of ``owner``'s run; limits are checked."""
        g = self.game
        kind = self.drawn
        added = g.values[kind]
        if g.effects[kind] == WRAPPER:
            added += self._reveal_trailing(owner)
        self.runs[owner].append((kind, True, g.all_seats))
        self.drawn = -1
        self._check_limits(owner, added)

    def _reveal_trailing(self, owner: int) -> int:
        """Turn face up the face-down cards after ``owner``'s last face-up card; their sum."""
        run = self.runs[owner]
        values = self.game.values
        everyone = self.game.all_seats
        total = 0
        i = len(run) - 1
        while i >= 0 and not run[i][1]:
            kind = run[i][0]
            total += values[kind]
            run[i] = (kind, True, everyone)
            i -= 1
        return total

    def _check_limits(self, owner: int, added: int) -> bool:
        """Add ``added`` face-up value to ``owner``; True if the round ended."""
        self.marker += added
        self.up_total[owner] += added
        if self.marker > self.game.collective_limit:
            self.status[owner] = ELIMINATED
            for seat, status in enumerate(self.status):
                if status == IN_PLAY:
                    run = self.runs[seat]
                    while run and not run[-1][1]:
                        run.pop()
            self._end_round()
            return True
        if self.up_total[owner] > PERSONAL_LIMIT - self.wins[owner]:
            self.status[owner] = ELIMINATED
        return False

    def _after_placing(self, kind: int) -> None:
        """The card's effect, if its drawer is still in play and the round goes on."""
        if self.phase == TILES or self.phase == OVER:
            return
        if self.status[self.turn] != IN_PLAY:
            self._end_turn()
            return
        effect = self.game.effects[kind]
        if effect in (NONE, GIFT):
            self._end_turn()
        elif effect == CAUGHT:
            if self._others_in_play():
                self.phase = CATCHING
            else:
                self._end_turn()
        elif not self.deck_left:
            self._end_turn()
        elif effect == WRAPPER:
            self.phase = WRAPPED
        else:
            # The effect shows what the card is, even when it was played face down.
            run = self.runs[self.turn]
            run[-1] = (kind, run[-1][1], self.game.all_seats)
            self.phase = DRAWING if effect == SECOND else PEEKING

    def _end_turn(self) -> None:
        status = self.status
        n = len(status)
        for step in range(1, n + 1):
            seat = (self.turn + step) % n
            if status[seat] == IN_PLAY:
                self.turn = seat
                self.phase = TURN
                return
        self._end_round()

    def round_scores(self) -> list[int | None]:
        """Each player's score as the round stands (None: eliminated).

        The arithmetic of ``score_run``, written out over the run's cards: calling ``score_run``
        for each run (building its (value, up) pairs) made random playouts 11% slower."""
        values = self.game.values
        scores: list[int | None] = []
        for seat, run in enumerate(self.runs):
            if self.status[seat] == ELIMINATED:
                scores.append(None)
                continue
            tile = self.tile_taken[seat]
            total = tile if tile > 0 else 0
            group = 0
            for kind, up, _ in run:
                total += values[kind]
                if up:
                    if group > 1:
                        total += group - 1
                    group = 0
                else:
                    group += 1
            scores.append(total + group - 1 if group > 1 else total)
        return scores

    def _end_round(self) -> None:
        n = len(self.status)
        scores = self.round_scores()
        cards = [len(run) for run in self.runs]
        ranked = sorted(
            ((score, cards[s], s) for s, score in enumerate(scores) if score is not None),
            reverse=True,
        )
        places = 2 if n >= 5 else 1
        winners = [s for _, _, s in ranked[:places]]
        if ranked[places:]:
            last = ranked[:places][-1][:2]
            winners += [s for score, count, s in ranked[places:] if (score, count) == last]
        for seat in winners:
            self.wins[seat] += 1
        self.rounds_played += 1
        self.last_scores = scores
        self.last_cards = cards
        self.last_winners = sorted(winners)
        champions = [s for s in winners if self.wins[s] >= WINS_TO_WIN]
        if champions or self.rounds_played >= self.game.max_rounds:
            self._end_game(scores, cards, champions)
            return
        if self.last_drawer >= 0:
            self.round_starter = (self.last_drawer + 1) % n
        else:
            self.round_starter = (self.round_starter + 1) % n
        self._start_round()

    def _end_game(self, scores: list[int | None], cards: list[int], champions: list[int]) -> None:
        if champions:
            # Simultaneous third wins: the best score of the last round, then the most cards.
            best = max((scores[s], cards[s]) for s in champions)
            self.winners = sorted(s for s in champions if (scores[s], cards[s]) == best)
        else:
            most = max(self.wins)
            self.winners = [s for s, wins in enumerate(self.wins) if wins == most]
        everyone = self.game.all_seats
        for seat, score in enumerate(scores):
            if score is not None:  # the scored runs were shown to all
                self.runs[seat] = [(k, up, everyone) for k, up, _ in self.runs[seat]]
        self.drawn = -1
        self.peek_kind = -1
        self.peeker = -1
        self.phase = OVER

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * len(self.wins)
        return [1.0 if s in self.winners else 0.0 for s in range(len(self.wins))]

    # ----- notation ---------------------------------------------------------------------------

    def _action_to_string(self, action: int) -> str:
        g = self.game
        if self.current_player() == CHANCE:
            if self.phase == TILES:
                if not g.tile_base <= action < g.tile_base + len(g.triples):
                    raise ValueError(f"no tile draw has id {action}")
                return "tiles " + " ".join(map(str, g.triples[action - g.tile_base]))
            if action not in g.outcome_kind:
                raise ValueError(f"no card of this deck has id {action}")
            return "card " + g.labels[g.outcome_kind[action]]
        return nt.player_action_to_string(action)

    def _string_to_action(self, text: str) -> int:
        g = self.game
        action = nt.parse_player_action(text)
        if action is not None:
            return action
        word, _, rest = text.partition(" ")
        if word == "card" and rest in g.label_kind:
            return g.kind_outcome[g.label_kind[rest]]
        if word == "tiles":
            parts = rest.split(" ")
            if len(parts) == 3 and all(p.isdigit() for p in parts):
                triple = tuple(int(p) for p in parts)
                if triple in g.triple_id:
                    return g.triple_id[triple]
        raise InvalidActionStringError(
            f"not a bonbon action: {text!r}; actions: pass, bonus V, draw, up, down, end, "
            f"gift S, catch S; chance: tiles A B C (ascending, values 0 to "
            f"{max(g.tile_values)}), card L with L one of "
            f"{', '.join(g.labels)}"
        )

    def action_string_for(self, seat: int | None, action: int) -> str:
        if self.phase == DRAWING:
            mask = 1 << self.turn
            if self.peek_kind >= 0:
                mask |= 1 << self.peeker
            if seat is None or not mask >> seat & 1:
                return "card ?"
        elif self.phase == PEEKING and seat != self.turn:
            return "card ?"
        return self._action_to_string(action)

    def _why_illegal(self, action: int) -> str | None:
        phase = self.phase
        if phase == TURN:
            if action == nt.DRAW:
                return "the deck is empty: only passing is left"
            if action == nt.PASS and self.tiles_open:
                return "you are the first to pass: take one of the bonus tiles as you pass"
            if nt.BONUS <= action < nt.NUM_ACTIONS:
                if not self.tiles_open:
                    return "only the first player to pass takes a bonus tile"
                offered = ", ".join(str(tile) for tile in self.tiles)
                return f"no bonus tile is worth {action - nt.BONUS} (the tiles are {offered})"
            return "draw a card or pass"
        if phase == PLACE:
            return "play the card you drew, face up or face down"
        if phase == WRAPPED:
            return "after an empty wrapper: draw another card or end your turn"
        if phase in (GIFTING, CATCHING):
            return "choose another player still in play"
        return None

    # ----- what each seat sees ----------------------------------------------------------------

    def _observation(self, seat: int | None) -> Observation:
        return cast(Observation, self._typed_observation(seat))

    def _typed_observation(self, seat: int | None) -> BonBonObservation:
        """``observation(seat)`` as its declared type."""
        g = self.game
        labels = g.labels
        # A spectator (no seat) sees the face-up cards only.
        bit = 0 if seat is None else 1 << seat
        unseen = list(self.counts)
        runs: list[list[CardView]] = []
        for run in self.runs:
            shown: list[CardView] = []
            for kind, up, mask in run:
                known = up or bool(mask & bit)
                if not known:
                    unseen[kind] += 1
                shown.append(
                    {
                        "card": labels[kind] if known else None,
                        "up": up,
                        "seen_by": [s for s in range(g.players) if mask >> s & 1],
                    }
                )
            runs.append(shown)
        drawn: DrawnView | None = None
        if self.drawn >= 0:
            known = bool(self.drawn_mask & bit)
            if not known:
                unseen[self.drawn] += 1
            drawn = {
                "by": self.turn,
                "card": labels[self.drawn] if known else None,
                "seen_by": [s for s in range(g.players) if self.drawn_mask >> s & 1],
            }
        peek: PeekView | None = None
        if self.peek_kind >= 0:
            known = seat == self.peeker
            if known:
                unseen[self.peek_kind] -= 1
            peek = {"by": self.peeker, "card": labels[self.peek_kind] if known else None}
        over = self.phase == OVER
        return {
            "seat": seat,
            "players": g.players,
            "current_player": self.current_player(),
            "phase": PHASE_NAMES[self.phase],
            "turn": None if self.phase in (TILES, OVER) else self.turn,
            "round": self.rounds_played + (0 if over else 1),
            "max_rounds": g.max_rounds,
            "wins": list(self.wins),
            "personal_limits": [PERSONAL_LIMIT - w for w in self.wins],
            "collective_limit": g.collective_limit,
            "marker": self.marker,
            "up_totals": list(self.up_total),
            "status": [STATUS_NAMES[s] for s in self.status],
            "tiles": list(self.tiles),
            "tiles_open": self.tiles_open,
            "tile_taken": [None if t < 0 else t for t in self.tile_taken],
            "runs": runs,
            "drawn": drawn,
            "peek": peek,
            "deck_left": self.deck_left,
            "values": dict(zip(labels, g.values)),
            "unseen": {labels[k]: unseen[k] for k in range(len(labels))},
            "round_starter": self.round_starter,
            "last_drawer": None if self.last_drawer < 0 else self.last_drawer,
            "last_round": {
                "scores": list(self.last_scores),
                "cards": list(self.last_cards),
                "winners": list(self.last_winners),
            },
            "winners": list(self.winners),
        }

    def _resample(self, seat: int, rng: random.Random) -> State:
        return resample_observation(self.game, observe(self, seat), seat, rng)

    def __str__(self) -> str:
        return self.game.render_text(self._observation(None))

    # ----- snapshots (the record is declared above; the core saves and restores it) ----------

    def _after_restore(self) -> None:
        """Refuse a saved document whose fields break what the rules keep true."""
        game = self.game
        n = game.players
        self._check_runs()
        per_seat = ("wins", "last_scores", "last_cards", "tile_taken", "status", "up_total")
        for name in per_seat:
            if len(getattr(self, name)) != n:
                raise ValueError(f"field {name} needs {n} entries")
        self._check_deck()
        if not 0 <= self.turn < n:
            raise ValueError("bad turn")
        if self.phase != TILES and tuple(self.tiles) not in game.bonus_actions:
            raise ValueError("three bonus tiles, ascending")
        if self.peek_kind >= 0 and not 0 <= self.peeker < n:
            raise ValueError("a peek needs its peeker")
        if any(not -1 <= t <= nt.MAX_TILE_VALUE for t in self.tile_taken):
            raise ValueError("bad bonus tile taken")
        seats = self.winners + self.last_winners
        if any(not 0 <= s < n for s in seats) or not 0 <= self.drawn_mask <= game.all_seats:
            raise ValueError("bad seats")
        if any(not 0 <= s <= ELIMINATED for s in self.status):
            raise ValueError("bad status")

    def _check_runs(self) -> None:
        """One run per seat, each card a kind of the deck seen by seats that exist."""
        game = self.game
        if len(self.runs) != game.players:
            raise ValueError("runs: one list per seat")
        for run in self.runs:
            for kind, up, mask in run:
                if not 0 <= kind < len(game.labels):
                    raise ValueError(f"bad card {[kind, up, mask]}")
                if not 0 <= mask <= game.all_seats:
                    raise ValueError(f"bad card mask {mask}")

    def _check_deck(self) -> None:
        """The deck's counts, the cards left, and the drawn or peeked card agree."""
        kinds = len(self.game.labels)
        if len(self.counts) != kinds or min(self.counts) < 0:
            raise ValueError("counts: one non-negative count per kind")
        if sum(self.counts) != self.deck_left:
            raise ValueError("deck_left differs from the counts")
        if self.drawn >= kinds or self.peek_kind >= kinds:
            raise ValueError("bad drawn or peeked card")
        if self.phase in (PLACE, GIFTING) and self.drawn < 0:
            raise ValueError("no drawn card to play")


def score_run(cards: list[tuple[int, bool]], tile: int = -1) -> int:
    """A run's score: printed values, the bonus tile, and (size - 1) per face-down group.

    ``cards`` lists (value, face up?) from left to right; ``tile`` is the bonus tile taken (-1:
    none). The rule text's example: face-down groups of one and three cards add 2.
    """
    total = sum(value for value, _ in cards) + max(tile, 0)
    group = 0
    for _, up in cards:
        if up:
            total += max(group - 1, 0)
            group = 0
        else:
            group += 1
    return total + max(group - 1, 0)


# Over the complexity limit on purpose: one step per hidden part of the deal, in the order it was
# dealt.
def resample_observation(
    game: BonBonGame, observation: BonBonObservation, seat: int, rng: random.Random
) -> BonBonState:
    """A full state that ``seat`` cannot tell from the observed one, unknowns dealt by ``rng``.

    Every card the seat has not seen (face-down cards of others, another's drawn card, another's
    peek, the deck) is dealt from the unseen counts in ``observation["unseen"]``, keeping to what
    the seat can infer: a face-down card is a plain chocolate that may be played face down (an
    effect card shows itself by its effect, unless it was the card that emptied the deck), and a
    card still being placed may be played face down. The new state's history is empty: its
    snapshot, not a replay, is the state.
    """
    unseen = _UnseenCards(game, observation, rng)
    state = BonBonState(game)
    state.runs = _dealt_runs(game, observation, unseen)
    _deal_drawn_and_peeked(state, observation, unseen)
    state.counts = unseen.counts
    _copy_public(state, observation)
    return state


class _UnseenCards:
    """The cards a seat has not seen, shuffled, dealt one at a time to a hidden card by what it
    may be; ``counts`` keeps the deck's counts of those not dealt."""

    def __init__(
        self, game: BonBonGame, observation: BonBonObservation, rng: random.Random
    ) -> None:
        labels = game.labels
        unseen = [observation["unseen"][label] for label in labels]
        self.pool = [k for k in range(len(labels)) for _ in range(unseen[k])]
        rng.shuffle(self.pool)
        self.counts = list(unseen)
        self.observation = observation
        self.anything = [True] * len(labels)
        self.choosable = [not up_only for up_only in game.face_up_only]
        """A card its drawer may play face down."""
        self.plain = [c and e == NONE for c, e in zip(self.choosable, game.effects)]
        """A plain chocolate: what a face-down card shows itself to be."""

    def deal(self, allowed: list[bool]) -> int:
        """The last card of the pool of a kind ``allowed``, taken from the pool and counts."""
        pool = self.pool
        for i in range(len(pool) - 1, -1, -1):
            if allowed[pool[i]]:
                kind = pool.pop(i)
                self.counts[kind] -= 1
                return kind
        raise InvalidStateError(f"no unseen card fits observation {self.observation!r}")


def _dealt_runs(
    game: BonBonGame, observation: BonBonObservation, unseen: _UnseenCards
) -> list[list[tuple[int, bool, int]]]:
    """Every seat's run, its hidden cards dealt: plain chocolates, except the card that emptied
    the deck, which its drawer may have played face down whatever it was."""
    kind_of = game.label_kind
    runs = observation["runs"]
    last = observation["last_drawer"]
    special = None
    tail = runs[last][-1:] if observation["deck_left"] == 0 and last is not None else []
    if tail and tail[0]["card"] is None and last is not None:
        special = (last, len(runs[last]) - 1)
    dealt: dict[tuple[int, int], int] = {}
    for owner, run in enumerate(runs):
        for index, card in enumerate(run):
            if card["card"] is None and (owner, index) != special:
                dealt[owner, index] = unseen.deal(unseen.plain)
    if special is not None:
        dealt[special] = unseen.deal(unseen.choosable)
    everyone = game.all_seats
    return [
        [
            (
                kind_of[card["card"]] if card["card"] is not None else dealt[owner, index],
                card["up"],
                everyone if card["up"] else sum(1 << s for s in card["seen_by"]),
            )
            for index, card in enumerate(run)
        ]
        for owner, run in enumerate(runs)
    ]


def _deal_drawn_and_peeked(
    state: BonBonState, observation: BonBonObservation, unseen: _UnseenCards
) -> None:
    """The card being placed and the card peeked at, dealt where the seat has not seen them."""
    kind_of = state.game.label_kind
    drawn = observation["drawn"]
    state.drawn = -1
    state.drawn_mask = 0
    if drawn is not None:
        # A card still being placed (hidden only then) is one its drawer may play face down.
        card = drawn["card"]
        state.drawn = kind_of[card] if card is not None else unseen.deal(unseen.choosable)
        state.drawn_mask = sum(1 << s for s in drawn["seen_by"])
    peek = observation["peek"]
    state.peek_kind = -1
    state.peeker = -1
    if peek is not None:
        state.peeker = peek["by"]
        # The peeked card is still in the deck: it stays in the counts.
        card = peek["card"]
        state.peek_kind = kind_of[card] if card is not None else unseen.deal(unseen.anything)
        unseen.counts[state.peek_kind] += 1


def _copy_public(state: BonBonState, observation: BonBonObservation) -> None:
    """What everyone sees: the phase, the seats' turns and scores, the tiles, the deck's size."""
    state.deck_left = observation["deck_left"]
    phase = Phase(PHASE_NAMES.index(observation["phase"]))
    state.phase = phase
    turn = observation["turn"]
    state.turn = observation["round_starter"] if turn is None else turn
    state.wins = list(observation["wins"])
    state.rounds_played = observation["round"] - (0 if phase == OVER else 1)
    state.round_starter = observation["round_starter"]
    last = observation["last_drawer"]
    state.last_drawer = -1 if last is None else last
    state.last_scores = list(observation["last_round"]["scores"])
    state.last_cards = list(observation["last_round"]["cards"])
    state.last_winners = list(observation["last_round"]["winners"])
    state.winners = list(observation["winners"])
    state.tiles = list(observation["tiles"])
    state.tiles_open = observation["tiles_open"]
    state.tile_taken = [-1 if t is None else t for t in observation["tile_taken"]]
    state.status = [STATUS_NAMES.index(s) for s in observation["status"]]
    state.up_total = list(observation["up_totals"])
    state.marker = observation["marker"]
