"""The lobby: the client commands that move players between tables. It holds its parts:
where each session is (`.places`, the one place that moves one and tells its app), taking
sessions there (`.usher`), the lobby list (`.listing`), chat, the club's desk, rematches
(`.company`), invitations (`.invitedesk`), making tables (`.making`), a game in play
(`.playing`); the moves are docs/design.md's table ("Where a player is"). A refusal is a
notice to the one session that sent it, and so is an unexpected error (logged)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from shared import protocol
from shared.errors import SplendorError
from shared.i18n import L_
from shared.protocol import (
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Create,
    Hint,
    Join,
    Language,
    Leave,
    NextGame,
    PlayMove,
    Quick,
    Rematch,
    Say,
    Start,
    TableStatus,
    ToLobby,
    Undo,
    Vote,
    Watch,
    Welcome,
)
from shared.social import Invite
from shared.tourney_messages import TOURNEY_QUESTIONS, TourneyQuestion

from ..store import (
    GameRecord,
    Store,
    StoreUnavailable,
)
from .bots import BotPool, HintError
from .chat import ChatDesk
from .clubdesk import ClubDesk
from .company import Rematches, check_accepting, check_cap, moves_waiting, to_move
from .hostsettings import HostSettings
from .invitedesk import InviteDesk
from .link import HostLink
from .listing import Listings
from .making import TableMaker
from .places import Place, Places
from .playing import Play
from .table import BUSY, Table, TableError
from .tasks import Tasks
from .tourneys import no_tourneys
from .usher import Usher

log = logging.getLogger("splendor")

NEWCOMER_WINDOW = 5.0  # seconds a new session may be taken to a game heard of late


class Lobby:
    """All open tables and the sessions of this process looking at them."""

    def __init__(
        self,
        store: Store,
        bots: BotPool,
        settings: HostSettings,
    ) -> None:
        self.store = store
        # Languages chosen here (and how they show), by player name.
        self.languages: dict[str, tuple[str, str | None]] = {}
        self.bots = bots
        self._settings = settings
        self.tables: dict[str, Table] = {}
        self.places = Places(self._present)
        self.listings = Listings(self.tables, self.places, settings.lobby_tick)
        self.desk = ClubDesk(store)
        self.chat = ChatDesk(store, self.tables, self.places)
        # Follow-ups that no session waits for (a dropped player's seat, where sessions are).
        self._tasks = Tasks("lobby", (TableError, StoreUnavailable))
        self.maker = TableMaker(
            store, bots, settings, self.tables, self.table_changed,
            lambda table: self.rematches.link(table),  # made below, and given what it makes
        )  # fmt: skip
        self.usher = usher = Usher(
            self.places, self.tables, self.listings, self.chat, self._tasks, self.maker.forget,
            self.refresh,
        )  # fmt: skip
        self.rematches = Rematches(
            store, self.tables, self.places, settings, self.maker.add, usher.place, usher.stand,
            self.maker.seed,
        )  # fmt: skip
        self.play = Play(self.places, self.tables, settings, self.abandon, usher.stand)
        call_off = self.rematches.call_off
        self.invites = InviteDesk(
            store, self.tables, self.places, usher.stand, call_off,
            lambda: self.settings.max_tables_per_player,
        )  # fmt: skip
        self.watchers: list[Callable[[Table], None]] = []  # hear every table_changed
        self.tourneys: Callable[[HostLink, TourneyQuestion], Awaitable[None]] = no_tourneys

    @property
    def settings(self) -> HostSettings:
        """What this host allows, and the time its clocks count in (its parts share it)."""
        return self._settings

    @settings.setter
    def settings(self, settings: HostSettings) -> None:
        self._settings = self.rematches.settings = self.play.settings = settings
        self.maker.settings = settings

    def refresh(self, minor: bool = False) -> None:
        self.listings.refresh(minor)

    def stop(self) -> None:
        self.listings.stop()

    def connected(self, link: HostLink) -> None:
        """A new session: welcome it, and seat it back at its table if it has one (the game
        where it is this player's turn, else the latest; else a table it waits at)."""
        self.places.arrive(link)
        i = link.identity
        language, reading = (None, None) if i.guest else self.languages.get(i.name, (None, None))
        link.deliver(protocol.encode(Welcome(i.name, i.guest, language=language, reading=reading)))
        self._present(link, self.places.of(link))
        mine = [t for t in self.tables.values() if t.seat_of(link.identity) is not None]
        games = [t for t in mine if t.status is TableStatus.PLAYING]
        if games:
            games.sort(
                key=lambda t: (
                    t.state is not None and t.state.current_player == t.seat_of(link.identity)
                )
            )
            self.usher.place(link, games[-1], games[-1].seat_of(link.identity))
        else:
            self.usher.to_lobby(link)
        here = self.places.of(link).table
        text = moves_waiting(to_move(self.tables, link.identity), here.id if here else None)
        if text is not None:
            link.deliver(protocol.notice(text, "info"))
        self.invites.arrived(link)
        self.refresh(minor=True)  # who is online: a minor change

    def seat_newcomers(self, table: Table) -> None:
        """Sessions that connected a moment ago, before this process had heard of their
        game (it started on another process just then), go to it as if they had found it
        on arrival."""
        if table.status is not TableStatus.PLAYING:
            return
        now = time.monotonic()
        for link in self.places:
            seat = table.seat_of(link.identity)
            fresh = now - link.since < NEWCOMER_WINDOW
            lobby = self.places.of(link).table is None
            if lobby and fresh and seat is not None and not table.seats[seat].left:
                self.usher.place(link, table, seat)
        self.rematches.seat_players(table)

    def disconnected(self, link: HostLink) -> None:
        """A session dropped: a seat in a game is held; a seat at a waiting table is given
        up once no session of that player shows it (on any process)."""
        place = self.places.depart(link)
        self.invites.left(link)
        self.usher.after_leaving(link, place)
        self._tasks.spawn(self.store.drop_session(link.sid))
        self.refresh(minor=True)

    def _present(self, link: HostLink, place: Place) -> None:
        """Tell the other processes where this session is (a shared store only)."""
        i, table = link.identity, place.table
        where = None if table is None else table.id
        stored = self.store.set_session(link.sid, i.name, i.guest, i.key, where, place.seat)
        self._tasks.spawn(stored)

    def table_changed(self, table: Table, minor: bool) -> None:
        """A table's seats, status or turn changed (here or elsewhere)."""
        self.places.sync(table)  # a game started or ended: the screen changes
        if table.status is TableStatus.FINISHED and table.result in ("over", "abandoned"):
            self.desk.ended(table)
            self.chat.game_over(table)
        if table.settings.rematch_of is not None:
            self.rematches.link(table)
        self.invites.changed(table)
        self.usher.forget_if_done(table)
        for watcher in self.watchers:
            watcher(table)
        self.refresh(minor)

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
                    await self._join(link, self.maker.open_table(table))
                case Watch(table):
                    await self._watch(link, self.maker.open_table(table))
                case Start():
                    await self._start(link)
                case Leave(table):
                    await self._leave(link, table)
                case ToLobby():  # the seat is kept: a game goes on, its seat held
                    self.usher.to_lobby(link)
                case PlayMove(move):
                    await self.play.move(link, move)
                case AskLeaderboard() | AskProfile() | AskRecord() as asked:
                    await self.desk.answer(link, asked)
                case Undo():
                    await self.play.undo(link)
                case Hint():
                    await self.play.hint(link)
                case Language(language, reading):
                    await self._language(link, language, reading)
                case Say(text):
                    await self.chat.say(link, text)
                case Vote(seat):
                    await self.play.vote(link, seat)
                case Rematch():
                    await self.rematches.offer(link)
                    self.refresh()
                case Invite(name, seat):
                    await self.invites.invite(link, self.places.of(link).table, name, seat)
                    self.refresh()
                case NextGame():
                    await self._next_game(link)
                case _ if isinstance(msg, TOURNEY_QUESTIONS):
                    await self.tourneys(link, msg)  # the host's TournamentDesk.answer
        except (TableError, SplendorError, HintError) as e:  # codec, protocol and move errors too
            link.deliver(protocol.notice_of(e))  # in the player's language (a `Text`)
        except StoreUnavailable as e:
            log.warning("lobby: %s's %s: %s", link.identity.name, type(msg).__name__, e)
            link.deliver(protocol.notice(BUSY))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("session %s: error handling a message", link.identity.name)
            link.deliver(
                protocol.notice(L_("something went wrong with that request; it was logged"))
            )

    async def _language(self, link: HostLink, language: str, reading: str | None) -> None:
        """The player chose a language: kept with their name's key in the store (the SSH
        front reads it at their next session); a guest's lives in their app alone."""
        if link.identity.guest:
            return
        self.languages[link.identity.name] = (language, reading)
        await self.store.set_language(link.identity.name, language, reading)

    def add(self, record: GameRecord) -> Table:
        """This process's copy of a stored table (`TableMaker.add`); the invitations it
        holds are noted (`InviteDesk.note`)."""
        table = self.maker.add(record)
        self.invites.note(table)
        return table

    async def _create(self, link: HostLink, msg: Create) -> None:
        patience = msg.patience * 60.0
        bots = msg.bots[1:]
        invited = await self.invites.players(link.identity, msg.invite[1:])
        table = await self.maker.create(
            link.identity, bots, msg.rated, msg.clock, patience, msg.target, invited
        )
        self.usher.place(link, table, 0)
        self.invites.changed(table)  # the invitees here are told (elsewhere: `Cluster`)
        if msg.seed is not None and self.settings.client_seeds:
            self.maker.seed_asked[table.id] = msg.seed
        self.usher.send_lobby(link)
        self.refresh()

    async def _quick(self, link: HostLink, msg: Quick) -> None:
        bots = [msg.level] * (msg.players - 1)
        rated = msg.rated and not link.identity.guest  # against bots, a guest rates nobody
        table = await self.maker.create(link.identity, bots, rated, msg.clock, target=msg.target)
        self.usher.place(link, table, 0)
        await table.start(self.maker.seed(msg.seed))

    async def _join(self, link: HostLink, table: Table) -> None:
        if table.seat_of(link.identity) is None:
            if table.status is not TableStatus.WAITING:
                raise TableError(
                    L_("the game at table {id} is in progress; watch it instead", id=table.id)
                )
            check_cap(self.tables, self.settings, link.identity, table.control.correspondence)
        check_accepting(self.tables, self.settings, link.identity, table)
        seat = await table.sit(link.identity)
        self.usher.place(link, table, seat)
        if table.status is TableStatus.WAITING:
            self.usher.send_lobby(link)
            await self.rematches.start_if_accepted(table)
            self.refresh()

    async def _watch(self, link: HostLink, table: Table) -> None:
        if table.status is not TableStatus.PLAYING:
            raise TableError(L_("table {id} has not started; join it instead", id=table.id))
        seat = table.seat_of(link.identity)
        if seat is not None:
            await table.sit(link.identity)
        self.usher.place(link, table, seat)

    async def _start(self, link: HostLink) -> None:
        table = self.places.of(link).table
        if table is None or table.status is not TableStatus.WAITING:
            raise TableError(L_("you are not at a table waiting to start"))
        waiting = ", ".join(i.name for i in table.held.invited())
        if table.settings.rematch_of is not None or waiting:  # a rematch starts by itself
            raise TableError(
                L_("the game starts once every invited player accepts (waiting: {waiting})",
                   waiting=waiting)
            )  # fmt: skip
        if not table.hosted_by(link.identity):
            raise TableError(
                L_("only {host}, who hosts table {id}, can start it", host=table.host, id=table.id)
            )
        await table.start(self.maker.seed(self.maker.seed_asked.pop(table.id, None)))

    async def _leave(self, link: HostLink, wanted: str | None = None) -> None:
        """Leave the table shown: a waiting table's seat is given up (a rematch's calls it
        off), a game's seat is left for good (bots play it), a watcher or a finished
        game just goes. In the lobby, `Leave` declines an invitation (`InviteDesk.decline`):
        the one at `wanted` when given (the player may wait at a table of their own)."""
        place = self.places.of(link)
        table, seat = place.table, place.seat
        if wanted is not None and (table is None or table.id != wanted):
            invited = self.invites.invitation(link.identity, wanted)
            if invited is None:
                raise TableError(L_("you have no invitation to table {table}", table=wanted))
            await self.invites.decline(invited, link.identity)
            self.refresh()
            return
        if table is None:
            invited = self.invites.invitation(link.identity)
            if invited is not None:
                await self.invites.decline(invited, link.identity)
            self.usher.to_lobby(link)
            self.refresh()
            return
        if seat is None or table.status is TableStatus.FINISHED:
            self.usher.to_lobby(link)
        elif table.status is TableStatus.WAITING:
            if table.settings.rematch_of is not None:
                await self.rematches.call_off(table, link.identity)
            await self.usher.stand(table, link.identity)
            self.usher.to_lobby(link)
        else:  # a game in progress: the seat is held for them; all their sessions go
            await table.set_left(seat, True)
            for peer in self.places.seated(table, seat):
                self.usher.to_lobby(peer)
            if all(s.left for s in table.humans):
                await self.abandon(table)
        self.refresh()

    async def _next_game(self, link: HostLink) -> None:
        """The next game where it is this player's move after the one it is at; with none,
        the lobby (a seat in a game stays the player's: it is not left)."""
        ids = list(to_move(self.tables, link.identity))
        here = self.places.of(link).table
        if here is not None and here.id in ids:
            at = ids.index(here.id)
            ids = ids[at + 1 :] + ids[:at]
        if ids:
            await self._join(link, self.tables[ids[0]])
        else:
            self.usher.to_lobby(link)

    async def abandon(self, table: Table) -> None:
        """Every human left a game: it ends without a result; watchers go to the lobby."""
        await table.abandon()
        self.abandoned(table)

    def abandoned(self, table: Table) -> None:
        """A game ended without a result (here or on another process): its sessions here
        go back to the lobby with a word of why."""
        for peer in self.places.at(table):
            self.usher.to_lobby(peer)  # then why, which the lobby shows
            peer.deliver(
                protocol.notice(L_("the game at table {id} was abandoned", id=table.id), "info")
            )
        self.usher.forget_if_done(table)

    async def stop_tables(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        await self._tasks.wait()
