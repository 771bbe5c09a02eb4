"""The lobby list's fan-out: coalesced pushes, sent a batch of sessions at a time.

Every session in the lobby (or at a waiting table) redraws its lobby on every
push, so a push goes to `LOBBY_BATCH` sessions per `LOBBY_BATCH_GAP` seconds and
players' keys get the event loop in between; a newer push replaces one still
under way, starting with the sessions that one had not reached.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection

from shared.protocol import TableSummary

from .link import HostLink

LOBBY_BATCH = 8  # sessions sent the lobby at once...
LOBBY_BATCH_GAP = 0.02  # ...then the next batch this many seconds later

Listing = tuple[tuple[TableSummary, ...], tuple[str, ...]]  # the tables, who is online
Sender = Callable[[HostLink, Listing, dict[tuple[str, ...], bytes]], None]


class LobbyPush:
    """When and to whom the lobby list goes: `links` are the host's sessions, `wants`
    says whether one shows the lobby, `listing` makes the list, `send` sends it to one
    (sharing encodings through the dict it is given)."""

    def __init__(
        self,
        links: Collection[HostLink],
        wants: Callable[[HostLink], bool],
        listing: Callable[[], Listing],
        send: Sender,
        tick: float = 2.0,
    ) -> None:
        self.links, self.wants, self.listing, self.send = links, wants, listing, send
        self.tick = tick  # seconds a minor change may wait to be pushed
        self._pending = False
        self._timer: asyncio.TimerHandle | None = None
        self._rest: asyncio.Handle | None = None  # a push still under way, batch by batch
        self._unreached: list[HostLink] = []  # ...and the sessions it has yet to reach

    def refresh(self, minor: bool = False) -> None:
        """Push the lobby to every session in it, once, at the end of this loop turn; a
        `minor` change (a game's turn, who is online) waits up to `tick` seconds, so
        that busy games and arrivals do not redraw every lobby screen each time."""
        loop = asyncio.get_running_loop()
        if minor:
            if not self._pending and self._timer is None:
                self._timer = loop.call_later(self.tick, self.refresh)
        elif not self._pending:
            self._pending = True
            loop.call_soon(self._push)

    def _push(self) -> None:
        self._pending = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        waiting: list[HostLink] = []  # those the last push had not reached yet go first
        if self._rest is not None:
            self._rest.cancel()
            self._rest = None
            waiting = [link for link in self._unreached if link in self.links]
        first = set(waiting)
        links = waiting + [link for link in self.links if link not in first]
        encoded: dict[tuple[str, ...], bytes] = {}  # most sessions share mine == ()
        self._batch(links, self.listing(), encoded)

    def _batch(
        self, links: list[HostLink], listing: Listing, encoded: dict[tuple[str, ...], bytes]
    ) -> None:
        """The lobby to `LOBBY_BATCH` sessions now and the rest in later batches: every
        session redraws its lobby when it gets one, and with hundreds in the lobby,
        players' keys must get their turn in between (200 sessions: half a second)."""
        rest = self._unreached = links[LOBBY_BATCH:]
        loop = asyncio.get_running_loop()
        self._rest = (  # scheduled first: nothing below can stop the later batches
            loop.call_later(LOBBY_BATCH_GAP, self._batch, rest, listing, encoded) if rest else None
        )
        for link in links[:LOBBY_BATCH]:
            if link in self.links and self.wants(link):
                self.send(link, listing, encoded)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._rest is not None:
            self._rest.cancel()
            self._rest = None
