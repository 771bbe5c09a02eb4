"""Run by test_tournaments_cluster.py: one process of a cluster, a host on a shared
PostgreSQL database with quick bots and a quick tournament tick, until it is killed.
Prints its lock connection's name once started, so the test knows which process is
which in `pg_locks`."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from hostkit import make_host, quick_settings


async def main(data_dir: Path, database: str) -> None:
    host = make_host(data_dir, None, quick_settings(tournament_tick=0.1), bot_workers=1,
                     database=database)  # fmt: skip
    await host.start()
    sys.stdout.write(f"{host.store._locks._name}\n")  # type: ignore[attr-defined]
    sys.stdout.flush()
    await asyncio.Event().wait()  # until killed


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
