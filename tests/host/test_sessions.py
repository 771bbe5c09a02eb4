"""Sessions and the lobby: reconnects, live updates, leaving, caps, and trouble kept to one."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest
from hostkit import WAIT, HostConnection, identity, my_turn, pick, play_move, play_to_end

from server.host.gamehost import GameHost
from server.host.identity import Identity, guest_key
from server.host.link import HostLink
from server.host.listing import LOBBY_BATCH, LOBBY_BATCH_GAP
from server.host.lobby import Lobby
from server.host.table import Seat, Table, TableError
from server.store import GameRecord
from shared.codec import dumps
from shared.deal import replay
from shared.moves import parse_move
from shared.protocol import (
    Create,
    Join,
    Leave,
    LobbyList,
    Notice,
    PlayMove,
    Quick,
    SeatSummary,
    Start,
    TableStatus,
    TableSummary,
    TableUpdate,
    Watch,
    Welcome,
    encode,
)


async def test_disconnect_and_reconnect_lands_back_at_the_current_state(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd(Create(3, (None, None, "easy")))
    table_id = (await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)).tables[0].id
    bob.cmd(Join(table_id))
    await alice.next_of(
        LobbyList, lambda m: m.mine == (table_id,) and m.tables[0].seats[1].name == "bob"
    )
    alice.cmd(Start())
    await bob.next_of(TableUpdate)

    for _ in range(4):  # both play a little, the bot too
        for conn in (alice, bob):
            if conn.view.legal_moves:
                await play_move(conn, pick(conn.view))
    alice.close()
    dropped = await bob.next_of(TableUpdate, lambda m: not m.seats[0].connected)
    assert dropped.seats[0].name == "alice"

    while bob.view.current_player == 1 or bob.view.current_player == 2:  # play on while we can
        if bob.view.legal_moves:
            await play_move(bob, pick(bob.view))
        else:
            await bob.next_of(TableUpdate)

    again = HostConnection(host, identity("alice"))
    assert isinstance(await again.next(), Welcome)
    back = await again.next_of(TableUpdate)
    assert back.table == table_id and back.seat == 0
    assert back.log is not None
    turns = [(t.seat, t.turn) for t in back.log]  # the game so far, oldest first
    assert len(turns) == back.view.turn - 1
    seats = [seat for seat, _ in turns]
    assert all(b == (a + 1) % 3 for a, b in zip(seats, seats[1:], strict=False))  # in order
    for seat, turn in turns[-3:]:  # the last round matches each player's last turn
        assert back.view.players[seat].last_turn == turn
    assert all(
        m.log is None for m in bob.messages[-3:] if isinstance(m, TableUpdate)
    )  # broadcasts carry no log
    record = await host.store.load_game(table_id)
    assert record is not None
    here = replay(record.game_settings, record.seed, record.moves)
    assert back.view == here.view(0)  # exactly where it is
    assert back.view.turn == bob.view.turn and back.view.bank == bob.view.bank
    await bob.next_of(TableUpdate, lambda m: m.seats[0].connected)  # shown back to bob
    assert back.view.my_turn
    await play_move(again, pick(back.view))


async def test_the_lobby_is_live_for_everyone(host: GameHost) -> None:
    watcher = HostConnection(host, identity("watcher"))
    await watcher.next_of(LobbyList)
    alice = HostConnection(host, identity("alice"))
    assert (await watcher.next_of(LobbyList, lambda m: "alice" in m.online)).online == (
        "alice",
        "watcher",
    )
    alice.cmd(Create(2, (None, "medium")))
    listed = await watcher.next_of(LobbyList, lambda m: len(m.tables) == 1)
    table = listed.tables[0]
    assert table.host == "alice" and table.status is TableStatus.WAITING
    assert [s.bot for s in table.seats] == [None, "medium"]
    alice.cmd(Start())
    playing = await watcher.next_of(
        LobbyList, lambda m: first_table(m).status is TableStatus.PLAYING
    )
    assert playing.tables[0].turn == 1
    alice.cmd(Leave())  # the only human leaves a game against a bot: abandoned
    await watcher.next_of(LobbyList, lambda m: m.tables == ())
    record = await host.store.load_game(table.id)
    assert record is not None and record.status == "abandoned"
    alice.close()
    await watcher.next_of(LobbyList, lambda m: m.online == ("watcher",))


async def test_a_lobby_change_reaches_everyone_a_batch_per_loop_turn(host: GameHost) -> None:
    """With many sessions in the lobby, each redraws on every change; the host sends the
    lobby to a few per turn of the event loop so players' keys get in between. A change
    made while a push is under way is what everyone ends up with."""
    watchers = await in_the_lobby(host, 3 * LOBBY_BATCH + 1)
    alice, bob, others = watchers[0], watchers[1], watchers[2:]

    def pushed() -> int:  # the others who got the new table (alice is answered at once)
        return sum(
            1
            for w in others
            if any(isinstance(m, LobbyList) and m.tables for m in w.messages[w.cursor :])
        )

    alice.cmd(Create(2, (None,) * 2))
    deadline = asyncio.get_running_loop().time() + WAIT
    while not pushed() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0)  # turn by turn of the loop, until the push starts
    assert 0 < pushed() <= LOBBY_BATCH  # a first batch, not everyone at once
    bob.cmd(Create(3, (None,) * 3))  # a second change while the first push is under way
    for w in watchers:
        last = await w.next_of(LobbyList, lambda m: len(m.tables) == 2)
        assert {len(t.seats) for t in last.tables} == {2, 3}
    await asyncio.sleep(0.1)  # and no older listing arrives after it
    for w in watchers:
        lobbies = [m for m in w.messages if isinstance(m, LobbyList)]
        assert len(lobbies[-1].tables) == 2


async def test_changes_faster_than_a_push_still_reach_everyone(host: GameHost) -> None:
    """Each push starts with the sessions the one it replaces had not reached, so a busy
    lobby (a change before every push is through) cannot starve the last sessions."""
    watchers = await in_the_lobby(host, 4 * LOBBY_BATCH)
    creators, others = watchers[:6], watchers[6:]
    for c in creators:  # a change every 1.5 batch gaps: no push gets through all of them
        c.cmd(Create(2, (None,) * 2))
        await asyncio.sleep(1.5 * LOBBY_BATCH_GAP)
    reached = [w for w in others if any(isinstance(m, LobbyList) for m in w.messages[w.cursor :])]
    assert len(reached) == len(others)


async def test_leaving_a_waiting_table_and_hosting_passes_on(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd(Create(2, (None,) * 2))
    table_id = (await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)).tables[0].id
    bob.cmd(Join(table_id))
    bob.cmd(Start())
    assert "only alice" in (await bob.next_of(Notice)).text
    alice.cmd(Leave())
    moved = await bob.next_of(LobbyList, lambda m: first_table(m).host == "bob")
    assert moved.tables[0].seats[0].name is None
    bob.cmd(Start())
    assert "every seat" in (await bob.next_of(Notice)).text
    bob.close()
    await alice.next_of(LobbyList, lambda m: m.tables == ())  # the last one out closes it


async def test_the_seat_is_held_after_leaving_a_game_and_can_be_taken_back(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd(Create(2, (None,) * 2))
    table_id = (await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)).tables[0].id
    bob.cmd(Join(table_id))
    await alice.next_of(LobbyList, lambda m: first_table(m).seats[1:2] == (SeatSummary("bob"),))
    alice.cmd(Start())
    await alice.next_of(TableUpdate)
    alice.cmd(Leave())
    assert (await alice.next_of(LobbyList)).mine == (table_id,)
    await bob.next_of(TableUpdate, lambda m: not m.seats[0].connected)
    carol = HostConnection(host, identity("carol"))
    carol.cmd(Join(table_id))
    assert "watch it instead" in (await carol.next_of(Notice)).text
    alice.cmd(Join(table_id))
    assert (await alice.next_of(TableUpdate)).seat == 0
    await bob.next_of(TableUpdate, lambda m: m.seats[0].connected)


async def test_a_dropped_guests_seat_goes_back_only_to_that_guest(host: GameHost) -> None:
    """A guest proves nothing but its address: a later guest with the same name from
    elsewhere must not land in the held seat (and so take over the game)."""
    here, there = guest_key("192.0.2.1", b"secret"), guest_key("198.51.100.7", b"secret")
    ann = HostConnection(host, Identity("guest-ann", True, here))
    ann.cmd(Quick(2, "easy"))
    table_id = (await ann.next_of(TableUpdate)).table
    ann.close()
    thief = HostConnection(host, Identity("guest-ann", True, there))
    lobby = await thief.next_of(LobbyList)
    assert lobby.mine == () and not any(isinstance(m, TableUpdate) for m in thief.messages)
    thief.cmd(Join(table_id))
    assert "watch it instead" in (await thief.next_of(Notice)).text
    back = HostConnection(host, Identity("guest-ann", True, here))
    assert (await back.next_of(TableUpdate)).table == table_id


async def test_a_cap_on_tables_per_player(host: GameHost) -> None:
    host.lobby.settings = replace(host.lobby.settings, max_tables_per_player=2)
    alice = HostConnection(host, identity("alice"))
    for _ in range(2):
        alice.cmd(Quick(2, "easy"))
        await alice.next_of(TableUpdate)
    alice.cmd(Create(2, (None,) * 2))
    assert "leave one first" in (await alice.next_of(Notice)).text


async def test_bad_commands_are_notices(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    for t, fields, words in [
        ("create", {"seats": 5}, "2 to 4"),
        ("create", {"seats": 2, "bots": ("easy", None)}, "seat 1 is yours"),  # from 1
        ("create", {"seats": 2, "bots": (None, "genius")}, "bot level"),
        ("create", {"seats": 2, "bots": (None,)}, "each of the 2 seats"),
        ("quick", {"players": True}, "players"),
        ("quick", {"players": 2, "seed": -1}, "seed"),
        ("join", {"table": "nope"}, "no table"),
        ("watch", {"table": 3}, "table should be text"),
        ("watch", {}, "needs table"),
        ("start", {}, "not at a table"),
        ("move", {"move": "take W U G"}, "not playing"),
        ("move", {"move": 7}, "notation"),
        ("resign", {}, "not a message"),
    ]:
        alice.send(dumps({"t": t, **fields}))  # as any client could send it
        assert words in (await alice.next_of(Notice)).text, t
    assert not host.lobby.tables


async def test_a_crash_handling_one_session_leaves_another_playing(
    host: GameHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Lobby._watch

    async def broken(self: Lobby, link: HostLink, table: Table) -> None:
        if link.identity.name == "mallory":
            raise RuntimeError("boom")
        await original(self, link, table)

    monkeypatch.setattr(Lobby, "_watch", broken)
    bob = HostConnection(host, identity("bob"))
    bob.cmd(Quick(2, "easy"))
    msg = await bob.next(my_turn)
    mallory = HostConnection(host, identity("mallory"))
    mallory.cmd(Watch(msg.table))
    assert "went wrong" in (await mallory.next_of(Notice)).text

    def explode(data: bytes) -> None:  # a transport that fails on every write
        raise OSError("broken pipe")

    host.connect(identity("trudy"), explode).send(b"junk")
    final = await play_to_end(bob)
    assert final.is_over


async def test_games_nobody_comes_back_to_are_abandoned(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    alice.cmd(Quick(2, "easy"))
    table_id = (await alice.next_of(TableUpdate)).table
    await host.lobby.play.abandon_idle(60.0)  # alice is here: nothing happens
    assert host.lobby.tables[table_id].status is TableStatus.PLAYING
    alice.close()
    table = host.lobby.tables[table_id]
    await host.lobby.play.abandon_idle(60.0)  # gone, but not for long
    assert table.status is TableStatus.PLAYING
    table.seating.seen -= 61.0
    await host.lobby.play.abandon_idle(60.0)
    assert table.status is TableStatus.FINISHED and table_id not in host.lobby.tables
    record = await host.store.load_game(table_id)
    assert record is not None and record.status == "abandoned"


async def in_the_lobby(host: GameHost, n: int) -> list[HostConnection]:
    """`n` sessions in the lobby, each past the lobbies that told of the others' arrival."""
    watchers = [HostConnection(host, identity(f"w{i}")) for i in range(n)]
    for w in watchers:
        await w.next_of(LobbyList, lambda m: len(m.online) == n)
        w.skip()
    return watchers


