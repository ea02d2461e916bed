"""Live games: one live game and its views (``live``), the manager that creates, loads, acts
and announces (``manager``, with ``cache`` and ``computer``; its news on ``events``, its sockets'
views by ``broadcast``), the JSON API of a game
(``routes``), its sockets (``sockets``) and its words for people (``words``)."""
