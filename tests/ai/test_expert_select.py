"""The expert's PUCT selection scores tried children one by one and untried actions through
their priors' order; it must choose what scoring every legal action would (the rule before
issue 43 made it faster), ties going to the first in ``legal``."""

from __future__ import annotations

import math
import random

import boneyard
from boneyard.ai.expert import UNVISITED_VALUE, ExpertBot, SearchNode


def _every_action(bot: ExpertBot, node: SearchNode, legal: list[int]) -> int:
    """PUCT over every legal action (the plain rule)."""
    priors = node.priors or {}
    floor = 1.0 / len(legal)
    scale = bot.exploration * math.sqrt(max(node.visits, 1))
    best_action, best_score = legal[0], -math.inf
    for action in legal:
        child = node.children.get(action)
        prior = priors.get(action, floor)
        if child is None or child.visits == 0:
            score = UNVISITED_VALUE + scale * prior
        else:
            score = child.total / child.visits + scale * prior / (1 + child.visits)
        if score > best_score:
            best_score, best_action = score, action
    return best_action


def test_the_selection_is_puct_over_every_legal_action() -> None:
    bot = ExpertBot(boneyard.load_game("bones"), 0, seed=0, iterations=1, time_limit=None)
    rng = random.Random(0)
    for trial in range(400):
        legal = sorted(rng.sample(range(60), rng.randint(1, 30)))
        node = SearchNode()
        node.visits = rng.randint(0, 50)
        # priors over some or all of the legal actions, some outside them (another world's),
        # ties on purpose
        kept = [a for a in legal if rng.random() < 0.8] + rng.sample(range(60, 70), 2)
        weights = [rng.choice([0.1, 0.2, 0.2, rng.random()]) for _ in kept]
        node.priors = {} if trial % 7 == 0 else dict(zip(kept, weights))
        node.order = sorted(node.priors, key=lambda a: (-node.priors[a], a))  # type: ignore[index]
        for action in rng.sample([*legal, 99], min(len(legal), rng.randint(0, 8))):
            child = node.children[action] = SearchNode()
            child.visits = rng.choice([0, 1, 2, 5])
            child.total = child.visits * rng.random()
        assert bot._select(node, legal) == _every_action(bot, node, legal), trial
