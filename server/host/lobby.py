"""The lobby: every open table, who is online, and the client commands that move players
between them (create, join, leave, start, watch, quick, move; undo and hint where the
host allows them, offline; the club's leaderboard, profiles and records; chat, votes,
rematches and the next game: `server.host.chat`, `server.host.company`).

A session is in the lobby, or at one table (in a seat or watching). The lobby
list goes to every session that is not at a game in progress, again after each
change (coalesced, and sent a batch of sessions at a time: `server.host.listing`). A
refused command is a notice to the one session that sent it; an unexpected error is
logged and becomes a notice too, so one session's trouble never reaches another.

In a cluster every process keeps a copy of every open table; what other processes
do reaches this one as store events, which `server.host.cluster` applies here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Sequence

from shared import protocol
from shared.clock import TimeControl
from shared.errors import SplendorError
from shared.moves import Move
from shared.protocol import (
    Advice,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Create,
    Hint,
    Join,
    Leave,
    NextGame,
    PlayMove,
    Quick,
    Rematch,
    Say,
    Start,
    TableStatus,
    Undo,
    Vote,
    Watch,
    Welcome,
)

from ..store import DEFAULT_SETTINGS, WAITING, GameRecord, Settings, Store, StoreUnavailable
from .bots import BotPool, HintError
from .chat import ChatDesk
from .clubdesk import ClubDesk
from .company import Company
from .hostsettings import HostSettings
from .identity import Identity, new_table_id
from .link import HostLink
from .listing import Listing, Listings, Mine
from .seating import Seating
from .table import BUSY, Peer, Seat, Table, TableError
from .tasks import Tasks

log = logging.getLogger("splendor")

NEWCOMER_WINDOW = 5.0  # seconds a new session may be taken to a game heard of late
WAITING_IDLE = 600.0  # seconds a waiting table with nobody at it is kept (after a restart)


def _links(peers: Iterable[Peer]) -> list[HostLink]:
    """The sessions among a table's peers (a table knows them only as `Peer`s)."""
    return [p for p in peers if isinstance(p, HostLink)]


