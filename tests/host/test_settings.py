"""A game's settings on the host (issue 32): a table created to 21 keeps its target in the
store (schema 5), in the lobby's list, in its game's views, across a restart and in its
rematch, and its record (`[Target "21"]`) exported and replayed; games stored before are
games to 15 (R15)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
from hostkit import (
    HostConnection,
    StartHost,
    await_turn,
    identity,
    opened,
    play_to_end,
    play_turn,
    sqlite_at,
    table_when,
)

from client.replay import Replay
from server.host.clubdesk import record_text
from server.host.gamehost import GameHost
from server.store import (
    DEFAULT_SETTINGS,
    LATEST,
    PLAYING,
    SeatRecord,
    Settings,
    SqliteStore,
    replay_record,
)
from server.store.schema import POSTGRES
from shared.gamerecord import parse_record
from shared.gamerecord import replay_record as record_replay
from shared.protocol import Bye, Create, LobbyList, Quick, Rematch, Start, TableUpdate
from shared.settings import GameSettings

SEATS = [SeatRecord("ann", False, "K1"), SeatRecord(bot="easy")]
OLD_GAME = (
    "INSERT INTO games (id, seed, players, seats, host, status, created)"
    " VALUES ('g', 5, 2, '[{\"name\": \"ann\"}, {\"bot\": \"easy\"}]', 'ann', 'playing', 0)"
)


async def test_r15_a_table_keeps_the_target_it_was_created_with(database: str) -> None:
    store = await opened(database)
    assert await store.create_table("long", SEATS, "ann", settings=Settings(target=21))
    assert await store.create_table("usual", SEATS, "ann")
    assert await store.update_table("long", 0, SEATS, "ann", PLAYING, 9)
    await store.append_move("long", 0, "take W U G", 2)
    record = await store.load_game("long")
    assert record is not None and record.settings == Settings(target=21)
    assert record.game_settings == GameSettings(2, target=21)
    assert replay_record(record).target == 21
    usual = await store.load_game("usual", moves=False)
    assert usual is not None and usual.settings == DEFAULT_SETTINGS
    assert usual.game_settings == GameSettings(2)
    assert {r.id: r.settings.target for r in await store.open_tables()} == {"long": 21, "usual": 15}
    await store.close()


async def test_r15_a_sqlite_game_stored_before_schema_5_is_a_game_to_15(tmp_path: Path) -> None:
    path = tmp_path / "four.db"
    db = sqlite_at(path, 4)
    db.execute(OLD_GAME)
    db.execute("INSERT INTO moves VALUES ('g', 0, 'take W U G', 0)")
    db.commit()
    db.close()
    store = SqliteStore(path)
    await store.open()
    [record] = await store.open_tables()
    assert record.settings.target == 15 and record.game_settings == GameSettings(2)
    assert replay_record(record).target == 15
    await store.close()
    version = sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchone()
    assert version == (LATEST,) == (8,)


async def test_r15_a_postgresql_game_stored_before_schema_5_is_a_game_to_15(
    postgres: object,
) -> None:
    url = postgres.create_database()  # type: ignore[attr-defined]
    conn = await asyncpg.connect(url)
    for version in range(1, 5):
        await conn.execute(POSTGRES[version])
    await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    await conn.execute("INSERT INTO schema_version VALUES (4)")
    await conn.execute(OLD_GAME)
    await conn.close()
    store = await opened(url)
    record = await store.load_game("g")
    assert record is not None and record.game_settings == GameSettings(2)
    assert replay_record(record).target == 15
    await store.close()


async def test_r15_a_game_to_21_is_listed_played_to_21_and_its_rematch_too(
    host: GameHost,
) -> None:
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Create(2, (None, "easy"), target=21))
    listed = await ann.next_of(LobbyList, lambda m: m.waiting_at() is not None)
    waiting = listed.waiting_at()
    assert waiting is not None and waiting.target == 21
    bob = HostConnection(host, identity("bob"))  # anyone in the lobby sees it
    seen = await bob.next_of(LobbyList, lambda m: m.table(waiting.id) is not None)
    assert seen.table(waiting.id).target == 21  # type: ignore[union-attr]
    ann.cmd(Start())
    first = await await_turn(ann)
    assert first.view.target == 21
    final = await play_to_end(ann)
    assert final.outcome is not None and final.final_round
    assert max(final.outcome.scores) >= 21  # R15 at the table's target
    record = await host.store.load_game(first.table)
    assert record is not None and record.status == "finished"
    assert record.settings.target == 21 and replay_record(record).is_over
    text = record_text(record)  # what `export` prints and `v` replays
    assert '[Target "21"]' in text
    parsed = parse_record(text)
    assert parsed.settings == GameSettings(2, 21)
    end = record_replay(parsed)  # the record alone plays the game to its end, at 21
    assert end.is_over and end.outcome() == final.outcome and max(final.outcome.scores) >= 21
    replay = Replay.of(parsed)  # and the replay viewer shows it to its last turn, at 21
    last = replay.view(replay.turns)
    assert replay.over and last.is_over and last.target == 21
    ann.cmd(Rematch())  # against a bot, the rematch starts at once: to 21 again
    again = await table_when(ann, lambda m: m.table != first.table)
    assert again.view.target == 21 and not again.view.is_over


async def test_r15_a_game_to_21_resumes_to_21_after_a_restart(
    start_host: StartHost, database: str
) -> None:
    first = await start_host(database=database)
    ann = HostConnection(first, identity("ann"))
    ann.cmd(Quick(2, "easy", target=21))
    for _ in range(12):  # past the first snapshot (20 moves)
        await play_turn(ann)
    before = await await_turn(ann)
    assert before.view.target == 21
    await first.stop()
    assert (await ann.next_of(Bye)).text
    second = await start_host(database=database)
    back = await HostConnection(second, identity("ann")).next_of(TableUpdate)
    assert back.table == before.table and back.view == before.view
    assert back.view.target == 21
