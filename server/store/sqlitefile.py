"""Opening the SQLite file for `SqliteStore`: its directory, the write connection with its
journal and durability, the schema brought up to date (one migration per transaction),
and a read-only connection beside it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .common import SET_VERSION, VERSION_TABLE, migrations
from .records import StoreError
from .schema import SQLITE


def open_file(path: Path, synchronous: str) -> tuple[sqlite3.Connection, sqlite3.Connection]:
    """The write connection and the read-only one to the database at `path` (made if
    missing), its schema up to date; StoreError says in one line what stopped it."""
    where = path.parent
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StoreError(f"cannot make the directory {where}: {e.strerror}") from None
    db: sqlite3.Connection | None = None
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        migrate(db)
        db.execute("PRAGMA foreign_keys=ON")
        reader = sqlite3.connect(
            path.resolve().as_uri() + "?mode=ro",
            uri=True,
            isolation_level=None,
            check_same_thread=False,
            timeout=10.0,
        )
    except BaseException as e:
        if db is not None:
            db.close()
        if isinstance(e, sqlite3.Error | OSError):  # not a database, cannot write, ...
            raise StoreError(f"cannot open the SQLite database {path}: {e}") from None
        raise
    return db, reader


def schema_version(db: sqlite3.Connection) -> int:
    """The database's schema version: 0 when empty, 1 for a database from before
    versions were recorded."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" in tables:
        return int(db.execute("SELECT version FROM schema_version").fetchone()[0])
    return 1 if "games" in tables else 0


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema to `LATEST`, one migration per transaction; the version found."""
    found = schema_version(db)
    versions = migrations(found)
    db.execute("PRAGMA foreign_keys=OFF")  # a migration may rebuild a referenced table
    for version in versions:
        record = SET_VERSION.replace("?", str(version))
        db.executescript(
            f"BEGIN IMMEDIATE;\n{SQLITE[version]}\n{VERSION_TABLE}\n{record};\nCOMMIT;"
        )
    return found
