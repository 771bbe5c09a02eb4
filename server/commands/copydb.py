"""`splendor-server copy-db --from URL --to URL`: move a club's data to another database.

Names, tables and games (every status), moves, who played which game, ratings and
their history, and bans are copied; snapshots are not (a cache the server rebuilds).
What the target holds already is kept as it is, so the copy can be run again, after an
interruption or to pick up games played since: each run adds only what is missing, and
says how much. Stop the servers that write the source first (or run the copy again
after stopping them) so that nothing is missed.

    splendor-server copy-db --from sqlite:///data/splendor.db \\
                            --to postgresql://splendor@db.example.org/splendor
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence

from ..store import StoreError, redact
from . import checks
from .checks import Parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = Parser(
        prog="splendor-server copy-db", description="Copy names, games and moves to a database."
    )
    url = "sqlite:///PATH or postgresql://USER@HOST/DATABASE"
    p.add_argument(
        "--from",
        dest="source",
        required=True,
        type=checks.database_url,
        help=f"the database to copy from: {url}; it must exist",
    )
    p.add_argument(
        "--to",
        dest="target",
        required=True,
        type=checks.database_url,
        help=f"the database to copy to: {url} (a SQLite file is made if missing)",
    )
    return p.parse_args(argv)


async def copy(source_url: str, target_url: str) -> tuple[dict[str, int], dict[str, int]]:
    """Copy what `target_url` lacks from `source_url` (each upgraded to the current schema
    first). The rows each table got, and the rows each table has in the source."""
    if source_url == target_url:
        raise StoreError("--from and --to name the same database")
    source = await checks.open_database(source_url, existing=True)
    try:
        target = await checks.open_database(target_url, existing=False)
        try:
            dump = await source.dump()
            added = await target.load_dump(dump)
        finally:
            await target.close()
    finally:
        await source.close()
    return added, {table: len(rows) for table, rows in dump.rows.items()}


def main(argv: Sequence[str]) -> int:
    """Run the command; its exit status (2: an argument refused, 1: it failed)."""
    try:
        args = parse_args(argv)
    except SystemExit as e:  # refused (said already), or -h
        return int(e.code or 0)
    prog = "splendor-server copy-db"
    if not (args.source and args.target):
        return checks.fail(prog, "--from and --to each need a database URL")
    try:
        added, found = asyncio.run(copy(args.source, args.target))
    except checks.ERRORS as e:
        return checks.fail(prog, e)
    except KeyboardInterrupt:
        return checks.fail(prog, "interrupted")
    counts = ", ".join(f"{added[t]} of {found[t]} {t.replace('_', ' ')}" for t in found)
    print(f"copied to {redact(args.target)}: {counts} (what was there already was kept)")
    return 0
