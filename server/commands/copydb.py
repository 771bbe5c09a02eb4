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
import sys
from collections.abc import Sequence

from ..store import SchemaTooNew, StoreError, open_store, redact


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="splendor-server copy-db", description="Copy names, games and moves to a database."
    )
    p.add_argument("--from", dest="source", required=True, help="the database to copy from")
    p.add_argument("--to", dest="target", required=True, help="the database to copy to")
    return p.parse_args(argv)


async def copy(source_url: str, target_url: str) -> tuple[dict[str, int], dict[str, int]]:
    """Copy what `target_url` lacks from `source_url` (each upgraded to the current schema
    first). The rows each table got, and the rows each table has in the source."""
    if source_url == target_url:
        raise StoreError("--from and --to name the same database")
    source, target = open_store(source_url), open_store(target_url)
    await source.open()
    try:
        await target.open()
        try:
            dump = await source.dump()
            added = await target.load_dump(dump)
        finally:
            await target.close()
    finally:
        await source.close()
    return added, {table: len(rows) for table, rows in dump.rows.items()}


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    try:
        added, found = asyncio.run(copy(args.source, args.target))
    except (StoreError, SchemaTooNew, OSError) as e:
        print(f"splendor-server copy-db: {e}", file=sys.stderr)
        return 1
    counts = ", ".join(f"{added[t]} of {found[t]} {t.replace('_', ' ')}" for t in found)
    print(f"copied to {redact(args.target)}: {counts} (what was there already was kept)")
    return 0
