"""Work off the event loop: bots and hints (``bots``) run by local worker processes, a job
queue in the database (``jobs``) or a Ray cluster (``ray_bots``); set-ups and replays
(``work``); the worker pools (``pools``); the seeding of chance and bots (``chance``)."""
