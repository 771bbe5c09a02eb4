"""Game locks on a real PostgreSQL (issue 33, point 5): a process holds a game's lock only
while the connection that took it lives, an act of the holder (a bot's move, a time-out)
is written only while it holds it, and across a cut connection and a restart of the
database exactly one process acts for a game (docs/cluster.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from hostkit import (
    FakeClock,
    HostConnection,
    StartHost,
    await_turn,
    identity,
    opened_stores,
    pick,
    quick_settings,
)
from lockkit import BOUND, LOCK_CLASS, Watch, cut, lock_name, sample, until

from server.store import PLAYING, LocksLost, Reconnected, SeatRecord, StoreUnavailable
from server.store.pglocks import game_key
from shared.clock import DAY, parse_time_control
from shared.deal import replay
from shared.protocol import PlayMove, Quick, TableUpdate
from shared.settings import GameSettings

SEATS = [SeatRecord("ann", False, "K1"), SeatRecord(bot="easy")]


async def holders(url: str, game: str) -> tuple[str, ...]:
    admin = await asyncpg.connect(url)
    try:
        return (await sample(admin, game))[1]
    finally:
        await admin.close()


async def test_a_lock_is_held_only_while_the_connection_that_took_it_lives(postgres: Any) -> None:
    """a's lock connection is ended: a hears that it lost the game's lock, b may take it,
    and a, asked again, asks the database (it used to answer from memory: both ran the
    game's bots)."""
    url = postgres.create_database()
    async with opened_stores(url, 2) as (a, b):
        heard: list[object] = []
        a.subscribe(heard.append)
        assert await a.try_lock_game("g") and not await b.try_lock_game("g")
        assert await holders(url, "g") == (lock_name(a),)
        await cut(url, a._locks.server_pid)
        await until(lambda: LocksLost(frozenset({"g"})) in heard, "a hears of it")
        assert await b.try_lock_game("g")
        assert not await a.try_lock_game("g")
        assert await holders(url, "g") == (lock_name(b),)


async def test_an_act_of_the_holder_is_written_only_while_it_holds_the_lock(
    postgres: Any,
) -> None:
    """A bot's move or a time-out (`held`) from a process without the game's lock is
    refused and nothing is written; so is one over a lock connection just ended, before
    the process has heard of it."""
    url = postgres.create_database()
    async with opened_stores(url, 2) as (a, b):
        assert await a.create_table("g", SEATS, "ann")
        assert await a.update_table("g", 0, SEATS, "ann", PLAYING, 5)
        assert await b.try_lock_game("g")
        with pytest.raises(StoreUnavailable, match="lock of game g"):
            await a.append_move("g", 0, "take W U G", 2, held=True)
        with pytest.raises(StoreUnavailable, match="lock of game g"):
            await a.update_table("g", 1, SEATS, "ann", held=True)
        await b.append_move("g", 0, "take W U G", 2, held=True)
        await cut(url, b._locks.server_pid)
        with pytest.raises(StoreUnavailable, match="lock of game g"):
            await b.append_move("g", 1, "take R K W", 3, held=True)
        assert await a.moves("g") == ("take W U G",)
        assert await a.try_lock_game("g")
        await a.append_move("g", 1, "take R K W", 3, held=True)
        assert await a.update_table("g", 1, SEATS, "ann", held=True)
        assert await b.moves("g") == ("take W U G", "take R K W")


async def test_a_holder_that_goes_quiet_loses_its_locks_when_its_lease_ends(
    postgres: Any, monkeypatch: Any
) -> None:
    """A process that stops looking at its lock connection (stopped, hung) keeps its locks
    only for the lease: then the database ends the session, and another takes the game."""
    monkeypatch.setattr("server.store.pglocks.LEASE", 0.5)
    monkeypatch.setattr("server.store.pglocks.CHECK_EVERY", 3600.0)  # a looks no more
    url = postgres.create_database()
    async with opened_stores(url, 2) as (a, b):
        heard: list[object] = []
        a.subscribe(heard.append)
        assert await a.try_lock_game("g")
        for _ in range(BOUND):
            if await b.try_lock_game("g"):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("b never took the game")
        await until(lambda: LocksLost(frozenset({"g"})) in heard, "a hears of it")
        assert not a._locks.holds("g")


async def test_a_lock_let_go_behind_the_process_s_back_is_found_by_its_check(
    postgres: Any, monkeypatch: Any
) -> None:
    """The periodic look asks the database what the lock connection holds: a lock gone
    while the session lives (let go of by hand) counts as lost, the others stay."""
    monkeypatch.setattr("server.store.pglocks.CHECK_EVERY", 0.1)
    async with opened_stores(postgres.create_database(), 1) as (a,):
        heard: list[object] = []
        a.subscribe(heard.append)
        assert await a.try_lock_game("g") and await a.try_lock_game("h")
        locks = a._locks
        async with locks._guard:
            await locks._conn.execute(
                "SELECT pg_advisory_unlock($1, $2)", LOCK_CLASS, game_key("g")
            )
        await until(lambda: LocksLost(frozenset({"g"})) in heard, "the check finds it")
        assert not locks.holds("g") and locks.holds("h")


async def test_a_time_out_is_written_only_by_the_process_holding_the_lock(
    tmp_path: Path, start_host: StartHost, postgres: Any, clock: FakeClock
) -> None:
    """b believes it runs the clock of a's game (as a process does that has not yet heard
    that its lock went): its time-out is refused, nothing is written, and it stops; a,
    which holds the lock, acts on the deadline once."""
    url = postgres.create_database()
    a = await start_host(tmp_path / "a", quick_settings(now=clock), database=url)
    b = await start_host(tmp_path / "b", quick_settings(now=clock), database=url)
    ann = HostConnection(a, identity("ann"))
    ann.cmd(Quick(2, "easy", clock=parse_time_control("1d")))
    table = (await await_turn(ann)).table
    tables = b.lobby.tables
    await until(lambda: table in tables and tables[table].timing.deadline is not None, "b's copy")
    copy = tables[table]
    copy.game_lock.held = True  # what b wrongly believes
    clock.advance(DAY + 1)
    await b.lobby.play.check_clocks()
    assert copy.seats[0].stored.timeouts == 0 and not copy.game_lock.held
    await a.lobby.play.check_clocks()
    assert a.lobby.tables[table].seats[0].stored.timeouts == 1
    await until(lambda: copy.seats[0].stored.timeouts == 1, "b hears of a's time-out")
    ann.close()


async def test_a_connection_asyncpg_closes_without_a_word_is_found_closed(
    postgres: Any, monkeypatch: Any
) -> None:
    """asyncpg closes a connection the server has just ended, when a statement meets it
    half closed, without calling its termination listeners (it happened as PostgreSQL
    restarted: a process then never listened again). The lock connection's locks count
    as lost all the same, and the listening connection is made again."""
    monkeypatch.setattr("server.store.pgpresence.HEARTBEAT_EVERY", 0.1)
    monkeypatch.setattr("server.store.pglocks.CHECK_EVERY", 0.1)
    async with opened_stores(postgres.create_database(), 1) as (a,):
        heard: list[object] = []
        a.subscribe(heard.append)
        assert await a.try_lock_game("g")
        listener = a._listener
        for conn in (listener, a._locks._conn):
            conn._protocol.abort()  # what asyncpg does then (its `_coreproto_error`)
        await until(lambda: LocksLost(frozenset({"g"})) in heard, "the locks found lost")
        await until(lambda: Reconnected() in heard, "listening again")
        assert a._listener is not listener and await a.try_lock_game("g")


# -- two hosts, one game, faults ---------------------------------------------------


def record_acts(stores: dict[str, Any]) -> list[tuple[str, int, bool, str]]:
    """Every move each store is asked to write: (its process, seq, an act of the lock
    holder, what came of it)."""
    acts: list[tuple[str, int, bool, str]] = []
    for name, store in stores.items():
        append = store.append_move

        async def recorded(
            game: str, seq: int, notation: str, turn: int, timing: Any = None,
            held: bool = False, name: str = name, append: Any = append,
        ) -> None:  # fmt: skip
            try:
                await append(game, seq, notation, turn, timing, held)
            except Exception as e:  # the database going away may say so in other words
                acts.append((name, seq, held, type(e).__name__))
                raise
            acts.append((name, seq, held, "ok"))

        store.append_move = recorded
    return acts


async def settled(store: Any, game: str, copies: list[Any]) -> list[str]:
    """The game's stored moves once both copies have them all (ann no longer plays: the
    bots stop at her turn)."""
    for _ in range(BOUND):
        stored = list(await store.moves(game))
        if all(copy.moves == stored for copy in copies):
            return stored
        await asyncio.sleep(0.05)
    raise AssertionError(f"the copies never met the log: {[len(c.moves) for c in copies]}")


async def keep_playing(conn: HostConnection) -> None:
    """Ann plays `pick` at each of her turns; a move refused (the database away) is sent
    again a second later."""
    loop = asyncio.get_running_loop()
    answered, sent = None, 0.0
    while True:
        await asyncio.sleep(0.05)
        shown = [m for m in conn.messages if isinstance(m, TableUpdate)]
        if not shown or shown[-1].view.is_over:
            continue
        last = shown[-1]
        if last.view.legal_moves and (last is not answered or loop.time() - sent > 1.0):
            conn.cmd(PlayMove(pick(last.view)))
            answered, sent = last, loop.time()


async def test_one_process_acts_for_a_game_across_a_cut_lock_and_a_restart(
    tmp_path: Path, start_host: StartHost, postgres: Any, caplog: Any
) -> None:
    """Ann and three bots, her game on two processes. The lock holder's lock connection is
    ended, then PostgreSQL restarts: each time the holder stops, a lock is taken again (on
    a new connection) and the bots go on. At every sample one process at most holds the
    lock, every bot move was written by the process that held it then, none lost a race
    to another bot move (two processes playing them), and the move log is whole."""
    caplog.set_level("INFO", logger="splendor")
    url = postgres.create_database()
    paced = quick_settings(bot_pause=0.1)  # the game lasts through both faults
    a = await start_host(tmp_path / "a", paced, database=url)
    b = await start_host(tmp_path / "b", paced, database=url)
    names = {lock_name(a.store): "a", lock_name(b.store): "b"}
    acts = record_acts({"a": a.store, "b": b.store})
    ann = HostConnection(a, identity("ann"))
    ann.cmd(Quick(4, "easy"))
    table = (await ann.next_of(TableUpdate)).table
    watch = Watch(url, table)
    watch.start()
    player = asyncio.get_running_loop().create_task(keep_playing(ann))
    try:
        await watch.moves_past(6)
        await until(lambda: watch.holder is not None, "a holder")
        holder = {"a": a, "b": b}[names[str(watch.holder)]]
        await cut(url, holder.store._locks.server_pid)  # type: ignore[attr-defined]
        await watch.moves_past(watch.moves + 6)
        await asyncio.to_thread(postgres.stop)
        await asyncio.to_thread(postgres.start)
        await watch.moves_past(watch.moves + 6)
    finally:
        player.cancel()
        await watch.stop()
    stored = await settled(a.store, table, [h.lobby.tables[table] for h in (a, b)])
    assert caplog.text.count(f"store: lost the locks of {table}") >= 2
    watch.one_holder_at_most(set(names))
    bots = [(p, seq, outcome) for p, seq, held, outcome in acts if held]
    assert [act for act in bots if act[2] == "MoveTaken"] == []
    written = [(p, seq) for p, seq, outcome in bots if outcome == "ok"]
    written += [(p, seq) for p, seq, held, outcome in acts if not held and outcome == "ok"]
    seqs = sorted(seq for _, seq in written)
    assert len(seqs) == len(set(seqs)) and set(seqs) <= set(range(len(stored)))
    unsure = {seq for _, seq, _, outcome in acts if outcome != "ok"}  # lost with its answer
    assert set(range(len(stored))) - set(seqs) <= unsure
    replay(GameSettings(4), (await a.store.load_game(table)).seed, stored)  # type: ignore[union-attr]
    author = {seq: p for p, seq, outcome in bots if outcome == "ok"}  # of each bot move
    for (c1, h1, _), (c2, h2, _) in zip(watch.samples, watch.samples[1:], strict=False):
        if h1 and h1 == h2:  # one holder at both samples: every bot move between is its
            between = {author[s] for s in range(c1, c2) if s in author}
            assert between <= {names[h1[0]]}, (c1, c2, h1, between)
    ann.close()
