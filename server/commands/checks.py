"""What the server's and the admin's command lines accept, in one place (README.md, "Club
admin"): argparse types that check each argument by the rules the server itself uses
(a player's name: `check_name`; a table's id: the form `new_table_id` makes; numbers in
ranges both SQLite and PostgreSQL hold), a parser whose refusals are one line, and the
look at a database a command is about to open. Anything refused is one line on stderr
and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sqlite3
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import NoReturn

import asyncpg

from shared.chat import MAX_CHAT, is_clean

from ..front.config import MAX_WORKERS, Config, ConfigError, load_config
from ..host.identity import check_name, check_table_id
from ..store import SchemaTooNew, Store, StoreError, check_url, open_store, redact

MAX_COUNT = 1_000_000  # players or chat lines a listing prints at most
MAX_ROW_ID = 2**63 - 1  # the largest id SQLite's INTEGER and PostgreSQL's BIGINT hold
MAX_PID = 2**31 - 1
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
SHOWN = 40  # characters of a refused argument quoted back

# What a command may meet besides a refused argument, each said in one line: settings,
# the store's refusals, a database driver's own errors, the file system.
ERRORS: tuple[type[BaseException], ...] = (
    ConfigError,
    StoreError,
    SchemaTooNew,
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    OSError,
    ValueError,
)


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose refusal is one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} -h)\n")


def one_line(text: object, limit: int = 400) -> str:
    """`text` as one line of printable characters (others escaped), at most `limit` long."""
    flat = " ".join(str(text).split())
    shown = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in flat)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def fail(prog: str, error: object) -> int:
    """Say `error` in one line on stderr, after `prog`; the exit status (1)."""
    print(f"{prog}: {one_line(error)}", file=sys.stderr)
    return 1


def _quoted(text: str) -> str:
    return repr(text[:SHOWN]) + ("…" if len(text) > SHOWN else "")


def _whole(text: str, low: int, high: int) -> int:
    """A whole number in low..high written in ASCII digits (never Python's int(): it takes
    '٣', '1_000' and ' 5', and refuses past 4300 digits with its own words)."""
    digits = (text.lstrip("0") or "0") if re.fullmatch(r"[0-9]+", text) else ""
    if not digits or len(digits) > len(str(high)) or not low <= int(digits) <= high:
        raise argparse.ArgumentTypeError(
            f"a whole number from {low} to {high}, not {_quoted(text)}"
        )
    return int(digits)


# -- argparse types ------------------------------------------------------------------


def player_name(text: str) -> str:
    """A name a player could have (`check_name`), lower-case."""
    try:
        return check_name(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e).split(", as in")[0]) from None


def table_id(text: str) -> str:
    """A table's (and its game's) id, as `new_table_id` makes them."""
    try:
        return check_table_id(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def count(text: str) -> int:
    """How many players or lines to print: 1 to `MAX_COUNT`."""
    return _whole(text, 1, MAX_COUNT)


def chat_line(text: str) -> int:
    """A chat line's id: 1 to `MAX_ROW_ID`."""
    return _whole(text, 1, MAX_ROW_ID)


def ban_reason(text: str) -> str:
    """What a banned player is told: one line of plain text, as a chat line may be."""
    if not is_clean(text) or len(text) > MAX_CHAT:
        raise argparse.ArgumentTypeError(
            f"a reason is one line of plain text (no control characters, no runs of spaces, "
            f"no spaces at its ends), {MAX_CHAT} characters at most"
        )
    return text


def database_url(text: str) -> str:
    """A database URL the server reads (`check_url`); "" stands for the default."""
    try:
        return text and check_url(text)
    except StoreError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def port(text: str) -> int:
    """A TCP port to listen on: 0 (any free one) to 65535."""
    return _whole(text, 0, 65535)


def workers(text: str) -> str:
    """A number of workers, 1 to `MAX_WORKERS`, or "auto"; as typed (the supervisor passes
    the command line on)."""
    if text != "auto":
        _whole(text, 1, MAX_WORKERS)
    return text


def worker_index(text: str) -> int:
    return _whole(text, 1, MAX_WORKERS)


def process_id(text: str) -> int:
    return _whole(text, 1, MAX_PID)


def log_level(text: str) -> str:
    if text.upper() not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"one of {', '.join(LOG_LEVELS)}, not {_quoted(text)}")
    return text.upper()


def port_file(text: str) -> str:
    """A file to write the port to: its directory must be there."""
    where = Path(text).parent
    if not text or not where.is_dir():
        raise argparse.ArgumentTypeError(f"no directory {_quoted(str(where))} to write it in")
    return text


# -- databases -----------------------------------------------------------------------


def check_database(url: str, *, existing: bool) -> None:
    """StoreError if a SQLite database cannot be where `url` says (its directory missing or
    not writable); with `existing`, if it is not there yet either (an admin command run
    in the wrong directory would otherwise make an empty one). PostgreSQL's databases
    are looked at when opened."""
    check_url(url)
    if not url.startswith("sqlite:///"):
        return
    path = Path(url.removeprefix("sqlite:///"))
    where = path.parent
    if not where.exists():
        raise StoreError(f"the directory {where} does not exist")
    if not where.is_dir():
        raise StoreError(f"{where} is not a directory")
    if path.is_dir():
        raise StoreError(f"{path} is a directory, not a database file")
    if existing and not path.exists():
        raise StoreError(
            f"no database at {path}: run this where the server runs, or give its "
            "--data-dir, --config or --database"
        )
    if not os.access(where, os.W_OK | os.X_OK):
        raise StoreError(f"cannot write in {where} (SQLite keeps its journal beside the file)")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(f"cannot read and write {path}")


async def open_database(url: str, *, existing: bool) -> Store:
    """The store at `url`, opened (`check_database` first); what stops it is a StoreError
    that names the URL (never its password) and the reason, in one line."""
    try:
        check_database(url, existing=existing)
        store = open_store(url)
        await store.open()
    except (StoreError, SchemaTooNew) as e:
        raise StoreError(f"{redact(url)}: {e}") from None
    return store


Work = Callable[[Store], Awaitable[str]]  # what a command does with the database: its output


def on_store(prog: str, args: argparse.Namespace, work_of: Callable[[Config], Work]) -> int:
    """Run an admin command: the settings `args` name (--config, --data-dir, --database),
    their database opened, `work_of(config)` done on it and its output printed; the exit
    status (1: it failed, said in one line as `prog: why`)."""
    try:
        config = load_config(args.config, data_dir=args.data_dir, database=args.database)
        sys.stdout.write(asyncio.run(_on(config.database_url, work_of(config))))
    except ERRORS as e:
        return fail(prog, e)
    except KeyboardInterrupt:
        return fail(prog, "interrupted")
    return 0


async def _on(url: str, work: Work) -> str:
    store = await open_database(url, existing=True)
    try:
        return await work(store)
    finally:
        await store.close()
