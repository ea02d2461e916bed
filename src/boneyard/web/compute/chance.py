"""Chance seeding: every roll, shuffle and bot seed of a game follows from its secret seed."""

from __future__ import annotations

import hashlib
import random

from boneyard.core.game import State


def chance_outcome(state: State, seed: str, seq: int) -> int:
    """The outcome the server draws at a chance node: from the game's seed and the sequence number.

    ``random.Random(int(sha256("<seed>:<seq>")))`` draws one number in [0, 1); the outcomes,
    sorted by id, take consecutive slices of that interval by their probabilities. Anyone holding
    the revealed seed can check every roll and shuffle of a finished game this way.
    """
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    draw = random.Random(int.from_bytes(digest, "big")).random()
    outcomes = state.chance_outcomes()
    total = sum(p for _, p in outcomes)
    cumulative = 0.0
    for outcome, probability in outcomes:
        cumulative += probability / total
        if draw < cumulative:
            return outcome
    return outcomes[-1][0]


def seed_hash(seed: str) -> str:
    """The commitment shown from the start: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def bot_seed(seed: str, seat: int, seq: int) -> int:
    """The seed of a computer seat's move at sequence number ``seq``, from the game's seed."""
    digest = hashlib.sha256(f"{seed}:bot:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
