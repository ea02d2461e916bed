"""Accounts: sign up, log in, log out, recover with a one-time code; the signed-in games.

- A password is kept as its argon2id hash (``argon2-cffi``'s ``PasswordHasher``), made and
  checked in the guard's bounded pool (``web/guard/passwords.py``: a few slots, a short queue
  served in turn by client, a try that cannot start soon refused), never on the event loop; a
  password is never logged.
- A name that has no account is checked against a dummy hash, so an answer takes as long
  whether the name exists or not; every refusal of a log-in reads the same.
- Sign-up answers ten recovery codes, shown once (kept hashed): each opens the account once,
  with a new password, since the server sends no e-mail.
- Signing up claims what the browser held: its games (by their seat tokens) and its light
  identity (``/api/people``) with the seats it sat in.
- The guard charges every way in: a client's sign-ups and log-in tries (``client_key``: an
  account, else a network), each account name's tries and a network's failed ones
  (``Budgets.charge_name``); a known device (its cookie, ``signin.remember_device``) is charged
  on its own, and a recovery code is not counted against the name's shared budget, so the
  owner gets in whatever strangers try on the name.

The session cookie itself: ``web/guard/signin.py``.
"""

from __future__ import annotations

import logging
import re
import secrets
from functools import lru_cache
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, StringConstraints

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import (
    PAGE,
    Budgets,
    GuardedRouter,
    Payer,
    SessionPayer,
    client_address,
)
from boneyard.web.guard.clients import LoginPayer, SignupPayer, client_key, network_key
from boneyard.web.guard.passwords import PasswordPool
from boneyard.web.guard.signin import (
    account_store,
    end_session,
    in_store,
    known_device,
    remember_device,
    seats_named,
    signed_in,
    start_session,
)
from boneyard.web.guard.turns import ReadPayer
from boneyard.web.play.routes import ERRORS
from boneyard.web.store.accounts import Account, AccountStore, name_key, owned_json

log = logging.getLogger("boneyard.web")

router = GuardedRouter(prefix="/api", responses=ERRORS)

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,28}[A-Za-z0-9]")
NAME_RULE = (
    "an account name is 2 to 30 letters (a-z, A-Z), digits, '-' or '_', "
    "beginning and ending with a letter or digit"
)
PASSWORD_LENGTHS = (8, 200)
RECOVERY_CODES = 10

_hasher = PasswordHasher()  # argon2id, RFC 9106's second recommended set of parameters


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """What an unknown name's password is checked against (the same work as a real one)."""
    return _hasher.hash(secrets.token_urlsafe(16))


def password_hash_of(password: str) -> str:
    """A new password's hash, as sign-up makes it (``boneyard admin reset-password``)."""
    return _hasher.hash(password)


