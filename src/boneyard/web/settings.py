"""The server's policy: pacing, workers, and the budgets that keep one client from harming others.

These are the server's choices, separate from each game's own parameter ranges: a game may allow
a 25x25 board, the web offers what ``param_limits`` allows. ``boneyard serve --help`` lists the
command-line options that set them; docs/web.md explains each.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boneyard.core.registry import game_specs


def default_param_limits() -> dict[str, dict[str, int]]:
    """Game -> integer parameter -> the largest value the web offers: each game's spec's
    ``web_limits``."""
    return {spec.name: dict(spec.web_limits) for spec in game_specs() if spec.web_limits}


RAY_SCHEME = "ray://"


def is_ray_address(bots: str) -> bool:
    """Whether a ``bots`` value names a Ray cluster (``ray://HOST:PORT``)."""
    return bots.startswith(RAY_SCHEME) and len(bots) > len(RAY_SCHEME)


MAX_WEB_INTEGER = 100_000
"""The largest value of any integer parameter not named in ``param_limits``."""


@dataclass
class Settings:
    # ----- computer seats ---------------------------------------------------------------------
    bot_delay: float = 0.8
    """Seconds a computer seat waits before a new turn, so a person can follow; it thinks
    meanwhile, so its reply comes after this or its thinking, whichever is longer."""
    bot_step_delay: float = 0.15
    """Seconds between the steps of one computer turn (its set-up, forced moves, a run of its
    own actions): a person waits one ``bot_delay`` (the thinking within it), not one a step."""
    bot_standby_seconds: float = 10.0
    """Several processes: the one that made the move asks for the computer's reply; another
    process that heard of the move waits this long past the computer's delay and time budget,
    then asks itself unless the reply came (the first process may have died)."""
    bot_time_limit: float | None = None
    """Seconds a computer move may take; ``None``: the level's own budget."""
    bot_processes: int = 0
    """Worker processes for computer seats and hints (0: threads, as the tests use)."""
    bots: str = "local"
    """Where computer moves and hints run: "local" (this process's own workers), "queue"
    (jobs in the store's ``bot_jobs`` table for ``boneyard bots`` workers; see
    ``web/compute/jobs.py``)
    or "ray://HOST:PORT" (tasks on that Ray cluster; see ``web/compute/ray_bots.py``)."""
    job_wait_seconds: float = 120.0
    """With ``bots == "queue"``: seconds a computer move or hint waits for a worker's answer
    (past it the computer plays its first legal move, a hint answers 503)."""
    hint_interval: float = 3.0
    """Seconds between two hints of one seat (a faster one: 429)."""
    hints_waiting: int = 8
    """Hints waiting for a worker at once, server-wide (more: 503); computer moves go first."""
    watch_seconds: float = 30.0
    """A game of computers alone moves only while someone watches it: a request, a socket
    opened or a socket's message (a visible page says ``watching`` every few seconds) in the
    last ``watch_seconds``. A socket left open and silent does not count."""
    thinking_seconds_per_minute: float | None = 40.0
    """CPU seconds of the computer's thinking one client (network: an IPv4 /24, an IPv6 /64)
    gets a minute, refilled continuously: the computer moves in the games it plays (or made,
    for a game of computers alone) and its hints, each charged what it took
    (``web/compute/fairness.py``). Past it the client's computer moves wait (its own move is
    kept; the computer answers when the budget refills) and its hints get 429. ``None``: no
    budget. A person playing the top level (about a second a move) at a human pace spends well
    under it."""
    thinking_seconds_burst: float = 30.0
    """The most thinking a client may have saved up (its budget when it comes). Thirty seconds
    (before: 120): twenty games at the top level on two workers spent 120 s only after
    90 s, longer than an attack lasts (issue 44 row 5 saw no wait at all); a person's game
    needs a few moves' worth."""
    replay_finished_only: bool = True
    # ----- memory ------------------------------------------------------------------------------
    live_memory_mb: float = 512.0
    """Estimated memory of the games held live. Past it the least recently used games nobody
    watches leave memory (the store keeps every move); if none can leave, new games get 503."""
    max_live_games: int = 1000
    """Games kept in memory at most, whatever their size."""
    live_idle_seconds: float = 180.0
    """A game unused this long (nobody watching, no computer move pending) leaves memory."""
    sweep_seconds: float = 30.0
    """How often idle games are looked for."""
    param_limits: dict[str, dict[str, int]] = field(default_factory=default_param_limits)
    """Game -> integer parameter -> the largest value the web offers (see the module)."""
    # ----- work off the event loop -------------------------------------------------------------
    work_processes: int = 0
    """Worker processes for setting up and replaying games (0: threads, as the tests use)."""
    work_seconds: float = 10.0
    """Seconds the set-up of a new game (puzzle generation) or a replay may take: past it, 503."""
    store_seconds: float = 10.0
    """Seconds a database commit may wait (another process or a backup holding the file)."""
    # ----- clients -----------------------------------------------------------------------------
    games_per_minute: int = 20
    """New games one client (address) may make a minute, by any way in: created, opened,
    joined, dealt from the ladder, a rematch (more: 429 with Retry-After). ``web/guard/budgets.py``
    charges every route; the other kinds follow."""
    people_per_minute: int = 10
    """Light identities one client may make or rename a minute."""
    session_requests_per_minute: int = 60
    """Web-layer requests on games (resign, offers, takebacks, names) one client may make a
    minute."""
    moves_per_minute: int = 600
    """Moves and hints one client may send a minute, over HTTP and sockets together (a socket's
    ``act``, ``hint`` and ``quick_setup`` messages are charged here too)."""
    sockets_per_minute: int = 120
    """WebSockets one client may open a minute."""
    lookups_per_minute: int = 30
    """Daily puzzles and players' ratings one client may look up a minute."""
    reads_per_minute: int = 600
    """Reads of games one client may make a minute: views, replay frames, the lobby, session
    views, game pages (a replay reads a frame a step). Walking a long game (loading it from the
    store, making its replay snapshots, taking moves back) costs one more for every 32 or so
    of its actions (``web/play/replays.py``'s ``walk_cost``)."""
    pages_per_minute: int = 1200
    """Pages and documents that cost the same whatever the games (home, rules, pictures)."""
    signups_per_minute: int = 3
    """Accounts one client may make a minute."""
    logins_per_minute: int = 10
    """Log-ins (and recoveries, passkey log-ins) one client may try a minute, whatever the
    names. Sign-ups and log-ins count a client by ``web/guard/clients.py``'s ``client_key``:
    its account where signed in, else its network (an IPv4 /24, an IPv6 /64)."""
    logins_per_name: int = 5
    """Log-ins one network may try on one account name in ``login_window_seconds``: guessing a
    password is slow, and another network is not slowed (``budgets.py``). A known device of
    the account (its device cookie) has a budget of its own of as many."""
    logins_per_name_everywhere: int = 30
    """Log-ins on one account name in ``login_window_seconds`` from all the networks that
    never signed in to it together; the owner's networks and known devices are not counted,
    nor recovery codes (which cannot be guessed)."""
    failed_logins_per_network: int = 30
    """Failed log-ins (wrong passwords or codes, on any names) one network may make in
    ``login_window_seconds``, whoever is signed in there; past it the network's tries are
    refused (429) until the budget refills, except from a known device."""
    login_window_seconds: float = 600.0
    password_slots: int = 2
    """Passwords hashed or checked at once in each server process (each takes argon2's 64 MiB
    and its four lanes for a moment): the rest wait their turn (``web/guard/passwords.py``)."""
    password_queue: int = 8
    """Password checks waiting for a slot at most; past it the client with the most waiting
    loses its newest (429)."""
    password_wait_seconds: float = 1.5
    """A password check that cannot start within this time is refused (429 with Retry-After),
    never checked late; one whose client has gone is dropped unchecked."""
    password_nice: int = 10
    """How much lower the hashing threads' CPU priority is than the requests' (Linux, per
    thread): a crowd's checks take the CPU the moves leave, not the moves' own."""
    request_slots: int = 4
    """Costly reads (views, lists, replays, profiles, standings) and interactive requests
    (moves, a seat's own view) served at once by one process; the rest wait their client's
    turn, interactive ones first (``web/guard/turns.py``)."""
    request_queue: int = 256
    """Requests waiting for a turn at most; past it the client with the most waiting loses
    its newest (503)."""
    request_wait_seconds: float = 5.0
    """A request that cannot start within this time is refused (503 ``busy`` with
    Retry-After), never served late; one whose client has gone is dropped undone."""
    session_idle_seconds: float = 14 * 24 * 3600.0
    """A sign-in session unused this long is over (logged out)."""
    # ----- what one game may hold ----------------------------------------------------------------
    session_events_per_game: int = 200
    """Web-layer events one game may store (offers, names, takebacks; endings always pass)."""
    rename_seconds: float = 10.0
    """A seat may change its name once in this many seconds."""
    events_in_view: int = 30
    """The latest web-layer events a view carries (all of them: ``GET .../session``)."""
    max_body_bytes: int = 64 * 1024
    """The largest request body (more: 413)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may post forms and open sockets."""
    allowed_hosts: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
    """Names the server answers to (the ``Host`` header, port aside); another is refused (400),
    so a page of a foreign name that resolves here (DNS rebinding) gets nothing.
    ``boneyard serve --host-name`` adds to them; ``"*"`` answers to any name."""
    trusted_proxies: tuple[str, ...] = ()
    """Reverse proxies whose ``X-Forwarded-For`` names the client (``--trusted-proxy``); none
    by default, so no client can choose the address its budgets are counted by."""
    # ----- clocks (``web/play/clocks.py``, ``web/table/clocks.py``) ----------------------------
    clock_first_move_seconds: float = 30.0
    """A real-time game's first move of each person is due within this time (the clock runs
    from the second move on); missed, the game is called off, unrated (as lichess does)."""
    clock_grace_seconds: float = 0.5
    """A clock is ended this long after it ran out, so that a move received in time but still
    on its way to the store is judged by its receipt time, not beaten by the flag."""
    clock_sweep_seconds: float = 5.0
    """How often each process reads the clocks due soon from the store (those another process
    started, or kept before it was killed)."""
    # ----- tournaments (``web/people/tournaments.py``) -------------------------------------------
    tournaments_per_account: int = 3
    """Tournaments not yet finished that one account may have made: the director looks at each
    running one twice a second, so making them is bounded per person as well as per address."""
    arena_arrival_seconds: float = 15.0
    """An arena's paired player's page opens their game by itself: the first move's time
    (``clock_first_move_seconds``) starts when it has, or after this long (a player who never
    comes holds their opponent for this much more)."""
    # ----- connections (``boneyard serve``: ``web/guard/connections.py``) ------------------------
    max_connections: int = 1000
    """Open HTTP connections at most; past it a new one is answered 503 with Retry-After and
    closed (well before the process runs out of file descriptors)."""
    header_seconds: float = 10.0
    """A connection that has not sent a whole request head in this time is closed."""
    body_seconds: float = 30.0
    """A request whose body has not arrived in this time is closed."""
    connection_reserve: float = 0.2
    """The share of ``max_connections`` kept for known clients (networks a signed-in account
    or a person's move came from): anonymous connections hold the rest at most, each network
    an even part of it when it is full (``guard/connections.py``)."""
    connection_share: float = 0.1
    """The share of ``max_connections`` one client network (IPv4 /24, IPv6 /64) may hold open
    at once, sockets included (100 of 1,000: more than ``sockets_per_client`` and a browser's
    few connections); past it a new connection from that network is answered 429 and closed,
    so the rest of the
    cap stays for others. Addresses of ``trusted_proxies`` are not held to it (every client
    comes through them)."""
    # ----- sockets -----------------------------------------------------------------------------
    sockets_per_game: int = 64
    sockets_per_client: int = 64
    max_sockets: int = 2000
    """WebSockets open at once, server-wide (more: closed with 1013, try again later)."""
    socket_bytes: int = 64 * 1024
    """What one socket is counted as in the memory budget (its buffers and queue of views)."""
    socket_message_bytes: int = 4096
    """The largest message a client may send on a socket."""
    socket_messages_per_second: float = 20.0
    """Messages a socket may send a second (a burst of twice that); beyond: refused, then closed."""
    sync_interval: float = 1.0
    """A socket's ``sync`` is answered at most once per this many seconds."""
    send_queue: int = 64
    """Messages waiting to go out to one socket; a socket further behind is dropped (it resyncs
    when it reconnects)."""
    standings_send_seconds: float = 0.5
    """A tournament's standings sockets are sent at most once per this many seconds, whatever
    the join and withdraw rate: the changes meanwhile go out together (``people/standings.py``)."""
