"""The session of play around a game: resignations, offers, takebacks, stand-ins, names,
rematches and series (``sessions``), and their API (``routes``)."""
