"""Playing through the host: against a bot, two players at a table, a spectator, refusals."""

from __future__ import annotations

import logging

import pytest
from hostkit import HostConnection, identity, my_turn, pick, play_move, play_to_end

from server.host.gamehost import GameHost
from shared import protocol
from shared.codec import dumps
from shared.deal import replay, turns
from shared.moves import parse_move
from shared.protocol import (
    Create,
    Join,
    LobbyList,
    Notice,
    PlayMove,
    Quick,
    Start,
    TableStatus,
    TableUpdate,
    Watch,
    Welcome,
)


async def test_full_game_against_a_bot(host: GameHost, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="splendor")
    alice = HostConnection(host, identity("alice"))
    assert isinstance(await alice.next(), Welcome)
    alice.cmd(Quick(2, "easy"))
    final = await play_to_end(alice)

    assert final.outcome is not None and final.is_over
    table_id = alice.last_table.table
    record = await host.store.load_game(table_id)
    assert record is not None and record.status == "finished"
    assert record.outcome == {
        "scores": list(final.outcome.scores),
        "ranks": list(final.outcome.ranks),
    }
    assert replay(record.game_settings, record.seed, record.moves).view(0) == final  # seed + moves
    starts = [r for r in caplog.records if r.getMessage().startswith("game start " + table_id)]
    ends = [r for r in caplog.records if r.getMessage().startswith("game end " + table_id)]
    assert len(starts) == 1 and len(ends) == 1
    shown = len(
        turns(record.game_settings, record.seed, record.moves)
    )  # the table's "Moves N", "turn N of N"
    assert ends[0].getMessage().endswith(f" after {shown} turns")  # one count (issue 32)


async def _two_at_a_table(host: GameHost) -> tuple[HostConnection, HostConnection, str]:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd(Create(2, (None, None)))
    listed = await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)
    table_id = listed.tables[0].id
    assert listed.tables[0].status is TableStatus.WAITING
    bob.cmd(Join(table_id))
    await alice.next_of(LobbyList, lambda m: any(t.seats[1].name == "bob" for t in m.tables))
    alice.cmd(Start())
    await alice.next_of(TableUpdate)
    await bob.next_of(TableUpdate)
    return alice, bob, table_id


async def test_two_players_see_each_others_moves(host: GameHost) -> None:
    alice, bob, _ = await _two_at_a_table(host)
    players = {0: alice, 1: bob}
    for _ in range(8):
        mover = players[alice.view.current_player]
        other = players[1 - alice.view.current_player]
        assert mover.view.legal_moves and not other.view.legal_moves  # the turn shows to both
        seat = mover.view.seat
        move = pick(mover.view)
        await play_move(mover, move)
        seen = await other.next_of(TableUpdate)
        assert seen.view.players[seat].last_turn.action == move
        assert seen.seats[seat].name == ("alice", "bob")[seat]
        if mover.view.phase == "return":  # R13: the same player returns tokens
            await play_move(mover, pick(mover.view))
            await other.next_of(TableUpdate)


async def test_spectator_sees_both_and_no_blind_reserve(host: GameHost) -> None:
    alice, bob, table_id = await _two_at_a_table(host)
    carol = HostConnection(host, identity("carol"))
    carol.cmd(Watch(table_id))
    first = await carol.next_of(TableUpdate)
    assert first.seat is None and first.view.seat is None and not first.view.legal_moves

    mover = alice if alice.view.current_player == 0 else bob
    other = bob if mover is alice else alice
    mark = {c: len(c.raw) for c in (mover, other, carol)}
    await play_move(mover, "reserve deck 1")  # R9 blind
    await other.next_of(TableUpdate)
    await carol.next_of(TableUpdate)
    reserved = mover.view.players[mover.view.seat].reserved[-1]
    assert reserved.blind and reserved.card is not None
    card = reserved.card.encode()
    assert any(card in b for b in mover.raw[mark[mover] :])
    for conn in (other, carol):
        new = conn.raw[mark[conn] :]
        assert new and not any(card in b for b in new), "a blind reserve leaked"
        assert conn.view.players[mover.view.seat].reserved[-1].card is None
    assert carol.view.current_player == alice.view.current_player == bob.view.current_player
    reply = pick(other.view)  # and the spectator sees the other player's move too
    await play_move(other, reply)
    seen = await carol.next_of(TableUpdate)
    assert seen.view.players[other.view.seat].last_turn.action == reply
    assert seen.view.players[mover.view.seat].reserved[-1].card is None


async def test_an_illegal_move_is_refused_to_that_player_alone(host: GameHost) -> None:
    alice, bob, table_id = await _two_at_a_table(host)
    carol = HostConnection(host, identity("carol"))
    carol.cmd(Watch(table_id))
    await carol.next_of(TableUpdate)
    mover = alice if alice.view.current_player == 0 else bob
    waiting = bob if mover is alice else alice
    marks = {c: len(c.messages) for c in (alice, bob, carol)}

    expensive = next(c for c in mover.view.board[2] if c is not None)
    mover.cmd(PlayMove(parse_move(f"buy {expensive}")))
    refused = await mover.next_of(Notice)
    assert refused.level == "error" and f"buy {expensive}" in refused.text
    mover.send(dumps({"t": "move", "move": "take W W W"}))  # a syntax error (InvalidMoveError)
    assert "not a move" in (await mover.next_of(Notice)).text
    waiting.cmd(PlayMove(mover.view.legal_moves[0]))
    assert "not your turn" in (await waiting.next_of(Notice)).text
    mover.send(b"\x93garbage")  # bytes that are no message
    assert (await mover.next_of(Notice)).level == "error"

    await mover.link.idle()
    await waiting.link.idle()
    assert [type(m) for m in mover.since(marks[mover])] == [Notice] * 3
    assert [type(m) for m in waiting.since(marks[waiting])] == [Notice]
    assert carol.since(marks[carol]) == []
    assert mover.view.turn == 1  # nothing was played
    await play_move(mover, pick(mover.view))  # and the game goes on


async def test_a_players_turn_shows_on_every_screen(host: GameHost) -> None:
    alice, bob, table_id = await _two_at_a_table(host)
    current = alice.view.current_player
    assert bob.view.current_player == current
    assert alice.last_table.seats == bob.last_table.seats
    assert (alice if current == 0 else bob).view.my_turn


async def test_guest_plays_and_never_claims_a_name(host: GameHost) -> None:
    guest = HostConnection(host, identity("guest-7", guest=True))
    welcome = await guest.next()
    assert welcome == Welcome("guest-7", guest=True, protocol=protocol.PROTOCOL_VERSION)
    guest.cmd(Quick(3, "easy"))
    msg = await guest.next(my_turn)
    await play_move(guest, pick(msg.view))
    record = await host.store.load_game(guest.last_table.table)
    assert record is not None and record.seats[0].guest and record.seats[0].key is None
    assert await host.store.name_owner("guest-7") is None
    assert parse_move(record.moves[-1]) is not None


async def test_encode_round_trip_of_table_messages(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    alice.cmd(Quick(4, "easy"))
    msg = await alice.next_of(TableUpdate)
    assert protocol.decode_host(alice.raw[-1]) == msg
    assert len(msg.seats) == 4 and [s.bot for s in msg.seats] == [None] + ["easy"] * 3