def first_table(m: LobbyList) -> TableSummary:
    return m.tables[0] if m.tables else TableSummary("", "", TableStatus.FINISHED, ())


def test_lifecycle_transitions_are_guarded() -> None:
    seats = (Seat(identity=identity("a")).record(), Seat(bot="easy").record())
    record = GameRecord("t", None, seats, "a", "waiting", 0.0)
    table = Table(record, store=None, bots=None, changed=lambda t, minor: None)  # type: ignore[arg-type]
    assert table.status is TableStatus.WAITING
    with pytest.raises(TableError):
        table.seating.transition(TableStatus.WAITING)
    table.seating.transition(TableStatus.FINISHED)  # closed before it started
    assert table.status is TableStatus.FINISHED
    for status in TableStatus:
        with pytest.raises(TableError):
            table.seating.transition(status)


async def test_fuzzed_client_bytes_never_crash_a_session(host: GameHost) -> None:
    """Mutated and random bytes from one session: every one is handled (a notice, or a
    command that happens to be valid), its session stays usable, another plays on."""
    rng = random.Random(9)
    samples = [
        encode(Quick(2, "easy")),
        encode(Create(3, (None, "hard", None))),
        encode(Join("abc123")),
        encode(PlayMove(parse_move("take W U G"))),
    ]
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    bob.cmd(Quick(2, "easy"))
    for i in range(300):
        if i % 3 == 0:
            data = rng.randbytes(rng.randrange(1, 60))
        else:
            mutated = bytearray(rng.choice(samples))
            for _ in range(rng.randrange(1, 4)):
                mutated[rng.randrange(len(mutated))] = rng.randrange(256)
            data = bytes(mutated)
        alice.send(data)
        if i % 20 == 19:
            await alice.link.idle()  # within the per-session queue
    await alice.link.idle()
    assert not alice.link.closed
    assert any(isinstance(m, Notice) for m in alice.messages)
    alice.cmd(Leave())
    await alice.next_of(LobbyList)  # still answered
    msg = await bob.next(my_turn)
    await play_move(bob, pick(msg.view))  # and the other session was never disturbed
