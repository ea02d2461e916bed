"""The accounts' pages: sign up (the recovery codes shown once), log in, log out, recover, and
the account's settings (its password, recovery codes, passkeys, log out everywhere).

Plain forms posted to the server (Post/Redirect/Get where nothing is to be shown once); the
same functions as the API (``accounts.py``) do the work, with the same charges. A form posted
from another site is refused by the guard's ``Origin`` check before it reaches these.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import PAGE, GuardedRouter, SessionPayer
from boneyard.web.guard.clients import LoginPayer, SignupPayer
from boneyard.web.guard.signin import account_store, end_session, in_store, signed_in
from boneyard.web.pages.routes import templates
from boneyard.web.people.accounts import (
    NAME_RULE,
    PASSWORD_LENGTHS,
    Claim,
    Login,
    Recovery,
    change_password,
    log_in,
    log_out_everywhere,
    new_recovery_codes,
    recover,
    sign_up,
)
from boneyard.web.schemas import FormT, form_fields, parse_form
from boneyard.web.store.accounts import Account
from boneyard.web.store.passkeys import PasskeyStore

pages = GuardedRouter(include_in_schema=False)


class LoginForm(Login):
    """The log-in form, in the API's types, and the game page it was opened from (``next``)."""

    next: StrictStr = Field(default="", max_length=2000)


GAME_PAGE = re.compile(r"/game/[A-Za-z0-9_-]{1,64}(\?t=[A-Za-z0-9_,-]{1,2000})?")
"""Where a log-in may lead back to: a game page of this site (never another site's address)."""


def _back_to(given: str | None) -> str | None:
    """The game page a log-in returns to, or None when ``given`` is not one of this site's."""
    return given if given and GAME_PAGE.fullmatch(given) else None


class SignupForm(Login):
    """The sign-up form: the API's name and password, the password typed twice, the browser's
    claim as the page's script put it in the form (JSON text, read by ``_claim``)."""

    again: StrictStr = Field(max_length=1000)
    claim: StrictStr = Field(default="", max_length=200_000)


class RecoverForm(Recovery):
    """The recovery form: the API's fields, the new password typed twice."""

    again: StrictStr = Field(max_length=1000)


async def _parsed(request: Request, form: type[FormT]) -> tuple[FormT | None, str, str]:
    """The form posted, or None with the refusal in words; and the name typed, to show again."""
    try:
        fields = await form_fields(request)
    except WebError as error:
        return None, "", error.detail
    name = str(fields.get("name", "")).strip()[:200]
    try:
        return parse_form(form, fields), name, ""
    except WebError as error:
        return None, name, error.detail


def _same_twice(password: str, again: str) -> None:
    if password != again:
        raise WebError(400, "bad_password", "the two passwords differ: type the same twice")


def _form(request: Request, page: str, status: int = 200, **context: Any) -> Response:
    context = {"name_rule": NAME_RULE, "shortest": PASSWORD_LENGTHS[0], **context}
    return templates.TemplateResponse(request, page, context, status_code=status)


def _claim(text: str) -> Claim | None:
    """The browser's games, light identity and ladder results, as its script put them in the
    form (JSON); results this server does not take are left out, anything else claims nothing."""
    try:
        given = json.loads(text) if text else None
        if not isinstance(given, dict):
            return None
        try:
            return Claim.model_validate(given)
        except ValidationError:
            return Claim.model_validate({**given, "ladder": None})
    except (ValueError, ValidationError):
        return None


@pages.get("/signup", response_class=HTMLResponse, dependencies=[PAGE])
async def signup_form(request: Request) -> Response:
    return _form(request, "signup.html")


@pages.post("/signup", response_class=HTMLResponse)
async def signup(request: Request, _payer: SignupPayer) -> Response:
    form, name, refused = await _parsed(request, SignupForm)
    if form is None:
        return _form(request, "signup.html", 422, error=refused, name=name)
    response = HTMLResponse()
    try:
        _same_twice(form.password, form.again)
        account, codes = await sign_up(
            request, response, form.name.strip(), form.password, _claim(form.claim)
        )
    except WebError as error:
        return _form(request, "signup.html", error.status, error=error.detail, name=name)
    # The codes are shown this once (no redirect: a reload shows nothing again).
    page = templates.TemplateResponse(
        request, "signed_up.html", {"account": account, "codes": codes}
    )
    page.raw_headers.extend(h for h in response.raw_headers if h[0] == b"set-cookie")
    return page


@pages.get("/login", response_class=HTMLResponse, dependencies=[PAGE])
async def login_form(request: Request) -> Response:
    return _form(request, "login.html", next=_back_to(request.query_params.get("next")))


@pages.post("/login", response_class=HTMLResponse)
async def login(request: Request, payer: LoginPayer) -> Response:
    form, name, refused = await _parsed(request, LoginForm)
    if form is None:
        return _form(request, "login.html", 422, error=refused, name=name)
    back = _back_to(form.next)
    response = RedirectResponse(back or "/mine", status_code=303)
    try:
        await log_in(request, response, payer, form.name.strip(), form.password)
    except WebError as error:
        return _form(request, "login.html", error.status, error=error.detail, name=name, next=back)
    return response


