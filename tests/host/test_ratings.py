"""Ratings (server/store/ratings.py): Plackett–Luce updates for 2, 3 and 4 players, ties (R17),
bots by level, never guests, abandons last; written with the game's end, once, on both
backends and across processes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hostkit import (
    HostConnection,
    StartHost,
    await_turn,
    identity,
    opened_stores,
    pick,
    play_move,
    play_to_end,
    play_turn,
    table_when,
)

from server.host.gamehost import GameHost
from server.store import FINISHED, PLAYING, SeatRecord
from server.store.ratings import NEW, Rated, Rating, display, participants, rate
from shared.players import bot_player
from shared.protocol import Create, Join, Leave, LobbyList, Quick, Start


def test_a_newcomer_shows_1000_and_a_sure_average_player_about_1700() -> None:
    assert NEW.shown == display(25, 25 / 3) == 1000
    assert display(25, 2.5) == 1700


def test_a_newcomer_starts_where_the_model_does() -> None:
    """NEW is written as numbers (openskill is imported only when a game is rated)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    assert (NEW.mu, NEW.sigma) == (model.mu, model.sigma)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_winner_gains_and_the_last_loses_at_every_player_count(n: int) -> None:
    after = rate([NEW] * n, list(range(1, n + 1)))
    assert after[0].mu > NEW.mu > after[-1].mu
    assert all(a.sigma < NEW.sigma for a in after)  # every game makes a rating surer
    assert [a.mu for a in after] == sorted((a.mu for a in after), reverse=True)


def test_shared_ranks_are_ties() -> None:
    """R17: players tied on prestige and cards share the rank: equal ratings move alike."""
    first, second, third = rate([NEW, NEW, NEW], [1, 1, 3])
    assert first == second and first.mu > third.mu


def test_beating_a_stronger_player_gains_more() -> None:
    strong = Rating(35.0, 3.0)
    upset = rate([NEW, strong], [1, 2])[0].mu - NEW.mu
    expected = rate([NEW, Rating(15.0, 3.0)], [1, 2])[0].mu - NEW.mu
    assert upset > expected > 0


def test_who_is_rated() -> None:
    seats = [("ann", False, None), ("guest-bo", True, None), (None, False, "hard")]
    rated = participants(seats, [2, 1, 3])
    assert rated == [Rated("ann", 0, 2), Rated(bot_player("hard"), 2, 3)]  # never a guest
    assert participants(seats, [1, 2, 3], left={0: 100.0}) == [
        Rated("ann", 0, 4),  # an abandon ranks after everyone
        Rated("bot:hard", 2, 3),
    ]
    people = [("ann", False, None), ("bob", False, None), ("cy", False, None)]
    assert participants(people, [1, 2, 3], left={0: 100.0, 1: 200.0}) == [
        Rated("ann", 0, 5),  # the first to walk out ranks last
        Rated("bob", 1, 4),
        Rated("cy", 2, 3),
    ]
    assert participants(people, [1, 2, 3], left={0: 0.0, 1: 0.0, 2: 0.0}) == [
        Rated("ann", 0, 4),  # away together (the game idled out): a tie
        Rated("bob", 1, 4),
        Rated("cy", 2, 4),
    ]
    two_bots = [("ann", False, None), (None, False, "easy"), (None, False, "easy")]
    assert participants(two_bots, [3, 1, 2]) == [Rated("ann", 0, 3), Rated("bot:easy", 1, 1)]


