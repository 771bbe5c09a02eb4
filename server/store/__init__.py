"""Persistence: names and their keys, tables, games as an event log (docs/design.md).

`open_store(url)` gives the backend a database URL names: ``sqlite:///path`` (one
server process; the default, `DATA_DIR/splendor.db`) or ``postgresql://user@host/db``
(any number of processes on any number of machines). Both have one interface
(`server.store.base.Store`) and one schema, versioned (`server.store.schema`).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from .base import (
    ChatPosted,
    ChatRemoved,
    Event,
    LocksLost,
    MovePlayed,
    PresenceChanged,
    Reconnected,
    SessionRow,
    Store,
    TableChanged,
)
from .records import (
    ABANDONED,
    CLOSED,
    DEFAULT_SETTINGS,
    FINISHED,
    OPEN_STATUSES,
    PLAYING,
    WAITING,
    ChatRecord,
    GameRecord,
    MoveTaken,
    SeatRecord,
    Settings,
    StoreError,
    StoreUnavailable,
    Timing,
    replay_record,
    turn_log,
)
from .schema import LATEST, SchemaTooNew
from .sqlite import DB_NAME, SqliteStore


def default_url(data_dir: str | Path) -> str:
    """The default database: SQLite in the data directory."""
    return f"sqlite:///{Path(data_dir) / DB_NAME}"


def open_store(url: str, *, synchronous: str = "FULL") -> Store:
    """The store a database URL names (not yet opened: `await store.open()`).
    `synchronous` is SQLite's commit durability (see `server.store.sqlite`)."""
    check_url(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url.removeprefix("sqlite:///"), synchronous=synchronous)
    from .postgres import PostgresStore

    return PostgresStore(url)


def check_url(url: str) -> str:
    """`url` if it is a database URL this server reads, else StoreError saying why, in one
    line: ``sqlite:///PATH``, or ``postgresql://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE]``
    (``postgres://`` too) with a port from 1 to 65535. Whether the database is there is
    for opening it to say."""
    use = "use sqlite:///PATH or postgresql://USER@HOST/DATABASE"
    shown = repr(redact(url)[:200])
    if "\0" in url:
        raise StoreError(f"{shown} is not a database URL: it holds a NUL character")
    if url.startswith("sqlite:///"):
        if not url.removeprefix("sqlite:///"):
            raise StoreError(f"{shown} names no file: {use}")
        return url
    if not url.startswith(("postgresql://", "postgres://")):
        raise StoreError(f"{shown} is not a database URL this server reads: {use}")
    try:
        port = urlsplit(url).port  # ValueError: not a number, or past 65535; "[::1" too
    except ValueError as e:
        raise StoreError(f"{shown} is not a database URL: {str(e).lower()}") from None
    if port == 0:
        raise StoreError(f"{shown} is not a database URL: port 0 (a port is 1..65535)")
    return url


def redact(url: str) -> str:
    """A database URL without its password, for logs and messages."""
    scheme, sep, rest = url.partition("://")
    who, at, where = rest.rpartition("@")
    if not at or ":" not in who:
        return url
    return f"{scheme}{sep}{who.split(':', 1)[0]}:***@{where}"


__all__ = [
    "ABANDONED",
    "CLOSED",
    "DEFAULT_SETTINGS",
    "FINISHED",
    "LATEST",
    "OPEN_STATUSES",
    "PLAYING",
    "WAITING",
    "ChatPosted",
    "ChatRecord",
    "ChatRemoved",
    "Event",
    "GameRecord",
    "LocksLost",
    "MovePlayed",
    "MoveTaken",
    "PresenceChanged",
    "Reconnected",
    "SchemaTooNew",
    "SeatRecord",
    "SessionRow",
    "Settings",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "TableChanged",
    "Timing",
    "check_url",
    "default_url",
    "open_store",
    "redact",
    "replay_record",
    "turn_log",
]
