"""The native engines: every game again in Rust (``native/`` in the repository), behind the engine
contract of ``boneyard.load_game``, for speed.

>>> import boneyard
>>> from boneyard import native
>>> fast = native.load_game("obonto", games=3).new_initial_state()
>>> slow = boneyard.load_game("obonto", games=3).new_initial_state()
>>> fast.legal_actions() == slow.legal_actions()
True

The Python rules stay the readable reference: a differential test plays seeded games through
both engines and compares every step. A native game reads its parameters through the Python
game (so a bad value gets the same error) and speaks through its hooks (the board as text, the
prompt, the panel): those take observations, and a native observation equals the Python one.
A game without a native engine says so when asked for one: there is no silent fallback.
"""

from boneyard.native.game import (
    NativeGame,
    NativeState,
    has_native_engine,
    load_game,
    native_games,
)

__all__ = ["NativeGame", "NativeState", "has_native_engine", "load_game", "native_games"]
