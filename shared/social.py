"""The messages of company at the tables: chat, the vote on an absent player, rematches,
invitations and going from game to game (`shared.messages` has the rest;
`shared.protocol` encodes them).

Chat text is always clean (`shared.chat`); who said a line is the host's to say, never
the sender's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

LOBBY = ""  # where a chat line was said: the lobby, else a table's id


# -- parts of messages -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of chat: its id (for an admin to remove it), who said it, and for a table,
    the game's turn then (it shows after the turns before it). A spectator's line at a
    game in progress reaches only the spectators until the game ends."""

    id: int
    name: str
    text: str
    turn: int = 0
    spectator: bool = False


@dataclass(frozen=True, slots=True)
class Absent:
    """A player who is away from a game without a clock: for how long (seconds, as of the
    view's sending), how long the table waits before a vote (its patience), and who has
    voted to hand the seat to a bot so far."""

    seat: int
    away: float
    patience: float
    votes: tuple[str, ...] = ()


# -- host → client ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChatLines:
    """Chat for the lobby (`where` is `LOBBY`) or a table: `lines`, oldest first, either
    all there is to show (`whole`: on arriving, after a line was removed, when a game's
    spectators' lines become everyone's) or lines to add."""

    TAG: ClassVar[str] = "chat"
    where: str
    lines: tuple[ChatLine, ...]
    whole: bool = False


# -- client → host ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Say:
    """A line of chat, to the lobby or to the table the session is at."""

    TAG: ClassVar[str] = "say"
    text: str


@dataclass(frozen=True, slots=True)
class Vote:
    """Vote to hand `seat`, whose player has been away longer than the table's patience,
    to a bot for the rest of the game (a game without a clock; all present players must
    agree)."""

    TAG: ClassVar[str] = "vote"
    seat: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """At a finished game: offer its players a new table, seats rotated, or accept the
    offer. It starts once every player has accepted (bots accept at once)."""

    TAG: ClassVar[str] = "rematch"


@dataclass(frozen=True, slots=True)
class Invite:
    """At the waiting table this session hosts: hold a seat for the player `name` (`seat`,
    from 0, or the first open one). A seat held for another invitee goes to this one, which
    calls the other's invitation off. The invitee accepts with `Join` of the table, or
    declines with `Leave` from the lobby."""

    TAG: ClassVar[str] = "invite"
    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class NextGame:
    """Go to the next table where it is this player's move (their seat here is kept, not
    left); with none, to the lobby."""

    TAG: ClassVar[str] = "next-game"
