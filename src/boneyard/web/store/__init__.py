"""Every table and the stores over them: games and their actions (``games``), the session of
play and people (``sessions``), accounts, ratings, clocks, tournaments and the rest, one module
each. The store is the truth; live games are a cache of it.

Each module is imported here, so that the tables' metadata (``base.Base``) is whole whichever
of them a program imports first: the schema (``schema.py``) is made and checked from it."""

from boneyard.web.store import (  # noqa: F401 (each declares its tables on Base)
    accounts,
    admin,
    buckets,
    challenges,
    clocks,
    games,
    jobs,
    pairing,
    passkeys,
    ratings,
    sessions,
    tournaments,
)
