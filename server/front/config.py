"""The server's settings: defaults, a TOML file (``--config``) and command-line overrides.

Every setting has a safe default, so a club can start the server with no
file at all. The TOML file holds the same names as `Config`'s fields, at
the top level; an unknown name or a value of the wrong type is an error at
start-up, never a silent default (README.md, "Run a server: the details" lists them all).
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from shared.i18n import LANGUAGES

from ..store import StoreError, check_url

DEFAULT_PORT = 2222
DEFAULT_DATA_DIR = "data"  # relative to the working directory, as the README says
MAX_WORKERS = 256  # server processes one supervisor starts at most (more is a typo)


class ConfigError(ValueError):
    """A config file or option that the server cannot run with."""


@dataclass(frozen=True)
class Config:
    """Everything the transport needs to know; each setting is in the README."""

    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    data_dir: str = DEFAULT_DATA_DIR
    # Where tables, games and names are kept: "" for SQLite in the data directory, or a
    # URL: sqlite:///PATH (one process) or postgresql://USER@HOST/DATABASE (a cluster).
    database: str = ""
    # Server processes sharing the port (SO_REUSEPORT); "auto" in the file: one a core.
    workers: int = 1
    allow_guests: bool = True
    # What players are told to type ("ssh -t -p PORT NAME"); empty: the address they used.
    public_host: str = ""
    # The language of a player whose SSH client sends none of ours in LC_ALL, LC_MESSAGES
    # or LANG, until they choose one (`shared.i18n.LANGUAGES`: en, fa, cs, hu).
    default_language: str = "en"
    # Logins: seconds to finish authentication (and to open a session once logged in);
    # public-key attempts per connection.
    login_timeout: float = 30.0
    max_auth_attempts: int = 10
    # Keepalives: a silent client is dropped after interval * count_max seconds.
    keepalive_interval: float = 30.0
    keepalive_count_max: int = 4
    # Caps.
    max_sessions: int = 400  # live game sessions in this process
    max_sessions_per_identity: int = 3
    max_sessions_per_address: int = 8
    max_connections_per_address: int = 12  # TCP connections, authenticated or not
    max_unauthenticated: int = 64  # connections still logging in, server-wide
    # Logged in with no session open (yet, or any more), server-wide; each gets
    # login_timeout seconds to open one.
    max_idle_logins: int = 64
    input_bytes_per_second: int = 4096  # per session, with a burst of 4 seconds' worth
    # The `splendor` subsystem (docs/protocol.md): the largest client message, and the
    # messages a second a channel may send (a burst of 4 seconds' worth).
    max_message_bytes: int = 16384
    messages_per_second: int = 20
    # Output: asyncssh pauses us above the high mark; a reader paused this long is cut off.
    write_buffer_high: int = 512 * 1024
    write_buffer_low: int = 128 * 1024
    slow_reader_timeout: float = 15.0
    # Terminals are clamped to these sizes (columns, rows).
    min_width: int = 20
    min_height: int = 8
    max_width: int = 400
    max_height: int = 150
    # App start-ups allowed to run at once (each costs ~0.2 s of CPU on the shared loop).
    startup_concurrency: int = 4
    mouse: bool = True  # clicks only; never motion reporting
    # Whether players (with a key) may announce tournaments from the lobby; false: only
    # the admin command (`splendor-server tournament create`).
    player_tournaments: bool = True
    # Garbage collection (docs/design.md, P6): a full collection runs once no key arrived for
    # gc_idle_seconds, if sessions ended since the last one or gc_interval has passed;
    # at once when gc_max_debt sessions have ended since the last one or none ran for
    # gc_max_interval seconds (a busy server must still free its garbage).
    gc_idle_seconds: float = 2.0
    gc_interval: float = 60.0
    gc_max_debt: int = 200
    gc_max_interval: float = 300.0
    shutdown_grace: float = 5.0  # seconds each app gets to exit on SIGTERM

    def __post_init__(self) -> None:
        problems = []
        if not 0 <= self.port <= 65535:
            problems.append(f"port {self.port} is not 0..65535")
        for name in (
            "max_sessions",
            "max_sessions_per_identity",
            "max_sessions_per_address",
            "max_connections_per_address",
            "max_unauthenticated",
            "max_idle_logins",
            "input_bytes_per_second",
            "max_message_bytes",
            "messages_per_second",
            "write_buffer_high",
            "startup_concurrency",
            "max_auth_attempts",
            "min_width",
            "min_height",
        ):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be at least 1")
        if not 0 <= self.write_buffer_low <= self.write_buffer_high:
            problems.append("write_buffer_low must be between 0 and write_buffer_high")
        if self.min_width > self.max_width or self.min_height > self.max_height:
            problems.append("min_width/min_height must not exceed max_width/max_height")
        for name in ("login_timeout", "slow_reader_timeout", "shutdown_grace"):
            if getattr(self, name) <= 0:
                problems.append(f"{name} must be positive")
        if self.default_language not in LANGUAGES:
            problems.append(f"default_language must be one of {', '.join(LANGUAGES)}")
        if self.workers < 1:
            problems.append('workers must be at least 1 (or "auto": one per core)')
        elif self.workers > MAX_WORKERS:
            problems.append(f"workers must be at most {MAX_WORKERS}, not {self.workers}")
        elif self.workers > 1 and not self.database_url.startswith("postgres"):
            problems.append(
                f"{self.workers} workers need PostgreSQL: a SQLite database is for one server "
                'process. Set database = "postgresql://USER@HOST/DATABASE" (--database), '
                "or run one worker"
            )
        if self.database:
            try:
                check_url(self.database)
            except StoreError as e:
                problems.append(f"database: {e}")
        if problems:
            raise ConfigError("; ".join(problems))

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser()

    @property
    def database_url(self) -> str:
        """The database this server keeps its data in (SQLite in the data directory when
        none is set)."""
        if self.database:
            return self.database
        return f"sqlite:///{self.data_path / 'splendor.db'}"

    def replace(self, **changes: Any) -> Config:
        """A copy with `changes` applied; None values are ignored (unset CLI options)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    def clamp_size(self, width: int, height: int) -> tuple[int, int]:
        """A terminal size within the configured bounds (0 from a client means unknown: 80x24)."""
        width = width or 80
        height = height or 24
        return (
            max(self.min_width, min(self.max_width, width)),
            max(self.min_height, min(self.max_height, height)),
        )


