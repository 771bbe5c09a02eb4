"""Club tournaments on the host (server/host/tourneys.py, docs/tournaments.md): rounds
that run themselves with bot entrants, on SQLite and PostgreSQL; entering, withdrawing;
a restart between rounds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hostkit import WAIT, HostConnection, StartHost, identity, quick_settings

from server.commands import tourney
from server.host.gamehost import GameHost
from server.host.tourneyplay import games_of, table_of
from server.store import Store, StoreError
from server.store.tournaments import DONE, RUNNING, TournamentRecord, TournamentSettings
from shared.protocol import AskProfile, Notice, PlayerProfile
from shared.tournament import KNOCKOUT, ROUND_ROBIN, SWISS
from shared.tourney_messages import (
    AskTourneys,
    CreateTourney,
    EnterTourney,
    TourneyPage,
    Tourneys,
    WithdrawTourney,
)

FAST = quick_settings(tournament_tick=0.05)


async def until(
    store: Store, tid: str, pred: Callable[[TournamentRecord], bool], limit: float = 4 * WAIT
) -> TournamentRecord:
    """The tournament once `pred` holds of it (bounded in time)."""
    deadline = time.monotonic() + limit
    while True:
        t = await store.tournaments.load(tid)
        assert t is not None
        if pred(t):
            return t
        assert time.monotonic() < deadline, f"tournament {tid} stuck: {t.status}, {t.rounds}"
        await asyncio.sleep(0.05)


async def with_bots(
    host: GameHost, fmt: str, count: int, levels: tuple[str, ...] = ("easy",), **settings: object
) -> TournamentRecord:
    s = TournamentSettings(bots=True, **settings)  # type: ignore[arg-type]
    t = await host.store.tournaments.new("Club night", fmt, s, "admin")
    assert host.tourneys is not None
    for i in range(count):
        await host.tourneys.enter(t.id, None, levels[i % len(levels)])
    return t


async def test_a_swiss_of_bots_runs_its_rounds_to_the_standings(
    start_host: StartHost, database: str
) -> None:
    host = await start_host(settings=FAST, database=database)
    t = await with_bots(host, SWISS, 9, ("easy", "medium"), rounds=3, seats=3, start_players=9)
    done = await until(host.store, t.id, lambda t: t.status == DONE)
    assert len(done.rounds) == 3
    assert all(len(names) == 3 for r in done.rounds for _, names in r.tables)
    games = await games_of(host.store, done)
    assert all(g is not None and g.ranks for r in games for g in r)
    table = table_of(done, games)
    assert [s.games for s in table] == [3] * 9 and table[0].rank == 1
    pairs = [frozenset((a, b)) for r in done.rounds for _, n in r.tables for a in n for b in n
             if a < b]  # fmt: skip
    assert len(pairs) == len(set(pairs))  # nobody met twice: 9 at tables of 3 allow it


async def test_a_knockout_and_a_round_robin_of_bots_end(start_host: StartHost) -> None:
    host = await start_host(settings=FAST)
    ko = await with_bots(host, KNOCKOUT, 5, seats=2, start_players=5)
    rr = await with_bots(host, ROUND_ROBIN, 4, seats=2, start_players=4)
    ko_done = await until(host.store, ko.id, lambda t: t.status == DONE)
    rr_done = await until(host.store, rr.id, lambda t: t.status == DONE)
    assert len(ko_done.rounds) == 3 and sum(not e.out for e in ko_done.entrants) == 1
    assert len(rr_done.rounds) == 3 and all(len(r.tables) == 2 for r in rr_done.rounds)


async def test_entering_is_checked_and_a_withdrawn_player_is_not_paired(
    start_host: StartHost,
) -> None:
    host = await start_host(settings=FAST)
    desk = host.tourneys
    assert desk is not None
    s = TournamentSettings(rounds=2, seats=2, max_players=3)
    t = await host.store.tournaments.new("Cup", SWISS, s, "admin")

    await desk.enter(t.id, identity("ann"))
    for refused in (
        desk.enter(t.id, identity("ann")),
        desk.enter(t.id, None, "easy"),
        desk.enter(t.id, identity("guest-1", guest=True)),
        desk.enter("ffffff", identity("bob")),
    ):
        try:
            await refused
        except StoreError:
            continue
        raise AssertionError("an entry that should be refused was taken")
    await desk.withdraw(t.id, "ann")
    left = await host.store.tournaments.load(t.id)
    assert left is not None and left.entrants == ()


async def test_a_restart_between_rounds_goes_on_from_the_stored_round(
    start_host: StartHost, tmp_path: Path
) -> None:
    host = await start_host(settings=FAST)
    t = await with_bots(host, SWISS, 5, rounds=3, seats=2, start_players=5)
    second = await until(host.store, t.id, lambda t: len(t.rounds) >= 2)
    await host.stop()
    again = await start_host(tmp_path, settings=FAST)
    done = await until(again.store, t.id, lambda t: t.status == DONE)
    assert done.rounds[:2] == second.rounds[:2] and len(done.rounds) == 3
    byes = [b for r in done.rounds for b in r.byes]
    assert len(byes) == len(set(byes)) == 3  # 5 at tables of 2: a bye a round, never twice
    assert done.status == DONE != RUNNING


async def test_the_admin_creates_enters_starts_and_exports_a_tournament(
    start_host: StartHost, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`splendor-server tournament ...` on a running server's database; the export shows
    every round's games by id and the final standings (docs/records.md)."""
    host = await start_host(settings=FAST)
    where = ["--data-dir", str(tmp_path)]

    async def run(*argv: str) -> str:
        assert await asyncio.to_thread(tourney.main, [*argv, *where]) == 0
        return capsys.readouterr().out

    made = await run("create", "Club night", "--rounds", "2", "--seats", "2", "--bots")
    tid = made.split()[1]
    for level in ("easy", "medium", "easy"):
        await run("enter", tid, "--bot", level)
    assert f"{tid}  open" in await run("list")
    await run("start", tid)
    done = await until(host.store, tid, lambda t: t.status == DONE)
    text = await run("export", tid)
    assert text.startswith(f"# Splendor tournament {tid}: Club night\n")
    for rnd in done.rounds:
        assert all(f"table {gid}  over" in text for gid, _ in rnd.tables)
        assert f"bye: {rnd.byes[0]}" in text
    assert "## Standings" in text and text.count("\n   ") >= 3
    assert await asyncio.to_thread(tourney.main, ["export", "ffffff", *where]) == 1
    assert "no tournament ffffff" in capsys.readouterr().err
    assert await asyncio.to_thread(tourney.main, ["cancel", tid, *where]) == 1  # finished
    other = (await run("create", "Spare")).split()[1]
    assert "cancelled" in await run("cancel", other)
    assert f"{other}  cancelled" in await run("list")