async def test_a_rated_game_against_a_bot_rates_both_once(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    alice.cmd(Quick(2, "easy", rated=True))
    final = await play_to_end(alice)
    last = alice.last_table
    assert final.outcome is not None and last.ratings and all(last.ratings)
    board = await host.store.leaderboard(10)
    assert {s.player for s in board} == {"alice", "bot:easy"}
    assert all(s.games == 1 for s in board)
    mine = next(s for s in board if s.player == "alice")
    ranks = final.outcome.ranks
    assert (mine.wins == 1) == (ranks[0] == 1)
    change = last.ratings[0]
    assert change is not None and change.shown == mine.shown
    assert (change.change > 0) == (ranks[0] < ranks[1])
    profile = await host.store.profile("alice")
    assert profile.standing is not None and len(profile.history) == 1
    assert profile.by_players == [(2, 1, mine.wins)]
    assert [g.game for g in profile.recent] == [last.table] and profile.recent[0].rated


async def test_a_casual_game_and_a_guest_are_never_rated(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    alice.cmd(Quick(2, "easy"))  # casual
    await play_to_end(alice)
    assert alice.last_table.ratings == ()
    guest = HostConnection(host, identity("guest-7", guest=True))
    guest.cmd(Quick(3, "easy", rated=True))  # only bots would be rated: nobody is
    await play_to_end(guest)
    assert await host.store.leaderboard(10) == []


async def test_leaving_a_rated_game_counts_as_last(host: GameHost) -> None:
    alice = HostConnection(host, identity("alice"))
    alice.cmd(Quick(3, "medium", rated=True))
    for _ in range(2):
        await play_turn(alice)
    alice.cmd(Leave())  # the only human leaves: abandoned
    await alice.next_of(LobbyList)
    for _ in range(100):
        board = await host.store.leaderboard(10)
        if board:
            break
        await asyncio.sleep(0.05)
    shown = {s.player: s for s in board}
    assert shown["alice"].shown < shown["bot:medium"].shown and shown["alice"].wins == 0
    profile = await host.store.profile("alice")
    assert profile.history[0][2] == 2  # ranked after the bot (one rated bot level)


async def two_at_a_rated_table(host: GameHost) -> tuple[HostConnection, HostConnection]:
    alice, bob = HostConnection(host, identity("alice")), HostConnection(host, identity("bob"))
    alice.cmd(Create(2, (None, None), rated=True))
    table = (await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)).tables[0]
    bob.cmd(Join(table.id))
    await alice.next_of(LobbyList, lambda m: bool(m.tables) and m.tables[0].seats[1].name == "bob")
    alice.cmd(Start())
    return alice, bob


async def test_the_first_to_walk_out_of_a_rated_game_ranks_last(host: GameHost) -> None:
    alice, bob = await two_at_a_rated_table(host)
    for _ in range(2):  # a round each: the game counts
        for conn in (alice, bob):
            update = await await_turn(conn)
            if update.view.my_turn:
                await play_move(conn, pick(update.view))
    mover = alice if alice.view.my_turn else bob
    await play_move(mover, pick(mover.view))
    alice.cmd(Leave())  # alice walks out; bob, left alone, leaves later: abandoned
    await alice.next_of(LobbyList)
    bob.cmd(Leave())
    await bob.next_of(LobbyList)
    for _ in range(100):
        board = {s.player: s for s in await host.store.leaderboard(10)}
        if len(board) == 2:
            break
        await asyncio.sleep(0.05)
    assert board["bob"].shown > board["alice"].shown
    ranks = {p: (await host.store.profile(p)).history[0][2] for p in ("alice", "bob")}
    assert ranks["alice"] > ranks["bob"]


async def test_a_game_abandoned_in_its_first_round_is_not_rated(host: GameHost) -> None:
    alice, bob = await two_at_a_rated_table(host)
    await await_turn(alice)
    alice.cmd(Leave())
    await alice.next_of(LobbyList)
    bob.cmd(Leave())
    await bob.next_of(LobbyList)
    for _ in range(20):
        await asyncio.sleep(0.05)
        record = await host.store.load_game(alice.last_table.table, moves=False)
        if record is not None and record.status == "abandoned":
            break
    assert record is not None and record.status == "abandoned"
    assert await host.store.leaderboard(10) == []


async def test_a_newcomer_in_two_games_ending_at_once_counts_both(postgres: Any) -> None:
    """PostgreSQL: a player with no rating row yet, in two rated games that end at the
    same moment on two connections: both updates count (the row is made, then locked)."""
    url = postgres.create_database()
    async with opened_stores(url, 2) as (a, b):
        for n in range(5):
            games = [f"g{n}a", f"g{n}b"]
            for g in games:
                seats = [SeatRecord(name=f"new{n}", key="k"), SeatRecord(name=f"x{g}", key="k2")]
                assert await a.create_table(g, seats, f"new{n}", rated=True)
                assert await a.update_table(g, 0, seats, f"new{n}", status=PLAYING, seed=1)
            out = {"scores": [15, 3], "ranks": [1, 2]}
            await asyncio.gather(
                *(
                    store.finish_game(
                        g, FINISHED, out, [Rated(f"new{n}", 0, 1), Rated(f"x{g}", 1, 2)]
                    )
                    for store, g in zip((a, b), games, strict=True)
                )
            )
            standing = (await a.profile(f"new{n}")).standing
            assert standing is not None and standing.games == 2, standing


async def test_a_game_that_ends_on_two_processes_is_rated_once(
    tmp_path: Path, start_host: StartHost, postgres: Any
) -> None:
    """Alice on one process, Bob on another, in a rated game: both processes see its end
    (one stores the last move, the other hears of it), and each player is rated once."""
    url = postgres.create_database()
    a = await start_host(tmp_path / "a", database=url)
    b = await start_host(tmp_path / "b", database=url)
    alice, bob = HostConnection(a, identity("alice")), HostConnection(b, identity("bob"))
    alice.cmd(Create(2, (None, None), rated=True))
    table = (await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)).tables[0]
    assert table.rated
    bob.cmd(Join(table.id))
    await alice.next_of(LobbyList, lambda m: bool(m.tables) and m.tables[0].seats[1].name == "bob")
    alice.cmd(Start())
    finals = await asyncio.gather(play_to_end(alice), play_to_end(bob))
    assert finals[0].outcome == finals[1].outcome
    for conn in (alice, bob):  # each process's players see the new ratings
        update = await table_when(conn, lambda m: bool(m.ratings))
        assert all(update.ratings)
    board = await a.store.leaderboard(10)
    assert sorted((s.player, s.games) for s in board) == [("alice", 1), ("bob", 1)]
    for name in ("alice", "bob"):
        assert len((await b.store.profile(name)).history) == 1


async def test_games_ending_at_once_on_two_processes_both_count(
    tmp_path: Path, start_host: StartHost, postgres: Any
) -> None:
    """Two rated games against easy bots end on two processes at the same time: the bot
    level's rating takes both (its row is locked while each game's update is written)."""
    url = postgres.create_database()
    hosts = [await start_host(tmp_path / n, database=url) for n in "ab"]
    players = [HostConnection(h, identity(n)) for h, n in zip(hosts, ("ann", "cy"), strict=True)]
    for p in players:
        p.cmd(Quick(2, "easy", rated=True))
    await asyncio.gather(*(play_to_end(p) for p in players))
    for _ in range(100):
        board = {s.player: s for s in await hosts[0].store.leaderboard(10)}
        if board.get("bot:easy") and board["bot:easy"].games == 2:
            break
        await asyncio.sleep(0.05)
    assert board["bot:easy"].games == 2 and board["ann"].games == board["cy"].games == 1
