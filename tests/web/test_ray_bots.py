"""Bots on a Ray cluster (``--bots ray://HOST:PORT``, web/ray_bots.py): a throwaway Ray head
on this machine, a person against the computer, a worker killed mid-move, a task past its time.

One head serves every scenario (it takes seconds to start). It has its own temporary
directory, ports and process group, and every process it started is ended afterwards, on failure
too (and by a watchdog when the test process itself is killed); the ``/tmp/ray`` of other
clusters is never touched.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from fastapi.testclient import TestClient

from boneyard.cli import main
from boneyard.cli.serve import serve
from boneyard.web.compute.bots import COMPUTER_MOVE
from boneyard.web.compute.ray_bots import RayBots
from tests.web.conftest import create, make_app, token
from tests.web.slow_bot import think_too_long

ROOT = Path(__file__).resolve().parents[2]
RAY = Path(sys.executable).with_name("ray")
if not RAY.exists():  # (Ray's command beside another interpreter)
    RAY = Path(shutil.which("ray") or "ray")
START_SECONDS = 120.0
"""How long the head may take to start on a loaded two-core machine."""


@dataclass
class RayHead:
    process: subprocess.Popen[bytes]
    address: str
    """``ray://127.0.0.1:PORT``: its Ray Client server."""


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for probe in sockets:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in sockets]
    finally:
        for probe in sockets:
            probe.close()


