"""A cluster: game servers on one PostgreSQL database, each with its own host (as each
process of `splendor-server --workers N` has), players over SSH with PTYs, screens read
with pyte. The database is the only thing they share; what one does reaches the others as
its events (docs/cluster.md)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
import asyncssh
import pytest
from gamekit import (
    KEYS,
    Game,
    Player,
    game_server,
    login,
    play_to_end,
    play_turn,
    quick_game,
    status,
    turn_shown,
)
from hostkit import (
    WAIT,
    HostConnection,
    await_turn,
    identity,
    opened_stores,
    pick,
    play_move,
    table_when,
)

from server.store import StoreUnavailable
from shared.protocol import (
    Create,
    Join,
    LobbyList,
    Notice,
    PlayMove,
    Quick,
    TableStatus,
    TableUpdate,
)


async def servers(stack: AsyncExitStack, tmp: Path, executor: Any, url: str, n: int) -> list[Game]:
    return [
        await stack.enter_async_context(game_server(tmp / f"p{i}", executor, database=url))
        for i in range(n)
    ]


@asynccontextmanager
async def pool_in_use(pool: Any) -> AsyncIterator[None]:
    """Every connection of a process's database pool held (by other requests, as it were)
    for as long as the block runs."""
    held = [await pool.acquire() for _ in range(pool.get_max_size())]
    try:
        yield
    finally:
        for conn in held:
            await pool.release(conn)


async def sat_down(table: Any, seat: int, name: str) -> None:
    """Wait until this copy of `table` has `name` at `seat` (another process's change)."""
    for _ in range(200):
        if table.seats[seat].identity is not None:
            break
        await asyncio.sleep(0.05)
    assert table.seats[seat].identity is not None and table.seats[seat].identity.name == name


async def create_table_with_a_bot(player: Player) -> str:
    """From the lobby, by keys: a 3-seat table, seat 2 open, seat 3 an easy bot; its id."""
    await player.wait_for("Splendor lobby")
    player.press("c")
    await player.wait_for("Create a table")
    player.press(KEYS["right"])
    await player.wait_for(lambda t: re.search(r"Seats\s+◀\s+3\s+▶", t) is not None)
    player.press(KEYS["down"])
    await asyncio.sleep(0.2)  # the focus moves: nothing on the screen says so
    player.press(KEYS["down"])
    await asyncio.sleep(0.2)
    player.press(KEYS["right"])
    await player.wait_for(lambda t: re.search(r"Seat 3\s+◀\s+easy\s+▶", t) is not None)
    player.press(KEYS["enter"])
    screen = await player.wait_for("Your table")
    found = re.search(r"Your table (\w+)", screen)
    assert found is not None
    return found.group(1)


async def test_two_players_on_two_processes_play_a_game_watched_from_a_third(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """Ann's process, Bob's and Carol's are three: Ann's table shows in Bob's lobby, he
    joins, she starts, they play a whole game against each other and a bot, and Carol
    watches it from the third; everyone sees every move, and the same end."""
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        a, b, c = await servers(stack, tmp_path, bot_executor, url, 3)
        ann = await login(a.port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        bob = await login(b.port, "bob", asyncssh.generate_private_key("ssh-ed25519"))
        table = await create_table_with_a_bot(ann)
        await bob.wait_for(f"{table}  ann")  # in his lobby, from the other process
        bob.press("j")
        await ann.wait_for("2. bob")
        ann.press("s")
        carol = await login(c.port, "carol", asyncssh.generate_private_key("ssh-ed25519"))
        await carol.wait_for(lambda t: table in t and "playing" in t)
        carol.press("w")
        await carol.wait_for("(watching)")
        finals = await asyncio.gather(
            play_to_end(ann, a.tap.latest("ann")), play_to_end(bob, b.tap.latest("bob"))
        )
        assert finals[0].outcome == finals[1].outcome is not None
        watched = await c.tap.latest("carol").wait(
            lambda m: isinstance(m, TableUpdate) and m.view.is_over
        )
        assert isinstance(watched, TableUpdate) and watched.view.outcome == finals[0].outcome
        await carol.wait_for("Game over")
        record = await a.host.store.load_game(table)
        assert record is not None and record.status == "finished"
        seats = [record.seats[i % 3] for i in range(len(record.moves))]  # who moved, roughly
        assert any(s.bot == "easy" for s in seats)
        for player in (ann, bob, carol):
            await player.close()


async def test_a_move_racing_another_for_the_same_place_is_refused(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """One player at one table from two processes sends two moves at once: the database
    keeps one, the other is refused with its reason, and both copies agree after."""
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        a, b = await servers(stack, tmp_path, bot_executor, url, 2)
        here = HostConnection(a.host, identity("ann"))
        here.cmd(Quick(2, "easy"))
        first = await here.next_of(TableUpdate)
        there = HostConnection(b.host, identity("ann"))  # lands at her game on b
        await there.next_of(TableUpdate, lambda m: m.table == first.table)
        mine = await await_turn(here)  # hers (the seed may give the bot the first move)
        await table_when(there, lambda m: m.view.turn == mine.view.turn)
        moves = mine.view.legal_moves  # the first turn: a dozen takes and reserves
        here.cmd(PlayMove(moves[0]))
        there.cmd(PlayMove(moves[-1]))
        await here.link.idle()
        await there.link.idle()
        stored = await a.host.store.moves(first.table)
        seq = mine.view.turn - 1  # no returns yet: one move a turn
        assert str(stored[seq]) in (str(moves[0]), str(moves[-1]))
        notices = [m for m in here.messages + there.messages if isinstance(m, Notice)]
        assert len(notices) == 1, notices
        assert "another move was played first" in notices[0].text or "turn" in notices[0].text
        ta, tb = a.host.lobby.tables[first.table], b.host.lobby.tables[first.table]
        for _ in range(100):  # the copies meet
            if ta.moves == tb.moves:
                break
            await asyncio.sleep(0.05)
        assert ta.moves[: seq + 1] == tb.moves[: seq + 1] == list(stored[: seq + 1])


async def test_a_name_claimed_on_two_processes_at_once_has_one_owner(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        a, b = await servers(stack, tmp_path, bot_executor, url, 2)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]

        async def try_login(port: int, key: Any) -> bool:
            try:
                player = await login(port, "zed", key)
            except (asyncssh.Error, OSError):  # refused: the name is the other key's
                return False
            try:
                await player.wait_for("you are zed")
            except AssertionError:
                return False
            finally:
                await player.close()
            return True

        results = await asyncio.gather(try_login(a.port, keys[0]), try_login(b.port, keys[1]))
        assert sorted(results) == [False, True]
        owner = await a.host.store.name_owner("zed")
        assert owner == keys[results.index(True)].get_fingerprint("sha256")


async def test_postgresql_restarting_mid_game_refuses_moves_then_plays_on(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """The database goes away in the middle of a game: the session stays up, a move is
    refused with "the server is busy" (never accepted and then lost), and once the
    database is back, the same move is played and the bot answers."""
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        (a,) = await servers(stack, tmp_path, bot_executor, url, 1)
        ann = await login(a.port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        await quick_game(ann, "easy")
        record = a.tap.latest("ann")
        view = await play_turn(ann, record)  # one move while all is well
        screen = await ann.wait_for(lambda t: "your turn" in status(t))
        turn = turn_shown(screen)
        table = record.tables()[-1].table
        stored = len(await a.host.store.moves(table))
        await asyncio.to_thread(postgres.stop)
        try:
            move = pick(view if view.my_turn else record.tables()[-1].view)
            ann.press(":")
            await ann.wait_for("a move: take W U G")
            ann.press(str(move) + "\r")
            await ann.wait_for("the server is busy; try again in a moment")
        finally:
            await asyncio.to_thread(postgres.start)
        assert len(await a.host.store.moves(table)) == stored  # nothing was kept
        ann.press(":")
        await ann.wait_for("a move: take W U G")
        ann.press(str(move) + "\r")
        await ann.wait_for(lambda t: turn_shown(t) > turn and "your turn" in status(t), WAIT)
        assert len(await a.host.store.moves(table)) >= stored + 2  # hers and the bot's
        await ann.close()
        assert a.host.lobby.tables[table].status is TableStatus.PLAYING


async def test_a_process_that_lost_the_databases_news_catches_up(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """Process b's listening connection is cut (as a network fault would); the moves made
    on a meanwhile reach b all the same: it listens again and reads what it missed."""
    url = postgres.create_database()
    admin = await asyncpg.connect(postgres.url())
    await admin.execute("CREATE ROLE process_b LOGIN SUPERUSER")  # b's own database user
    await admin.close()
    url_b = url.replace("//splendor@", "//process_b@")
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(game_server(tmp_path / "a", bot_executor, url))
        b = await stack.enter_async_context(game_server(tmp_path / "b", bot_executor, url_b))
        ann = HostConnection(a.host, identity("ann"))
        ann.cmd(Quick(2, "easy"))
        table = (await ann.next_of(TableUpdate)).table
        listener = b.host.store._listener  # type: ignore[attr-defined]
        admin = await asyncpg.connect(postgres.url())
        # b may not connect anew for now (its listening connection cannot come back; the
        # connections it holds go on), then its listening connection is cut.
        await admin.execute("ALTER ROLE process_b NOLOGIN")
        try:
            await admin.execute("SELECT pg_terminate_backend($1)", listener.get_server_pid())
            for _ in range(3):  # moves while b hears nothing
                await play_move(ann, pick((await await_turn(ann)).view))
            stored = await a.host.store.moves(table)
            assert len(b.host.lobby.tables[table].moves) < len(stored)  # b missed them
        finally:
            await admin.execute("ALTER ROLE process_b LOGIN")
            await admin.close()
        tb = b.host.lobby.tables[table]
        for _ in range(200):
            if tb.moves[: len(stored)] == list(stored):
                break
            await asyncio.sleep(0.05)
        assert tb.moves[: len(stored)] == list(stored)
        assert b.host.store._listener is not listener  # type: ignore[attr-defined]


async def test_a_change_the_store_was_too_busy_to_read_is_read_again(
    tmp_path: Path, bot_executor: Any, postgres: Any, monkeypatch: Any, caplog: Any
) -> None:
    """Process b hears that ann's table on a changed (bob sat down) while every connection
    of its pool is in use: reading the table times out, and b tries again once the pool
    has a connection free, so its copy does not stay behind."""
    monkeypatch.setattr("server.store.pgpool.POOL_WAIT", 0.3)  # a quick time-out
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        a, b = await servers(stack, tmp_path, bot_executor, url, 2)
        ann, bob = HostConnection(a.host, identity("ann")), HostConnection(a.host, identity("bob"))
        ann.cmd(Create(2, (None, None)))
        waiting = (await ann.next_of(LobbyList, lambda m: m.waiting_at() is not None)).tables
        table = waiting[0].id
        for _ in range(100):  # b has its copy
            if table in b.host.lobby.tables:
                break
            await asyncio.sleep(0.05)
        pool = b.host.store._pool  # type: ignore[attr-defined]
        async with pool_in_use(pool):
            bob.cmd(Join(table))
            for _ in range(100):  # b failed to read the change at least once
                if "trying again" in caplog.text:
                    break
                await asyncio.sleep(0.05)
            assert "no database connection within" in caplog.text
        await sat_down(b.host.lobby.tables[table], 1, "bob")


async def test_a_process_whose_pool_is_all_in_use_is_not_taken_for_dead(
    postgres: Any, monkeypatch: Any, caplog: Any
) -> None:
    """Every pooled connection of process a is busy for longer than a process may go
    unheard: its signs of life go on its own connection, so b never removes it (nor
    shows its players as away)."""
    monkeypatch.setattr("server.store.pgpresence.HEARTBEAT_EVERY", 0.1)
    monkeypatch.setattr("server.store.pgpresence.PROCESS_TIMEOUT", 0.5)
    caplog.set_level("INFO", logger="splendor")
    async with opened_stores(postgres.create_database(), 2) as (a, b):
        pool = a._pool
        async with pool_in_use(pool):
            await asyncio.sleep(1.5)  # three timeouts; b's heartbeats look every 0.1 s
        async with b._conn() as conn:
            alive = await conn.fetchval("SELECT count(*) FROM processes WHERE id = $1", a.process)
        assert alive == 1
        assert "processes gone" not in caplog.text


async def test_a_request_waits_for_a_busy_pool_past_the_time_to_reach_the_database(
    postgres: Any, monkeypatch: Any
) -> None:
    """With every pooled connection in use (a burst of arrivals on a loaded machine), a
    request waits for one past the time allowed to reach the database, and goes through
    when one comes free, instead of telling its player the server is busy."""
    monkeypatch.setattr("server.store.pgpool.CONNECT_TIMEOUT", 0.2)
    async with opened_stores(postgres.create_database(), 1) as (store,):
        pool = store._pool
        async with pool_in_use(pool):
            asking = asyncio.ensure_future(store.claim_name("ann", "key-a"))
            await asyncio.sleep(0.6)  # three times CONNECT_TIMEOUT
            assert not asking.done()
        try:
            assert await asyncio.wait_for(asking, 5)
        finally:
            asking.cancel()


async def test_a_lobby_request_the_database_could_not_serve_is_refused_and_logged(
    tmp_path: Path, bot_executor: Any, postgres: Any, monkeypatch: Any, caplog: Any
) -> None:
    """Ann asks for a table while no pooled connection comes free: she hears that the
    server is busy, and the log says why (the operator's only clue)."""
    monkeypatch.setattr("server.store.pgpool.POOL_WAIT", 0.3)
    async with AsyncExitStack() as stack:
        (a,) = await servers(stack, tmp_path, bot_executor, postgres.create_database(), 1)
        ann = HostConnection(a.host, identity("ann"))
        await ann.next_of(LobbyList)
        pool = a.host.store._pool  # type: ignore[attr-defined]
        async with pool_in_use(pool):
            ann.cmd(Create(2, (None, "easy")))
            refused = await ann.next_of(Notice)
        assert refused.text == "the server is busy; try again in a moment"
        said = r"lobby: ann's Create: no database connection within 0\.\d s \((\d+) of \1 in use\)"
        assert re.search(said, caplog.text), caplog.text


async def test_a_sign_of_life_on_the_pool_waits_no_longer_than_a_heartbeat_may_take(
    postgres: Any, monkeypatch: Any
) -> None:
    """While the listening connection is being made again, signs of life go through the
    pool; with all of it in use they give up after BEAT_TIMEOUT, not the pool wait of a
    player's request (longer than a process may go unheard)."""
    monkeypatch.setattr("server.store.pgpresence.BEAT_TIMEOUT", 0.2)
    monkeypatch.setattr("server.store.pgpool.POOL_WAIT", 60.0)

    async def sign_of_life(store: Any) -> None:
        async with store._presence.own_conn():
            pass

    async with opened_stores(postgres.create_database(), 1) as (store,):
        listener, store._listener = store._listener, None  # being made again
        pool = store._pool
        try:
            async with pool_in_use(pool):
                with pytest.raises(StoreUnavailable, match="no database connection within"):
                    await asyncio.wait_for(sign_of_life(store), 10)  # not the 60 s pool wait
        finally:
            store._listener = listener


async def test_a_pooled_connection_held_long_is_logged_with_its_user(
    postgres: Any, monkeypatch: Any, caplog: Any
) -> None:
    """What starves a worker's pool is in its log: who held a connection, how long, and
    how long it waited for it."""
    monkeypatch.setattr("server.store.pgpool.HELD_LONG", 0.2)
    async with opened_stores(postgres.create_database(), 1) as (store,):

        async def slow_report() -> None:
            async with store._conn() as conn:
                await conn.execute("SELECT pg_sleep(0.3)")

        caplog.set_level("INFO", logger="splendor")
        await slow_report()
        said = r"store: slow_report held a database connection (\d+\.\d) s \(after waiting"
        found = re.search(said, caplog.text)
        assert found and float(found.group(1)) >= 0.2, caplog.text


async def test_a_copy_at_the_version_a_change_made_does_not_read_it_again(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """Bob sits down at ann's table on process a: b reads the table again (its copy is
    behind), a does not (its copy made the change, and the news says which version)."""
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        a, b = await servers(stack, tmp_path, bot_executor, url, 2)
        reads: dict[str, list[str]] = {"a": [], "b": []}
        for name, game in (("a", a), ("b", b)):
            store = game.host.store
            load = store.load_game

            async def counted(
                table: str, moves: bool = True, name: str = name, load: Any = load
            ) -> Any:
                reads[name].append(table)
                return await load(table, moves)

            store.load_game = counted  # type: ignore[method-assign]
        ann, bob = HostConnection(a.host, identity("ann")), HostConnection(a.host, identity("bob"))
        ann.cmd(Create(2, (None, None)))
        table = (await ann.next_of(LobbyList, lambda m: m.waiting_at() is not None)).tables[0].id
        for _ in range(100):  # b has its copy
            if table in b.host.lobby.tables:
                break
            await asyncio.sleep(0.05)
        reads["a"].clear()
        reads["b"].clear()
        bob.cmd(Join(table))
        await sat_down(b.host.lobby.tables[table], 1, "bob")
        await asyncio.sleep(0.3)  # a's own news has come back by now
        assert reads == {"a": [], "b": [table]}


async def test_a_stopping_host_follows_no_more_news(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """Once b's host has begun to stop (its cluster stopped, its store about to close), a
    table made on a is not followed there: no request meets a closing store."""
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        a, b = await servers(stack, tmp_path, bot_executor, url, 2)
        await b.host._cluster.stop()  # type: ignore[union-attr]  # the first step of stop()
        ann = HostConnection(a.host, identity("ann"))
        ann.cmd(Create(2, (None, None)))
        table = (await ann.next_of(LobbyList, lambda m: m.waiting_at() is not None)).tables[0].id
        await asyncio.sleep(0.5)  # the news has reached b's store by now
        assert table not in b.host.lobby.tables


async def test_a_presence_read_due_when_the_cluster_stops_is_not_made(
    tmp_path: Path, bot_executor: Any, postgres: Any
) -> None:
    """Who is online elsewhere is read shortly after news of it (`presence_soon`); a read
    still due when the host stops is dropped, not started on a stopping host (it was a
    coroutine left never awaited at the end of a test)."""
    url = postgres.create_database()
    async with AsyncExitStack() as stack:
        _, b = await servers(stack, tmp_path, bot_executor, url, 2)
        cluster = b.host._cluster
        assert cluster is not None
        reads: list[str] = []
        read = cluster.presence

        async def counted() -> None:
            reads.append("read")
            await read()

        cluster.presence = counted  # type: ignore[method-assign]
        cluster.presence_soon()
        await cluster.stop()
        await asyncio.sleep(0.3)  # well past the 0.05 s the read was due after
        assert reads == []
