"""The lobby: every table, who is online, and the client commands that move players
between them (create, join, leave, start, watch, quick, move; undo and hint where the
host allows them, offline).

A session is in the lobby, or at one table (in a seat or watching). The lobby
list goes to every session that is not at a game in progress, again after each
change (coalesced, and sent a batch of sessions at a time: `server.lobby_push`). A
refused command is a notice to the one session that sent it; an unexpected error is
logged and becomes a notice too, so one session's trouble never reaches another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Iterable

from shared import protocol
from shared.errors import SplendorError
from shared.moves import Move
from shared.protocol import (
    Advice,
    Create,
    Hint,
    Join,
    Leave,
    LobbyList,
    PlayMove,
    Quick,
    Start,
    TableStatus,
    Undo,
    Watch,
    Welcome,
)

from .bots import BotPool, HintError
from .identity import Identity
from .link import HostLink
from .lobby_push import LOBBY_BATCH, LOBBY_BATCH_GAP, Listing, LobbyPush
from .store import AsyncStore, GameRecord
from .table import Peer, Seat, Table, TableError, same_player

log = logging.getLogger("splendor")

__all__ = ["LOBBY_BATCH", "LOBBY_BATCH_GAP", "Lobby"]


def _links(peers: Iterable[Peer]) -> list[HostLink]:
    """The sessions among a table's peers (a table knows them only as `Peer`s)."""
    return [p for p in peers if isinstance(p, HostLink)]