async def test_players_list_enter_see_and_withdraw_from_the_lobby(start_host: StartHost) -> None:
    """The lobby's questions (`shared.tourney_messages`): the list, entering (the page
    comes back with the player in it), a refusal as a notice, withdrawing."""
    host = await start_host(settings=FAST)
    s = TournamentSettings(rounds=2, seats=2, bots=True)
    t = await host.store.tournaments.new("Cup", SWISS, s, "admin")
    ann = HostConnection(host, identity("ann"))
    ann.cmd(AskTourneys())
    listed = await ann.next_of(Tourneys)
    assert [(i.id, i.status, i.entered) for i in listed.items] == [(t.id, "open", False)]
    ann.cmd(EnterTourney(t.id))
    page = await ann.next_of(TourneyPage)
    assert page.line.entered and [r.name for r in page.rows] == ["ann"]
    said = (page.line.format_said, page.line.starts_said, page.about_said)  # issue 34
    assert all(x is not None for x in said)
    assert [x.english() for x in said if x is not None] == [
        page.line.format,
        page.line.starts,
        page.about,
    ]
    assert page.line.format == "swiss, 2 rounds, tables of 2"
    assert page.line.format_said is not None
    assert page.line.format_said.render("cs") == "švýcarský systém, 2 kola, stoly po 2"
    assert page.about_said is not None  # no clock: the word for none, in the reader's words
    assert page.about_said.render("cs").startswith("tempo žádné · ")
    ann.cmd(EnterTourney(t.id))
    refused = await ann.next_of(Notice, lambda n: n.level == "error")
    assert "already" in refused.text
    await host.store.claim_name("ann", "SHA256:ann-key")  # as a key login does
    ann.cmd(AskProfile("ann"))  # the profile lists the player's tournaments
    profile = await ann.next_of(PlayerProfile)
    assert profile.tournaments == ("Cup: entered",)
    assert [x.render("hu") for x in profile.tournaments_said] == ["Cup: nevezve"]
    ann.cmd(WithdrawTourney(t.id))
    page = await ann.next_of(TourneyPage)
    assert not page.line.entered and page.rows == ()
    ann.close()


