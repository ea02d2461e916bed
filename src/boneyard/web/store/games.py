"""Storage for the web app: a game is its name, parameters, seed, seats and numbered actions.

The stored action log is the truth: a live game is rebuilt by replaying it. SQLAlchemy 2 keeps the
code the same for SQLite (the default, an embedded file) and PostgreSQL (by URL). Storage knows
nothing about rules; the play room's manager and live games do (``web/play/manager.py``,
``web/play/live.py``).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from boneyard.web.store.keys import server_secret

log = logging.getLogger("boneyard.web")

CHANNEL = "boneyard_moves"
"""The PostgreSQL notification channel: payload ``<game id>:<sequence number after the move>``,
then ``:<action>/<player>,...`` (the actions just stored, so that the other processes need not
read them back; left out past ``NOTICE_ACTIONS_CHARS``); or ``<game id>:-1`` (``RELOAD``): the
game changed other than by a move (a resignation, a takeback, a seat taken): read it again
(then ``:<origin>``, the ``Store.origin`` of the process that changed it, which has it)."""
RELOAD = -1
"""The sequence number of a notice that says: read the whole game again."""
NOTICE_ACTIONS_CHARS = 6000
"""PostgreSQL takes notices of under 8,000 bytes: longer runs of actions are read back."""


def move_notice(game_id: str, seq: int, actions: Sequence[tuple[int, int]]) -> str:
    """The notice of ``actions`` stored so that the game is at ``seq``."""
    listed = ",".join(f"{action}/{player}" for action, player in actions)
    if len(listed) > NOTICE_ACTIONS_CHARS:
        return f"{game_id}:{seq}"
    return f"{game_id}:{seq}:{listed}"


def read_move_notice(payload: str) -> tuple[str, int, list[tuple[int, int]] | None]:
    """``(game id, seq, the actions stored up to seq or None)`` from a move notice (``seq``
    is ``RELOAD`` for a change other than a move)."""
    game_id, seq, listed = [*payload.split(":", 2), ""][:3]
    if not listed or int(seq) == RELOAD:
        return game_id, int(seq), None
    actions = [item.split("/") for item in listed.split(",")]
    return game_id, int(seq), [(int(action), int(player)) for action, player in actions]


STORE_MOVE = text(
    "WITH stored AS (INSERT INTO actions (game_id, seq, action, player)"
    " SELECT CAST(:game_id AS varchar), s, a, p FROM unnest(CAST(:seqs AS integer[]),"
    " CAST(:actions AS integer[]), CAST(:players AS integer[])) AS t(s, a, p)"
    " WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = CAST(:game_id AS varchar) AND finished)"
    " AND (CAST(:first AS integer) = 0 OR EXISTS (SELECT 1 FROM actions"
    " WHERE game_id = CAST(:game_id AS varchar) AND seq = CAST(:first AS integer) - 1))"
    " RETURNING seq)"
    " SELECT pg_notify(:channel, :notice) FROM (SELECT count(*) AS n FROM stored) AS c"
    " WHERE c.n > 0"
)
"""A move on PostgreSQL: its actions and its notice in one statement, one round trip (in
autocommit: no BEGIN and COMMIT), a fixed text compiled once (SQLAlchemy cannot cache an
INSERT of several rows inside a WITH: it would compile it on every move). A taken sequence
number fails the whole statement, notice included; a game over, or a gap before the first
number (a copy that missed a takeback), stores nothing and answers no row."""

CAN_EXTEND = text(
    "SELECT (SELECT finished FROM games WHERE id = :game_id),"
    " (SELECT count(*) FROM actions WHERE game_id = :game_id AND seq = :first - 1)"
)
"""Whether a move numbered ``:first`` may be stored: the game is not over and the move before
it is stored (STORE_MOVE's condition, for the transaction of a move that ends the game)."""


class StaleCopy(Exception):
    """A move was made on a copy of the game that missed a change made by another process: a
    takeback, or an ending outside the rules (a resignation, an agreed draw). Nothing stored."""


SCHEMA_LOCK = 0x626F6E6579
"""The PostgreSQL advisory lock held while tables are created ("boney")."""


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(128))
    seed_hash: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """One ``{"token", "kind", "level"}`` per seat; ``kind`` is "human" or "computer"."""
    created: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    returns: Mapped[str | None] = mapped_column(Text, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    """Who played it: a seat, or -1 for a chance outcome drawn by the server."""


@dataclass(frozen=True)
class StoredGame:
    id: str
    name: str
    params: dict[str, Any]
    seed: str
    seed_hash: str
    seats: list[dict[str, Any]]
    created: float
    finished: bool
    actions: list[tuple[int, int]]
    """``(action, player)`` in sequence order; the index is the sequence number."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL + NORMAL: a commit survives the server process being killed (what the app promises);
    # only a power cut may lose the last commits.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def shown_url(url: str) -> str:
    """``url`` as printed or logged: its password replaced by ``***`` (a banner, a log line or
    an error goes to places a password must not: terminals, log collectors, bug reports)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: say nothing of what it holds
        return "<a database URL that cannot be read>"


def _check_sqlite_file(url: str) -> None:
    """Refuse a SQLite URL whose file would be named like a URL (``sqlite:///sqlite:``, what a
    path built from ``sqlite://`` gives): SQLite would quietly make a file of that name in the
    working folder."""
    if not url.startswith("sqlite"):
        return
    database = make_url(url).database or ""
    if database != ":memory:" and ":" in Path(database).name:
        raise ValueError(
            f"the SQLite file of {url!r} would be named {Path(database).name!r}: give a file "
            "path (sqlite:///path/to/boneyard.db), or sqlite:// for a database in memory"
        )


class Store:
    """Synchronous storage, called off the event loop: the game manager
    (``web/play/manager.py``) writes through its writer threads (one on SQLite, which takes one
    writer at a time; four on PostgreSQL) and reads through its reader threads (two; eight)."""

    def __init__(self, url: str) -> None:
        _check_sqlite_file(url)
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.secret = server_secret(url)
        """The key of what is kept of people's addresses (``keys.py``)."""
        self.origin = secrets.token_hex(6)
        """This process's name in its notices (it skips its own change notices)."""
        connect_args: dict[str, Any] = {}
        if self.is_sqlite:
            connect_args = {"check_same_thread": False, "timeout": 30}
        # hide_parameters: an error's text (logged, or shown in an outage) never quotes the
        # values of its statement: seat tokens, seeds, password hashes.
        self.engine: Engine = create_engine(url, connect_args=connect_args, hide_parameters=True)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.reads: Engine = self.engine
        """For single reads: on PostgreSQL in autocommit, one round trip each, not three
        (psycopg otherwise wraps each in BEGIN ... ROLLBACK)."""
        if not self.is_sqlite:
            self.reads = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.create_tables()
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.on_finish: list[Callable[[Any, str, list[float], str], None]] = []
        """Called in the transaction that stores a game's result, with its connection, the
        game's id, its returns and how it ended ("rules", or the web-layer event: "resign",
        "abort", ...): a rated game's ratings move there (``ratings.py``). Each hook is
        idempotent (a conditional update marks its work done): the sweep (``settling.py``) may
        call it again for a game whose result another process stored."""
        self.unsettled: list[Callable[[Any, int], list[str]]] = []
        """For the sweep (``settling.py``): each hook's owner lists (with a connection, at
        most a number of) the finished games its hook has not yet settled: ended through a
        process without the hook (an older build), or one killed before it ran."""

    def alone(self) -> Any:
        """A connection for one statement that commits by itself (a context manager): on
        PostgreSQL in autocommit, one round trip instead of BEGIN, statement, COMMIT. Only for
        a single statement, which is atomic on its own; several need ``engine.begin()``."""
        return self.reads.begin()

    def create_tables(self, tables: Sequence[Any] | None = None) -> None:
        """Create the missing tables (all, or ``tables``). On PostgreSQL under an advisory lock:
        web processes and bot workers starting together would otherwise race to create them."""
        with self.engine.begin() as connection:
            if not self.is_sqlite:
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            Base.metadata.create_all(connection, tables=tables)

    def create_game(
        self,
        game_id: str,
        name: str,
        params: dict[str, Any],
        seed: str,
        seed_hash: str,
        seats: list[dict[str, Any]],
        actions: Sequence[tuple[int, int]] = (),
        also: Callable[[Any], None] | None = None,
        created: float | None = None,
    ) -> None:
        """Store a new game with its first ``actions`` (the opening chance outcomes), at once;
        ``also``: more writes in the same transaction (its clock: ``store/clocks.py``);
        ``created``: when it was made (now by default), the time the live game shows too."""
        with self._sessions.begin() as session:
            session.add(
                GameRow(
                    id=game_id,
                    name=name,
                    params=params,
                    seed=seed,
                    seed_hash=seed_hash,
                    seats=seats,
                    created=time.time() if created is None else created,
                    finished=False,
                )
            )
            session.flush()
            if actions:
                session.execute(insert(ActionRow), self._rows(game_id, 0, actions))
            if also is not None:
                also(session.connection())

    def append_actions(
        self,
        game_id: str,
        first_seq: int,
        actions: Sequence[tuple[int, int]],
        returns: list[float] | None = None,
        also: Callable[[Any], None] | None = None,
    ) -> None:
        """Store ``actions`` as ``first_seq, first_seq + 1, ...`` in one transaction.

        A sequence number already taken violates the primary key: nothing is stored. A game
        that is over, or a gap before ``first_seq``, raises ``StaleCopy``: nothing is stored.
        ``returns`` marks the game finished. ``also``: more writes in the same transaction (the
        game's clock, ``store/clocks.py``), which may raise ``StaleCopy`` to store nothing.
        """
        # Core statements, not the ORM: this is the one write on every move. Mostly one
        # statement: the actions, and on PostgreSQL the notice (one round trip, autocommit).
        rows = self._rows(game_id, first_seq, actions)
        # Heard by every server process on this database when the move commits.
        notice = move_notice(game_id, first_seq + len(actions), actions)
        if returns is None and also is None and not self.is_sqlite:
            with self.alone() as connection:
                stored = connection.execute(
                    STORE_MOVE,
                    {
                        "game_id": game_id,
                        "first": first_seq,
                        "seqs": [row["seq"] for row in rows],
                        "actions": [row["action"] for row in rows],
                        "players": [row["player"] for row in rows],
                        "channel": CHANNEL,
                        "notice": notice,
                    },
                ).first()
            if stored is None:
                raise StaleCopy(game_id)
            return
        with self.engine.begin() as connection:
            finished, before = connection.execute(
                CAN_EXTEND, {"game_id": game_id, "first": first_seq}
            ).one()
            if finished or (first_seq > 0 and not before):
                raise StaleCopy(game_id)
            connection.execute(insert(ActionRow), rows)
            if also is not None:
                also(connection)
            if returns is not None:
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id)
                    .values(finished=True, returns=json.dumps(returns))
                )
                self.finished(connection, game_id, returns, "rules")
            if not self.is_sqlite:
                connection.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": notice},
                )

    @staticmethod
    def _rows(
        game_id: str, first_seq: int, actions: Sequence[tuple[int, int]]
    ) -> list[dict[str, Any]]:
        return [
            {"game_id": game_id, "seq": first_seq + offset, "action": action, "player": player}
            for offset, (action, player) in enumerate(actions)
        ]

    def action_count(self, game_id: str) -> int:
        """How many actions of ``game_id`` are stored (its sequence number in the store)."""
        with self.reads.connect() as connection:
            count = connection.execute(
                select(func.count()).select_from(ActionRow).where(ActionRow.game_id == game_id)
            ).scalar_one()
            return int(count)

    def listen(
        self, heard: Callable[[str, int, list[tuple[int, int]] | None], None]
    ) -> Callable[[], None] | None:
        """Call ``heard(game_id, seq, actions)`` (from a thread) whenever any process stores a
        move: the game is at ``seq`` in the store; ``actions`` are the ones just stored (None:
        too many for a notice, read them). ``seq`` is ``RELOAD`` when the game changed other
        than by a move (``changed``).

        PostgreSQL only (``LISTEN``): returns the function that stops listening. On SQLite
        there is nothing to listen to (None): a process notices others' moves on its next
        request, by the sequence number.
        """

        def parse(payload: str) -> None:
            if payload.endswith(f":{RELOAD}:{self.origin}"):
                return  # this process made that change, and its copy has it
            heard(*read_move_notice(payload))

        return self.listen_channel(CHANNEL, parse)

    def finished(self, connection: Any, game_id: str, returns: list[float], how: str) -> None:
        """Tell ``on_finish`` that ``game_id`` ended (in the transaction of its result). A hook
        that fails is logged and undone (on PostgreSQL to a savepoint); the result is stored
        all the same: no rating may keep a game from ending."""
        for hook in self.on_finish:
            try:
                if self.is_sqlite:
                    hook(connection, game_id, returns, how)
                else:
                    with connection.begin_nested():
                        hook(connection, game_id, returns, how)
            except Exception:
                log.exception("what follows the end of game %s failed; its result stands", game_id)

    def changed(self, connection: Any, game_id: str) -> None:
        """Tell every process that ``game_id`` changed other than by a move (in the transaction
        of ``connection``, so only if it commits): they read it again. PostgreSQL only."""
        if not self.is_sqlite:
            connection.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": f"{game_id}:{RELOAD}:{self.origin}"},
            )

    def listen_channel(
        self, channel: str, heard: Callable[[str], None]
    ) -> Callable[[], None] | None:
        """Call ``heard(payload)`` (from a thread) for every notice on ``channel``; PostgreSQL
        only (None on SQLite). Returns the function that stops listening."""
        if self.is_sqlite:
            return None
        stop = threading.Event()

        def run() -> None:
            while not stop.is_set():
                try:
                    raw = self.engine.raw_connection()
                    try:
                        connection: Any = raw.driver_connection
                        connection.autocommit = True
                        connection.execute(f"LISTEN {channel}")
                        while not stop.is_set():
                            for notice in connection.notifies(timeout=0.5):
                                heard(notice.payload)
                    finally:
                        raw.invalidate()
                except Exception:  # the database went away: listen again in a moment
                    log.warning("listening on %s failed; trying again", channel, exc_info=True)
                    stop.wait(1.0)

        thread = threading.Thread(target=run, name=f"listen-{channel}", daemon=True)
        thread.start()
        return stop.set

    def ping(self) -> None:
        """Raise unless the database answers (for the readiness check)."""
        with self.reads.connect() as connection:
            connection.execute(text("SELECT 1"))

    def load(self, game_id: str) -> StoredGame | None:
        with self._sessions() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            actions = session.execute(
                select(ActionRow.action, ActionRow.player)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.seq)
            ).all()
            return StoredGame(
                id=row.id,
                name=row.name,
                params=dict(row.params),
                seed=row.seed,
                seed_hash=row.seed_hash,
                seats=[dict(seat) for seat in row.seats],
                created=row.created,
                finished=row.finished,
                actions=[(int(a), int(p)) for a, p in actions],
            )

    def actions_from(self, game_id: str, first: int) -> list[tuple[int, int]]:
        """``(action, player)`` of ``game_id`` from sequence number ``first`` on, in order."""
        with self.reads.connect() as connection:
            rows = connection.execute(
                select(ActionRow.action, ActionRow.player)
                .where(ActionRow.game_id == game_id, ActionRow.seq >= first)
                .order_by(ActionRow.seq)
            ).all()
        return [(int(a), int(p)) for a, p in rows]

    def unfinished(self, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` that are stored and not over (one query, however many)."""
        if not game_ids:
            return set()
        with self.reads.connect() as connection:
            rows = connection.execute(
                select(GameRow.id).where(
                    GameRow.id.in_(list(game_ids)), GameRow.finished.is_(False)
                )
            ).all()
        return {r[0] for r in rows}

    def game_ids(self) -> list[str]:
        with self._sessions() as session:
            return [r[0] for r in session.execute(select(GameRow.id)).all()]

    def close(self) -> None:
        self.engine.dispose()
