"""Ratings (server/ratings.py): Plackett–Luce updates for 2, 3 and 4 players, ties (R17),
bots by level, never guests, abandons last; written with the game's end, once, on both
backends and across processes."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import pytest
from hostkit import (
    HostConnection,
    await_turn,
    identity,
    make_host,
    pick,
    play_move,
    play_to_end,
    table_when,
)

from server.host import GameHost
from server.ratings import NEW, Rated, Rating, bot_player, display, participants, ranks_of, rate
from shared.protocol import Create, Join, Leave, LobbyList, Quick, Start


def test_a_newcomer_shows_1000_and_a_sure_average_player_about_1700() -> None:
    assert NEW.shown == display(25, 25 / 3) == 1000
    assert display(25, 2.5) == 1700


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
    assert participants(seats, [1, 2, 3], last=(0,)) == [
        Rated("ann", 0, 4),  # an abandon ranks after everyone
        Rated("bot:hard", 2, 3),
    ]
    two_bots = [("ann", False, None), (None, False, "easy"), (None, False, "easy")]
    assert participants(two_bots, [3, 1, 2]) == [Rated("ann", 0, 3), Rated("bot:easy", 1, 1)]
    assert ranks_of([15, 15, 9], [12, 10, 8]) == [2, 1, 3]  # R17: fewer cards first


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
        await play_move(alice, pick((await await_turn(alice)).view))
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


async def test_a_game_that_ends_on_two_processes_is_rated_once(
    tmp_path: Path, bot_executor: Executor, postgres: Any
) -> None:
    """Alice on one process, Bob on another, in a rated game: both processes see its end
    (one stores the last move, the other hears of it), and each player is rated once."""
    url = postgres.create_database()
    a = make_host(tmp_path / "a", bot_executor, database=url)
    b = make_host(tmp_path / "b", bot_executor, database=url)
    await a.start()
    await b.start()
    try:
        alice, bob = HostConnection(a, identity("alice")), HostConnection(b, identity("bob"))
        alice.cmd(Create(2, (None, None), rated=True))
        table = (await bob.next_of(LobbyList, lambda m: len(m.tables) == 1)).tables[0]
        assert table.rated
        bob.cmd(Join(table.id))
        await alice.next_of(
            LobbyList, lambda m: bool(m.tables) and m.tables[0].seats[1].name == "bob"
        )
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
    finally:
        await a.stop()
        await b.stop()


async def test_games_ending_at_once_on_two_processes_both_count(
    tmp_path: Path, bot_executor: Executor, postgres: Any
) -> None:
    """Two rated games against easy bots end on two processes at the same time: the bot
    level's rating takes both (its row is locked while each game's update is written)."""
    url = postgres.create_database()
    hosts = [make_host(tmp_path / n, bot_executor, database=url) for n in "ab"]
    for h in hosts:
        await h.start()
    try:
        players = [
            HostConnection(h, identity(n)) for h, n in zip(hosts, ("ann", "cy"), strict=True)
        ]
        for p in players:
            p.cmd(Quick(2, "easy", rated=True))
        await asyncio.gather(*(play_to_end(p) for p in players))
        for _ in range(100):
            board = {s.player: s for s in await hosts[0].store.leaderboard(10)}
            if board.get("bot:easy") and board["bot:easy"].games == 2:
                break
            await asyncio.sleep(0.05)
        assert board["bot:easy"].games == 2 and board["ann"].games == board["cy"].games == 1
    finally:
        for h in hosts:
            await h.stop()
