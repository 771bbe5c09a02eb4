"""`splendor-server copy-db`: a club's names, tables, games and moves go from SQLite to
PostgreSQL, nothing lost; a second run adds nothing; the games play on there."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hostkit import HostConnection, StartHost, identity, play_to_end, play_turn

from server.commands.copydb import main as copy_db
from server.store import default_url, open_store
from shared.protocol import Create, LobbyList, Quick, TableUpdate


async def test_a_club_moves_from_sqlite_to_postgresql_and_plays_on(
    tmp_path: Path,
    start_host: StartHost,
    postgres: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = default_url(tmp_path / "club")
    target = postgres.create_database()
    host = await start_host(database=source)
    await host.store.claim_name("ann", "SHA256:ann-key")
    await host.store.claim_name("bob", "SHA256:bob-key")
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Quick(2, "easy"))
    done = await play_to_end(ann)  # a finished game
    bob = HostConnection(host, identity("bob"))
    bob.cmd(Quick(3, "easy"))
    for _ in range(4):  # a game in progress
        await play_turn(bob)
    playing = bob.last_table.table
    cy = HostConnection(host, identity("cy"))
    cy.cmd(Create(2, (None, None)))  # a table waiting for players
    waiting = (await cy.next_of(LobbyList, lambda m: bool(m.mine))).mine[0]
    await host.stop()

    copy = ["--from", source, "--to", target]
    assert await asyncio.to_thread(copy_db, copy) == 0  # a command: its own event loop
    said = capsys.readouterr().out
    assert "2 names, 3 of 3 games" in said
    assert await asyncio.to_thread(copy_db, copy) == 0  # again: nothing new
    again = capsys.readouterr().out
    assert "0 of 2 names, 0 of 3 games" in again and "0 of 5 game players" in again

    before, after = open_store(source), open_store(target)
    await before.open()
    await after.open()
    one, two = await before.dump(), await after.dump()
    for table, rows in one.rows.items():
        assert sorted(rows) == sorted(two.rows[table]), table
    finished = await after.load_game(ann.last_table.table)
    assert finished is not None and finished.status == "finished"
    assert finished.outcome == {
        "scores": list(done.outcome.scores),
        "ranks": list(done.outcome.ranks),
    }  # type: ignore[union-attr]
    assert await after.name_owner("bob") == "SHA256:bob-key"
    await before.close()
    await after.close()

    moved = await start_host(tmp_path / "pg", database=target)
    assert {waiting, playing} <= set(moved.lobby.tables)
    back = HostConnection(moved, identity("bob"))
    resumed = await back.next_of(TableUpdate)
    assert resumed.table == playing
    assert (await play_to_end(back)).is_over  # and it plays on, to the end


def test_copy_db_says_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = default_url(tmp_path)
    assert copy_db(["--from", url, "--to", url]) == 1
    assert "the same database" in capsys.readouterr().err
    assert copy_db(["--from", url, "--to", "mysql://nope"]) == 2  # an argument refused
    assert "not a database URL" in capsys.readouterr().err
