"""Club tournaments on the host: entering and withdrawing, and rounds that run themselves
(docs/tournaments.md). A part of the game host, given what it uses when made: the store,
the lobby's tables and how it adds one, where sessions are and how one is seated, the
deal's seed.

Every `tick` seconds this process looks at the tournaments not finished, and runs those
whose lock it holds (`Store.try_lock_game` on ``tournament:ID``: in a cluster, one
process at a time, as for a game's bots). Running one is idempotent: the next round is
stored (compare-and-set) with its tables' ids before any table is made, and a table is
made, started and its players told only if it is not yet; so a process that dies at any
point leaves work that the next one completes, and nothing is paired twice. Every
process tells its own sessions when one of their tournament tables starts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from shared import protocol
from shared.i18n import L_, _
from shared.players import bot_player
from shared.protocol import TableStatus
from shared.tournament import Game
from shared.tourney_messages import (
    AskTourneys,
    CreateTourney,
    EnterTourney,
    TourneyQuestion,
    WithdrawTourney,
)

from ..store import WAITING, SeatRecord, Settings, Store, StoreError, StoreUnavailable
from ..store.tournaments import OPEN, RUNNING, Entrant, TournamentRecord, TournamentSettings
from .identity import Identity
from .link import HostLink
from .places import Places
from .table import Table, TableError
from .tasks import Tasks
from .tourneypages import tourney_list, tourney_page
from .tourneyplay import entrant_seats, games_of, next_round, result

log = logging.getLogger("splendor")


def lock_name(tid: str) -> str:
    """The name of a tournament's lock (the store's game locks, another key)."""
    return f"tournament:{tid}"


class TournamentDesk:
    """See the module docstring. `add` makes this process's copy of a stored table;
    `place` seats a session at a table (`Usher.place`); `deal` gives a game's seed."""

    def __init__(
        self,
        store: Store,
        tables: dict[str, Table],
        add: Callable[..., Table],
        places: Places,
        place: Callable[[HostLink, Table, int | None], None],
        deal: Callable[[], int],
        tick: float = 2.0,
        player_tournaments: bool = True,
    ) -> None:
        self.store = store
        self.tables = tables
        self._add, self._place, self._deal = add, place, deal
        self.places = places
        self.tick = tick
        self.player_tournaments = player_tournaments  # players may announce them
        self._told: set[str] = set()  # games whose players this process has told
        self._away: dict[tuple[str, int], float] = {}  # (game, seat) away since (monotonic)
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._wake = asyncio.Event()
        self._tasks = Tasks("tournaments", (TableError, StoreUnavailable))

    # -- running ---------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._tasks.wait()

    def poke(self) -> None:
        """Look again now (a game ended, an entrant came)."""
        self._wake.set()

    async def _run(self) -> None:
        while not self._stopped:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournaments: a round could not be run")
            # Not asyncio.wait_for: in Python 3.11 it can swallow a cancellation that comes
            # as the event is set, and the loop would outlive the host's stop.
            waking = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({waking}, timeout=self.tick)
            finally:
                waking.cancel()
            self._wake.clear()

    async def step(self) -> None:
        """Advance every tournament this process may run, as far as it can now."""
        for t in await self.store.tournaments.all((OPEN, RUNNING)):
            if await self.store.try_lock_game(lock_name(t.id)):
                await self.advance(t)

    async def advance(self, t: TournamentRecord) -> None:
        """Start it when it should; make and start the current round's tables; once all
        are over, store the next round (or the end) and go on."""
        for _pass in range(4):  # bounded: a round made now is started in the next pass
            games: list[list[Game | None]] = []
            if t.status == OPEN:
                if not self._due(t):
                    return
                t = replace(t, status=RUNNING)
            elif t.rounds:
                await self._make_tables(t, len(t.rounds) - 1)
                await self._no_shows(t)
                for gid, names in t.rounds[-1].tables:  # this round first: every look
                    if result(names, await self.store.load_game(gid, moves=False)) is None:
                        return  # the round goes on
                games = await games_of(self.store, t)
            nxt = next_round(t, games)
            if not await self.store.tournaments.update(nxt):
                return  # another process changed it first: look again next time
            log.info("tournament %s: %s", t.id, f"round {len(nxt.rounds)}" if nxt.status ==
                     RUNNING else nxt.status)  # fmt: skip
            fresh = await self.store.tournaments.load(t.id)
            if fresh is None or fresh.status != RUNNING:
                await self.store.unlock_game(lock_name(t.id))  # over: nothing left to run
                return
            t = fresh

    def _due(self, t: TournamentRecord) -> bool:
        s, entered = t.settings, [e for e in t.entrants if not e.out]
        if len(entered) < 2:
            return False
        if s.start_players is not None and len(entered) >= s.start_players:
            return True
        return s.start_at is not None and time.time() >= s.start_at

    async def _make_tables(self, t: TournamentRecord, round_no: int) -> None:
        """The round's tables, each made and started once (again: nothing happens)."""
        rnd = t.rounds[round_no]
        await self.store.tournaments.add_games(t.id, round_no, [g for g, _ in rnd.tables])
        s = t.settings
        for gid, names in rnd.tables:
            record = await self.store.load_game(gid, moves=False)
            if record is None:
                seats = [_seat(e) for e in entrant_seats(t, names)]
                host = next((e.name for e in entrant_seats(t, names) if e.bot is None), t.creator)
                settings = Settings(s.clock, s.patience, target=s.target)
                await self.store.create_table(gid, seats, host, s.rated, settings)
                record = await self.store.load_game(gid, moves=False)
            if record is None or record.status != WAITING:
                continue
            table = self._add(record)
            try:
                await table.start(self._deal())
            except TableError:
                pass  # started meanwhile (here, or by another process)

    async def _no_shows(self, t: TournamentRecord) -> None:
        """At the round's tables without a clock (a clock does this itself: docs/design.md),
        a player who has not been at their table for its patience since this process first
        looked loses the game: a bot stands in for them (R17: they rank last)."""
        now, games = time.monotonic(), {g for g, _ in t.rounds[-1].tables}
        self._away = {k: v for k, v in self._away.items() if k[0] in games or k[0] not in t.ids}
        for gid in games:
            table = self.tables.get(gid)
            if table is None or table.status is not TableStatus.PLAYING or table.control.timed:
                continue
            for i, seat in enumerate(table.seats):
                key = (gid, i)
                if not seat.player or seat.connected or seat.standin is not None:
                    self._away.pop(key, None)
                    continue
                since = self._away.setdefault(key, now)
                if now - since >= table.settings.patience:
                    why = _("you did not come to your tournament table")
                    if await table.votes.stand_in(i, why):
                        log.info("tournament %s: a bot stands in at %s seat %d", t.id, gid, i)
                        table.kick_bots()

    # -- telling players --------------------------------------------------------

    def table_changed(self, table: Table) -> None:
        """A table changed here: if it is a tournament's and just began, its players with
        a session on this process are told (once)."""
        if table.status is TableStatus.PLAYING and table.id not in self._told:
            self._told.add(table.id)
            self._tasks.spawn(self._tell(table))
        elif table.status is TableStatus.FINISHED:
            self.poke()

    async def _tell(self, table: Table) -> None:
        found = await self.store.tournaments.of_game(table.id)
        if found is None:
            return
        t = await self.store.tournaments.load(found[0])
        if t is None:
            return
        text = L_(
            "Round {round} of {name}: your table {table} has begun.",
            round=found[1] + 1, name=t.name, table=table.id,
        )  # fmt: skip
        for link in self.places:
            seat = table.seat_of(link.identity)
            if seat is None:
                continue
            link.deliver(protocol.notice(text, "call"))  # first: then the table's views
            here = self.places.of(link).table
            if here is None or here.status is not TableStatus.PLAYING:
                self._place(link, table, seat)  # from the lobby: straight to it

    # -- the lobby's questions ---------------------------------------------------

    async def answer(self, link: HostLink, msg: TourneyQuestion) -> None:
        """A session's question or request about tournaments: the list, a page, entering
        or withdrawing (then the page again); a refusal is a notice to it alone."""
        me = link.identity.name
        try:
            match msg:
                case AskTourneys():
                    link.deliver(protocol.encode(await tourney_list(self.store, me)))
                    return
                case EnterTourney(tid):
                    name = await self.enter(tid, link.identity)
                    text = L_("You are in tournament {id} as {name}.", id=tid, name=name)
                    link.deliver(protocol.notice(text, "info"))
                case WithdrawTourney(tid):
                    await self.withdraw(tid, me)
                    link.deliver(protocol.notice(L_("You have withdrawn."), "info"))
                case CreateTourney():
                    made = await self.create(link.identity, msg)
                    link.deliver(protocol.encode(await tourney_page(self.store, made, me)))
                    return
            t = await self.store.tournaments.load(msg.id)
            if t is None:
                raise StoreError(L_("There is no tournament {id}.", id=msg.id))
            link.deliver(protocol.encode(await tourney_page(self.store, t, me)))
        except StoreUnavailable:
            raise
        except StoreError as e:
            link.deliver(protocol.notice_of(e))  # in the player's language (a `Text`)

    async def create(self, identity: Identity, msg: CreateTourney) -> TournamentRecord:
        """A player announces a tournament, where the host lets players do so."""
        if not self.player_tournaments:
            raise StoreError(L_("On this server only an admin announces tournaments."))
        if identity.guest:
            raise StoreError(L_("Guests cannot announce a tournament: connect with a key."))
        if msg.start_players > msg.most:
            raise StoreError(
                L_("A tournament cannot start at more entrants than it takes ({most}).",
                   most=msg.most)
            )  # fmt: skip
        start_at = time.time() + 60 * msg.start_in if msg.start_in else None
        s = TournamentSettings(
            msg.rounds, msg.seats, msg.clock, rated=msg.rated, target=msg.target,
            start_at=start_at, start_players=msg.start_players, max_players=msg.most,
            bots=msg.bots,
        )  # fmt: skip
        t = await self.store.tournaments.new(msg.name, msg.format, s, identity.name)
        log.info("tournament %s announced by %s: %s", t.id, identity.name, msg.name)
        return t

    # -- entering and withdrawing -----------------------------------------------

    async def enter(self, tid: str, identity: Identity | None, bot: str | None = None) -> str:
        """Enter a player or a bot level (`enter`), and look at once: it may start now."""
        name = await enter(self.store, tid, identity, bot)
        self.poke()
        return name

    async def withdraw(self, tid: str, name: str) -> None:
        """A player withdraws: not paired from the next round on (a game in progress goes
        on); before it begins, the entry goes."""
        for _try in range(5):
            t = await self.store.tournaments.load(tid)
            e = None if t is None else t.entrant(name)
            if t is None or e is None or e.out:
                raise StoreError(L_("You are not in tournament {id}.", id=tid))
            if t.status == OPEN:
                entrants = tuple(x for x in t.entrants if x is not e)
            else:
                entrants = tuple(replace(x, out=True) if x is e else x for x in t.entrants)
            if await self.store.tournaments.update(replace(t, entrants=entrants)):
                return
        raise StoreError(L_("The tournament is busy; try again."))


