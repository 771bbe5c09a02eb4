"""The lock holder of a game stopped (SIGSTOP) and continued, as real `splendor-server`
processes on one PostgreSQL, and PostgreSQL restarted under them (issue 33, point 5;
docs/cluster.md). A stopped process
cannot act, and while its connection lives it keeps its locks: nobody else acts either.
Once its lock connection ends while it is stopped (its lease runs out; an admin ends
it), the other process takes the game on; continued, the first finds its lock gone and
does not act. Seen from the database: one holder at most at every sample, no move made
twice, the move log whole. After a restart, one process takes the game's lock again and
plays its bots; the other does not play them too."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from lockkit import Watch, cut_named, name_pid, until
from processkit import ServerProcess

from server.store import PLAYING, SeatRecord, Settings, open_store
from shared.deal import replay
from shared.settings import GameSettings

SEED = 4242
PLAYERS = 4
STOP_WAIT = 600  # tries of 0.05 s (30 s) for the other process to take a stopped one's game


@pytest.fixture
async def processes(tmp_path: Path, postgres: Any) -> AsyncIterator[tuple[str, Any]]:
    """The test's database URL and `start(name)`: a server process on it; every one is
    continued (if stopped) and stopped at the end."""
    url = postgres.create_database()
    started: list[ServerProcess] = []

    async def start(name: str) -> ServerProcess:
        server = ServerProcess(tmp_path / "data", "--database", url, name=name)
        started.append(server)
        await asyncio.to_thread(server.start)
        return server

    yield url, start
    for server in started:
        if server.proc is not None and server.proc.poll() is None:
            os.kill(server.proc.pid, signal.SIGCONT)
        await asyncio.to_thread(server.stop)


async def bots_game(url: str) -> str:
    """A game of four easy bots with a correspondence clock (so its bots play with no human
    at the table), stored as a player's client would have it started."""
    store = open_store(url)
    await store.open()
    try:
        seats = [SeatRecord(bot="easy")] * PLAYERS
        assert await store.create_table("bots", seats, "ann", settings=Settings(clock="1d"))
        assert await store.update_table("bots", 0, seats, "ann", PLAYING, SEED)
    finally:
        await store.close()
    return "bots"


async def stored_moves(url: str, table: str) -> tuple[str, ...]:
    store = open_store(url)
    await store.open()
    try:
        return await store.moves(table)
    finally:
        await store.close()


def no_bot_move_raced(servers: dict[int, ServerProcess]) -> None:
    """No bot move lost a race to another (what two processes playing a game's bots do),
    and every process is still running."""
    for server in servers.values():
        log = server.log.read_text()
        assert "another move was played first" not in log, log
        assert server.proc is not None and server.proc.poll() is None


async def stop(watch: Watch, holder: str) -> int:
    """SIGSTOP the process of lock connection `holder`; the moves once a move it was
    sending as it stopped is stored, from when the samples say so (`note`)."""
    os.kill(name_pid(holder), signal.SIGSTOP)
    await asyncio.sleep(0.3)
    watch.note = holder
    return watch.moves


def go_on(watch: Watch, holder: str) -> None:
    watch.note = ""
    os.kill(name_pid(holder), signal.SIGCONT)


async def watched_game(processes: tuple[str, Any]) -> tuple[str, dict[int, Any], str, Watch]:
    """Two server processes on one database and a bots' game between them, watched, four
    moves in and its lock held: the database's URL, the servers by pid, the game, the
    watch (started: the test stops it)."""
    url, start = processes
    servers = {s.proc.pid: s for s in [await start("one"), await start("two")]}
    table = await bots_game(url)
    watch = Watch(url, table)
    watch.start()
    try:
        await watch.moves_past(4)
        await until(lambda: watch.holder is not None, "a holder")
    except BaseException:
        await watch.stop()
        raise
    return url, servers, table, watch


async def game_whole(url: str, servers: dict[int, Any], table: str, losers: set[str]) -> None:
    """After the test: no bot move raced another, each of `losers` logged losing the
    game's lock, and the stored moves replay legally, in order."""
    no_bot_move_raced(servers)
    for name in losers:
        assert f"store: lost the locks of {table}" in servers[name_pid(name)].log.read_text()
    replay(GameSettings(PLAYERS), SEED, await stored_moves(url, table))


async def test_a_stopped_lock_holder_is_taken_over_only_once_its_lock_is_gone(
    processes: tuple[str, Any],
) -> None:
    url, servers, table, watch = await watched_game(processes)
    first = second = ""
    try:
        # A short stop: the holder keeps its lock (its connection lives); nobody moves.
        first = str(watch.holder)
        frozen = await stop(watch, first)
        await asyncio.sleep(1.5)  # well within its lease (8 s from its last statement)
        assert watch.holder == first and watch.moves == frozen
        go_on(watch, first)
        await watch.moves_past(frozen + 3)

        # Stopped past its lease: the database ends its session, the other takes over.
        first = str(watch.holder)
        await stop(watch, first)
        await until(lambda: watch.holder not in (None, first), "a takeover", STOP_WAIT)
        second = str(watch.holder)
        await watch.moves_past(watch.moves + 3)
        go_on(watch, first)
        await watch.moves_past(watch.moves + 3)

        # The new holder stopped and its lock connection ended by an admin: back again.
        await stop(watch, second)
        await cut_named(url, second)
        await until(lambda: watch.holder not in (None, second), "a takeover back", STOP_WAIT)
        await watch.moves_past(watch.moves + 3)
        go_on(watch, second)
        await watch.moves_past(watch.moves + 3)
    finally:
        await watch.stop()

    watch.one_holder_at_most({first, second})
    for (c1, h1, n1), (c2, h2, n2) in zip(watch.samples, watch.samples[1:], strict=False):
        if n1 and n1 == n2 and h1 == h2 == (n1,):  # the stopped process holds the lock
            assert c1 == c2, (n1, c1, c2)  # so nobody acts
    await game_whole(url, servers, table, {first, second})


async def test_after_postgresql_restarts_one_process_plays_the_bots(
    processes: tuple[str, Any], postgres: Any
) -> None:
    url, servers, table, watch = await watched_game(processes)
    try:
        holder = str(watch.holder)
        await asyncio.to_thread(postgres.stop)
        await asyncio.to_thread(postgres.start)
        await watch.moves_past(watch.moves + 6, STOP_WAIT)
    finally:
        await watch.stop()
    names = {n for _, held_by, _ in watch.samples for n in held_by}
    watch.one_holder_at_most(names)
    assert {name_pid(n) for n in names} <= set(servers)
    await game_whole(url, servers, table, {holder})
