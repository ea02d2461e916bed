"""Who a client is: the one key every budget, queue and share of the guard is counted by.

A client is its account where it is signed in (``account:<id>``), else the network its address
belongs to (``net:<network>``): an IPv4 address's /24, an IPv6 address's /64, so that the many
addresses one attacker holds in one network (a cloud host's block, a home's IPv6 prefix) count
as one client, as Cloudflare's and lichess's per-network accounting does. An IPv4 address
mapped into IPv6 (``::ffff:192.0.2.7``) is its IPv4 network. An address that is not an IP (a
test client's name, a Unix socket) is its own client.

The address is the connection's, or the one a trusted proxy names (``X-Forwarded-For``, taken
by uvicorn only from ``boneyard serve --trusted-proxy``'s proxies: ``budgets.client_address``),
so a header from anyone else cannot choose the key.

Every charge of the guard is meant to be counted by ``client_key``: the log-in and recovery
budgets and the password hashing queue are (``LoginPayer``, ``web/guard/passwords.py``); the
other budgets, queues and connection shares use the same function as they move to it. What an
account could multiply is counted by ``network_key`` whoever is signed in: sign-ups
(``SignupPayer``: each would be a new account with a budget of its own) and failed log-ins and
tries on a name (``Budgets.charge_name``), so an attacker's many accounts guess no faster than
one network.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from boneyard.web.guard.budgets import Budgets, Charge, Payer, Spend, client_address
from boneyard.web.guard.signin import signed_in
from boneyard.web.networks import network_of


def network_key(connection: HTTPConnection) -> str:
    """The client key of the connection's network, whoever is signed in (``net:...``)."""
    return f"net:{network_of(client_address(connection))}"


async def client_key(connection: HTTPConnection) -> str:
    """Who the connection's client is: ``account:<id>`` where it is signed in, else its
    network's key (``network_key``)."""
    account = await signed_in(connection)
    if account is not None:
        return f"account:{account.id}"
    return network_key(connection)


class ClientCharge(Charge):
    """A route's charge counted by ``client_key`` (an account, else a network) instead of the
    bare address; ``by_network``: by ``network_key`` whoever is signed in."""

    def __init__(self, spend: Spend, *, by_network: bool = False) -> None:
        super().__init__(spend)
        self.by_network = by_network

    async def __call__(self, request: Request) -> Payer:
        budgets: Budgets = request.app.state.budgets
        key = network_key(request) if self.by_network else await client_key(request)
        payer = Payer(key, budgets)
        if budgets.shares(self.spend):  # a round trip to the database: off the event loop
            await asyncio.to_thread(budgets.charge, payer.client, self.spend)
        else:
            budgets.charge(payer.client, self.spend)
        return payer


SignupPayer = Annotated[Payer, Depends(ClientCharge(Spend.SIGNUP, by_network=True))]
"""A route parameter: the request is charged one sign-up, to its network (``network_key``):
never to an account, since each sign-up is a new account that would bring a budget of its own."""
LoginPayer = Annotated[Payer, Depends(ClientCharge(Spend.LOGIN))]
"""A route parameter: the request is charged one log-in try (a password, a recovery code or a
passkey), to its client (``client_key``); its failures are counted by network as well."""
