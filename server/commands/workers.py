"""`splendor-server --workers N`: N full server processes on one port and one database.

The supervisor (this module) makes sure the host key exists, picks the port when it
is 0, and starts N workers: each is `splendor-server` itself with `--worker I`, which
listens with SO_REUSEPORT (the kernel spreads new connections over them) and runs
its own game host on the shared PostgreSQL database (docs/cluster.md). A worker that
dies is started again after a pause; SIGTERM (or Ctrl+C) is passed to every worker
and the supervisor exits once they have. Workers end with the supervisor, SIGKILL
included (a parent-death signal).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from ..front.config import Config

log = logging.getLogger("splendor")

RESTART_PAUSE = 1.0  # seconds before a worker that died is started again
START_WAIT = 60.0  # seconds every worker gets to start listening
PR_SET_PDEATHSIG = 1  # prctl(2)


def end_with_parent(parent: int) -> None:
    """In a worker: get SIGTERM when the supervisor dies, whatever kills it (Linux); if it
    died already, stop now."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the supervisor's SIGTERM still ends us
        pass
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def reserve_port(host: str, port: int) -> tuple[socket.socket, int]:
    """A socket bound (not listening) to `host`:`port` with SO_REUSEPORT, which keeps the
    port ours while the workers bind it too; and the port (the one picked for 0)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock, int(sock.getsockname()[1])


class Supervisor:
    """Starts, watches and stops the workers (see the module docstring)."""

    def __init__(self, config: Config, argv: list[str], port_file: str | None) -> None:
        self.config = config
        self.argv = argv  # the command line, for the workers (who get their own port)
        self.port_file = port_file
        self.workers: dict[int, subprocess.Popen[bytes]] = {}
        self.stopping = False

    def command(self, index: int, port: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "server.commands.cli",
            *self.argv,
            "--port",
            str(port),
            "--worker",
            str(index),
            "--worker-of",
            str(os.getpid()),
            "--port-file",
            f"{self._ports_dir}/worker-{index}",
        ]

    def run(self) -> int:
        from ..front.ssh import load_host_key

        load_host_key(self.config.data_path)  # made once, before the workers read it
        sock, port = reserve_port(self.config.host, self.config.port)
        self._ports_dir = str(self.config.data_path / "run")
        Path(self._ports_dir).mkdir(parents=True, exist_ok=True)
        for old in Path(self._ports_dir).glob("worker-*"):
            old.unlink()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._stop)
        try:
            for i in range(1, self.config.workers + 1):
                self._start(i, port)
            if not self._wait_listening(port):
                self._stop(signal.SIGTERM, None)
                return self._wait_all() or 1
            sock.close()  # the workers hold the port now
            log.info(
                "%d workers listening on %s port %d", len(self.workers), self.config.host, port
            )
            if self.port_file:
                tmp = Path(self.port_file + ".tmp")
                tmp.write_text(f"{port}\n")
                os.replace(tmp, self.port_file)
            self._watch(port)
        finally:
            sock.close()
        return self._wait_all()

    def _start(self, index: int, port: int) -> None:
        self.workers[index] = subprocess.Popen(self.command(index, port))

    def _wait_listening(self, port: int) -> bool:
        deadline = time.monotonic() + START_WAIT
        files = [Path(self._ports_dir) / f"worker-{i}" for i in self.workers]
        while not all(f.exists() for f in files):
            if self.stopping or time.monotonic() > deadline:
                log.error("the workers did not all start listening")
                return False
            for i, proc in self.workers.items():
                if proc.poll() is not None:
                    log.error("worker %d ended at start (%s)", i, how(proc.returncode))
                    return False
            time.sleep(0.05)
        return True

    def _watch(self, port: int) -> None:
        """Until asked to stop: start again any worker that died. A worker seen to end is
        judged after `RESTART_PAUSE`: a signal to the whole group (Ctrl+C, systemd's
        stop) may reach a worker, and end it, before it reaches this process."""
        while not self.stopping:
            time.sleep(0.2)
            for i, proc in list(self.workers.items()):
                if proc.poll() is not None and not self.stopping:
                    time.sleep(RESTART_PAUSE)
                    if self.stopping:
                        break  # part of the shutdown: `_wait_all` says how it ended
                    log.error("worker %d died (%s); starting it again", i, how(proc.returncode))
                    self._start(i, port)

    def _stop(self, sig: int, frame: object) -> None:
        if self.stopping:
            return
        self.stopping = True
        log.info("stopping %d workers", len(self.workers))
        for proc in self.workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)

    def _wait_all(self) -> int:
        """Wait for every worker; 0 if each stopped cleanly (status 0, or ended by the
        SIGTERM sent before it could handle it). A clean stop is logged as INFO, any
        other end as ERROR, with its status or signal."""
        status = 0
        wait = self.config.shutdown_grace + 30
        for i, proc in self.workers.items():
            try:
                code = proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                log.error("worker %d did not stop within %.0f s: killed", i, wait)
                proc.kill()
                code = proc.wait()
            if code == 0:
                log.info("worker %d stopped", i)
            elif code == -signal.SIGTERM:  # ours, before it could stop cleanly (starting)
                log.info("worker %d stopped (ended by SIGTERM while starting)", i)
            else:
                log.error("worker %d died while stopping (%s)", i, how(code))
                status = status or (code if code > 0 else 1)
        return status


def how(code: int) -> str:
    """How a process ended, from its `returncode`: "status 3" or "killed by SIGKILL"."""
    if code >= 0:
        return f"status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"