async def test_a_player_who_does_not_come_loses_and_a_bot_keeps_the_seat(
    start_host: StartHost,
) -> None:
    """Without a clock, a player not at their table for its patience loses the game: a bot
    stands in for the rest of it (the others play on) and they rank last."""
    host = await start_host(settings=FAST)
    desk = host.tourneys
    assert desk is not None
    s = TournamentSettings(rounds=1, seats=3, bots=True, start_players=3, patience=0.2)
    t = await host.store.tournaments.new("Cup", SWISS, s, "admin")
    await desk.enter(t.id, identity("ann"))  # never connects
    for level in ("easy", "medium"):
        await desk.enter(t.id, None, level)
    done = await until(host.store, t.id, lambda t: t.status == DONE)
    [[game]] = await games_of(host.store, done)
    assert game is not None and game.ranks[game.players.index("ann")] == 3
    [(gid, _)] = done.rounds[0].tables
    record = await host.store.load_game(gid, moves=False)
    assert record is not None and record.status == "finished"
    assert [x.standin for x in record.seats if x.name == "ann"] == ["medium"]


async def test_players_announce_tournaments_where_the_server_lets_them(
    start_host: StartHost, tmp_path: Path
) -> None:
    host = await start_host(settings=FAST)
    ann = HostConnection(host, identity("ann"))
    ann.cmd(CreateTourney("Friday", "knockout", seats=3, start_players=6, bots=True))
    page = await ann.next_of(TourneyPage)
    assert (page.line.name, page.line.status, page.line.format) == (
        "Friday",
        "open",
        "knockout, tables of 3",
    )
    made = await host.store.tournaments.load(page.line.id)
    assert made is not None and made.creator == "ann" and made.settings.start_players == 6
    assert made.settings.max_players == 64 and made.settings.start_at is None
    # the most entrants, and a start in so many minutes even if fewer came
    before = time.time()
    ann.cmd(CreateTourney("Sunday", start_players=4, most=8, start_in=30))
    sunday = await host.store.tournaments.load((await ann.next_of(TourneyPage)).line.id)
    assert sunday is not None and sunday.settings.max_players == 8
    assert sunday.settings.start_at is not None
    assert before + 30 * 60 <= sunday.settings.start_at <= time.time() + 30 * 60
    ann.cmd(CreateTourney("Monday", start_players=16, most=8))
    too_many = await ann.next_of(Notice, lambda n: n.level == "error")
    assert "more entrants than it takes (8)" in too_many.text
    guest = HostConnection(host, identity("guest-2", guest=True))
    guest.cmd(CreateTourney("Mine"))
    refused = await guest.next_of(Notice, lambda n: n.level == "error")
    assert "Guests" in refused.text
    # as key and fields too, so that each player's app shows it in their language
    assert refused.said is not None and refused.said.key.startswith("Guests cannot announce")
    await host.stop()
    closed = await start_host(tmp_path / "b", settings=replace(FAST, player_tournaments=False))
    bob = HostConnection(closed, identity("bob"))
    bob.cmd(CreateTourney("Saturday"))
    assert "only an admin" in (await bob.next_of(Notice, lambda n: n.level == "error")).text
