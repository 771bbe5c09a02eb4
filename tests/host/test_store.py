"""The store: names, and games that survive a restart and a kill -9 exactly."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path

from hostkit import (
    WAIT,
    HostConnection,
    await_turn,
    identity,
    make_host,
    pick,
    play_move,
    play_to_end,
    write_in_progress,
)

from server.store import GameRecord, SeatRecord, Store
from server.table import Table
from shared.codec import dumps
from shared.deal import new_game, replay
from shared.moves import parse_move
from shared.protocol import Bye, Quick, SeatSummary, TableUpdate

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


def test_claim_name(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.claim_name("alice", "K1")  # free: now K1's
    assert store.claim_name("alice", "K1")  # already K1's
    assert store.claim_name("Alice", "K1")  # names compare without case
    assert not store.claim_name("ALICE", "K2")  # another key
    assert store.name_owner("alice") == "K1" and store.name_owner("bob") is None
    store.close()
    again = Store(tmp_path)  # and it is kept
    assert not again.claim_name("alice", "K2") and again.claim_name("alice", "K1")
    again.close()


def test_claim_name_races_have_one_winner(tmp_path: Path) -> None:
    store = Store(tmp_path)
    results: dict[str, bool] = {}
    barrier = threading.Barrier(8)

    def claim(key: str) -> None:
        barrier.wait()
        results[key] = store.claim_name("carol", key)

    threads = [threading.Thread(target=claim, args=(f"K{i}",)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sum(results.values()) == 1
    winner = next(k for k, ok in results.items() if ok)
    assert store.name_owner("carol") == winner
    store.close()


def test_reads_answer_while_a_write_holds_the_store(tmp_path: Path) -> None:
    """Name and game look-ups use their own connection: a write (a commit's fsync, here a
    write that waits for the database) never makes them wait."""
    store = Store(tmp_path)
    store.claim_name("ann", "K1")
    store.create_game("g1", 5, [SeatRecord("ann", False, "K1"), SeatRecord(bot="easy")], "ann")
    with write_in_progress(store) as writer, ThreadPoolExecutor(1) as reads:
        assert reads.submit(store.name_owner, "ann").result(WAIT) == "K1"
        assert reads.submit(store.claim_name, "ann", "K1").result(WAIT)  # owned: no write
        assert reads.submit(store.game_exists, "g1").result(WAIT)
        assert not reads.submit(store.game_exists, "g2").result(WAIT)
        assert writer.is_alive()  # all answered while the write was still held
    assert store.name_owner("writer") == "SHA256:writer-key"  # and the write went through
    store.close()


async def test_a_game_in_progress_resumes_after_a_restart(
    tmp_path: Path, bot_executor: Executor
) -> None:
    first = make_host(tmp_path, bot_executor)
    await first.start()
    alice = HostConnection(first, identity("alice"))
    alice.cmd(Quick(3, "easy"))
    for _ in range(10):  # about 30 moves: past the first snapshot
        msg = await await_turn(alice)
        await play_move(alice, pick(msg.view))
    msg = await await_turn(alice)
    before, table_id = msg.view, msg.table
    history = (await HostConnection(first, identity("alice")).next_of(TableUpdate)).log
    assert history is not None and len(history) == before.turn - 1  # every turn, to a newcomer
    await first.stop()
    assert (await alice.next_of(Bye)).text
    record = Store(tmp_path).load_game(table_id)
    assert record is not None and record.snapshot is not None and record.status == "playing"

    second = make_host(tmp_path, bot_executor)
    await second.start()
    again = HostConnection(second, identity("alice"))
    back = await again.next_of(TableUpdate)
    assert back.table == table_id and back.view == before
    assert back.log == history  # the move log too, rebuilt from the stored moves
    assert back.seats[1] == SeatSummary(None, bot="easy", connected=True)
    final = await play_to_end(again)
    assert final.outcome is not None
    await second.stop()


def test_resume_replays_the_log_past_a_bad_snapshot() -> None:
    moves: list[str] = []
    state = new_game(2, 5)
    for _ in range(30):
        move = state.legal_moves()[0]
        moves.append(str(move))
        state = state.apply(move)
    seats = (SeatRecord("a", False, "K"), SeatRecord(bot="easy"))
    good = GameRecord(
        "g",
        5,
        seats,
        "a",
        "playing",
        0.0,
        None,
        None,
        tuple(moves),
        (20, dumps(replay(2, 5, moves[:20]))),
    )
    bad = GameRecord("g", 5, seats, "a", "playing", 0.0, None, None, tuple(moves), (20, b"junk"))
    for record in (good, bad):
        table = Table.resume(record, None, None, lambda t, minor: None)  # type: ignore[arg-type]
        assert table.state == state and table.moves == moves


async def test_kill_9_loses_no_move_that_was_sent(tmp_path: Path, bot_executor: Executor) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(HERE / "kill9_player.py"),
        str(tmp_path),
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

    store = Store(tmp_path)
    [record] = store.games_in_progress()
    store.close()
    state = new_game(4, record.seed)
    stored_views = {dumps(state.view(0)).hex()}
    for text in record.moves:
        state = state.apply(parse_move(text))
        stored_views.add(dumps(state.view(0)).hex())
    assert all(v in stored_views for v in seen), "a move was sent before it was stored"
    assert len(record.moves) >= len(seen) - 1

    host = make_host(tmp_path, bot_executor)
    await host.start()
    alice = HostConnection(host, identity("alice"))
    back = await alice.next_of(TableUpdate)
    assert back.view == state.view(0)  # exactly where the log ends
    final = await play_to_end(alice)
    assert final.is_over
    await host.stop()


async def test_a_game_whose_log_is_over_is_marked_finished_at_start(
    tmp_path: Path, bot_executor: Executor
) -> None:
    store = Store(tmp_path)
    store.create_game("done", 3, [SeatRecord("a", False, "K"), SeatRecord(bot="easy")], "a")
    state, seq = new_game(2, 3), 0
    for _ in range(1000):
        if state.is_over:
            break
        move = state.legal_moves()[-1]  # buys come last: the game ends
        store.append_move("done", seq, str(move))
        state, seq = state.apply(move), seq + 1
    store.close()  # a crash between the last move and marking the game finished

    host = make_host(tmp_path, bot_executor)
    await host.start()
    assert "done" not in host.lobby.tables
    record = host.store.load_game("done")
    assert record is not None and record.status == "finished" and len(record.moves) == seq
    await host.stop()
