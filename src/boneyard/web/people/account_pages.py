"""The accounts' pages: sign up (the recovery codes shown once), log in, log out, recover.

Plain forms posted to the server (Post/Redirect/Get where nothing is to be shown once); the
same functions as the API (``accounts.py``) do the work, with the same charges. A form posted
from another site is refused by the guard's ``Origin`` check before it reaches these.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field, StrictStr, ValidationError

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import (
    PAGE,
    GuardedRouter,
    LoginPayer,
    SessionPayer,
    SignupPayer,
)
from boneyard.web.guard.signin import end_session
from boneyard.web.pages.routes import templates
from boneyard.web.people.accounts import (
    NAME_RULE,
    PASSWORD_LENGTHS,
    Claim,
    Login,
    Recovery,
    log_in,
    recover,
    sign_up,
)
from boneyard.web.schemas import FormT, form_fields, parse_form

pages = GuardedRouter(include_in_schema=False)


class LoginForm(Login):
    """The log-in form, in the API's types."""


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
    return _form(request, "login.html")


@pages.post("/login", response_class=HTMLResponse)
async def login(request: Request, payer: LoginPayer) -> Response:
    form, name, refused = await _parsed(request, LoginForm)
    if form is None:
        return _form(request, "login.html", 422, error=refused, name=name)
    response = RedirectResponse("/mine", status_code=303)
    try:
        await log_in(request, response, payer, form.name.strip(), form.password)
    except WebError as error:
        return _form(request, "login.html", error.status, error=error.detail, name=name)
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
