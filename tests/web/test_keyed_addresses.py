"""What is kept of people's addresses: keyed hashes under the server's secret (``keys.py``),
in ``bot_jobs`` and ``owner_addresses``; never an address, nor a hash anyone could compute
for every address."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from boneyard.web.compute.jobs import JobQueue
from boneyard.web.store.accounts import AccountStore, OwnerAddressRow
from boneyard.web.store.games import Store
from boneyard.web.store.jobs import JobRow
from boneyard.web.store.keys import SECRET_ENV, keyed_hash
from tests.web.conftest import make_app

ADDRESS = "203.0.113.7"
NETWORK = "203.0.113.0/24"


@pytest.fixture(autouse=True)
def no_secret_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)


def test_a_job_keeps_its_clients_keyed_hash_not_its_address(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'jobs.db'}"
    store = Store(url)
    queue = JobQueue(store)
    mine = queue.submit("move", 0, ["easy", 1, 1, None, []], 1.0, ADDRESS)
    other = queue.submit("move", 0, ["easy", 1, 2, None, []], 1.0, "198.51.100.8")
    again = queue.submit("move", 0, ["easy", 1, 3, None, []], 1.0, ADDRESS)
    with store.engine.connect() as connection:
        kept = dict(connection.execute(select(JobRow.id, JobRow.client)).all())
    assert all(ADDRESS not in client and "203.0.113" not in client for client in kept.values())
    assert kept[mine] == kept[again] != kept[other]  # the turns still tell clients apart
    # a client is its network (web/networks.py): the key is of the network, never the address
    assert kept[mine] == keyed_hash(store.secret, "job client", NETWORK)[:64]
    # a second process on the database keys alike (the key file beside the database)
    assert Store(url).secret == store.secret
    key_file = tmp_path / "jobs.db.secret"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600


def test_an_owners_address_is_keyed_with_the_server_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "web.db"
    with TestClient(make_app(db), client=(ADDRESS, 50000)) as client:
        made = client.post("/api/accounts", json={"name": "Ann", "password": "a long password"})
        assert made.status_code == 201, made.text
        store = client.app.state.manager.store  # type: ignore[attr-defined]
        with store.engine.connect() as connection:
            [kept] = connection.execute(select(OwnerAddressRow.address_hash)).scalars().all()
    unkeyed = hashlib.sha256(f"boneyard account:ann\n{ADDRESS}".encode()).hexdigest()
    assert kept != unkeyed  # what anyone could compute for every address
    owners = f"net:{NETWORK}"  # the client key of the owner's network (guard/clients.py)
    assert kept == keyed_hash(store.secret, "owner address", f"ann\n{owners}")
    url = f"sqlite:///{db}"
    assert AccountStore(Store(url)).owner_address("Ann", owners)
    # under another key (another server, or a copy of the database without its key file)
    # the hash says nothing
    monkeypatch.setenv(SECRET_ENV, "another server's secret")
    elsewhere = AccountStore(Store(url))
    assert not elsewhere.owner_address("Ann", owners)
    # processes on several machines share the key given in the environment, not a file
    assert Store(url).secret == Store(f"sqlite:///{tmp_path / 'other.db'}").secret
    assert not (tmp_path / "other.db.secret").exists()
