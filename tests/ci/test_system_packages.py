"""``.ci/system-packages``: what the tests need from Debian, and ``make test`` stopping without it.

The script looks at a folder standing for ``/`` (``SYSTEM_PACKAGES_ROOT``), so these tests see a
bare machine and a ready one without touching this one; a bare machine that cannot install
(here: any machine seen through such a folder) gets one line naming the packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SCRIPT = REPOSITORY / ".ci" / "system-packages"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def run(command: list[str], root: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "SYSTEM_PACKAGES_ROOT": str(root)}
    return subprocess.run(
        command, cwd=REPOSITORY, env=environment, capture_output=True, text=True, timeout=60
    )


def test_a_bare_machine_gets_one_line_naming_what_to_install(tmp_path: Path) -> None:
    result = run([str(SCRIPT)], tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].endswith("apt-get install chromium libcairo2 postgresql")


def test_a_ready_machine_passes_quietly(tmp_path: Path) -> None:
    for present in (
        "usr/bin/chromium",
        "usr/lib/x86_64-linux-gnu/libcairo.so.2",
        "usr/lib/postgresql/15/bin/initdb",
    ):
        (tmp_path / present).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / present).touch(mode=0o755)
    result = run([str(SCRIPT)], tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_one_missing_package_is_named_alone(tmp_path: Path) -> None:
    (tmp_path / "usr/bin").mkdir(parents=True)
    (tmp_path / "usr/bin/chromium").touch(mode=0o755)
    (tmp_path / "usr/lib/postgresql/15/bin").mkdir(parents=True)
    (tmp_path / "usr/lib/postgresql/15/bin/initdb").touch(mode=0o755)
    result = run([str(SCRIPT)], tmp_path)
    assert result.returncode == 1 and result.stderr.strip().endswith("apt-get install libcairo2")


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_test_stops_at_once_on_a_bare_machine(tmp_path: Path) -> None:
    result = run(["make", "test"], tmp_path)
    assert result.returncode != 0
    assert "apt-get install chromium libcairo2 postgresql" in result.stderr
    assert "pip install" not in result.stdout + result.stderr, "nothing else started"
