"""A tournament in a cluster (docs/tournaments.md, "Reliability"): two host processes on
one PostgreSQL database; the one running the tournament is killed (SIGKILL) in the
middle of a round; the other takes it on, and every round is paired once, none skipped."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

import asyncpg
from hostkit import opened
from lockkit import name_pid
from test_tournaments import until

from server.host.tourneys import enter, lock_name
from server.store.pglocks import LOCK_CLASS, game_key
from server.store.tournaments import DONE, TournamentSettings
from shared.tournament import SWISS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

HOLDERS = """
SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)
WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2
  AND l.granted
"""


async def holder(url: str, key: str) -> str | None:
    admin = await asyncpg.connect(url)
    try:
        rows = await admin.fetch(HOLDERS, LOCK_CLASS, game_key(key) & 0xFFFFFFFF)
    finally:
        await admin.close()
    return str(rows[0][0]) if rows else None


async def test_killing_the_process_running_a_round_loses_and_repeats_nothing(
    tmp_path: Path, postgres: Any
) -> None:
    url = postgres.create_database()
    procs = []
    names = []
    try:
        for i in range(2):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(HERE / "tourney_host.py"), str(tmp_path / f"d{i}"), url,
                stdout=asyncio.subprocess.PIPE, cwd=ROOT, start_new_session=True,
                env={**os.environ, "PYTHONPATH": f"{ROOT}:{HERE}"},
            )  # fmt: skip
            procs.append(proc)
            assert proc.stdout is not None
            names.append((await asyncio.wait_for(proc.stdout.readline(), 60)).decode().strip())
        store = await opened(url)
        try:
            # Long games (to 30 prestige, four a table) so that the kill falls mid-round.
            s = TournamentSettings(rounds=3, seats=4, target=30, bots=True, start_players=8)
            t = await store.tournaments.new("Cluster cup", SWISS, s, "admin")
            for level in ("easy", "medium") * 4:
                await enter(store, t.id, None, level)
            first = await until(store, t.id, lambda t: len(t.rounds) >= 1)
            [gid, _] = first.rounds[0].tables[0]
            for _ in range(300):  # the round's first game under way
                record = await store.load_game(gid, moves=True)
                if record is not None and len(record.moves) >= 4:
                    break
                await asyncio.sleep(0.05)
            runner = await holder(url, lock_name(t.id))
            assert runner in names, f"no process of ours runs the tournament: {runner}"
            dead = procs[names.index(runner)]
            assert name_pid(runner) == dead.pid
            os.killpg(dead.pid, signal.SIGKILL)
            await asyncio.wait_for(dead.wait(), 10)
            mid = await store.tournaments.load(t.id)
            assert mid is not None and mid.status != DONE and len(mid.rounds) == 1
            done = await until(store, t.id, lambda t: t.status == DONE, limit=240)
            survivor = names[1 - names.index(runner)]
            assert await holder(url, lock_name(t.id)) in (survivor, None)
            assert done.rounds[0] == first.rounds[0]  # round 1 was not paired again
            assert len(done.rounds) == 3
            ids = [g for r in done.rounds for g, _ in r.tables]
            assert len(ids) == len(set(ids))
            for g in ids:
                record = await store.load_game(g, moves=False)
                assert record is not None and record.status == "finished"
            rows = await store.tournaments._rows(  # every table recorded once, no other
                "SELECT count(*) FROM tournament_games WHERE tournament = ?", t.id
            )
            assert rows[0][0] == len(ids)
        finally:
            await store.close()
    finally:
        for proc in procs:
            if proc.returncode is None:
                os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
