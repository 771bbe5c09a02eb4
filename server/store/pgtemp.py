"""A throwaway PostgreSQL server for tests, benchmarks and local tries: `initdb` and
`pg_ctl` into a temporary directory, on a free loopback port, stopped and removed at the
end (never for real data: fsync is off).

The server binaries are found on PATH or in Debian's versioned folder
(/usr/lib/postgresql/N/bin); `.ci/run` installs Debian's `postgresql` where they are
missing. `initdb` refuses to run as root, so as root every server command runs as the
`postgres` user (`runuser`). Authentication is `trust` on loopback only; fsync is off
(the tests that kill processes kill this server's clients, never the server).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "splendor"


def bin_dir() -> Path | None:
    """Where `pg_ctl` and `initdb` are, or None when PostgreSQL's server is not installed."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4])
    )
    return Path(versions[-1]).parent if versions else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """One PostgreSQL server of our own: `start`, `url(db)`, `create_database`, `stop`."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="splendor-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0  # initdb refuses root
        self._databases = 0
        if self._as_postgres:
            entry = pwd.getpwnam("postgres")
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str, timeout: float = 60.0) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr}{done.stdout}{log}")

    def init(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (`immediate`: as if it crashed)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; its URL."""
        self._databases += 1
        name = f"test{self._databases}"
        self._psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def password_role(self, role: str, password: str) -> None:
        """A role that logs in with `password` only (scram-sha-256 on loopback; every other
        role stays `trust`): for tests of a wrong or missing password."""
        self._psql(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        hba = self.data / "pg_hba.conf"
        hba.write_text(f"host all {role} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
        self._run("pg_ctl", "-D", str(self.data), "reload")

    def _psql(self, sql: str) -> None:
        command = [str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port)]
        command += ["-U", USER, "-d", "postgres", "-q", "-c", sql]
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f"{sql.split()[0]} failed: {done.stderr}")

    def remove(self) -> None:
        try:
            self.stop("immediate")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        for _ in range(50):  # the postmaster removes its pid file as it exits
            if not (self.data / "postmaster.pid").exists():
                break
            time.sleep(0.1)
        shutil.rmtree(self.dir, ignore_errors=True)