def _matches(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def _hash(password: str) -> str:
    return _hasher.hash(password)


async def _in_pool(
    request: Request, client: str, fn: Any, *args: Any, known: str | None = None
) -> Any:
    """``fn(*args)`` (a hash or a check) in the guard's password pool, in ``client``'s turn
    (a ``known`` device's try first); refused (429) when it cannot start soon, dropped when
    the request's client has gone."""
    pool: PasswordPool = request.app.state.passwords
    return await pool.run(client, fn, *args, connection=request, known=known is not None)


def checked_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise WebError(400, "bad_name", f"{NAME_RULE}; {name[:40]!r} is not one")
    return name


def checked_password(password: str) -> str:
    shortest, longest = PASSWORD_LENGTHS
    if not shortest <= len(password) <= longest:
        raise WebError(
            400,
            "bad_password",
            f"a password is {shortest} to {longest} characters; this one has {len(password)}",
        )
    return password


class GameClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: StrictStr = Field(max_length=64)
    tokens: list[StrictStr] = Field(max_length=16)


class PersonClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: StrictStr = Field(max_length=64)
    secret: StrictStr = Field(max_length=200)


class PuzzleResult(BaseModel):
    model_config = ConfigDict(extra="forbid")

    used: StrictInt = Field(ge=0, le=100_000, description="Moves the solution took.")
    shortest: StrictInt = Field(ge=0, le=100_000, description="The shortest solution's length.")


class LadderProgress(BaseModel):
    """The puzzle ladder's results: by level ("1", "2", ...) and by day (YYYY-MM-DD)."""

    model_config = ConfigDict(extra="forbid")

    levels: dict[Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]{0,3}$")], PuzzleResult] = (
        Field(default_factory=dict, max_length=1000)
    )
    daily: dict[
        Annotated[str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")], PuzzleResult
    ] = Field(default_factory=dict, max_length=2000)


class Claim(BaseModel):
    """What this browser held before it had an account: its games, its light identity and its
    puzzle ladder results."""

    model_config = ConfigDict(extra="forbid")

    games: list[GameClaim] = Field(default_factory=list, max_length=200)
    person: PersonClaim | None = None
    ladder: LadderProgress | None = None


class NewAccount(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(max_length=200, description=NAME_RULE)
    password: StrictStr = Field(max_length=1000, description="8 to 200 characters.")
    claim: Claim | None = Field(
        default=None, description="The browser's games and light identity, claimed for it."
    )


class Login(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(max_length=200)
    password: StrictStr = Field(max_length=1000)


class Recovery(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: StrictStr = Field(max_length=200)
    code: StrictStr = Field(max_length=200, description="One of the codes shown at sign-up.")
    password: StrictStr = Field(max_length=1000, description="The new password.")


def _budgets(request: Request) -> Budgets:
    budgets: Budgets = request.app.state.budgets
    return budgets


async def sign_up(
    request: Request, response: Response, name: str, password: str, claim: Claim | None
) -> tuple[Account, list[str]]:
    """A new account, signed in on ``response``: answers it and its recovery codes."""
    checked_name(name)
    checked_password(password)
    password_hash = await _in_pool(request, await client_key(request), _hash, password)
    codes = [secrets.token_hex(8) for _ in range(RECOVERY_CODES)]
    account_id = secrets.token_urlsafe(12)
    store = account_store(request)
    if not await in_store(request, store.add_account, account_id, name, password_hash, codes):
        like: Account | None = await in_store(request, store.account_like, name)
        if like is None or name_key(like.name) == name_key(name):
            raise WebError(409, "name_taken", f"the name {name!r} is taken: choose another")
        raise WebError(
            409,
            "name_taken",
            f"the name {name!r} looks like {like.name!r}, another account's: choose a name "
            "nobody could mistake for it",
        )
    account = Account(account_id, name, None, 0.0)
    if claim is not None:
        games = [(game.id, list(game.tokens)) for game in claim.games]
        person = None if claim.person is None else (claim.person.id, claim.person.secret)
        claimed = await in_store(request, store.claim, account_id, games, person)
        await seats_named(request, claimed, name)
        if claim.ladder is not None:
            progress = claim.ladder.model_dump()
            await in_store(request, store.keep_ladder_progress, account_id, progress)
    await _signed_in(request, response, account)
    return account, codes


async def _signed_in(request: Request, response: Response, account: Account) -> None:
    """A log-in that held: a new session, this network noted as the owner's, this browser
    remembered as the account's device."""
    await start_session(request, response, account)
    store, network = account_store(request), network_key(request)
    await in_store(request, store.note_owner_address, account.id, account.name, network)
    await remember_device(request, response, account)


async def _charge_try(
    request: Request, name: str, account_id: str | None, *, guessable: bool = True
) -> str | None:
    """Charge a try on ``name``'s password (or, not ``guessable``, its recovery codes) by
    ``Budgets.charge_name``; answers this browser's device id when it is a known device of
    the account ``account_id`` (None: it is not, or there is no such account)."""
    device = await known_device(request, account_id)
    network = network_key(request)
    shared = guessable
    if device is None and shared:
        store = account_store(request)
        owner = await request.app.state.manager.read_store(store.owner_address, name, network)
        shared = not owner
    await _budgets(request).charge_name_off_loop(
        network, name_key(name), device=device, shared=shared
    )
    return device


def _failed(request: Request, device: str | None) -> None:
    """A wrong password or code: counted against the network (a known device's own budget
    counted it already)."""
    if device is None:
        _budgets(request).charge_failure(network_key(request))


async def log_in(
    request: Request, response: Response, payer: Payer, name: str, password: str
) -> Account:
    """Sign ``name`` in on ``response``, or refuse (401) without saying which part was wrong."""
    store = account_store(request)
    found = await in_store(request, store.password_hash, name)
    device = await _charge_try(request, name, found[0] if found else None)
    # An unknown name is checked against the dummy hash: the answer takes as long either way.
    checked = found[1] if found else None
    matched = await _in_pool(request, payer.client, _matches, checked, password, known=device)
    if not matched or found is None:
        _failed(request, device)
        # For the operator (and fail2ban): the name tried and the address, never the password;
        # repeats past a few a minute are counted here and in /metrics, not logged one by one.
        _budgets(request).refused["bad_login"] += 1
        log.warning("failed log-in to the account %r from %s", name[:40], client_address(request))
        raise WebError(401, "bad_login", "wrong account name or password")
    account_id, password_hash = found
    if _hasher.check_needs_rehash(password_hash):
        fresh = await _in_pool(request, payer.client, _hash, password)
        await in_store(request, store.set_password_hash, account_id, fresh)
    account: Account = await in_store(request, store.account, account_id)
    await _signed_in(request, response, account)
    return account


async def recover(
    request: Request, response: Response, payer: Payer, name: str, code: str, password: str
) -> Account:
    """Open an account with one of its recovery codes and give it a new password: its other
    sessions end; the code is spent. A code cannot be guessed (64 random bits), so a try is not
    counted against the name's shared budget: the owner recovers whatever strangers try."""
    checked_password(password)
    store = account_store(request)
    account: Account | None = await in_store(request, store.account_named, name)
    device = await _charge_try(request, name, account.id if account else None, guessable=False)
    used = account is not None and await in_store(
        request, store.use_recovery_code, account.id, code.strip().lower()
    )
    if account is None or not used:
        _failed(request, device)
        raise WebError(401, "bad_recovery", "wrong account name or recovery code")
    password_hash = await _in_pool(request, payer.client, _hash, password)
    await in_store(request, store.set_password_hash, account.id, password_hash)
    await in_store(request, store.close_sessions_of, account.id)
    await _signed_in(request, response, account)
    return account


async def _confirm_password(
    request: Request, payer: Payer, account: Account, password: str
) -> AccountStore:
    """Refuse (401) a password that is not the signed-in account's, charged as a log-in try
    (a session left open on a shared computer guesses no faster than a stranger)."""
    store = account_store(request)
    found = await in_store(request, store.password_hash, account.name)
    device = await _charge_try(request, account.name, account.id)
    checked = found[1] if found else None
    if not await _in_pool(request, payer.client, _matches, checked, password) or found is None:
        _failed(request, device)
        raise WebError(
            401, "bad_password", "that is not your current password: nothing was changed"
        )
    return store


async def change_password(
    request: Request, response: Response, payer: Payer, account: Account, old: str, new: str
) -> None:
    """A new password for the signed-in account, its current one given: every other session
    ends (a device logged in with the old password is logged out); this one goes on."""
    checked_password(new)
    store = await _confirm_password(request, payer, account, old)
    password_hash = await _in_pool(request, payer.client, _hash, new)
    await in_store(request, store.set_password_hash, account.id, password_hash)
    await in_store(request, store.close_sessions_of, account.id)
    await start_session(request, response, account)


async def new_recovery_codes(
    request: Request, payer: Payer, account: Account, password: str
) -> list[str]:
    """New recovery codes for the signed-in account (its password given): the old ones are
    spent. Answered once, to be shown once."""
    store = await _confirm_password(request, payer, account, password)
    codes = [secrets.token_hex(8) for _ in range(RECOVERY_CODES)]
    await in_store(request, store.replace_recovery_codes, account.id, codes)
    return codes


async def log_out_everywhere(request: Request, response: Response, account: Account) -> None:
    """Every session of the account ends, this one too."""
    await in_store(request, account_store(request).close_sessions_of, account.id)
    await end_session(request, response)


async def require_account(request: Request) -> Account:
    account = await signed_in(request)
    if account is None:
        raise WebError(401, "not_signed_in", "log in first (or sign up): /login")
    return account


def profile_url(name: str) -> str:
    return f"/@/{name}"


@router.post("/accounts", status_code=201, summary="Sign up: an account and its session")
async def new_account(
    body: NewAccount, request: Request, response: Response, _payer: SignupPayer
) -> dict[str, Any]:
    """Answers the name, the profile's address and the recovery codes (shown once: each
    opens the account once, with a new password), and sets the session cookie."""
    account, codes = await sign_up(request, response, body.name, body.password, body.claim)
    return {"name": account.name, "url": profile_url(account.name), "recovery_codes": codes}


@router.post("/login", summary="Log in: a new session cookie")
async def login(
    body: Login, request: Request, response: Response, payer: LoginPayer
) -> dict[str, Any]:
    """401 ``bad_login`` for a wrong name or password alike; 429 past the address's or the
    name's budget of tries."""
    account = await log_in(request, response, payer, body.name, body.password)
    return {"name": account.name, "url": profile_url(account.name)}


@router.post("/recover", summary="Log in with a recovery code and set a new password")
async def recover_account(
    body: Recovery, request: Request, response: Response, payer: LoginPayer
) -> dict[str, Any]:
    account = await recover(request, response, payer, body.name, body.code, body.password)
    left = await in_store(request, account_store(request).recovery_codes_left, account.id)
    return {"name": account.name, "url": profile_url(account.name), "recovery_codes_left": left}


@router.post("/logout", summary="Log out: the session ends")
async def logout(request: Request, response: Response, _payer: SessionPayer) -> dict[str, Any]:
    await end_session(request, response)
    return {"signed_in": False}


@router.get("/me", summary="The signed-in account (401 when nobody is)", dependencies=[PAGE])
async def me(request: Request) -> dict[str, Any]:
    account = await require_account(request)
    left = await in_store(request, account_store(request).recovery_codes_left, account.id)
    return {
        "name": account.name,
        "url": profile_url(account.name),
        "person": account.person_id,
        "recovery_codes_left": left,
    }


class SeatClaim(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: StrictStr = Field(max_length=200, description="The seat's secret token.")


@router.post("/games/{game_id}/account", summary="Make a seat the signed-in account's")
async def own_game_seat(
    game_id: str, body: SeatClaim, request: Request, _payer: SessionPayer
) -> dict[str, Any]:
    """A seat opened by its link (an invitation) while signed in: the account's from now on,
    found in its games on every device. 403 for a wrong token; 409 when the seat is already
    another account's."""
    account = await require_account(request)
    live = await request.app.state.manager.get(game_id)
    seat = live.seat_of(body.token)
    if seat is None:
        raise WebError(403, "wrong_token", "that token opens no seat of this game")
    store = account_store(request)
    if await in_store(request, store.own_seat, live.id, seat, account.id):
        await seats_named(request, [(live.id, seat)], account.name)
    owners = await in_store(request, store.seat_owners, live.id)
    if owners.get(seat) != account.id:
        raise WebError(409, "seat_taken", "this seat is already another account's")
    return {"seat": seat, "account": account.name}


@router.get("/me/games", summary="The signed-in account's games, the newest first")
async def my_games(request: Request, _payer: ReadPayer) -> list[dict[str, Any]]:
    """Each ``{"id", "game", "seat", "token", "terminal", "tournament", "url"}``: the token
    opens the account's seat on any device."""
    account = await require_account(request)
    seats = await in_store(request, account_store(request).owned_seats, account.id)
    of_tournament = await in_store(
        request, request.app.state.tournaments.tournament_of_games, [s.game_id for s in seats]
    )
    return [owned_json(seat) | {"tournament": of_tournament.get(seat.game_id)} for seat in seats]


@router.get("/me/ladder", summary="The signed-in account's puzzle ladder results")
async def my_ladder(request: Request, _payer: ReadPayer) -> dict[str, Any]:
    account = await require_account(request)
    progress: dict[str, Any] = await in_store(
        request, account_store(request).ladder_progress, account.id
    )
    return progress


@router.post("/me/ladder", summary="Keep puzzle ladder results with the account")
async def keep_my_ladder(
    body: LadderProgress, request: Request, _payer: SessionPayer
) -> dict[str, Any]:
    """Merges the results given with the account's (the fewest moves of each puzzle) and
    answers them all: a browser keeps them as well, so every device shows the same ladder."""
    account = await require_account(request)
    progress: dict[str, Any] = await in_store(
        request, account_store(request).keep_ladder_progress, account.id, body.model_dump()
    )
    return progress
