"""The store, on both backends (SQLite and a real PostgreSQL): names, tables, moves, the
schema's versions, and games that survive a restart and a kill -9 exactly."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import asyncpg
import pytest
from hostkit import (
    WAIT,
    HostConnection,
    StartHost,
    await_turn,
    identity,
    opened,
    play_to_end,
    play_turn,
    write_in_progress,
)

from server.host.table import Table
from server.store import (
    ABANDONED,
    CLOSED,
    FINISHED,
    LATEST,
    PLAYING,
    WAITING,
    GameRecord,
    MoveTaken,
    SchemaTooNew,
    SeatRecord,
    SqliteStore,
)
from server.store.schema import POSTGRES, SQLITE
from shared.codec import dumps
from shared.deal import new_game, replay
from shared.moves import parse_move
from shared.protocol import Bye, Create, LobbyList, Quick, SeatSummary, TableUpdate
from shared.settings import GameSettings

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SEATS = [SeatRecord("ann", False, "K1"), SeatRecord(bot="easy")]


async def test_claim_name(database: str) -> None:
    store = await opened(database)
    assert await store.claim_name("alice", "K1")  # free: now K1's
    assert await store.claim_name("alice", "K1")  # already K1's
    assert not await store.claim_name("alice", "K2")  # another key
    assert await store.name_owner("alice") == "K1" and await store.name_owner("bob") is None
    await store.close()
    again = await opened(database)  # and it is kept
    assert not await again.claim_name("alice", "K2") and await again.claim_name("alice", "K1")
    await again.close()


async def test_claim_name_races_have_one_winner(database: str) -> None:
    """Eight claims of one name at once, from two stores (two processes of a cluster, on
    PostgreSQL): exactly one key wins."""
    stores = [await opened(database), await opened(database)]
    keys = [f"K{i}" for i in range(8)]
    results = await asyncio.gather(
        *(stores[i % 2].claim_name("carol", key) for i, key in enumerate(keys))
    )
    assert sum(results) == 1
    winner = keys[results.index(True)]
    assert await stores[0].name_owner("carol") == winner == await stores[1].name_owner("carol")
    for store in stores:
        await store.close()


async def test_tables_change_only_from_the_version_they_name(database: str) -> None:
    store = await opened(database)
    assert await store.create_table("t1", SEATS, "ann")
    assert not await store.create_table("t1", SEATS, "bob")  # the id is taken
    joined = [SEATS[0], SeatRecord("bob", False, "K2")]
    assert await store.update_table("t1", 0, joined, "ann")
    assert not await store.update_table("t1", 0, SEATS, "ann")  # another change came first
    record = await store.load_game("t1")
    assert record is not None and record.version == 1 and record.seats == tuple(joined)
    assert record.status == WAITING and record.seed is None
    assert await store.update_table("t1", 1, joined, "ann", PLAYING, 77)
    record = await store.load_game("t1")
    assert record is not None and (record.status, record.seed, record.version) == (PLAYING, 77, 2)
    assert [t.id for t in await store.open_tables()] == ["t1"]
    assert await store.finish_game("t1", ABANDONED, None)
    assert not await store.finish_game("t1", FINISHED, None)  # it had ended already
    assert await store.open_tables() == []
    await store.close()


async def test_a_place_in_the_move_log_takes_one_move(database: str) -> None:
    """Two processes racing for the same move: the database keeps the first (the primary
    key (game, seq) refuses the second), and the second hears `MoveTaken`."""
    one, two = await opened(database), await opened(database)
    assert await one.create_table("g", SEATS, "ann")
    assert await one.update_table("g", 0, SEATS, "ann", PLAYING, 5)
    results = await asyncio.gather(
        one.append_move("g", 0, "take W U G", 2),
        two.append_move("g", 0, "take R K W", 2),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["MoveTaken", "NoneType"]
    winner = "take W U G" if results[0] is None else "take R K W"
    assert await two.moves("g") == (winner,)
    with pytest.raises(MoveTaken):
        await one.append_move("g", 0, "pass", 2)
    await one.append_move("g", 1, "take W U G", 3)
    assert await one.moves("g", 1) == ("take W U G",)
    record = await two.load_game("g")
    assert record is not None and record.turn == 3
    await one.close()
    await two.close()


async def test_a_game_loads_with_its_moves_in_order_and_its_latest_snapshot(
    database: str,
) -> None:
    """What a process reads to follow a game (one round trip on PostgreSQL): the moves in
    order, the latest snapshot; a game without either has none; the same from the list
    of open tables read at start."""
    store = await opened(database)
    assert await store.create_table("g", SEATS, "ann")
    assert await store.create_table("new", SEATS, "ann")
    assert await store.update_table("g", 0, SEATS, "ann", PLAYING, 5)
    moves = ("take W U G", "take R K W", "take W U G", "take R K W")
    for seq, notation in enumerate(moves):
        await store.append_move("g", seq, notation, seq + 2)
    await store.save_snapshot("g", 2, b"after two")
    await store.save_snapshot("g", 4, b"after four")
    record = await store.load_game("g")
    assert record is not None
    assert record.moves == moves and record.snapshot == (4, b"after four") and record.turn == 5
    bare = await store.load_game("g", moves=False)
    assert bare is not None and bare.moves == () and bare.snapshot is None
    empty = await store.load_game("new")
    assert empty is not None and empty.moves == () and empty.snapshot is None
    assert await store.load_game("nothing") is None
    assert {r.id: (r.moves, r.snapshot) for r in await store.open_tables()} == {
        "g": (moves, (4, b"after four")),
        "new": ((), None),
    }
    await store.close()


async def test_a_closed_table_is_no_longer_open(database: str) -> None:
    store = await opened(database)
    assert await store.create_table("w", SEATS, "ann")
    assert await store.finish_game("w", CLOSED, None)
    record = await store.load_game("w")
    assert record is not None and record.status == CLOSED and await store.open_tables() == []
    await store.close()


async def test_reads_answer_while_a_write_holds_the_store(tmp_path: Path) -> None:
    """SQLite: name and game look-ups use their own connection, on their own thread: a
    write (a commit's fsync, here a write that waits for the database) never makes them
    wait."""
    store = SqliteStore(tmp_path / "splendor.db")
    await store.open()
    await store.claim_name("ann", "K1")
    assert await store.create_table("g1", SEATS, "ann")
    async with write_in_progress(store) as writer:
        assert await asyncio.wait_for(store.name_owner("ann"), WAIT) == "K1"
        assert await asyncio.wait_for(store.claim_name("ann", "K1"), WAIT)  # owned: no write
        assert await asyncio.wait_for(store.load_game("g1", moves=False), WAIT) is not None
        assert await asyncio.wait_for(store.load_game("g2"), WAIT) is None
        assert not writer.done()  # all answered while the write was still held
    assert await store.name_owner("writer") == "SHA256:writer-key"  # and the write went through
    await store.close()


# -- the schema's versions ----------------------------------------------------------


async def test_a_database_from_before_versions_is_upgraded(tmp_path: Path) -> None:
    """A SQLite database of the first schema (no version recorded), with a game in it:
    opening it brings it to the latest version, and nothing is lost."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(SQLITE[1])
    db.execute("INSERT INTO names VALUES ('ann', 'K1', 0)")
    db.execute(
        "INSERT INTO games (id, seed, players, seats, host, status, created)"
        " VALUES ('g', 5, 2, ?, 'ann', 'playing', 0)",
        ('[{"name": "ann", "guest": false, "key": "K1", "bot": null}, {"bot": "easy"}]',),
    )
    db.execute("INSERT INTO moves VALUES ('g', 0, 'take W U G', 0)")
    db.commit()
    db.close()
    store = SqliteStore(path)
    await store.open()
    assert await store.name_owner("ann") == "K1"
    [record] = await store.open_tables()
    assert (record.id, record.seed, record.moves, record.status) == (
        "g",
        5,
        ("take W U G",),
        PLAYING,
    )
    assert record.seats[0] == SeatRecord("ann", False, "K1")
    await store.close()
    version = sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchone()
    assert version == (LATEST,)


async def test_a_postgresql_database_of_version_1_is_upgraded(postgres: object) -> None:
    url = postgres.create_database()  # type: ignore[attr-defined]
    conn = await asyncpg.connect(url)
    await conn.execute(POSTGRES[1])
    await conn.execute(
        "INSERT INTO games (id, seed, players, seats, host, status, created)"
        " VALUES ('g', 5, 2, '[]', 'ann', 'playing', 0)"
    )
    await conn.close()
    store = await opened(url)
    record = await store.load_game("g")
    assert record is not None and record.version == 0 and record.seed == 5
    await store.close()


async def test_a_newer_schema_is_refused_with_a_clear_message(database: str) -> None:
    store = await opened(database)
    await store.close()
    if database.startswith("sqlite"):
        db = sqlite3.connect(database.removeprefix("sqlite:///"))
        db.execute("UPDATE schema_version SET version = 99")
        db.commit()
        db.close()
    else:
        conn = await asyncpg.connect(database)
        await conn.execute("UPDATE schema_version SET version = 99")
        await conn.close()
    with pytest.raises(SchemaTooNew, match="schema version 99.*newer splendor-server"):
        await opened(database)


# -- games across restarts ------------------------------------------------------------


async def test_a_game_in_progress_resumes_after_a_restart(
    start_host: StartHost, database: str
) -> None:
    first = await start_host(database=database)
    alice = HostConnection(first, identity("alice"))
    alice.cmd(Quick(3, "easy"))
    for _ in range(10):  # about 30 moves: past the first snapshot
        await play_turn(alice)
    msg = await await_turn(alice)
    before, table_id = msg.view, msg.table
    history = (await HostConnection(first, identity("alice")).next_of(TableUpdate)).log
    assert history is not None and len(history) == before.turn - 1  # every turn, to a newcomer
    await first.stop()
    assert (await alice.next_of(Bye)).text
    store = await opened(database)
    record = await store.load_game(table_id)
    await store.close()
    assert record is not None and record.snapshot is not None and record.status == "playing"

    second = await start_host(database=database)
    again = HostConnection(second, identity("alice"))
    back = await again.next_of(TableUpdate)
    assert back.table == table_id and back.view == before
    assert back.log == history  # the move log too, rebuilt from the stored moves
    assert back.seats[1] == SeatSummary(None, bot="easy", connected=True)
    final = await play_to_end(again)
    assert final.outcome is not None


async def test_a_waiting_table_survives_a_restart(start_host: StartHost, database: str) -> None:
    first = await start_host(database=database)
    alice = HostConnection(first, identity("alice"))
    alice.cmd(Create(3, (None, None, "hard")))
    mine = await alice.next_of(LobbyList, lambda m: bool(m.mine))
    await first.stop()

    second = await start_host(database=database)
    bob = HostConnection(second, identity("bob"))
    listed = await bob.next_of(LobbyList)
    [table] = listed.tables
    assert table.id == mine.mine[0] and [s.bot for s in table.seats] == [None, None, "hard"]
    assert table.seats[0].name == "alice" and not table.seats[0].connected  # away, held
    back = HostConnection(second, identity("alice"))
    assert (await back.next_of(LobbyList)).mine == mine.mine  # she is back at it


def test_resume_replays_the_log_past_a_bad_snapshot() -> None:
    moves: list[str] = []
    state = new_game(GameSettings(2), 5)
    for _ in range(30):
        move = state.legal_moves()[0]
        moves.append(str(move))
        state = state.apply(move)
    seats = (SeatRecord("a", False, "K"), SeatRecord(bot="easy"))
    snapshot = (20, dumps(replay(GameSettings(2), 5, moves[:20])))
    good = GameRecord("g", 5, seats, "a", "playing", 0.0, None, None, tuple(moves), snapshot)
    bad = GameRecord("g", 5, seats, "a", "playing", 0.0, None, None, tuple(moves), (20, b"junk"))
    for record in (good, bad):
        table = Table(record, None, None, lambda t, minor: None)  # type: ignore[arg-type]
        assert table.state == state and table.moves == moves


async def test_kill_9_loses_no_move_that_was_sent(
    tmp_path: Path, start_host: StartHost, database: str
) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(HERE / "kill9_player.py"),
        str(tmp_path),
        database,
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    seen: list[str] = []
    try:
        while len(seen) < 40:
            line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().strip()
            assert line and line != "over", "the game ended before the kill"
            seen.append(line)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the host and its bot workers, mid-game
        await asyncio.wait_for(proc.wait(), 10)
    assert proc.returncode == -signal.SIGKILL

    store = await opened(database)
    [record] = await store.open_tables()
    await store.close()
    assert record.seed is not None
    state = new_game(GameSettings(4), record.seed)
    stored_views = {dumps(state.view(0)).hex()}
    for text in record.moves:
        state = state.apply(parse_move(text))
        stored_views.add(dumps(state.view(0)).hex())
    assert all(v in stored_views for v in seen), "a move was sent before it was stored"
    assert len(record.moves) >= len(seen) - 1

    host = await start_host(database=database)
    alice = HostConnection(host, identity("alice"))
    back = await alice.next_of(TableUpdate)
    assert back.view == state.view(0)  # exactly where the log ends
    final = await play_to_end(alice)
    assert final.is_over


async def test_a_game_whose_log_is_over_is_marked_finished_at_start(
    start_host: StartHost, database: str
) -> None:
    store = await opened(database)
    seats = [SeatRecord("a", False, "K"), SeatRecord(bot="easy")]
    assert await store.create_table("done", seats, "a")
    assert await store.update_table("done", 0, seats, "a", PLAYING, 3)
    state, seq = new_game(GameSettings(2), 3), 0
    for _ in range(1000):
        if state.is_over:
            break
        move = state.legal_moves()[-1]  # buys come last: the game ends
        state = state.apply(move)
        await store.append_move("done", seq, str(move), state.turn)
        seq += 1
    await store.close()  # a crash between the last move and marking the game finished

    host = await start_host(database=database)
    assert "done" not in host.lobby.tables
    record = await host.store.load_game("done")
    assert record is not None and record.status == "finished" and len(record.moves) == seq


async def test_sessions_written_in_one_batch_are_what_another_process_reads(
    postgres: object,
) -> None:
    """Presence (docs/cluster.md): a batch of arrivals, a move to a table and a departure,
    written as one statement, is what another process reads; its own are not listed."""
    url = postgres.create_database()  # type: ignore[attr-defined]
    here, there = await opened(url), await opened(url)

    async def read_there(expected: set[tuple[object, ...]]) -> None:
        """Wait (bounded) until `there` reads `expected`, all of it `here`'s."""
        for _ in range(100):
            rows = await there.sessions()
            seen = {(r.session, r.name, r.guest, r.key, r.table, r.seat) for r in rows}
            if seen == expected:
                break
            await asyncio.sleep(0.05)
        assert seen == expected
        assert {r.process for r in rows} == {here.process}  # type: ignore[attr-defined]

    try:
        await here.set_session("s1", "ann", False, "K1", None, None)
        await here.set_session("s2", "guest-bob", True, None, None, None)
        await here.set_session("s3", "cy", False, "K3", "t9", None)
        await read_there(
            {
                ("s1", "ann", False, "K1", None, None),
                ("s2", "guest-bob", True, None, None, None),
                ("s3", "cy", False, "K3", "t9", None),
            }
        )
        await here.set_session("s1", "ann", False, "K1", "t1", 0)
        await here.drop_session("s2")
        await read_there(
            {("s1", "ann", False, "K1", "t1", 0), ("s3", "cy", False, "K3", "t9", None)}
        )
        assert await here.sessions() == []  # a process lists the others' sessions
    finally:
        await here.close()
        await there.close()
