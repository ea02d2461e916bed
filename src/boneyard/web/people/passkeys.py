"""Passkeys (WebAuthn, through the ``webauthn`` package): an account may add passkeys and log in
with one, without its name or password.

The relying party is the name the page was served under (``Host``, which the guard checks
against ``allowed_hosts``), the expected origin that name with the page's scheme. A passkey is
made discoverable (resident), so the log-in page asks for no name. Each ceremony has a one-time
challenge kept in the database (``web/store/passkeys.py``).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from boneyard.web.errors import WebError
from boneyard.web.guard.budgets import GuardedRouter, SessionPayer
from boneyard.web.guard.clients import LoginPayer
from boneyard.web.guard.signin import account_store, in_store, remember_device, start_session
from boneyard.web.people.accounts import profile_url, require_account
from boneyard.web.play.routes import ERRORS
from boneyard.web.store.accounts import Account
from boneyard.web.store.passkeys import PasskeyStore

router = GuardedRouter(prefix="/api", responses=ERRORS)

RP_NAME = "boneyard"


class Ceremony(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: StrictStr = Field(max_length=64, description="The challenge's id, from its options.")
    credential: dict[str, Any] = Field(description="The browser's credential, as its toJSON().")


def _passkeys(request: Request) -> PasskeyStore:
    passkeys: PasskeyStore = request.app.state.passkeys
    return passkeys


def _relying_party(request: Request) -> tuple[str, str]:
    """``(rp id, expected origin)``: the name this page was served under."""
    host = request.url.hostname or "localhost"
    return host, f"{request.url.scheme}://{request.url.netloc}"


async def _challenge(request: Request, account_id: str | None) -> tuple[str, bytes]:
    challenge_id, challenge = secrets.token_urlsafe(12), secrets.token_bytes(32)
    await in_store(request, _passkeys(request).add_challenge, challenge_id, challenge, account_id)
    return challenge_id, challenge


async def _taken(request: Request, challenge_id: str) -> tuple[bytes, str | None]:
    found = await in_store(request, _passkeys(request).take_challenge, challenge_id)
    if found is None:
        raise WebError(409, "stale_challenge", "this passkey request is over: try again")
    return found


@router.post("/passkeys/options", summary="Start adding a passkey to the signed-in account")
async def passkey_options(request: Request, _payer: SessionPayer) -> dict[str, Any]:
    """``{"id", "options"}``: give ``options`` to ``navigator.credentials.create``."""
    account = await require_account(request)
    rp_id, _origin = _relying_party(request)
    known = await in_store(request, _passkeys(request).passkeys_of, account.id)
    challenge_id, challenge = await _challenge(request, account.id)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_id=account.id.encode(),
        user_name=account.name,
        challenge=challenge,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential)) for credential in known
        ],
    )
    return {"id": challenge_id, "options": json.loads(options_to_json(options))}


@router.post("/passkeys", status_code=201, summary="Add a passkey to the signed-in account")
async def add_passkey(body: Ceremony, request: Request, _payer: SessionPayer) -> dict[str, Any]:
    account = await require_account(request)
    challenge, owner = await _taken(request, body.id)
    if owner != account.id:
        raise WebError(409, "stale_challenge", "this passkey request is another's: try again")
    rp_id, origin = _relying_party(request)
    try:
        verified = verify_registration_response(
            credential=body.credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise WebError(
            400, "bad_passkey", "the device's answer did not hold: try again, or another device"
        ) from None
    credential_id = bytes_to_base64url(verified.credential_id)
    added = await in_store(
        request,
        _passkeys(request).add_passkey,
        credential_id,
        account.id,
        verified.credential_public_key,
        verified.sign_count,
    )
    if not added:
        raise WebError(409, "passkey_known", "this passkey is already an account's")
    count = len(await in_store(request, _passkeys(request).passkeys_of, account.id))
    return {"passkeys": count}


@router.post("/login/passkey/options", summary="Start a log-in with a passkey")
async def login_options(request: Request, _payer: LoginPayer) -> dict[str, Any]:
    """``{"id", "options"}``: give ``options`` to ``navigator.credentials.get``."""
    rp_id, _origin = _relying_party(request)
    challenge_id, challenge = await _challenge(request, None)
    options = generate_authentication_options(
        rp_id=rp_id, challenge=challenge, user_verification=UserVerificationRequirement.PREFERRED
    )
    return {"id": challenge_id, "options": json.loads(options_to_json(options))}


@router.post("/login/passkey", summary="Log in with a passkey: a new session cookie")
async def login_with_passkey(
    body: Ceremony, request: Request, response: Response, _payer: LoginPayer
) -> dict[str, Any]:
    """401 ``bad_login`` for a passkey this server does not know or whose proof fails."""
    challenge, _owner = await _taken(request, body.id)
    credential_id = str(body.credential.get("id", ""))[:1400]
    found = await in_store(request, _passkeys(request).passkey, credential_id)
    if found is None:
        raise WebError(401, "bad_login", "this passkey opens no account here")
    account_id, public_key, sign_count = found
    rp_id, origin = _relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=body.credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise WebError(401, "bad_login", "the passkey's proof did not hold") from None
    await in_store(request, _passkeys(request).used, credential_id, verified.new_sign_count)
    account: Account = await in_store(request, account_store(request).account, account_id)
    await start_session(request, response, account)
    await remember_device(request, response, account)
    return {"name": account.name, "url": profile_url(account.name)}