class Lobby:
    """All tables of this host and the sessions looking at them."""

    def __init__(
        self,
        store: AsyncStore,
        bots: BotPool,
        *,
        seeds: Callable[[], int] | None = None,
        bot_pause: float = 0.6,
        max_tables_per_player: int = 3,
        max_tables: int = 500,
        lobby_tick: float = 2.0,
        client_seeds: bool = False,
        undo: bool = False,
        hints: bool = False,
    ) -> None:
        self.store = store
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self.links: set[HostLink] = set()
        self._online: Counter[str] = Counter()
        self._seeds = seeds or (lambda: secrets.randbits(63))
        self._bot_pause = bot_pause
        self.max_tables_per_player = max_tables_per_player
        self.max_tables = max_tables
        # Whether a player's `seed` deals the game (offline play); on a server, a player
        # who chose the seed would know the decks.
        self.client_seeds = client_seeds
        # Practice tools (offline play): taking moves back, and a bot's advice. On a server
        # a move anyone has seen stays, and nobody plays with a bot's help.
        self.undo, self.hints = undo, hints
        self._seed_asked: dict[str, int] = {}  # table id -> the seed its creator asked for
        self._lobby_push = LobbyPush(
            self.links, self._shows_lobby, self._listing, self.send_lobby, lobby_tick
        )

    # -- sessions ----------------------------------------------------------

    def connected(self, link: HostLink) -> None:
        """A new session: welcome it, and seat it back at its game if it has one."""
        self.links.add(link)
        self._online[link.identity.name] += 1
        link.deliver(protocol.encode(Welcome(link.identity.name, link.identity.guest)))
        games = [
            t
            for t in self.tables.values()
            if t.status is TableStatus.PLAYING and t.seat_of(link.identity) is not None
        ]
        if games:  # the game where it is this player's turn, else the latest
            games.sort(
                key=lambda t: (
                    t.state is not None and t.state.current_player == t.seat_of(link.identity)
                )
            )
            self._place(link, games[-1], games[-1].seat_of(link.identity))
        else:
            self.send_lobby(link)
        self.refresh(minor=True)  # who is online: a minor change

    def disconnected(self, link: HostLink) -> None:
        """A session dropped: a seat in a game is held; a seat at a waiting table is given
        up once none of that player's sessions is there."""
        self.links.discard(link)
        self._online[link.identity.name] -= 1
        if self._online[link.identity.name] <= 0:
            del self._online[link.identity.name]
        self._unplace(link)
        self.refresh(minor=True)

    def _place(self, link: HostLink, table: Table, seat: int | None) -> None:
        if link.table is not None and (link.table is not table or link.seat != seat):
            self._unplace(link)
        link.table, link.seat = table, seat
        table.attach(link, seat)

    def _unplace(self, link: HostLink, left: bool = False, stand: bool = True) -> None:
        """`link` no longer shows its table. A seat at a waiting table is given up when
        the last of its player's sessions goes (a game's seat is held)."""
        table, seat, link.table, link.seat = link.table, link.seat, None, None
        if table is None:
            return
        table.detach(link, left)
        if stand and seat is not None and table.status is TableStatus.WAITING:
            if not table.seats[seat].peers:
                self._stand(table, link.identity)
        self._forget_if_done(table)

    def _forget_if_done(self, table: Table) -> None:
        if table.status is TableStatus.FINISHED and not table.peers:
            self.tables.pop(table.id, None)
            self._seed_asked.pop(table.id, None)

    # -- the lobby list ----------------------------------------------------

    def refresh(self, minor: bool = False) -> None:
        """Push the lobby to every session in it (`LobbyPush.refresh`)."""
        self._lobby_push.refresh(minor)

    def stop(self) -> None:
        self._lobby_push.stop()

    def _shows_lobby(self, link: HostLink) -> bool:
        return link.table is None or link.table.status is TableStatus.WAITING

    def _listing(self) -> Listing:
        tables = tuple(
            t.summary() for t in self.tables.values() if t.status is not TableStatus.FINISHED
        )
        return tables, tuple(sorted(self._online, key=str.casefold))

    def send_lobby(
        self,
        link: HostLink,
        listing: Listing | None = None,
        encoded: dict[tuple[str, ...], bytes] | None = None,
    ) -> None:
        """The lobby list to `link`, with the tables where its player holds a seat."""
        tables, online = listing or self._listing()
        mine = tuple(
            t.id
            for t in self.tables.values()
            if t.status is not TableStatus.FINISHED and t.seat_of(link.identity) is not None
        )
        data = None if encoded is None else encoded.get(mine)
        if data is None:
            data = protocol.encode(LobbyList(tables, online, mine))
            if encoded is not None:
                encoded[mine] = data
        link.deliver(data)

    def _table_changed(self, table: Table, minor: bool) -> None:
        self._forget_if_done(table)
        self.refresh(minor)

    # -- commands ----------------------------------------------------------

    async def handle(self, link: HostLink, data: bytes) -> None:
        """One client message from `link`; every refusal is a notice to `link` alone."""
        try:
            match protocol.decode_client(data):
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
                case Undo():
                    await self._undo(link)
                case Hint():
                    await self._hint(link)
        except (TableError, SplendorError, HintError) as e:  # codec, protocol and move errors too
            link.deliver(protocol.notice(str(e)))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session %s: error handling a message", link.identity.name)
            link.deliver(protocol.notice("something went wrong with that request; it was logged"))

    def _check_cap(self, identity: Identity) -> None:
        held = [
            t
            for t in self.tables.values()
            if t.status is not TableStatus.FINISHED and t.seat_of(identity) is not None
        ]
        if len(held) >= self.max_tables_per_player:
            ids = ", ".join(t.id for t in held)
            raise TableError(
                f"you already have a seat at {len(held)} tables ({ids}); leave one first"
            )
        if len(self.tables) >= self.max_tables:
            raise TableError("the server has as many tables as it can hold; try again later")

    def _new_table(self, link: HostLink, bots: list[str | None]) -> Table:
        self._check_cap(link.identity)
        table_id = secrets.token_hex(3)
        while table_id in self.tables or self.store.store.game_exists(table_id):
            table_id = secrets.token_hex(3)
        seats = [Seat(identity=link.identity)] + [Seat(bot=b) for b in bots]
        table = Table(
            table_id,
            link.identity,
            seats,
            self.store,
            self.bots,
            self._table_changed,
            self._bot_pause,
        )
        self.tables[table_id] = table
        self._place(link, table, 0)
        return table

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None or table.status is TableStatus.FINISHED:
            raise TableError(f"there is no table {table_id!r}")
        return table

    def _seed(self, asked: int | None) -> int:
        """The deal's seed: the one the player asked for where the host allows it."""
        if asked is not None and self.client_seeds:
            return asked
        return self._seeds()

    async def _create(self, link: HostLink, msg: Create) -> None:
        table = self._new_table(link, list(msg.bots[1:]))
        if msg.seed is not None and self.client_seeds:
            self._seed_asked[table.id] = msg.seed
        self.send_lobby(link)

    async def _quick(self, link: HostLink, msg: Quick) -> None:
        table = self._new_table(link, [msg.level] * (msg.players - 1))
        await table.start(self._seed(msg.seed))

    async def _join(self, link: HostLink, table: Table) -> None:
        if table.seat_of(link.identity) is None:
            if table.status is not TableStatus.WAITING:
                raise TableError(f"the game at table {table.id} is in progress; watch it instead")
            self._check_cap(link.identity)
        seat = table.sit(link.identity)
        self._place(link, table, seat)
        if table.status is TableStatus.WAITING:
            self.refresh()

    async def _watch(self, link: HostLink, table: Table) -> None:
        if table.status is not TableStatus.PLAYING:
            raise TableError(f"table {table.id} has not started; join it instead")
        seat = table.seat_of(link.identity)
        if seat is not None:
            table.sit(link.identity)
        self._place(link, table, seat)

    async def _start(self, link: HostLink) -> None:
        table = link.table
        if table is None or table.status is not TableStatus.WAITING:
            raise TableError("you are not at a table waiting to start")
        if not same_player(table.host, link.identity):
            raise TableError(f"only {table.host.name}, who hosts table {table.id}, can start it")
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
            self._stand(table, link.identity)
        else:  # a game in progress: the seat is held for them; all their sessions go
            for peer in _links(table.seats[seat].peers):
                self._unplace(peer, left=True)
                if peer is not link:
                    self.send_lobby(peer)
            if all(s.left for s in table.humans):
                await self._abandon(table)
        self.send_lobby(link)
        self.refresh()

    def _stand(self, table: Table, identity: Identity) -> None:
        """A player leaves a waiting table; the last one out closes it."""
        seat = table.seat_of(identity)
        if seat is None:
            return
        peers = _links(table.seats[seat].peers)
        for peer in peers:
            self._unplace(peer, stand=False)
        try:
            table.stand(identity)
        except TableError:  # the game is starting as they leave: their seat is held
            return
        for peer in peers:
            self.send_lobby(peer)
        if not table.humans:
            table.close()
        self.refresh()

    async def _abandon(self, table: Table) -> None:
        """Every human left a game: it ends without a result; watchers go to the lobby."""
        await table.abandon()
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
        if not self.undo:
            raise TableError("moves are taken back only in offline games against bots")
        table, seat = self._playing(link)
        await table.undo(seat)

    async def _hint(self, link: HostLink) -> None:
        if not self.hints:
            raise TableError("hints are only for offline games against bots")
        table, seat = self._playing(link)
        move, reason = await table.hint(seat)
        link.deliver(protocol.encode(Advice(move, reason)))

    # -- start and stop ----------------------------------------------------

    async def abandon_idle(self, after: float) -> None:
        """Abandon every game no human has been connected to for `after` seconds, so
        games nobody comes back to do not pile up (in memory and in every restart)."""
        for table in list(self.tables.values()):
            if table.status is TableStatus.PLAYING and table.idle_for() > after:
                log.info("game %s: no player for %.0f s", table.id, table.idle_for())
                await self._abandon(table)

    def resume(self, table: Table) -> None:
        self.tables[table.id] = table

    def make_resumed(self, record: GameRecord) -> Table:
        return Table.resume(record, self.store, self.bots, self._table_changed, self._bot_pause)