async def enter(store: Store, tid: str, identity: Identity | None, bot: str | None = None) -> str:
    """Enter a player (`identity`) or a bot level (its name: the level and a number,
    `easy-2`) into an open tournament; the name it plays under. `StoreError` says why
    not (the lobby's desk and the admin's command both enter this way)."""
    for _try in range(5):
        t = await store.tournaments.load(tid)
        if t is None:
            raise StoreError(L_("There is no tournament {id}.", id=tid))
        if t.status != OPEN:
            raise StoreError(L_("Tournament {id} has begun: it takes no more entries.", id=tid))
        if len([e for e in t.entrants if not e.out]) >= t.settings.max_players:
            raise StoreError(L_("Tournament {id} is full.", id=tid))
        if bot is not None:
            if not t.settings.bots:
                raise StoreError(L_("Tournament {id} takes no bots.", id=tid))
            count = sum(1 for e in t.entrants if e.bot == bot)
            name, key, rated = f"{bot}-{count + 1}", None, bot_player(bot)
        else:
            assert identity is not None
            if identity.guest:
                raise StoreError(L_("Guests cannot enter a tournament: connect with a key."))
            name, key, rated = identity.name, identity.key, identity.name
            old = t.entrant(name)
            if old is not None and not old.out:
                raise StoreError(L_("You are in tournament {id} already.", id=tid))
        standing = await store.standing(rated)
        rating = standing.shown if standing is not None else 1000
        kept = tuple(e for e in t.entrants if e.name != name)
        if await store.tournaments.update(
            replace(t, entrants=(*kept, Entrant(name, key, bot, rating)))
        ):
            return name
    raise StoreError(L_("The tournament is busy; try again."))


def _seat(e: Entrant) -> SeatRecord:
    return SeatRecord(bot=e.bot) if e.bot is not None else SeatRecord(e.name, False, e.key)


async def no_tourneys(link: HostLink, msg: TourneyQuestion) -> None:
    """The lobby's answer before a host gives it its desk (a host without one)."""
    link.deliver(protocol.notice(L_("This host runs no tournaments.")))
