"""Who is signed in: the session cookie, and the account it opens.

A session is a random id (``secrets``) in an ``HttpOnly``, ``SameSite=Lax`` cookie, ``Secure``
when the page came over HTTPS; the database keeps only its hash (``web/store/accounts.py``),
and a session idle for ``Settings.session_idle_seconds`` is over. Forms and API calls that a
cookie authenticates are posts, so the guard's ``Origin`` check (``middleware.py``) refuses
them from another site, and ``SameSite=Lax`` keeps the cookie off another site's posts anyway.

Routes of every room ask ``signed_in(request)``; the accounts' routes are in
``web/people/accounts.py``.

A browser that logged in to an account is remembered as one of its devices: a second cookie,
``boneyard_device``, names the account and a random device id, signed with the server's secret
key (``itsdangerous``; ``web/store/keys.py``: ``BONEYARD_SECRET`` or a key file, the same for
every process), ``HttpOnly``, ``SameSite=Lax``, ``Secure`` over HTTPS, kept 400 days and
through log-outs. It opens nothing by itself: a log-in from a known device still needs the
password, but it is charged to that device's own budget instead of the name's and the
network's shared ones (``Budgets.charge_name``), so strangers guessing at the name never lock
its owner out (as lichess and GitHub do).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadData, URLSafeTimedSerializer
from starlette.requests import HTTPConnection

from boneyard.core.version import __version__
from boneyard.web.errors import WebError
from boneyard.web.guard.connections import note_known
from boneyard.web.store.accounts import Account, AccountStore

COOKIE = "boneyard_session"
COOKIE_DAYS = 400
"""The cookie's own life (the most browsers keep one): a session in use is not cut short by
it; the server ends an idle one (``session_idle_seconds``), whatever the cookie says."""
DEVICE_COOKIE = "boneyard_device"
DEVICE_SALT = "boneyard known device"
UNKNOWN = object()
"""``request.state.account`` before the cookie was read (None: read, nobody signed in)."""


def account_store(request: HTTPConnection) -> AccountStore:
    store: AccountStore = request.app.state.accounts
    return store


async def in_store(request: HTTPConnection, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on the store's thread, as every database call of the app runs."""
    return await request.app.state.manager.in_store(fn, *args)


async def signed_in(request: HTTPConnection) -> Account | None:
    """The account whose session cookie the request carries (None: nobody signed in)."""
    known = getattr(request.state, "account", UNKNOWN)
    if known is None or isinstance(known, Account):
        return known
    session_id = request.cookies.get(COOKIE)
    account = None
    if session_id:
        idle = request.app.state.manager.settings.session_idle_seconds
        # on the reader threads: a signed-in page's every request asks, and must not wait
        # behind the moves' writes
        account = await request.app.state.manager.read_store(
            account_store(request).session_account, session_id, idle
        )
    if account is not None and request.client is not None:
        note_known(request.client.host)  # its network's connections may use the reserve
    request.state.account = account
    return account


async def remember_account(connection: HTTPConnection) -> None:
    """The app's one dependency of every route: reads the session of a request that carries
    a cookie (nothing is read for one without), so that pages can show who is signed in."""
    if COOKIE in connection.cookies:
        await signed_in(connection)


def page_context(request: Request) -> dict[str, Any]:
    """What every page template knows: the signed-in account (or None), boneyard's version,
    the operator's maintenance notice (or None: ``boneyard admin notice``)."""
    account = getattr(request.state, "account", None)
    return {
        "account": account if isinstance(account, Account) else None,
        "version": __version__,
        "notice": getattr(request.app.state, "notice", None),
    }


async def start_session(request: Request, response: Response, account: Account) -> None:
    """A new session for ``account`` in a new cookie; the request's old session (if any) ends,
    so the id a page had before signing in is never the signed-in one. A banned account
    signs in nowhere (403), whichever way it came (password, recovery code, passkey)."""
    if account.banned:
        raise WebError(
            403,
            "banned",
            f"the account {account.name!r} is banned on this server: its operator can say why",
        )
    old = request.cookies.get(COOKIE)
    store = account_store(request)
    if old:
        await in_store(request, store.close_session, old)
    session_id = secrets.token_urlsafe(32)
    await in_store(request, store.open_session, session_id, account.id)
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=COOKIE_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    request.state.account = account


async def end_session(request: Request, response: Response) -> None:
    session_id = request.cookies.get(COOKIE)
    if session_id:
        await in_store(request, account_store(request).close_session, session_id)
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https", path="/"
    )
    request.state.account = None


