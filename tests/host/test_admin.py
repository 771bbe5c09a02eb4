"""A club's admin commands (server/commands/admin.py): export a finished game's record, print the
leaderboard, rename a player, ban a name; run as `splendor-server COMMAND`, on the
server's database, on both backends."""

from __future__ import annotations

import asyncio

import pytest
from hostkit import (
    HostConnection,
    StartHost,
    await_turn,
    identity,
    pick,
    play_move,
    play_to_end,
    table_when,
)

from server.commands.cli import main as server_main
from server.host.identity import Identity
from shared.gamerecord import parse_record, replay_record
from shared.protocol import Quick


async def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`splendor-server ARGV` (a command with an event loop of its own: in a thread)."""
    try:
        await asyncio.to_thread(server_main, list(argv))
        code = 0
    except SystemExit as e:
        code = int(e.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


async def test_export_ratings_rename_and_ban(
    start_host: StartHost, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    host = await start_host(database=database)
    assert await host.store.claim_name("alice", "SHA256:alice-key")
    alice = HostConnection(host, identity("alice"))
    alice.cmd(Quick(2, "easy", rated=True))
    final = await play_to_end(alice)
    done = alice.last_table.table
    alice.cmd(Quick(2, "easy"))
    mine = await table_when(alice, lambda m: m.table != done and m.view.my_turn)
    await play_move(alice, pick(mine.view))
    playing = alice.last_table.table
    await host.stop()
    where = ["--database", database]

    code, out, _ = await run(capsys, "export", done, *where)
    assert code == 0
    record = parse_record(out)
    assert record.tags["Game"] == done and record.tags["Seat1"] == "alice"
    assert record.tags["Seat2"] == "easy bot" and record.tags["Rated"] == "yes"
    assert replay_record(record).view(0) == final  # the same game, to the same end
    code, _, err = await run(capsys, "export", playing, *where)
    assert code == 1 and "in progress" in err  # its seed would tell the decks
    code, _, err = await run(capsys, "export", "abcdef", *where)
    assert code == 1 and "there is no game 'abcdef'" in err
    code, _, err = await run(capsys, "export", "nosuch", *where)
    assert code == 2 and "'nosuch' is not a table's id" in err  # tests/host/test_admin_args.py

    code, out, _ = await run(capsys, "ratings", *where)
    assert code == 0 and "alice" in out and "easy bot" in out

    code, out, _ = await run(capsys, "rename", "alice", "Annie", *where)
    assert code == 0 and "alice is now annie" in out
    code, _, err = await run(capsys, "rename", "alice", "bob", *where)
    assert code == 1 and "no player is called 'alice'" in err
    code, _, err = await run(capsys, "rename", "annie", "9", *where)
    assert code == 2 and "can't be a player name" in err  # refused before the database
    code, _, err = await run(capsys, "ban", "mallory", "--reason", "cheating", *where)
    assert code == 0

    again = await start_host(database=database)
    assert await again.store.name_owner("annie") == "SHA256:alice-key"
    assert await again.store.name_owner("alice") is None
    profile = await again.store.profile("annie")
    assert profile.standing is not None and profile.recent[0].names[0] == "annie"
    assert await again.store.banned("mallory") == "cheating"
    assert (await again.store.load_game(playing)).seats[0].name == "annie"  # type: ignore[union-attr]
    back = HostConnection(again, Identity("annie", False, "SHA256:alice-key"))  # her key
    # ...lands at her game in progress, under her new name
    assert (await await_turn(back)).table == playing


async def test_bot_account_marks_a_name_as_a_programs(
    start_host: StartHost, database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    host = await start_host(database=database)
    assert await host.store.claim_name("robo", "SHA256:robo-key")
    await host.stop()
    where = ["--database", database]
    code, out, _ = await run(capsys, "bot-account", "Robo", *where)
    assert (code, out) == (0, "robo is a program's name; it counts from its next login\n")
    code, out, _ = await run(capsys, "bot-account", "robo", *where)
    assert out == "robo was a program's name already\n"  # nothing changed: no "from"
    code, out, _ = await run(capsys, "rename", "robo", "robot", *where)  # the mark goes along
    again = await start_host(database=database)
    assert await again.store.is_program("robot") and not await again.store.is_program("robo")
    await again.stop()
    code, out, _ = await run(capsys, "bot-account", "robot", "--remove", *where)
    assert (code, out) == (0, "robot is a person's name again; it counts from its next login\n")
    code, _, err = await run(capsys, "bot-account", "9", *where)
    assert code == 2 and "can't be a player name" in err
