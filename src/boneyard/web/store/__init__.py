"""Every table and the stores over them: games and their actions (``games``), the session of
play and people (``sessions``). The store is the truth; live games are a cache of it."""
