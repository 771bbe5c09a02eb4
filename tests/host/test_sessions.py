"""Sessions and the lobby: reconnects, live updates, leaving, caps, and trouble kept to one."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hostkit import HostConnection, identity, my_turn, pick, play_move, play_to_end

from server.host import GameHost
from server.identity import Identity, guest_key
from server.lobby import LOBBY_BATCH, LOBBY_BATCH_GAP, Lobby
from server.table import Seat, Status, Table, TableError
from shared.deal import replay
from shared.protocol import log_turns


async def test_disconnect_and_reconnect_lands_back_at_the_current_state(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd("create", seats=3, bots=(None, None, "easy"))
    table_id = (await bob.next_of("lobby", lambda m: len(m["tables"]) == 1))["tables"][0]["id"]
    bob.cmd("join", table=table_id)
    await alice.next_of(
        "lobby", lambda m: m["mine"] == (table_id,) and m["tables"][0]["seats"][1]["name"] == "bob"
    )
    alice.cmd("start")
    await bob.next_of("table")

    for _ in range(4):  # both play a little, the bot too
        for conn in (alice, bob):
            if conn.view.legal_moves:
                await play_move(conn, pick(conn.view))
    alice.close()
    dropped = await bob.next_of("table", lambda m: not m["seats"][0]["connected"])
    assert dropped["seats"][0]["name"] == "alice"

    while bob.view.current_player == 1 or bob.view.current_player == 2:  # play on while we can
        if bob.view.legal_moves:
            await play_move(bob, pick(bob.view))
        else:
            await bob.next_of("table")

    again = HostConnection(host, identity("alice"))
    assert (await again.next())["t"] == "welcome"
    back = await again.next_of("table")
    assert back["table"] == table_id and back["seat"] == 0
    turns = log_turns(back["log"], 3)  # the game so far, oldest first, for its move log
    assert len(turns) == back["view"].turn - 1
    seats = [seat for seat, _ in turns]
    assert all(b == (a + 1) % 3 for a, b in zip(seats, seats[1:], strict=False))  # in order
    for seat, turn in turns[-3:]:  # the last round matches each player's last turn
        assert back["view"].players[seat].last_turn == turn
    assert all("log" not in m for m in bob.messages[-3:])  # broadcasts carry no log
    record = host.store.load_game(table_id)
    assert record is not None
    assert back["view"] == replay(3, record.seed, record.moves).view(0)  # exactly where it is
    assert back["view"].turn == bob.view.turn and back["view"].bank == bob.view.bank
    await bob.next_of("table", lambda m: m["seats"][0]["connected"])  # shown back to bob
    assert back["view"].my_turn
    await play_move(again, pick(back["view"]))


async def test_the_lobby_is_live_for_everyone(host: GameHost) -> None:
    watcher = HostConnection(host, identity("watcher"))
    await watcher.next_of("lobby")
    alice = HostConnection(host, identity("alice"))
    assert (await watcher.next_of("lobby", lambda m: "alice" in m["online"]))["online"] == (
        "alice",
        "watcher",
    )
    alice.cmd("create", seats=2, bots=(None, "medium"))
    listed = await watcher.next_of("lobby", lambda m: len(m["tables"]) == 1)
    table = listed["tables"][0]
    assert table["host"] == "alice" and table["status"] == "waiting"
    assert [s["bot"] for s in table["seats"]] == [None, "medium"]
    alice.cmd("start")
    playing = await watcher.next_of("lobby", lambda m: first_table(m)["status"] == "playing")
    assert playing["tables"][0]["turn"] == 1
    alice.cmd("leave")  # the only human leaves a game against a bot: abandoned
    await watcher.next_of("lobby", lambda m: m["tables"] == ())
    record = host.store.load_game(table["id"])
    assert record is not None and record.status == "abandoned"
    alice.close()
    await watcher.next_of("lobby", lambda m: m["online"] == ("watcher",))


async def test_a_lobby_change_reaches_everyone_a_batch_per_loop_turn(host: GameHost) -> None:
    """With many sessions in the lobby, each redraws on every change; the host sends the
    lobby to a few per turn of the event loop so players' keys get in between. A change
    made while a push is under way is what everyone ends up with."""
    watchers = await in_the_lobby(host, 3 * LOBBY_BATCH + 1)
    alice, bob, others = watchers[0], watchers[1], watchers[2:]

    def pushed() -> int:  # the others who got the new table (alice is answered at once)
        return sum(1 for w in others if any(m.get("tables") for m in w.messages[w.cursor :]))

    alice.cmd("create", seats=2)
    for _ in range(50):  # until the push starts
        await asyncio.sleep(0)
        if pushed():
            break
    assert 0 < pushed() <= LOBBY_BATCH  # a first batch, not everyone at once
    bob.cmd("create", seats=3)  # a second change while the first push is under way
    for w in watchers:
        last = await w.next_of("lobby", lambda m: len(m["tables"]) == 2)
        assert {len(t["seats"]) for t in last["tables"]} == {2, 3}
    await asyncio.sleep(0.1)  # and no older listing arrives after it
    for w in watchers:
        lobbies = [m for m in w.messages if m["t"] == "lobby"]
        assert len(lobbies[-1]["tables"]) == 2


async def test_changes_faster_than_a_push_still_reach_everyone(host: GameHost) -> None:
    """Each push starts with the sessions the one it replaces had not reached, so a busy
    lobby (a change before every push is through) cannot starve the last sessions."""
    watchers = await in_the_lobby(host, 4 * LOBBY_BATCH)
    creators, others = watchers[:6], watchers[6:]
    for c in creators:  # a change every 1.5 batch gaps: no push gets through all of them
        c.cmd("create", seats=2)
        await asyncio.sleep(1.5 * LOBBY_BATCH_GAP)
    reached = [w for w in others if any(m["t"] == "lobby" for m in w.messages[w.cursor :])]
    assert len(reached) == len(others)


async def test_leaving_a_waiting_table_and_hosting_passes_on(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd("create", seats=2)
    table_id = (await bob.next_of("lobby", lambda m: len(m["tables"]) == 1))["tables"][0]["id"]
    bob.cmd("join", table=table_id)
    bob.cmd("start")
    assert "only alice" in (await bob.next_of("notice"))["text"]
    alice.cmd("leave")
    moved = await bob.next_of("lobby", lambda m: first_table(m)["host"] == "bob")
    assert moved["tables"][0]["seats"][0]["name"] is None
    bob.cmd("start")
    assert "every seat" in (await bob.next_of("notice"))["text"]
    bob.close()
    await alice.next_of("lobby", lambda m: m["tables"] == ())  # the last one out closes it


async def test_the_seat_is_held_after_leaving_a_game_and_can_be_taken_back(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    bob = HostConnection(host, identity("bob"))
    alice.cmd("create", seats=2)
    table_id = (await bob.next_of("lobby", lambda m: len(m["tables"]) == 1))["tables"][0]["id"]
    bob.cmd("join", table=table_id)
    await alice.next_of("lobby", lambda m: first_table(m)["seats"][1].get("name") == "bob")
    alice.cmd("start")
    await alice.next_of("table")
    alice.cmd("leave")
    assert (await alice.next_of("lobby"))["mine"] == (table_id,)
    await bob.next_of("table", lambda m: not m["seats"][0]["connected"])
    carol = HostConnection(host, identity("carol"))
    carol.cmd("join", table=table_id)
    assert "watch it instead" in (await carol.next_of("notice"))["text"]
    alice.cmd("join", table=table_id)
    assert (await alice.next_of("table"))["seat"] == 0
    await bob.next_of("table", lambda m: m["seats"][0]["connected"])


async def test_a_dropped_guests_seat_goes_back_only_to_that_guest(host: GameHost) -> None:
    """A guest proves nothing but its address: a later guest with the same name from
    elsewhere must not land in the held seat (and so take over the game)."""
    here, there = guest_key("192.0.2.1", b"secret"), guest_key("198.51.100.7", b"secret")
    ann = HostConnection(host, Identity("guest-ann", True, here))
    ann.cmd("quick", players=2, level="easy")
    table_id = (await ann.next_of("table"))["table"]
    ann.close()
    thief = HostConnection(host, Identity("guest-ann", True, there))
    lobby = await thief.next_of("lobby")
    assert lobby["mine"] == () and not any(m["t"] == "table" for m in thief.messages)
    thief.cmd("join", table=table_id)
    assert "watch it instead" in (await thief.next_of("notice"))["text"]
    back = HostConnection(host, Identity("guest-ann", True, here))
    assert (await back.next_of("table"))["table"] == table_id


async def test_a_cap_on_tables_per_player(host: GameHost) -> None:
    host.lobby.max_tables_per_player = 2
    alice = HostConnection(host, identity("alice"))
    for _ in range(2):
        alice.cmd("quick", players=2, level="easy")
        await alice.next_of("table")
    alice.cmd("create", seats=2)
    assert "leave one first" in (await alice.next_of("notice"))["text"]


async def test_bad_commands_are_notices(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    for t, fields, words in [
        ("create", {"seats": 5}, "2 to 4"),
        ("create", {"seats": 2, "bots": ("easy", None)}, "seat 0"),
        ("create", {"seats": 2, "bots": (None, "genius")}, "bot level"),
        ("quick", {"players": True}, "players"),
        ("join", {"table": "nope"}, "no table"),
        ("watch", {"table": 3}, "no table"),
        ("start", {}, "not at a table"),
        ("move", {"move": "take W U G"}, "not playing"),
    ]:
        alice.cmd(t, **fields)
        assert words in (await alice.next_of("notice"))["text"], t
    assert not host.lobby.tables


async def test_a_crash_handling_one_session_leaves_another_playing(
    host: GameHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Lobby._do_watch

    async def broken(self: Lobby, link: object, msg: dict[str, object]) -> None:
        if link.identity.name == "mallory":  # type: ignore[attr-defined]
            raise RuntimeError("boom")
        await original(self, link, msg)  # type: ignore[arg-type]

    monkeypatch.setattr(Lobby, "_do_watch", broken)
    bob = HostConnection(host, identity("bob"))
    bob.cmd("quick", players=2, level="easy")
    msg = await bob.next(my_turn)
    mallory = HostConnection(host, identity("mallory"))
    mallory.cmd("watch", table=msg["table"])
    assert "went wrong" in (await mallory.next_of("notice"))["text"]

    def explode(data: bytes) -> None:  # a transport that fails on every write
        raise OSError("broken pipe")

    host.connect(identity("trudy"), explode).send(b"junk")
    final = await play_to_end(bob)
    assert final.is_over


async def test_games_nobody_comes_back_to_are_abandoned(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    alice.cmd("quick", players=2, level="easy")
    table_id = (await alice.next_of("table"))["table"]
    await host.lobby.abandon_idle(60.0)  # alice is here: nothing happens
    assert host.lobby.tables[table_id].status is Status.PLAYING
    alice.close()
    table = host.lobby.tables[table_id]
    await host.lobby.abandon_idle(60.0)  # gone, but not for long
    assert table.status is Status.PLAYING
    table.seen -= 61.0
    await host.lobby.abandon_idle(60.0)
    assert table.status is Status.FINISHED and table_id not in host.lobby.tables
    record = host.store.load_game(table_id)
    assert record is not None and record.status == "abandoned"


async def in_the_lobby(host: GameHost, n: int) -> list[HostConnection]:
    """`n` sessions in the lobby, each past the lobbies that told of the others' arrival."""
    watchers = [HostConnection(host, identity(f"w{i}")) for i in range(n)]
    for w in watchers:
        await w.next_of("lobby", lambda m: len(m["online"]) == n)
        w.skip()
    return watchers


def first_table(m: dict[str, Any]) -> dict[str, Any]:
    return m["tables"][0] if m["tables"] else {"status": None, "host": None, "seats": [{}, {}]}


def test_lifecycle_transitions_are_guarded() -> None:
    table = Table(
        "t",
        identity("a"),
        [Seat(identity=identity("a")), Seat(bot="easy")],
        store=None,
        bots=None,
        changed=lambda t, minor: None,
    )  # type: ignore[arg-type]
    assert table.status is Status.WAITING
    with pytest.raises(TableError):
        table._to(Status.WAITING)
    table.close()
    assert table.status is Status.FINISHED
    for status in Status:
        with pytest.raises(TableError):
            table._to(status)
