"""Playing with others over time (issue 12): the vote on an absent player, rematches, the
next game where it is your move, and the caps on live and correspondence tables."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from hostkit import (
    FakeClock,
    HostConnection,
    await_turn,
    identity,
    pick,
    play_move,
    play_to_end,
    table_of,
)

from server.host.clocks import TIMEOUT_LEVEL
from server.host.gamehost import GameHost
from shared.clock import parse_time_control
from shared.protocol import (
    Create,
    Join,
    LobbyList,
    NextGame,
    Notice,
    PlayMove,
    Quick,
    Rematch,
    TableStatus,
    TableUpdate,
    Vote,
)

# -- the vote on an absent player ----------------------------------------------------


async def test_the_others_vote_an_absent_player_out_and_they_hear_of_it_on_return(
    host: GameHost, clock: FakeClock
) -> None:
    (ann, bob, cy), table_id = await table_of(host, ("ann", "bob", "cy"), patience=5)
    bob.close()
    gone = await ann.next_of(TableUpdate, lambda m: not m.seats[1].connected)
    assert [a.seat for a in gone.absent] == [1] and gone.absent[0].patience == 300.0
    ann.cmd(Vote(1))
    assert "waits 5 more min" in (await ann.next_of(Notice)).text  # its patience
    clock.advance(301)
    ann.cmd(Vote(1))
    voted = await cy.next_of(TableUpdate, lambda m: bool(m.absent and m.absent[0].votes))
    assert voted.absent[0].votes == ("ann",) and voted.absent[0].away >= 300
    assert voted.seats[1].standin is None  # cy has not voted yet
    cy.cmd(Vote(1))
    assert "a medium bot plays bob's seat" in (await ann.next_of(Notice)).text
    done = await ann.next_of(TableUpdate, lambda m: m.seats[1].standin is not None)
    assert done.seats[1].standin == TIMEOUT_LEVEL and done.absent == ()

    back = HostConnection(host, identity("bob"))
    told = await back.next_of(Notice, lambda n: "voted" in n.text)
    assert "ann and cy voted to hand your seat to a bot" in told.text
    assert "you rank last" in told.text
    view = (await back.next_of(TableUpdate)).view
    if view.legal_moves:
        back.cmd(PlayMove(pick(view)))
        assert "bot plays your seat" in (await back.next_of(Notice)).text


async def test_a_vote_needs_a_table_without_a_clock_and_a_player_away(
    host: GameHost, clock: FakeClock
) -> None:
    (ann, bob), _ = await table_of(host, ("ann", "bob"), patience=1)
    clock.advance(120)
    ann.cmd(Vote(1))
    assert "is here" in (await ann.next_of(Notice)).text
    ann.cmd(Vote(0))
    assert "another player's seat" in (await ann.next_of(Notice)).text
    (cy, dan), _ = await table_of(host, ("cy", "dan"), clock=parse_time_control("1d"))
    dan.close()
    clock.advance(3600)
    cy.cmd(Vote(1))
    assert "games without a clock" in (await cy.next_of(Notice)).text


async def test_coming_back_before_the_vote_is_through_clears_it(
    host: GameHost, clock: FakeClock
) -> None:
    (ann, bob, cy), table_id = await table_of(host, ("ann", "bob", "cy"), patience=1)
    bob.close()
    await ann.next_of(TableUpdate, lambda m: not m.seats[1].connected)
    clock.advance(61)
    ann.cmd(Vote(1))
    await cy.next_of(TableUpdate, lambda m: bool(m.absent and m.absent[0].votes))
    HostConnection(host, identity("bob"))
    for _ in range(500):
        record = await host.store.load_game(table_id)
        assert record is not None
        if not record.seats[1].votes:
            break
        await asyncio.sleep(0.01)
    assert record.seats[1].votes == () and record.seats[1].standin is None


# -- rematches -------------------------------------------------------------------------


async def test_a_rematch_rotates_the_seats_and_starts_when_everyone_accepts(
    host: GameHost,
) -> None:
    (ann, bob), old = await table_of(host, ("ann", "bob"), ("easy",), rated=True)
    await asyncio.gather(play_to_end(ann), play_to_end(bob))
    ann.cmd(Rematch())
    offer = await bob.next_of(TableUpdate, lambda m: m.rematch is not None)
    assert offer.table == old and offer.rematch is not None
    seats = [(s.name, s.bot, s.invited) for s in offer.rematch.seats]  # rotated by one
    assert seats == [(None, "easy", False), ("ann", None, False), ("bob", None, True)]
    new = offer.rematch.table
    bob.cmd(Rematch())
    for conn in (ann, bob):
        started = await conn.next_of(TableUpdate, lambda m: m.table == new)
        assert [s.name for s in started.seats] == [None, "ann", "bob"]
        assert not started.view.is_over
    record = await host.store.load_game(new)
    assert record is not None and record.rated and record.settings.rematch_of == old
    assert record.status == "playing"


async def test_two_offers_at_once_make_one_rematch(host: GameHost) -> None:
    (ann, bob), old = await table_of(host, ("ann", "bob"))
    await asyncio.gather(play_to_end(ann), play_to_end(bob))
    ann.cmd(Rematch())
    bob.cmd(Rematch())
    first = await ann.next_of(TableUpdate, lambda m: m.table != old)
    second = await bob.next_of(TableUpdate, lambda m: m.table != old)
    assert first.table == second.table == await host.store.rematch_for(old)
    assert [s.name for s in first.seats] == ["bob", "ann"]


async def test_a_rematch_invitation_is_accepted_from_the_lobby(host: GameHost) -> None:
    (ann, bob), old = await table_of(host, ("ann", "bob"))
    await asyncio.gather(play_to_end(ann), play_to_end(bob))
    ann.cmd(Rematch())
    offer = await bob.next_of(TableUpdate, lambda m: m.rematch is not None)
    assert offer.rematch is not None
    lobby = HostConnection(host, identity("bob"))  # bob, on another screen, in the lobby
    listed = await lobby.next_of(LobbyList, lambda m: offer.rematch.table in m.mine)  # type: ignore[union-attr]
    table = listed.table(offer.rematch.table)
    assert table is not None and [s.invited for s in table.seats] == [True, False]
    lobby.cmd(Join(offer.rematch.table))
    started = await lobby.next_of(TableUpdate, lambda m: m.table == offer.rematch.table)  # type: ignore[union-attr]
    assert not started.view.is_over
    await ann.next_of(TableUpdate, lambda m: m.table == offer.rematch.table)  # type: ignore[union-attr]


async def test_no_rematch_before_the_end_or_for_a_spectator(host: GameHost) -> None:
    (ann, bob), old = await table_of(host, ("ann", "bob"))
    ann.cmd(Rematch())
    assert "at the end of a game" in (await ann.next_of(Notice)).text


# -- the next game, and the caps -------------------------------------------------------


async def test_next_game_goes_from_one_game_where_it_is_your_move_to_the_next(
    host: GameHost,
) -> None:
    ann = HostConnection(host, identity("ann"))
    tables = []
    for _ in range(3):
        ann.cmd(Quick(2, "easy", clock=parse_time_control("7d")))
        new = await ann.next_of(TableUpdate, lambda m: m.table not in tables)
        tables.append(new.table)
        await await_turn(ann)
    await play_move(ann, pick(ann.view))  # at the third: then the bot moves
    await await_turn(ann)
    seen = []
    for _ in range(4):
        ann.cmd(NextGame())
        update = await ann.next_of(TableUpdate, lambda m: m.log is not None)
        seen.append(update.table)
    assert seen == [tables[0], tables[1], tables[2], tables[0]]  # round and round


async def test_correspondence_tables_have_a_cap_of_their_own(host: GameHost) -> None:
    caps = replace(host.lobby.settings, max_tables_per_player=1, max_correspondence_tables=2)
    host.lobby.settings = caps
    ann = HostConnection(host, identity("ann"))
    tables = set()
    for clock in ("none", "3d", "1d"):  # one live game, two by correspondence
        ann.cmd(Quick(2, "easy", clock=parse_time_control(clock)))
        tables.add((await ann.next_of(TableUpdate, lambda m: m.table not in tables)).table)
    ann.cmd(Quick(2, "easy", clock=parse_time_control("7d")))
    assert "a seat at 2 correspondence tables" in (await ann.next_of(Notice)).text
    ann.cmd(Create(2, (None, "easy"), clock=parse_time_control("5+10")))
    assert "a seat at 1 tables" in (await ann.next_of(Notice)).text
    playing = [t for t in host.lobby.tables.values() if t.status is TableStatus.PLAYING]
    assert len(playing) == 3
