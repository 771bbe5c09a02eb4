"""Chat: the lobby's and each table's, one line at a time.

A line is cleaned (`shared.chat.clean`: no control character, escape sequence or
bidirectional override survives), limited in length and in rate (`BURST` lines, then
one every `EVERY` seconds, per player on this process), refused to a banned name, and
said by the name the server knows the session by: a sender cannot pose as anyone.
It is stored (with the moves played and the turn, for a table, so that it shows after
them and in the game's record), and shown when the store tells every process of it
(`ChatPosted`), this one included: lines from other processes arrive the same way.

Who sees what: lobby lines go to every session in the lobby (a session arriving
there gets the latest `LOBBY_LINES`); a table's lines go to everyone at the table,
except that a spectator's line during a game reaches only the spectators, until the
game ends. Muting a name is the client's own (`/mute`). An admin removes a line with
`splendor-server chat-remove ID` (`ChatRemoved`): every screen showing it drops it.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Iterable

from shared import protocol
from shared.chat import MAX_CHAT, clean
from shared.i18n import L_
from shared.protocol import TableStatus
from shared.social import LOBBY, ChatLine, ChatLines

from ..store import ChatRecord, Store
from .link import HostLink
from .places import Places
from .seat import TableError
from .table import Table

log = logging.getLogger("splendor")

LOBBY_LINES = 20  # lobby lines a session arriving there gets
TABLE_LINES = 500  # a table's lines kept and sent, at most
BURST, EVERY = 5, 2.0  # lines a player may say at once, then one every EVERY seconds
BAN_CHECK = 10.0  # seconds a name's ban status is taken as known


def line_of(r: ChatRecord) -> ChatLine:
    return ChatLine(r.id, r.name, r.text, r.turn, r.spectator)


class ChatDesk:
    """Chat for one process's sessions (see the module docstring)."""

    def __init__(self, store: Store, tables: dict[str, Table], places: Places) -> None:
        self.store = store
        self.tables = tables
        self.places = places
        self.lobby: deque[ChatRecord] = deque(maxlen=LOBBY_LINES)
        self._allowance: dict[str, tuple[float, float]] = {}  # name -> (lines, when)
        self._bans: dict[str, tuple[float, bool]] = {}  # name -> (checked when, banned)

    async def start(self) -> None:
        """Read the lobby's latest lines."""
        for r in await self.store.chat(None, LOBBY_LINES):
            self.lobby.append(r)

    # -- saying ----------------------------------------------------------------

    async def say(self, link: HostLink, said: str) -> None:
        """A line from `link`, to the lobby or the table it is at; a refusal is a
        `TableError` the player is told."""
        text = clean(said)
        if not text:
            raise TableError(L_("nothing to say: a chat line is plain text"))
        if len(text) > MAX_CHAT:
            raise TableError(
                L_("a chat line holds {MAX_CHAT} characters at most", MAX_CHAT=MAX_CHAT)
            )
        name = link.identity.name
        self._spend(name)
        if await self._banned(name):
            raise TableError(L_("you are banned from this server: you cannot chat"))
        place = self.places.of(link)
        table = place.table
        if table is None or table.status is TableStatus.WAITING or table.state is None:
            await self.store.add_chat(None, 0, 0, name, text, False)
            return
        watching = place.seat is None and table.status is TableStatus.PLAYING
        seq, turn = len(table.moves), table.state.turn
        await self.store.add_chat(table.id, seq, turn, name, text, watching)

    def _spend(self, name: str) -> None:
        """One line of `name`'s allowance: `BURST` at most, one more every `EVERY` s."""
        now = time.monotonic()
        lines, when = self._allowance.get(name, (float(BURST), now))
        lines = min(float(BURST), lines + (now - when) / EVERY)
        if lines < 1.0:
            wait = max(1, round((1.0 - lines) * EVERY))
            raise TableError(
                L_(
                    "slow down: one chat line every {every:g} s (wait {wait} s)",
                    every=EVERY,
                    wait=wait,
                )
            )
        self._allowance[name] = (lines - 1.0, now)
        if len(self._allowance) > 10_000:  # forget the quiet ones
            self._allowance = {k: v for k, v in self._allowance.items() if now - v[1] < 60}

    async def _banned(self, name: str) -> bool:
        now = time.monotonic()
        known = self._bans.get(name)
        if known is None or now - known[0] > BAN_CHECK:
            known = (now, await self.store.banned(name) is not None)
            self._bans[name] = known
            if len(self._bans) > 10_000:  # forget what is out of date
                self._bans = {k: v for k, v in self._bans.items() if now - v[0] < BAN_CHECK}
        return known[1]

    # -- what the store says -----------------------------------------------------

    def posted(self, r: ChatRecord) -> None:
        """A line was stored (here or on another process): show it where it was said."""
        if r.game is None:
            if any(x.id == r.id for x in self.lobby):
                return
            self.lobby.append(r)
            lines = ChatLines(LOBBY, (line_of(r),))
            data = protocol.encode(lines)
            for link in self._in_lobby():
                link.deliver(data)
            return
        table = self.tables.get(r.game)
        if table is None or r.id in table.chat:
            return
        table.chat[r.id] = r
        if len(table.chat) > TABLE_LINES:
            del table.chat[min(table.chat)]
        if table.chat_loaded:
            self._to_table(table, [r], whole=False)

    def removed(self, line: int, game: str | None) -> None:
        """An admin removed a line: the screens showing it get their chat again without it."""
        if game is None:
            if any(x.id == line for x in self.lobby):
                kept = [x for x in self.lobby if x.id != line]
                self.lobby.clear()
                self.lobby.extend(kept)
                for link in self._in_lobby():
                    self.to_lobby_session(link, empty=True)
            return
        table = self.tables.get(game)
        if table is not None and table.chat.pop(line, None) is not None:
            self._to_table(table, list(table.chat.values()), whole=True)

    # -- arrivals --------------------------------------------------------------

    def to_lobby_session(self, link: HostLink, empty: bool = False) -> None:
        """The lobby's latest lines, to a session arriving in the lobby (none while the
        lobby has none, unless `empty`: the last one was removed)."""
        if self.lobby or empty:
            lines = ChatLines(LOBBY, tuple(map(line_of, self.lobby)), True)
            link.deliver(protocol.encode(lines))

    async def arrive(self, link: HostLink, table: Table) -> None:
        """A table's chat so far, to a session arriving at it (read from the store the
        first time)."""
        if not table.chat_loaded:
            for r in await self.store.chat(table.id, TABLE_LINES):
                table.chat.setdefault(r.id, r)
            table.chat_loaded = True
        if self.places.of(link).table is table and table.chat:
            self._to_table(table, list(table.chat.values()), whole=True, only=[link])

    def game_over(self, table: Table) -> None:
        """A game ended: its spectators' lines are everyone's now."""
        if table.chat_loaded and any(r.spectator for r in table.chat.values()):
            self._to_table(table, list(table.chat.values()), whole=True)

    # -- sending ---------------------------------------------------------------

    def _in_lobby(self) -> list[HostLink]:
        return [link for link in self.places if self.places.of(link).where.screen == "lobby"]

    def _to_table(
        self,
        table: Table,
        lines: list[ChatRecord],
        whole: bool,
        only: Iterable[HostLink] | None = None,
    ) -> None:
        """`lines` to the sessions at `table` (or `only` some of them), a spectator's line
        of a game in progress to spectators alone."""
        lines = sorted(lines, key=lambda r: r.id)[-TABLE_LINES:]
        over = table.status is TableStatus.FINISHED
        encoded: dict[bool, bytes] = {}
        peers = [p for p in table.peers if isinstance(p, HostLink)] if only is None else only
        for link in peers:
            everything = over or link in table.spectators
            data = encoded.get(everything)
            if data is None:
                seen = tuple(line_of(r) for r in lines if everything or not r.spectator)
                data = protocol.encode(ChatLines(table.id, seen, whole)) if seen or whole else b""
                if only is not None and not seen:
                    data = b""  # an arrival: nothing to show yet
                encoded[everything] = data
            if data:
                link.deliver(data)