def _check_type(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{name} should be true or false, not {value!r}")
    elif isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ConfigError(f"{name} should be a whole number, not {value!r}")
    elif isinstance(default, float):
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ConfigError(f"{name} should be a number, not {value!r}")
        value = float(value)
    elif isinstance(default, str) and not isinstance(value, str):
        raise ConfigError(f"{name} should be a string, not {value!r}")
    return value


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """Defaults, then the TOML file at `path` (if any), then `overrides` (None: unset)."""
    values: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                raw = tomllib.load(f)
        except OSError as e:
            raise ConfigError(f"cannot read config file {path}: {e.strerror}") from None
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"config file {path} is not valid TOML: {e}") from None
        defaults = {f.name: f.default for f in fields(Config)}
        for name, value in raw.items():
            key = name.replace("-", "_")
            if key not in defaults:
                known = ", ".join(sorted(defaults))
                raise ConfigError(f"{path}: unknown setting {name!r} (known: {known})")
            if key == "workers" and value == "auto":
                value = workers_setting(value)
            values[key] = _check_type(name, value, defaults[key])
    return Config(**values).replace(**overrides)


def workers_setting(value: str | int) -> int:
    """A `workers` value: a whole number, or "auto" for one per core."""
    if value == "auto":
        return min(os.cpu_count() or 1, MAX_WORKERS)
    try:
        return int(value)
    except ValueError:
        raise ConfigError(f'workers should be a whole number or "auto", not {value!r}') from None