async def own_seat(request: Request, game_id: str, seat: int) -> None:
    """The seat a signed-in person took (made, opened or joined a game) is their account's."""
    account = await signed_in(request)
    if account is not None and await in_store(
        request, account_store(request).own_seat, game_id, seat, account.id
    ):
        await seats_named(request, [(game_id, seat)], account.name)


async def seats_named(connection: HTTPConnection, seats: list[tuple[str, int]], name: str) -> None:
    """Seats the store gave an account's name (``AccountStore.own_seat``, ``claim``): the games
    this process holds show it too."""
    for game_id, seat in seats:
        await connection.app.state.manager.seat_named(game_id, seat, name)


async def other_owner(connection: HTTPConnection, game_id: str, seat: int | None) -> str | None:
    """The name of the account ``seat`` of ``game_id`` belongs to, when this request is not
    signed in to it; None when the request may act as the seat (a guest's seat, or its own).
    A seat that is an account's opens only with that account's session: its link alone (a
    shared browser after a log-out, a copied link) is not the account."""
    if seat is None:
        return None
    owner: Account | None = await connection.app.state.manager.read_store(
        account_store(connection).seat_owner, game_id, seat
    )
    if owner is None:
        return None
    account = await signed_in(connection)
    return None if account is not None and account.id == owner.id else owner.name


async def require_seat_holder(connection: HTTPConnection, game_id: str, seat: int | None) -> None:
    """Refuse (403 ``account_seat``) a seat's token without its account's session
    (``other_owner``): nothing of the seat's is shown or done."""
    owner = await other_owner(connection, game_id, seat)
    if owner is not None:
        raise WebError(
            403,
            "account_seat",
            f"this seat is {owner}'s: log in as {owner} to play it; without that account its "
            "link only watches the game",
        )


async def refuse_account_names(connection: HTTPConnection, *given: str | None) -> None:
    """Refuse (409 ``name_taken``) a name a person gives (a guest's, a seat's) that is an
    account's or looks like one, unless it is the signed-in account's own: a name on the
    board is never someone else's."""
    account = await signed_in(connection)
    for name in given:
        if not name:
            continue
        like: Account | None = await connection.app.state.manager.read_store(
            account_store(connection).account_like, name
        )
        if like is not None and (account is None or like.id != account.id):
            raise WebError(
                409,
                "name_taken",
                f"{name!r} is the name of an account here, or looks like it ({like.name!r}): "
                "choose a name of your own (or log in, if that account is yours)",
            )


async def refuse_renaming_an_account(
    connection: HTTPConnection, game_id: str, seat: int | None
) -> None:
    """Refuse (409 ``account_name``) to rename a seat that is an account's: it goes by the
    account's name, as written, and by no other."""
    if seat is None:
        return
    owner: Account | None = await connection.app.state.manager.read_store(
        account_store(connection).seat_owner, game_id, seat
    )
    if owner is not None:
        raise WebError(
            409,
            "account_name",
            f"this seat is the account {owner.name}'s and goes by its name; an account's name "
            "does not change from game to game",
        )


def _device_signer(connection: HTTPConnection) -> URLSafeTimedSerializer:
    """The device cookies' signer: the server's secret key (``web/store/keys.py``: every
    process on the database has the same), salted for this one use."""
    return URLSafeTimedSerializer(account_store(connection).store.secret, salt=DEVICE_SALT)


async def remember_device(request: Request, response: Response, account: Account) -> None:
    """Remember this browser as a device of ``account`` (it logged in): a signed cookie with
    the account's id and the device's own (kept if this browser was the account's already)."""
    device = await known_device(request, account.id) or secrets.token_urlsafe(12)
    signer = _device_signer(request)
    response.set_cookie(
        DEVICE_COOKIE,
        signer.dumps({"account": account.id, "device": device}),
        max_age=COOKIE_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


async def known_device(connection: HTTPConnection, account_id: str | None) -> str | None:
    """The device id of this browser if it is a known device of account ``account_id`` (its
    device cookie is the server's, signed within ``COOKIE_DAYS``, and names that account),
    else None. Checked without the database once the server's key is read."""
    cookie = connection.cookies.get(DEVICE_COOKIE)
    if not cookie or account_id is None:
        return None
    signer = _device_signer(connection)
    try:
        found = signer.loads(cookie, max_age=COOKIE_DAYS * 24 * 3600)
    except BadData:
        return None
    if not isinstance(found, dict) or found.get("account") != account_id:
        return None
    device = found.get("device")
    return device if isinstance(device, str) else None