def _descendants(root: int) -> list[int]:
    """Every process below ``root`` (read from /proc: Ray's workers are the raylet's children)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _title(pid: int) -> str:
    """A process's command line; a Ray worker's reads ``ray::FUNCTION`` while it runs a task."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _ended(pids: Iterable[int], seconds: float) -> bool:
    """Whether every one of ``pids`` has ended within ``seconds`` (a killed process takes a
    moment to release its memory)."""
    deadline = time.monotonic() + seconds
    while any(_alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _workers_running(head: RayHead, function: str) -> list[int]:
    return [
        pid for pid in _descendants(head.process.pid) if _title(pid).startswith(f"ray::{function}")
    ]


def _stop(process: subprocess.Popen[bytes], temp: Path) -> None:
    """End the head and everything it started, found by descent (not by name: other clusters
    may run here), and remove its directory ``temp``. SIGKILL: its state is thrown away with
    its directory, and Ray's orderly stop takes seconds."""
    started = set(_descendants(process.pid))
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    for pid in started:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(timeout=30)
    if process.stdin is not None:
        process.stdin.close()
    _ended(started, 30)
    shutil.rmtree(temp, ignore_errors=True)


@contextlib.contextmanager
def ray_head() -> Iterator[RayHead]:
    """A Ray head of one CPU on loopback, for the test's duration. One that does not start in
    ``START_SECONDS`` (once seen on the loaded machine) is stopped and started again, once, on
    other ports."""
    tails = []
    for _attempt in range(2):
        process, client, temp, tail = _start_head()
        if process is not None:
            break
        tails.append(tail)
    else:
        pytest.fail("the Ray head did not start, twice:\n" + "\n----\n".join(tails))
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("RAY_AUTH_MODE", "disabled")
            patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
            yield RayHead(process, f"ray://127.0.0.1:{client}")
    finally:
        _stop(process, temp)


def _start_head() -> tuple[subprocess.Popen[bytes] | None, int, Path, str]:
    """A started head, its client port and its directory; or None and the end of its log."""
    # A short directory: Ray's Unix sockets live below it and their paths are limited to 107
    # bytes, which pytest's temporary directories come close to.
    temp = Path(tempfile.mkdtemp(prefix="by-ray-", dir="/tmp"))
    gcs, client, dashboard, agent, agent_grpc, nodes, objects, metrics, env_agent = _free_ports(9)
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        "RAY_USAGE_STATS_ENABLED": "0",
        # A cluster of seconds on loopback; token authentication would be read from this
        # process's home otherwise (and cached by Ray for the whole test process).
        "RAY_AUTH_MODE": "disabled",
    }
    log = (temp / "head.log").open("wb")
    process = subprocess.Popen(
        [
            # A watchdog leads the head's process group: when this test process ends however
            # it ends (even killed), the pipe to it closes and it kills the whole group.
            "sh",
            "-c",
            '"$@" & cat > /dev/null; kill -KILL 0',
            "ray-head",
            str(RAY),
            "start",
            "--head",
            "--block",
            f"--temp-dir={temp}",
            "--node-ip-address=127.0.0.1",
            f"--port={gcs}",
            f"--ray-client-server-port={client}",
            "--include-dashboard=false",
            f"--dashboard-port={dashboard}",
            f"--dashboard-agent-listen-port={agent}",
            f"--dashboard-agent-grpc-port={agent_grpc}",
            f"--node-manager-port={nodes}",
            f"--object-manager-port={objects}",
            f"--metrics-export-port={metrics}",
            f"--runtime-env-agent-port={env_agent}",
            "--num-cpus=1",
            "--object-store-memory=80000000",
            "--disable-usage-stats",
        ],
        env=environment,
        stdin=subprocess.PIPE,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()  # (the head writes to its own copy)
    deadline = time.monotonic() + START_SECONDS
    while b"Ray runtime started" not in (temp / "head.log").read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            tail = (temp / "head.log").read_text(errors="replace")[-3000:]
            _stop(process, temp)
            return None, client, temp, tail
        time.sleep(0.2)
    return process, client, temp, ""


def _play_first(client: TestClient, created: dict[str, Any]) -> int:
    """The person (seat 0) plays a legal move once it is their turn; the seq after it."""
    path = f"/api/games/{created['id']}"
    view = _wait_for_turn(client, created, 0)
    body = {"token": token(created, 0), "seq": view["seq"], "action": view["legal"][0]["id"]}
    answer = client.post(path + "/actions", json=body)
    assert answer.status_code == 200, answer.text
    return int(view["seq"]) + 1


def _wait_for_turn(client: TestClient, created: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seat``'s view once it is to move (the computer has answered)."""
    path = f"/api/games/{created['id']}"
    deadline = time.monotonic() + 90
    while True:
        view: dict[str, Any] = client.get(path, params={"token": token(created, seat)}).json()
        if view["current_player"] == seat:
            return view
        assert time.monotonic() < deadline, "the computer did not move"
        time.sleep(0.1)


def test_bots_on_a_ray_cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One head and one connection for every scenario (each takes seconds to start; apart,
    pytest-xdist would start one for each). The first try to connect fails, as Ray's client
    server sometimes does on a loaded machine: the next is made and succeeds."""
    connect = RayBots._connect
    tries: list[str] = []

    def first_fails(self: RayBots) -> Any:
        tries.append(self.address)
        if len(tries) == 1:
            raise ConnectionError("Starting Ray client server failed (a test's first try)")
        return connect(self)

    monkeypatch.setattr(RayBots, "_connect", first_fails)
    with ray_head() as head:
        app = make_app(
            tmp_path / "web.db", bots=head.address, bot_time_limit=1.5, hint_interval=0.0
        )
        with TestClient(app) as client:
            bots = app.state.manager.bots
            assert isinstance(bots, RayBots), "no bot worker of its own"
            _ready_once_connected(client, head.address)
            assert len(tries) >= 2, "connected after the failed first try"
            assert bots.gate.slots == 1, "as many tasks at once as the cluster has CPUs"
            _the_computer_replies_and_a_hint_arrives(client)
            _a_move_whose_worker_dies_is_computed_again_and_played_once(head, client)
            _a_task_past_its_time_is_cancelled_and_its_worker_ended(head, client, bots)
            _two_processes_ask_and_one_answer_is_played(head, client, tmp_path / "web.db")
        started = _descendants(head.process.pid)
    assert started and head.process.poll() is not None
    assert _ended(started, 30), "every Ray process ended"


def _ready_once_connected(client: TestClient, address: str) -> None:
    deadline = time.monotonic() + 60
    while (answer := client.get("/readyz")).json() != {"status": "ready"}:
        status, said = answer.status_code, answer.json().get("detail") or answer.json()["degraded"]
        # Connecting (not ready), or after a try that failed, ready while this process's own
        # workers think (the next try is made at the next probe).
        first = "the computer players cannot move: connecting to the Ray cluster"
        here = "the computer thinks on this process's own workers: "
        assert (status == 503 and said.startswith(first)) or (
            status == 200 and said.startswith(here) and address in said
        ), (status, said)
        assert time.monotonic() < deadline, "the web process connected to the cluster"
        time.sleep(0.2)


def _readiness(client: TestClient) -> tuple[int, str]:
    """``/readyz``'s status and what it says: why not ready, or why ready but degraded."""
    answer = client.get("/readyz")
    body = answer.json()
    return answer.status_code, body.get("detail") or body.get("degraded") or ""


def test_ready_but_degraded_while_the_ray_cluster_cannot_be_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer goes on thinking on this process's own workers: the process stays ready
    (no proxy keeps the players away from moves that still get answered) and says why."""
    tries = []

    def refused(self: RayBots) -> None:
        tries.append(self.address)
        raise ConnectionError("ray client connection timeout")

    monkeypatch.setattr(RayBots, "_connect", refused)
    address = "ray://127.0.0.1:1"
    with TestClient(make_app(tmp_path / "web.db", bots=address)) as client:
        deadline = time.monotonic() + 30
        while "connecting" in (said := _readiness(client))[1]:
            assert said[0] == 503, "a first connection is waited for: not ready yet"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert said == (
            200,
            "the computer thinks on this process's own workers: the Ray cluster at "
            f"{address} cannot be reached (ray client connection timeout)",
        )
        # That look began the next try, on the connection's own thread: it comes in a moment.
        while len(tries) < 2:
            assert time.monotonic() < deadline, "each look after a failure tries to connect again"
            time.sleep(0.05)
        assert client.get("/healthz").status_code == 200


def test_not_ready_while_the_ray_cluster_cannot_be_reached_and_nothing_thinks_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(self: RayBots) -> None:
        raise ConnectionError("ray client connection timeout")

    monkeypatch.setattr(RayBots, "_connect", refused)
    address = "ray://127.0.0.1:1"
    with TestClient(make_app(tmp_path / "web.db", bots=address)) as client:
        bots = client.app.state.manager.bots  # type: ignore[attr-defined]
        bots._make_local = None  # a runner made without local workers to fall back on
        deadline = time.monotonic() + 30
        while "connecting" in (said := _readiness(client))[1]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert said == (
            503,
            f"the computer players cannot move: the Ray cluster at {address} cannot be "
            "reached (ray client connection timeout)",
        )


def _the_computer_replies_and_a_hint_arrives(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
    created = create(client, "obonto", seats=seats)
    path = f"/api/games/{created['id']}"
    after = _play_first(client, created)
    view = _wait_for_turn(client, created, 0)
    assert view["seq"] == after + 1 and view["log"][after]["player"] == 1
    hint = client.post(path + "/hint", json={"token": token(created, 0)})
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] in {item["id"] for item in view["legal"]}
    bot_time = client.get("/metrics").text
    assert 'boneyard_bot_seconds_count{kind="move"}' in bot_time
    assert 'boneyard_bot_seconds_count{kind="hint"} 1.0' in bot_time


def _a_move_whose_worker_dies_is_computed_again_and_played_once(
    head: RayHead, client: TestClient
) -> None:
    # hard thinks for its whole budget (1.5 s): time to find its worker and kill it.
    seats = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]
    created = create(client, "obonto", seats=seats)
    path = f"/api/games/{created['id']}"
    after = _play_first(client, created)
    deadline = time.monotonic() + 60
    while not (running := _workers_running(head, "bot_move")):
        assert time.monotonic() < deadline, "no Ray worker took the computer's move"
        assert client.get(path).json()["seq"] == after, "it moved before it could be killed"
        time.sleep(0.05)
    os.kill(running[0], signal.SIGKILL)
    view = _wait_for_turn(client, created, 0)
    # One computer move after the person's, none lost and none twice.
    assert view["seq"] == after + 1
    assert [entry["player"] for entry in view["log"][after - 1 :]] == [0, 1]
    assert _ended(running[:1], 10)


def _two_processes_ask_and_one_answer_is_played(
    head: RayHead, client: TestClient, db: Path
) -> None:
    """A second web process on the same store holds the game too: both ask the cluster for the
    computer's move, and the store's unique ``(game, seq)`` keeps the later answer out, from
    whichever process it comes."""
    with TestClient(make_app(db, bots=head.address, bot_time_limit=1.5)) as other:
        _ready_once_connected(other, head.address)
        seats = [{"kind": "human"}, {"kind": "computer", "level": "hard"}]
        before = _moves_stored(client) + _moves_stored(other)
        created = create(client, "obonto", seats=seats)
        path = f"/api/games/{created['id']}"
        after = _play_first(client, created)
        assert other.get(path).json()["seq"] == after  # (it catches up and asks too)
        view = _wait_for_turn(client, created, 0)
        deadline = time.monotonic() + 60
        while 'boneyard_bot_seconds_count{kind="move"} 1.0' not in other.get("/metrics").text:
            assert time.monotonic() < deadline, "the second process got its answer"
            time.sleep(0.1)
        assert view["seq"] == after + 1
        assert [entry["player"] for entry in view["log"][after - 1 :]] == [0, 1]
        assert other.get(path).json()["log"] == client.get(path).json()["log"]
        moves = [_moves_stored(process) for process in (client, other)]
        assert moves[0] >= 1 and sum(moves) == before + 2, "the person's move and one answer"


def _moves_stored(client: TestClient) -> float:
    """The moves this process accepted and stored (its metrics)."""
    found = re.search(r"^boneyard_moves_total (\S+)$", client.get("/metrics").text, re.MULTILINE)
    assert found, "the metrics count stored moves"
    return float(found[1])


def _a_task_past_its_time_is_cancelled_and_its_worker_ended(
    head: RayHead, client: TestClient, bots: RayBots
) -> None:
    bots.slack = 3.0  # (time for a worker to take it; then it is past its time)
    assert client.portal is not None
    answer = client.portal.start_task_soon(bots.run, COMPUTER_MOVE, 0.1, think_too_long, 60.0)
    seen: set[int] = set()
    while not answer.done():
        seen.update(_workers_running(head, "think_too_long"))
        time.sleep(0.05)
    with pytest.raises(TimeoutError, match="took longer than"):
        answer.result()
    assert seen, "a worker was thinking about it"
    assert bots.depth() == 0
    assert _ended(seen, 30), "the cancelled task's worker ended"


def test_the_compose_overlay_points_both_web_processes_at_the_ray_cluster() -> None:
    services = yaml.safe_load((ROOT / "deploy" / "compose.ray.yaml").read_text())["services"]
    assert "--ray-client-server-port=10001" in services["ray-head"]["command"]
    assert "--address=ray-head:6379" in services["ray-worker"]["command"]
    for name in ("web1", "web2"):
        command = services[name]["command"]
        assert command[:2] == ["boneyard", "serve"] and "--bots=ray://ray-head:10001" in command
        serve.make_context("serve", list(command[2:]))  # real options (raises otherwise)
        assert services[name]["environment"] == services["ray-head"]["environment"]
    assert services["ray-head"]["environment"]["RAY_AUTH_MODE"] == "token"
    assert services["bots"]["profiles"] == ["queue"], "no job-queue worker by default"


def test_serve_takes_a_ray_address_and_refuses_anything_else() -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["serve", "--bots", "cluster"])
    assert bad.exit_code != 0 and "ray://HOST:PORT" in bad.output
    assert "ray://HOST:PORT" in runner.invoke(main, ["serve", "--help"]).output


def test_a_lost_cluster_degrades_to_this_processes_own_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The head is gone: the computer thinks here at its level (not its first legal move),
    and while the next connection is tried (Ray Client gives up only after ~30 s) its moves
    do not wait for it."""
    import threading

    tries: list[float] = []
    head_back = threading.Event()

    def gone(self: RayBots) -> None:
        tries.append(time.monotonic())
        if len(tries) > 1:  # the next try hangs, as Ray Client's does on a head that is gone
            head_back.wait(60)
        raise ConnectionError("ray client connection timeout")

    monkeypatch.setattr(RayBots, "_connect", gone)
    caplog.set_level(logging.WARNING, logger="boneyard")
    app = make_app(tmp_path / "web.db", bots="ray://127.0.0.1:1", bot_processes=1)
    try:
        with TestClient(app) as client:
            bots = client.app.state.manager.bots  # type: ignore[attr-defined]
            seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}]
            created = create(client, "obonto", seats=seats)
            for _ in range(3):
                after = _play_first(client, created)
                view = _wait_for_turn(client, created, 0)
                assert view["seq"] == after + 1 and view["log"][after]["player"] == 1
            assert len(tries) >= 2 and not head_back.is_set()  # one try hangs the whole time
            assert bots.local_runs >= 3  # (each of its moves, and what else it thought)
            head_back.set()
    finally:
        head_back.set()
    said = [record.getMessage() for record in caplog.records]
    assert not any("first legal move" in line for line in said), said
    assert any("own workers think instead" in line for line in said)


def test_a_refused_authentication_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray Client retries a refused token until it times out and then says only "connection
    timeout"; the reason of each try, which it logs at debug level, is read and said."""
    import ray

    def refused(*_args: Any, **_options: Any) -> None:
        worker = logging.getLogger("ray.util.client.worker")
        worker.debug("Ray client server unavailable, retrying in 5s...")
        worker.debug("Received when checking init: Invalid or missing authentication token")
        raise ConnectionError("ray client connection timeout")

    monkeypatch.setattr(ray, "init", refused)
    address = "ray://127.0.0.1:1"
    with TestClient(make_app(tmp_path / "web.db", bots=address)) as client:
        deadline = time.monotonic() + 30
        while "connecting" in (detail := _readiness(client)[1]):
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert "refused this process's authentication token" in detail
    assert "RAY_AUTH_TOKEN" in detail and "connection timeout" not in detail