@pages.post("/logout")
async def logout(request: Request, _payer: SessionPayer) -> Response:
    response = RedirectResponse("/", status_code=303)
    await end_session(request, response)
    return response


@pages.get("/recover", response_class=HTMLResponse, dependencies=[PAGE])
async def recover_form(request: Request) -> Response:
    return _form(request, "recover.html")


@pages.post("/recover", response_class=HTMLResponse)
async def recover_account(request: Request, payer: LoginPayer) -> Response:
    form, name, refused = await _parsed(request, RecoverForm)
    if form is None:
        return _form(request, "recover.html", 422, error=refused, name=name)
    response = RedirectResponse("/mine", status_code=303)
    try:
        _same_twice(form.password, form.again)
        await recover(request, response, payer, form.name.strip(), form.code, form.password)
    except WebError as error:
        return _form(request, "recover.html", error.status, error=error.detail, name=name)
    return response


# ----- the account's settings ----------------------------------------------------------------


class PasswordForm(BaseModel):
    """The change of password: the current one, the new one typed twice."""

    model_config = ConfigDict(extra="forbid")

    current: StrictStr = Field(max_length=1000)
    password: StrictStr = Field(max_length=1000)
    again: StrictStr = Field(max_length=1000)


class ConfirmForm(BaseModel):
    """A change that asks for the account's password first (new recovery codes)."""

    model_config = ConfigDict(extra="forbid")

    current: StrictStr = Field(max_length=1000)


class PasskeyForm(BaseModel):
    """Which of the account's passkeys to remove."""

    model_config = ConfigDict(extra="forbid")

    credential: StrictStr = Field(max_length=1400)


async def _settings(
    request: Request, account: Account, status: int = 200, **context: Any
) -> Response:
    passkeys: PasskeyStore = request.app.state.passkeys
    listed = await in_store(request, passkeys.passkey_list, account.id)
    left = await in_store(request, account_store(request).recovery_codes_left, account.id)
    keys = [
        {"id": key, "short": key[:10], "added": time.strftime("%d %B %Y", time.gmtime(added))}
        for key, added in listed
    ]
    return _form(request, "account.html", status, passkeys=keys, codes_left=left, **context)


async def _signed_in_or_login(request: Request) -> Account | Response:
    account = await signed_in(request)
    return RedirectResponse("/login", status_code=303) if account is None else account


@pages.get("/account", response_class=HTMLResponse, dependencies=[PAGE])
async def settings_page(request: Request) -> Response:
    account = await _signed_in_or_login(request)
    if not isinstance(account, Account):
        return account
    done = {"password": "Your password is changed. Every other device was logged out."}
    return await _settings(request, account, done=done.get(request.query_params.get("done", "")))


@pages.post("/account/password", response_class=HTMLResponse)
async def change_password_form(request: Request, payer: LoginPayer) -> Response:
    account = await _signed_in_or_login(request)
    if not isinstance(account, Account):
        return account
    form, _name, refused = await _parsed(request, PasswordForm)
    if form is None:
        return await _settings(request, account, 422, password_error=refused)
    response = RedirectResponse("/account?done=password", status_code=303)
    try:
        _same_twice(form.password, form.again)
        await change_password(request, response, payer, account, form.current, form.password)
    except WebError as error:
        return await _settings(request, account, error.status, password_error=error.detail)
    return response


@pages.post("/account/recovery-codes", response_class=HTMLResponse)
async def new_codes_form(request: Request, payer: LoginPayer) -> Response:
    account = await _signed_in_or_login(request)
    if not isinstance(account, Account):
        return account
    form, _name, refused = await _parsed(request, ConfirmForm)
    if form is None:
        return await _settings(request, account, 422, codes_error=refused)
    try:
        codes = await new_recovery_codes(request, payer, account, form.current)
    except WebError as error:
        return await _settings(request, account, error.status, codes_error=error.detail)
    # Shown this once (no redirect: a reload shows them no more).
    return await _settings(request, account, new_codes=codes)


@pages.post("/account/passkeys/remove", response_class=HTMLResponse)
async def remove_passkey_form(request: Request, _payer: SessionPayer) -> Response:
    account = await _signed_in_or_login(request)
    if not isinstance(account, Account):
        return account
    form, _name, refused = await _parsed(request, PasskeyForm)
    passkeys: PasskeyStore = request.app.state.passkeys
    if form is None or not await in_store(
        request, passkeys.remove_passkey, account.id, form.credential
    ):
        why = refused or "that passkey is not one of this account's: nothing was removed"
        return await _settings(request, account, 404 if form else 422, passkey_error=why)
    return RedirectResponse("/account", status_code=303)


@pages.post("/account/logout-everywhere")
async def log_out_everywhere_form(request: Request, _payer: SessionPayer) -> Response:
    account = await _signed_in_or_login(request)
    if not isinstance(account, Account):
        return account
    response = RedirectResponse("/", status_code=303)
    await log_out_everywhere(request, response, account)
    return response
