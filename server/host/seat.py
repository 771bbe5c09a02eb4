"""What a table's parts share: its seats and the sessions at them, its game (`Game`), and its
status (`shared.protocol.TableStatus`, the one enum both sides share) with the transitions
the host allows."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from typing import Protocol

from shared.protocol import LoggedTurn, SeatSummary, TableStatus
from shared.state import GameState

from ..store import SeatRecord
from .identity import Identity

LOG_SENT = 1000  # turns of history a (re)joining session gets, at most (a whole game)

TRANSITIONS: dict[TableStatus, frozenset[TableStatus]] = {
    TableStatus.WAITING: frozenset({TableStatus.PLAYING, TableStatus.FINISHED}),
    TableStatus.PLAYING: frozenset({TableStatus.FINISHED}),
    TableStatus.FINISHED: frozenset(),
}


class TableError(Exception):
    """A request the table refuses; the message goes back to the player who made it."""


class Busy(TableError):
    """The store could not answer now (a database out of reach, its connections all in
    use): the request may be tried again."""


class Peer(Protocol):
    """A session as a table sees it: who it is, and where its bytes go."""

    identity: Identity

    def deliver(self, data: bytes) -> None: ...


def same_player(a: Identity, b: Identity) -> bool:
    """Whether two identities are one player (names compare without case, like the store)."""
    return a.guest == b.guest and a.key == b.key and a.name.casefold() == b.name.casefold()


@dataclass(eq=False)
class Seat:
    """A seat: empty, a bot of a level, or a human with zero or more sessions. A human's
    seat also carries what its stored record says of clocks, votes and rematches
    (`server.store.SeatRecord`)."""

    bot: str | None = None
    identity: Identity | None = None
    peers: set[Peer] = field(default_factory=set)  # this process's sessions at the seat
    left: float = 0.0  # when the player went back to the lobby during the game (stored)
    remote: int = 0  # sessions at the seat on other processes of the cluster
    stored: SeatRecord = field(default_factory=SeatRecord)  # as stored (clocks, votes...)

    @property
    def empty(self) -> bool:
        return self.bot is None and self.identity is None

    @property
    def connected(self) -> bool:
        """A bot, or a player with a session at the seat on any process (a player invited
        to a rematch is not there until they accept)."""
        if self.stored.invited:
            return False
        return self.bot is not None or ((bool(self.peers) or self.remote > 0) and not self.left)

    @property
    def standin(self) -> str | None:
        """The bot level that plays this player's seat for the rest of the game, if any."""
        return self.stored.standin

    @property
    def player(self) -> bool:
        """A human who plays the seat themselves (no bot stands in for them)."""
        return self.identity is not None and self.stored.standin is None

    def summary(self) -> SeatSummary:
        i, r = self.identity, self.stored
        name = None if i is None else i.name
        program = i is not None and i.program
        summary = SeatSummary(name, self.bot, self.connected, r.standin, r.timeouts, r.invited)
        return replace(summary, program=True) if program else summary

    @classmethod
    def from_record(cls, r: SeatRecord) -> Seat:
        """A stored seat: open, a bot, or held for its player (no session yet)."""
        if r.bot is not None:
            return cls(bot=r.bot)
        if r.name is None:
            return cls()
        identity = Identity(r.name, r.guest, r.key, r.program)
        return cls(identity=identity, left=r.left, stored=r)

    def record(self) -> SeatRecord:
        i = self.identity
        if i is None:
            return SeatRecord(bot=self.bot)
        stored = replace(self.stored, name=i.name, guest=i.guest, key=i.key, left=self.left)
        return replace(stored, program=i.program)


@dataclass(eq=False)
class Game:
    """A table's game once it has begun: its state, its moves (their notation) and the newest
    turns of its log. One value the table's parts share: `server.host.table.Table` moves it
    on, `server.host.practice.Practice` takes moves back, the others only read it."""

    turn: int = 0  # the turn being played (as stored, until the game is loaded)
    state: GameState | None = None
    moves: list[str] = field(default_factory=list)
    log: deque[LoggedTurn] = field(default_factory=lambda: deque(maxlen=LOG_SENT))
