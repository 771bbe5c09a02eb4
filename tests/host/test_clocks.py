"""Clocks (issue 12): deadlines counted on a fake time source, time-outs played by a bot,
bots standing in for good, ratings, restarts and the arithmetic of banks and increments."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hostkit import (
    FakeClock,
    HostConnection,
    StartHost,
    await_turn,
    identity,
    pick,
    play_move,
    play_to_end,
    play_turn,
    quick_settings,
    table_of,
)

from server.host.clocks import TIMEOUT_LEVEL, start_timing, timing_after
from server.host.company import to_move
from server.host.gamehost import GameHost
from server.store import Timing
from shared.clock import DAY, parse_time_control
from shared.deal import new_game
from shared.moves import Take
from shared.protocol import LobbyList, Notice, PlayMove, Quick, TableUpdate
from shared.settings import GameSettings


def mover_of(conns: list[HostConnection]) -> tuple[HostConnection, HostConnection]:
    """The player whose move it is, and the other one."""
    a, b = conns
    return (a, b) if a.view.current_player == a.last_table.seat else (b, a)


# -- the arithmetic -------------------------------------------------------------------


def test_a_real_time_bank_keeps_what_is_left_plus_the_increment() -> None:
    control = parse_time_control("5+10")
    state = new_game(GameSettings(2), 7)
    first = state.current_player
    start = start_timing(control, 2, first, True, 1000.0)
    assert start == Timing(1300.0, (300.0, 300.0))
    after = state.apply(next(m for m in state.legal_moves() if isinstance(m, Take)))
    moved = timing_after(control, start, state, after, lambda s: True, 1100.0)  # 100 s used
    assert moved is not None and moved.banks[first] == 210.0  # 200 left + 10
    assert moved.deadline == 1100.0 + 300.0  # the other player's whole bank, from now
    to_bot = timing_after(control, start, state, after, lambda s: s == first, 1100.0)
    assert to_bot is not None and to_bot.deadline is None  # a bot's turn: no clock runs


def test_r13_a_return_is_on_the_same_clock() -> None:
    control = parse_time_control("1d")
    state = new_game(GameSettings(2), 3)
    while state.phase != "return":  # play until someone must give tokens back
        takes = [m for m in state.legal_moves() if isinstance(m, Take) and len(m.colours) == 3]
        state = state.apply(takes[0] if takes else state.legal_moves()[0])
    before = Timing(5000.0, ())
    back = state.apply(state.legal_moves()[0])
    assert timing_after(control, before, state, back, lambda s: True, 4000.0) == Timing(
        4000.0 + DAY, ()
    )
    same_turn = new_game(GameSettings(2), 3)
    assert timing_after(control, before, same_turn, same_turn, lambda s: True, 4000.0) == before


# -- real time --------------------------------------------------------------------------


async def test_an_empty_bank_hands_the_seat_to_a_bot_and_the_player_ranks_last(
    host: GameHost, clock: FakeClock
) -> None:
    realtime = parse_time_control("1+0")
    conns, table_id = await table_of(host, ("ann", "bob"), clock=realtime, rated=True)
    mover, other = mover_of(conns)
    late, name = other.last_table.seat, other.link.identity.name
    view = mover.last_table
    assert view.clock is not None and view.clock.running == view.seat
    assert view.clock.left == (60.0, 60.0)

    clock.advance(25)
    moved = await play_move(mover, pick(mover.view))
    assert moved.clock is not None and moved.clock.left[view.seat] == 35.0  # 60 - 25, + 0
    clock.advance(61)  # the other player's whole bank, and more
    other.cmd(PlayMove(pick(other.view)))
    assert "your time ran out" in (await other.next_of(Notice)).text  # too late to move
    await host.lobby.play.check_clocks()
    told = await other.next_of(Notice, lambda n: "bot plays your seat" in n.text)
    assert "you rank last" in told.text and told.level == "info"
    heard = await mover.next_of(Notice)
    assert heard.text == f"{name}'s time ran out: a medium bot plays {name}'s seat from now on"
    stood = await mover.next_of(TableUpdate, lambda m: m.seats[late].standin is not None)
    assert stood.seats[late].standin == TIMEOUT_LEVEL and stood.seats[late].timeouts == 1
    stored = await host.store.load_game(table_id)
    assert stored is not None and stored.seats[late].standin == TIMEOUT_LEVEL

    await play_to_end(mover)  # the bot plays the other seat on
    [(game, _, rank, _, _)] = (await host.store.profile(name)).history[:1]
    [(_, _, winner_rank, _, _)] = (await host.store.profile(mover.link.identity.name)).history[:1]
    assert game == table_id and rank > winner_rank  # last, whatever the score


async def test_a_lone_player_out_of_time_abandons_the_game(
    host: GameHost, clock: FakeClock
) -> None:
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Quick(2, "easy", clock=parse_time_control("0.5+2")))
    view = (await await_turn(ann)).view
    assert not view.is_over
    clock.advance(31)
    await host.lobby.play.check_clocks()
    assert "abandoned" in (await ann.next_of(Notice, lambda n: "abandoned" in n.text)).text
    await ann.next_of(LobbyList)


# -- correspondence ------------------------------------------------------------------


async def test_a_bot_plays_a_late_turn_and_the_third_time_out_is_for_good(
    host: GameHost, clock: FakeClock
) -> None:
    conns, table_id = await table_of(host, ("ann", "bob"), clock=parse_time_control("1d"))
    mover, other = mover_of(conns)
    late = mover.last_table.seat
    for count in (1, 2, 3):
        turn = mover.view.turn
        assert mover.last_table.clock is not None and mover.last_table.clock.running == late
        clock.advance(DAY + 1)
        await host.lobby.play.check_clocks()
        note = await mover.next_of(Notice, lambda n: "time ran out" in n.text)
        played = await mover.next_of(TableUpdate, lambda m, t=turn: m.view.turn > t)
        assert played.seats[late].timeouts == count
        if count < 3:
            assert f"({count} of 3 in this game)" in note.text
            assert played.seats[late].standin is None
            await play_turn(other)
            await await_turn(mover)
        else:
            assert "for the third time" in note.text and "rank last" in note.text
            assert played.seats[late].standin == TIMEOUT_LEVEL
    record = await host.store.load_game(table_id)
    assert record is not None and record.seats[late].timeouts == 3


async def test_a_correspondence_game_lists_your_move_and_bots_play_with_nobody_there(
    host: GameHost,
) -> None:
    ann = HostConnection(host, identity("ann"))
    ann.cmd(Quick(2, "easy", clock=parse_time_control("3d")))
    first = await await_turn(ann)
    ann.cmd(Quick(2, "easy", clock=parse_time_control("3d")))
    second = await ann.next_of(TableUpdate, lambda m: m.table != first.table)
    await await_turn(ann)
    assert first.table != second.table
    ann.close()  # nobody at either table: the bots still answer (the clocks run anyway)
    back = HostConnection(host, identity("ann"))
    told = await back.next_of(Notice, lambda n: "Your move at 2 tables" in n.text)
    assert first.table in told.text and second.table in told.text
    await play_turn(back)
    back.close()
    for _ in range(500):  # the bot answers with nobody at the table
        if len(to_move(host.lobby.tables, identity("ann"))) == 2:
            break
        await asyncio.sleep(0.01)
    again = HostConnection(host, identity("ann"))
    await again.next_of(Notice, lambda n: "Your move at 2 tables" in n.text)


# -- restarts and processes -----------------------------------------------------------


async def test_a_clock_survives_a_restart(start_host: StartHost, clock: FakeClock) -> None:
    """The deadline is stored: after a restart half a day later the player has half a day
    left, not a fresh one, and the time-out comes when it was due."""
    first = await start_host(settings=quick_settings(now=clock))
    conns, table_id = await table_of(first, ("ann", "bob"), clock=parse_time_control("1d"))
    mover, _ = mover_of(conns)
    seat, name = mover.last_table.seat, mover.link.identity.name
    stored = await first.store.load_game(table_id)
    assert stored is not None and stored.timing.deadline == clock.t + DAY
    await first.stop()

    clock.advance(DAY / 2)
    again = await start_host(settings=quick_settings(now=clock))
    back = HostConnection(again, identity(name))
    view = await back.next_of(TableUpdate)
    assert view.clock is not None and view.clock.left[seat] == DAY / 2
    clock.advance(DAY / 2 - 1)
    await again.lobby.play.check_clocks()
    assert not [m for m in back.messages if isinstance(m, Notice)]  # not yet
    clock.advance(2)
    await again.lobby.play.check_clocks()
    await back.next_of(Notice, lambda n: "time ran out" in n.text)


async def test_a_clock_moves_to_another_process_when_its_own_stops(
    tmp_path: Path, start_host: StartHost, postgres: object, clock: FakeClock
) -> None:
    """Two processes on one database: the one that started the game runs its clock. When it
    stops, its lock goes; the other waits a grace period past the deadline (the first
    might still act), then takes the clock over and plays the late turn."""
    url = postgres.create_database()  # type: ignore[attr-defined]
    a = await start_host(tmp_path / "a", quick_settings(now=clock), database=url)
    b = await start_host(tmp_path / "b", quick_settings(now=clock), database=url)
    ann = HostConnection(a, identity("ann"))
    ann.cmd(Quick(2, "easy", clock=parse_time_control("1d")))
    table_id = (await await_turn(ann)).table
    for _ in range(500):  # b hears of the game
        if table_id in b.lobby.tables and b.lobby.tables[table_id].timing.deadline:
            break
        await asyncio.sleep(0.01)
    copy = b.lobby.tables[table_id]
    assert copy.timing.deadline == clock.t + DAY and not copy.game_lock.held
    assert copy.state is not None
    turn = copy.state.turn
    await a.stop()  # its process ends: its lock on the game with it

    clock.advance(DAY + 1)
    await b.lobby.play.check_clocks()  # within the grace: the first process might still act
    assert copy.seats[0].stored.timeouts == 0
    clock.advance(5)
    await b.lobby.play.check_clocks()
    assert copy.game_lock.held and copy.seats[0].stored.timeouts == 1
    for _ in range(500):  # and the bot plays ann's late turn from b
        if copy.state.turn >= turn + 2 and copy.awaits(identity("ann")):
            break
        await asyncio.sleep(0.01)
    assert copy.awaits(identity("ann"))
