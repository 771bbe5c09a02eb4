"""The whole suite's fixtures, and its rule that a run leaves no process behind.

Every process a run starts (server processes, bot workers, forkservers, resource
trackers, tmux, ssh) inherits `RUN_MARK` from pytest's environment. When the session
ends, after every fixture is torn down, pytest's own forkserver and resource tracker
are stopped (they served the bot pools, shut down by now) and every process still
carrying the mark is waited for, at most `LEFTOVER_WAIT` seconds (the environment
variable SPLENDOR_LEFTOVER_WAIT sets it). Any left then is listed, killed, and fails
the run. Under pytest-xdist (`-n`) every worker keeps the mark of the run that
started it and stops its own helpers; the controller, whose verdict alone counts,
looks once they are all done. Without /proc (not Linux) there is no check.
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from server.host.bots import process_pool
from server.store import default_url

RUN_MARK = "SPLENDOR_TEST_RUN"  # its value names one run: pytest's pid and a random tag
# Seconds processes get to end once the session is over (a killed server's helpers take ~1 s).
LEFTOVER_WAIT = float(os.environ.get("SPLENDOR_LEFTOVER_WAIT", "15"))


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A PostgreSQL server of the run's own (`server.store.pgtemp.PgCluster`), started on first
    use."""
    from server.store.pgtemp import PgCluster, bin_dir

    bindir = bin_dir()
    if bindir is None:
        pytest.skip("PostgreSQL's server is not installed here (.ci/run installs it)")
    cluster = PgCluster(bindir)
    cluster.init()
    cluster.start()
    yield cluster
    cluster.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database on each backend, as a URL."""
    if request.param == "sqlite":
        return default_url(tmp_path / "db")
    return str(request.getfixturevalue("postgres").create_database())


@pytest.fixture(scope="session")
def bot_executor() -> Iterator[ProcessPoolExecutor]:
    """The bots' process pool for the host and game tests (starting workers is the slow
    part), at normal priority."""
    pool = process_pool(1, niceness=0)
    yield pool
    pool.shutdown(wait=True, cancel_futures=True)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two test processes per core. Most of the suite's time is spent waiting
    (for server processes to start, for a screen to show a move, for PostgreSQL), so one
    process per core left the cores half idle."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 * (cores or 1)


def pytest_configure(config: pytest.Config) -> None:
    if not (_is_worker(config) and RUN_MARK in os.environ):
        os.environ[RUN_MARK] = f"{os.getpid()}-{secrets.token_hex(4)}"


def _is_worker(config: pytest.Config) -> bool:
    """An xdist worker (`pytest -n`): it keeps the mark of the run that started it."""
    return hasattr(config, "workerinput")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if a process it started is still running (see the module docstring)."""
    if not Path("/proc").is_dir():
        return  # no /proc (not Linux): nothing to look through
    _stop_multiprocessing_helpers()
    if _is_worker(session.config):
        return  # the controller looks once every worker is done: it alone can fail the run
    left = _wait_for_leftovers(LEFTOVER_WAIT)  # xdist has ended its workers by now
    if not left:
        return
    lines = [f"pid {pid} {what}" for pid, what in sorted(left.items())]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    title = f"processes started by this run and still running (now killed): {len(left)}"
    if reporter is not None:
        reporter.write_line("")
        reporter.write_sep("=", title, red=True)
        for line in lines:
            reporter.write_line(line)
    else:
        print(title, *lines, sep="\n", file=sys.stderr)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _stop_multiprocessing_helpers() -> None:
    """End this process's forkserver and resource tracker, which otherwise live until
    pytest exits. The standard library has no public way: `_stop` is what its own tests
    use. Each waits for its process, so each runs in a thread waited for at most
    `LEFTOVER_WAIT` (a pool never shut down keeps the forkserver up: it is then reported)."""
    from multiprocessing import forkserver, resource_tracker

    for stop in (forkserver._forkserver._stop, resource_tracker._resource_tracker._stop):
        thread = threading.Thread(target=stop, daemon=True)
        thread.start()
        thread.join(LEFTOVER_WAIT)


def _wait_for_leftovers(timeout: float) -> dict[int, str]:
    """The processes of this run still running after up to `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        left = _marked_processes()
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def _marked_processes() -> dict[int, str]:
    """Every running process but this one whose environment carries this run's mark, with
    its parent and command line. (A zombie's environment reads empty: it is not running.)"""
    mark = f"{RUN_MARK}={os.environ[RUN_MARK]}".encode()
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark not in Path(entry.path, "environ").read_bytes().split(b"\0"):
                continue
            stat = Path(entry.path, "stat").read_text()
            command = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        parent = stat.rsplit(")", 1)[1].split()[1]
        found[int(entry.name)] = f"(parent {parent}): {command.decode(errors='replace')[:200]}"
    return found
