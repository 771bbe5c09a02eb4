"""The suite's rule (tests/conftest.py): a run that leaves a process running fails, and
says which."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

LEAKY_TEST = """
import subprocess
from pathlib import Path


def test_that_leaves_a_process_running():
    child = subprocess.Popen(["sleep", "300"])
    Path("child.pid").write_text(str(child.pid))
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="the check reads /proc")
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_run_that_leaves_a_process_behind_fails_and_names_it(
    tmp_path: Path, workers: list[str]
) -> None:
    """In one process, and under pytest-xdist, where a worker started the process (and
    has ended by the time the run is judged)."""
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_leaky.py").write_text(LEAKY_TEST)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:asyncio"]
        + workers,
        cwd=tmp_path,
        env={**os.environ, "SPLENDOR_LEFTOVER_WAIT": "0.5"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    pid = int((tmp_path / "child.pid").read_text())
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
    assert "1 passed" in run.stdout
    assert "processes started by this run and still running (now killed): 1" in run.stdout
    assert re.search(rf"^pid {pid} \(parent \d+\): sleep 300 $", run.stdout, re.MULTILINE)
    assert not running(pid)


def running(pid: int) -> bool:
    """Whether `pid` is a process that runs (not gone, not a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
