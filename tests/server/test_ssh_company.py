"""Clocks and company over real SSH, read off a pyte screen (issue 12): a short real clock
running out, a rematch, the vote on an absent player, chat cleaned and limited, your
move at two tables. Other players sit in by the host's own API (`HostConnection`)."""

from __future__ import annotations

import re

import asyncssh
from gamekit import KEYS, game_server, login, play_to_end, quick_game, status
from hostkit import FakeClock, HostConnection, await_turn, identity, pick, play_move

from server.host.identity import Identity
from shared.clock import parse_time_control
from shared.protocol import Create, Join, LobbyList, Quick, Say, Start, TableUpdate, Vote


async def join_by_keys(player, table_id: str) -> None:  # type: ignore[no-untyped-def]
    """From the lobby: select `table_id` (the list's only waiting table) and join it."""
    await player.wait_for(table_id)
    player.press(KEYS["enter"])
    await player.wait_for(f"Your table {table_id}")


async def test_a_real_clock_counts_down_and_runs_out_over_ssh(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        ann = await login(game.port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        await ann.wait_for("you are ann")
        bob = HostConnection(game.host, identity("bob"))
        bob.cmd(Create(2, (None, None), clock=parse_time_control("0.1+0")))  # 6 s each
        table_id = (await bob.next_of(LobbyList, lambda m: m.waiting_at() is not None)).mine[0]
        await join_by_keys(ann, table_id)
        await ann.wait_for("0.1+0")  # the lobby's Clock column
        bob.cmd(Start())
        view = (await await_turn(bob)).view
        if view.legal_moves:  # bob first: he plays at once
            await play_move(bob, pick(view))
        await ann.wait_for(lambda t: "your turn" in status(t))
        await ann.wait_for(lambda t: re.search(r"ann \(you\).* 0:0[0-4]", t) is not None)
        # The log's line and the panel's mark stay; the status line's "a medium bot plays
        # for you" shows only until the bot's move comes back, too short for a loaded
        # machine (tests/client/test_tui_company.py reads it from the app).
        screen = await ann.wait_for(lambda t: "rank last" in t and "ann (you) (bot)" in t, 15)
        assert "time ran out" in screen and "a medium bot plays your seat" in screen
        record = await game.host.store.load_game(table_id)
        assert record is not None
        assert [s.standin for s in record.seats if s.name == "ann"] == ["medium"]
        await ann.close()


async def test_r_at_the_end_of_a_game_starts_a_rematch_with_the_seats_turned(
    tmp_path, bot_executor
):
    async with game_server(tmp_path, bot_executor) as game:
        ann = await login(game.port, "ann")
        await quick_game(ann, "easy")
        record = game.tap.latest("guest-ann")
        first = record.tables()[-1]
        await play_to_end(ann, record)
        await ann.wait_for("r Rematch")
        ann.press("r")
        rematch = await record.wait(lambda m: isinstance(m, TableUpdate) and m.table != first.table)
        assert isinstance(rematch, TableUpdate) and rematch.seat == (first.seat + 1) % 2
        await ann.wait_for(lambda t: "turn 1 ·" in status(t) or "turn 2 ·" in status(t))
        stored = await game.host.store.load_game(rematch.table)
        assert stored is not None and stored.settings.rematch_of == first.table
        await ann.close()


async def test_an_absent_player_is_voted_out_by_keys(tmp_path, bot_executor):
    clock = FakeClock()
    async with game_server(tmp_path, bot_executor, now=clock) as game:
        ann = await login(game.port, "ann", asyncssh.generate_private_key("ssh-ed25519"))
        await ann.wait_for("you are ann")
        bob, cy = (HostConnection(game.host, identity(n)) for n in ("bob", "cy"))
        bob.cmd(Create(3, (None, None, None), patience=1))
        table_id = (await bob.next_of(LobbyList, lambda m: m.waiting_at() is not None)).mine[0]
        cy.cmd(Join(table_id))
        await join_by_keys(ann, table_id)
        await ann.wait_for(lambda t: "bob, cy, ann" in t or "bob, ann, cy" in t)
        bob.cmd(Start())
        await ann.wait_for(lambda t: "turn 1 ·" in status(t))
        bob.close()
        await ann.wait_for("bob (away)")
        clock.advance(61)
        cy.close()  # cy comes back: everyone is sent the table again, bob away 61 s
        cy = HostConnection(game.host, identity("cy"))
        await ann.wait_for("bob away 1 min: v votes")
        ann.press("v")
        await ann.wait_for("you voted")
        cy.cmd(Vote(0))
        await ann.wait_for("a medium bot plays bob's seat from now on")
        await ann.close()


async def test_chat_over_ssh_is_said_cleaned_and_limited(tmp_path, bot_executor):
    async with game_server(tmp_path, bot_executor) as game:
        ann = await login(game.port, "ann")
        await ann.wait_for("No chat yet")
        mallory = HostConnection(game.host, identity("mallory"))
        mallory.cmd(Say("\x1b]0;pwned\x07\x1b[2Jhi\x1b[31m there \u202eevil\u2066 \x08\x08x"))
        await ann.wait_for("mallory: hi there evil x")
        assert b"pwned" not in ann.term.raw and "\u202e".encode() not in ann.term.raw
        ann.press("t" + "x" * 205 + "\r")  # the line takes 200 characters, no more
        screen = await ann.wait_for("guest-ann: xxxx")
        said = [m for m in mallory.messages if hasattr(m, "lines")]
        assert said and max(len(x.text) for m in said for x in m.lines) == 200  # type: ignore[attr-defined]
        ann.press(b"t\x1b[200~a\x07b\x1b[31mc\x1b[201~\r")  # pasted: control bytes go
        screen = await ann.wait_for(lambda t: re.search(r"guest-ann: \S*31mc", t) is not None)
        assert b"\x1b[31mc" not in ann.term.raw  # (BEL ends Textual's own OSC sequences)
        for i in range(5):
            ann.press(f"tline {i}\r")
        screen = await ann.wait_for("slow down")
        assert "one chat line every 2 s" in screen
        await ann.close()


async def test_a_player_with_two_correspondence_games_hears_of_both_and_goes_to_each(
    tmp_path, bot_executor
):
    async with game_server(tmp_path, bot_executor) as game:
        key = asyncssh.generate_private_key("ssh-ed25519")
        fingerprint = key.get_fingerprint("sha256")
        ann = HostConnection(game.host, Identity("ann", False, fingerprint))  # the key's player
        tables = []
        for _ in range(2):
            ann.cmd(Quick(2, "easy", clock=parse_time_control("3d")))
            update = await ann.next_of(TableUpdate, lambda m: m.table not in tables)
            tables.append(update.table)
            await await_turn(ann)
        ann.close()
        player = await login(game.port, "ann", key)  # back at one game, told of both
        screen = await player.wait_for("Your move at 2 tables")
        assert all(t in screen for t in tables)
        landed = game.tap.latest("ann")
        first = (await landed.wait(lambda m: isinstance(m, TableUpdate))).table  # type: ignore[union-attr]
        player.press("m")
        other = await landed.wait(lambda m: isinstance(m, TableUpdate) and m.table != first)
        assert isinstance(other, TableUpdate) and {first, other.table} == set(tables)
        await player.wait_for(lambda t: "your turn" in status(t))
        await player.close()
