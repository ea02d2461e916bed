"""People and their games: light identities, open games and the lobby (``lobby``), the puzzle
ladder (``ladder``), a browser's own games (``mine``)."""