class Lobby(Company, Listings):
    """All open tables and the sessions of this process looking at them."""

    def __init__(
        self,
        store: Store,
        bots: BotPool,
        settings: HostSettings,
    ) -> None:
        super().__init__(settings.lobby_tick)
        self.store = store
        self.bots = bots
        self.desk = ClubDesk(store)
        self.chat = ChatDesk(store, self.tables, self.links)
        self.settings = settings  # what this host allows, and the time its clocks count in
        self._seed_asked: dict[str, int] = {}  # table id -> the seed its creator asked for
        # Follow-ups that no session waits for (a dropped player's seat, where sessions are).
        self._tasks = Tasks("lobby", (TableError, StoreUnavailable))

    # -- sessions ----------------------------------------------------------

    def connected(self, link: HostLink) -> None:
        """A new session: welcome it, and seat it back at its table if it has one (the game
        where it is this player's turn, else the latest; else a table it waits at)."""
        self.links.add(link)
        self._online[link.identity.name] += 1
        link.deliver(protocol.encode(Welcome(link.identity.name, link.identity.guest)))
        self._present(link)
        mine = [t for t in self.tables.values() if t.seat_of(link.identity) is not None]
        games = [t for t in mine if t.status is TableStatus.PLAYING]
        if games:
            games.sort(
                key=lambda t: (
                    t.state is not None and t.state.current_player == t.seat_of(link.identity)
                )
            )
            self._place(link, games[-1], games[-1].seat_of(link.identity))
        else:
            waiting = [t for t in mine if t.status is TableStatus.WAITING]
            if waiting:
                self._place(link, waiting[-1], waiting[-1].seat_of(link.identity))
            self.send_lobby(link)
        self.tell_moves(link)
        self.refresh(minor=True)  # who is online: a minor change

    def seat_newcomers(self, table: Table) -> None:
        """Sessions that connected a moment ago, before this process had heard of their
        game (it started on another process just then), go to it as if they had found it
        on arrival."""
        if table.status is not TableStatus.PLAYING:
            return
        now = time.monotonic()
        for link in list(self.links):
            seat = table.seat_of(link.identity)
            fresh = now - link.since < NEWCOMER_WINDOW
            if link.table is None and fresh and seat is not None and not table.seats[seat].left:
                self._place(link, table, seat)
        self.seat_rematch(table)

    def disconnected(self, link: HostLink) -> None:
        """A session dropped: a seat in a game is held; a seat at a waiting table is given
        up once no session of that player shows it (on any process)."""
        self.links.discard(link)
        self._online[link.identity.name] -= 1
        if self._online[link.identity.name] <= 0:
            del self._online[link.identity.name]
        self._unplace(link)
        self._tasks.spawn(self.store.drop_session(link.sid))
        self.refresh(minor=True)

    def _present(self, link: HostLink) -> None:
        """Tell the other processes where this session is (a shared store only)."""
        i, table = link.identity, link.table
        where = None if table is None else table.id
        stored = self.store.set_session(link.sid, i.name, i.guest, i.key, where, link.seat)
        self._tasks.spawn(stored)

    def _place(self, link: HostLink, table: Table, seat: int | None) -> None:
        if link.table is not None and (link.table is not table or link.seat != seat):
            self._unplace(link)
        link.table, link.seat = table, seat
        table.attach(link, seat)
        self._present(link)
        if table.status is not TableStatus.WAITING:
            self._tasks.spawn(self.chat.arrive(link, table))
        if seat is not None and table.seats[seat].stored.votes and table.seats[seat].connected:
            self._tasks.spawn(table.clear_votes(seat))  # back before the vote went through

    def _unplace(self, link: HostLink, stand: bool = True) -> None:
        """`link` no longer shows its table. A seat at a waiting table is given up when
        the last session of its player there goes (a game's seat is held)."""
        table, seat, link.table, link.seat = link.table, link.seat, None, None
        if table is None:
            return
        table.detach(link)
        if not link.closed:
            self._present(link)
        if stand and seat is not None and table.status is TableStatus.WAITING:
            if not table.seats[seat].connected:
                self._tasks.spawn(self._stand(table, link.identity))
        self._forget_if_done(table)

    def _forget_if_done(self, table: Seating) -> None:
        if table.status is TableStatus.FINISHED and not table.peers:
            self.tables.pop(table.id, None)
            self._seed_asked.pop(table.id, None)

    def table_changed(self, table: Seating, minor: bool) -> None:
        """A table's seats, status or turn changed (here or elsewhere)."""
        if table.status is TableStatus.FINISHED and table.result in ("over", "abandoned"):
            self.desk.ended(table)
            if isinstance(table, Table):
                self.chat.game_over(table)
        if isinstance(table, Table) and table.settings.rematch_of is not None:
            self.link_rematch(table)
        self._forget_if_done(table)
        self.refresh(minor)

    def send_lobby(
        self,
        link: HostLink,
        listing: Listing | None = None,
        encoded: dict[Mine, bytes] | None = None,
    ) -> None:
        """The lobby list to `link`; arriving in the lobby (not a push), its chat too."""
        super().send_lobby(link, listing, encoded)
        if listing is None:
            self.chat.to_lobby_session(link)

    # -- commands ----------------------------------------------------------

    async def handle(self, link: HostLink, data: bytes) -> None:
        """One client message from `link`; every refusal is a notice to `link` alone."""
        msg: object = None
        try:
            msg = protocol.decode_client(data)
            match msg:
                case Create() as msg:
                    await self._create(link, msg)
                case Quick() as msg:
                    await self._quick(link, msg)
                case Join(table):
                    await self._join(link, self._table(table))
                case Watch(table):
                    await self._watch(link, self._table(table))
                case Start():
                    await self._start(link)
                case Leave():
                    await self._leave(link)
                case PlayMove(move):
                    await self._move(link, move)
                case AskLeaderboard() | AskProfile() | AskRecord() as asked:
                    await self.desk.answer(link, asked)
                case Undo():
                    await self._undo(link)
                case Hint():
                    await self._hint(link)
                case Say(text):
                    await self.chat.say(link, text)
                case Vote(seat):
                    await self.vote(link, seat)
                case Rematch():
                    await self.rematch(link)
                case NextGame():
                    await self.next_game(link)
        except (TableError, SplendorError, HintError) as e:  # codec, protocol and move errors too
            link.deliver(protocol.notice(str(e)))
        except StoreUnavailable as e:
            log.warning("lobby: %s's %s: %s", link.identity.name, type(msg).__name__, e)
            link.deliver(protocol.notice(BUSY))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session %s: error handling a message", link.identity.name)
            link.deliver(protocol.notice("something went wrong with that request; it was logged"))

    async def _new_table(
        self,
        link: HostLink,
        bots: Sequence[str | None],
        rated: bool,
        clock: TimeControl,
        patience: float = DEFAULT_SETTINGS.patience,
    ) -> Table:
        """A waiting table with `link`'s player at seat 0, stored before anyone sees it,
        with its clock and patience. A host without ratings (offline play) makes every
        table casual."""
        self.check_cap(link.identity, clock.correspondence)
        settings = Settings(str(clock), patience)
        rated = rated and self.settings.ratings
        seats = [Seat(identity=link.identity).record()] + [Seat(bot=b).record() for b in bots]
        for _ in range(20):
            table_id = new_table_id()
            if table_id not in self.tables and await self.store.create_table(
                table_id, seats, link.identity.name, rated, settings
            ):
                break
        else:
            raise TableError(BUSY)
        record = GameRecord(
            table_id, None, tuple(seats), link.identity.name, WAITING, time.time(),
            rated=rated, settings=settings,
        )  # fmt: skip
        table = self.add(record)
        self._place(link, table, 0)
        return table

    def add(self, record: GameRecord) -> Table:
        """This process's copy of a stored table: the one it has already, if it has one
        (the news of a table made here can come back before its maker has added it)."""
        table = self.tables.get(record.id)
        if table is None:
            pause, now = self.settings.bot_pause, self.settings.now
            table = Table(record, self.store, self.bots, self.table_changed, pause, now)
            self.tables[table.id] = table
            if record.settings.rematch_of is not None:
                self.link_rematch(table)
        return table

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None or table.status is TableStatus.FINISHED:
            raise TableError(f"there is no table {table_id!r}")
        return table

    def _seed(self, asked: int | None) -> int:
        """The deal's seed: the one the player asked for where the host allows it."""
        if asked is not None and self.settings.client_seeds:
            return asked
        return self.settings.seeds()

    async def _create(self, link: HostLink, msg: Create) -> None:
        patience = msg.patience * 60.0
        table = await self._new_table(link, msg.bots[1:], msg.rated, msg.clock, patience)
        if msg.seed is not None and self.settings.client_seeds:
            self._seed_asked[table.id] = msg.seed
        self.send_lobby(link)
        self.refresh()

    async def _quick(self, link: HostLink, msg: Quick) -> None:
        bots = [msg.level] * (msg.players - 1)
        rated = msg.rated and not link.identity.guest  # against bots, a guest rates nobody
        table = await self._new_table(link, bots, rated, msg.clock)
        await table.start(self._seed(msg.seed))

    async def _join(self, link: HostLink, table: Table) -> None:
        if table.seat_of(link.identity) is None:
            if table.status is not TableStatus.WAITING:
                raise TableError(f"the game at table {table.id} is in progress; watch it instead")
            self.check_cap(link.identity, table.control.correspondence)
        seat = await table.sit(link.identity)
        self._place(link, table, seat)
        if table.status is TableStatus.WAITING:
            self.send_lobby(link)
            await self.start_if_accepted(table)
            self.refresh()

    async def _watch(self, link: HostLink, table: Table) -> None:
        if table.status is not TableStatus.PLAYING:
            raise TableError(f"table {table.id} has not started; join it instead")
        seat = table.seat_of(link.identity)
        if seat is not None:
            await table.sit(link.identity)
        self._place(link, table, seat)

    async def _start(self, link: HostLink) -> None:
        table = link.table
        if table is None or table.status is not TableStatus.WAITING:
            raise TableError("you are not at a table waiting to start")
        if not table.hosted_by(link.identity):
            raise TableError(f"only {table.host}, who hosts table {table.id}, can start it")
        await table.start(self._seed(self._seed_asked.pop(table.id, None)))

    async def _leave(self, link: HostLink) -> None:
        table = link.table
        if table is None:
            self.send_lobby(link)
            return
        seat = link.seat
        if seat is None or table.status is TableStatus.FINISHED:
            self._unplace(link)
        elif table.status is TableStatus.WAITING:
            await self._stand(table, link.identity)
        else:  # a game in progress: the seat is held for them; all their sessions go
            await table.set_left(seat, True)
            for peer in _links(table.seats[seat].peers):
                self._unplace(peer)
                if peer is not link:
                    self.send_lobby(peer)
            if all(s.left for s in table.humans):
                await self.abandon(table)
        self.send_lobby(link)
        self.refresh()

    async def _stand(self, table: Table, identity: Identity) -> None:
        """A player leaves a waiting table; the last one out closes it."""
        seat = table.seat_of(identity)
        if seat is None:
            return
        peers = _links(table.seats[seat].peers)
        for peer in peers:
            self._unplace(peer, stand=False)
        try:
            await table.stand(identity)
        except TableError:  # the game is starting as they leave: their seat is held
            return
        for peer in peers:
            self.send_lobby(peer)
        self._forget_if_done(table)
        self.refresh()

    async def abandon(self, table: Table) -> None:
        """Every human left a game: it ends without a result; watchers go to the lobby."""
        await table.abandon()
        self.abandoned(table)

    def abandoned(self, table: Table) -> None:
        """A game ended without a result (here or on another process): its sessions here
        go back to the lobby with a word of why."""
        for peer in _links(table.peers):
            self._unplace(peer)
            peer.deliver(protocol.notice(f"the game at table {table.id} was abandoned", "info"))
            self.send_lobby(peer)
        self._forget_if_done(table)

    async def _move(self, link: HostLink, move: Move) -> None:
        table, seat = self._playing(link)
        await table.play(seat, move)

    def _playing(self, link: HostLink) -> tuple[Table, int]:
        table, seat = link.table, link.seat
        if table is None or seat is None or table.status is not TableStatus.PLAYING:
            raise TableError("you are not playing a game")
        return table, seat

    async def _undo(self, link: HostLink) -> None:
        if not self.settings.undo:
            raise TableError("moves are taken back only in offline games against bots")
        table, seat = self._playing(link)
        await table.undo(seat)

    async def _hint(self, link: HostLink) -> None:
        if not self.settings.hints:
            raise TableError("hints are only for offline games against bots")
        table, seat = self._playing(link)
        move, reason = await table.hint(seat)
        link.deliver(protocol.encode(Advice(move, reason)))

    # -- upkeep ------------------------------------------------------------

    async def abandon_idle(self, after: float) -> None:
        """Abandon every game without a clock that no human has been connected to (on any
        process) for `after` seconds, so games nobody comes back to do not pile up; close
        waiting tables nobody is at any more."""
        for table in list(self.tables.values()):
            patience = after if table.status is TableStatus.PLAYING else min(after, WAITING_IDLE)
            if table.idle_for() <= patience:
                continue
            if table.status is TableStatus.PLAYING and table.control.timed:
                continue  # its clocks see to absent players (correspondence: for days)
            if table.status is TableStatus.PLAYING:
                log.info("game %s: no player for %.0f s", table.id, table.idle_for())
                await self.abandon(table)
            elif table.status is TableStatus.WAITING:
                for seat in table.humans:
                    if seat.identity is not None:
                        await self._stand(table, seat.identity)

    async def stop_tables(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        await self._tasks.wait()
