"""The messages between the client app and a game host: frozen dataclasses, one vocabulary
for both sides (`shared.protocol` encodes and decodes them). Each message class has a
`TAG`, its type on the wire. Here: the session's, the lobby's and the tables'; the club's
are `shared.club_messages`, the tournaments' `shared.tourney_messages`, chat and votes
`shared.social`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from .clock import CASUAL, ClockView, TimeControl
from .club_messages import (
    AskLeaderboard,
    AskProfile,
    AskRecord,
    GameRecordText,
    Leaderboard,
    PlayerProfile,
)
from .constants import WINNING_PRESTIGE
from .i18n import Text
from .moves import Move
from .social import Absent, ChatLines, Invite, NextGame, Rematch, Say, Vote
from .tourney_messages import (
    AskTourney,
    AskTourneys,
    CreateTourney,
    EnterTourney,
    TourneyPage,
    Tourneys,
    WithdrawTourney,
)
from .view import LastTurn, PlayerView

PROTOCOL_VERSION = 3  # 2: typed messages, the version in `welcome`, turns as one list;
# 3: the host says where a session is (`Where`), and the app follows it. Added since, with
# defaults (so version 3 still: a client that does not know them reads the rest as
# before): a notice's and a bye's `said` (key and fields, `shared.said`, for the client to
# translate), `welcome`'s saved `language` and `reading`, the `language` message;
# invitations: `create`'s `invite`, the `invite` message, a table summary's `rematch`.

BOT_LEVELS = ("easy", "medium", "hard")
MAX_SEED = 1 << 63  # seeds are 0 .. 2**63-1: a signed 64-bit integer in any database
MAX_ID = 32  # characters in a table id
MAX_NAME = 64  # characters in a player's name as the host sends it
MAX_TEXT = 2000  # characters in a notice or a parting line
MAX_RECORD = 200_000  # characters in a game record (docs/records.md)
MAX_RATING = 100_000  # a rating as shown is from 0 to this (server.store.ratings.display)


class TableStatus(Enum):
    """Where a table is in its life (the host's transitions are in `server.host.seat`)."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


# -- parts of messages -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat as the lobby and the table show it: a player, a bot level, or open."""

    name: str | None = None
    bot: str | None = None
    connected: bool = True
    # The player's seat is played by a bot of this level for the rest of the game (their
    # time ran out, or the others voted while they were away).
    standin: str | None = None
    timeouts: int = 0  # times the player's clock ran out in this game
    invited: bool = False  # the seat is kept for its player until they accept (an invitation)
    program: bool = False  # the player is a program (a bot account), shown with the bots' mark

    @property
    def open(self) -> bool:
        return self.name is None and self.bot is None


@dataclass(frozen=True, slots=True)
class TableSummary:
    """A table in the lobby list; `turn` is the game's turn once it plays."""

    id: str
    host: str
    status: TableStatus
    seats: tuple[SeatSummary, ...]
    turn: int = 0
    rated: bool = False  # its game changes the players' ratings
    clock: TimeControl = CASUAL  # its time control (`shared.clock`)
    target: int = WINNING_PRESTIGE  # the prestige that ends its game (R15, `shared.settings`)
    rematch: bool = False  # a rematch: its seats are the players of the game before it


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A seat's rating after a rated game (`server.store.ratings.display`) and how it moved."""

    shown: int
    change: int


@dataclass(frozen=True, slots=True)
class LoggedTurn:
    """One turn of a game's history: who played it and what everyone saw."""

    seat: int
    turn: LastTurn


# -- host → client ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome:
    """The first message of a session: who the host takes it for, and its protocol."""

    TAG: ClassVar[str] = "welcome"
    name: str
    guest: bool = False
    protocol: int = PROTOCOL_VERSION
    language: str | None = None  # the language this player chose before (`Language`)
    reading: str | None = None  # and how its right-to-left text shows (`shared.i18n`)


@dataclass(frozen=True, slots=True)
class LobbyList:
    """Every table not finished, who is online, and the ids of the tables where this
    player holds a seat (the one it waits at, and games it can rejoin)."""

    TAG: ClassVar[str] = "lobby"
    tables: tuple[TableSummary, ...] = ()
    online: tuple[str, ...] = ()
    mine: tuple[str, ...] = ()
    to_move: tuple[str, ...] = ()  # the games among `mine` where it is this player's move

    def table(self, table_id: str) -> TableSummary | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def mine_in(self, status: TableStatus) -> list[TableSummary]:
        """The tables in `status` where this player holds a seat (an invitation too)."""
        return [t for t in self.tables if t.status is status and t.id in self.mine]

    def waiting_at(self) -> TableSummary | None:
        """The waiting table this player holds a seat at (an invitation too), if any."""
        return next(iter(self.mine_in(TableStatus.WAITING)), None)


@dataclass(frozen=True, slots=True)
class RematchOffer:
    """A rematch offered at the end of a game: the new table and its seats (a seat still
    `invited` has not accepted)."""

    table: str
    seats: tuple[SeatSummary, ...]


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """A table from one seat (`seat` None: a spectator): its seats and the view. `log`,
    on the first update a session gets for a table (and after moves were taken back),
    holds the game's turns so far, which replace the session's move log. `seed` is the
    deal's seed once the game is over, and only then: before, it would reveal the decks."""

    TAG: ClassVar[str] = "table"
    table: str
    seats: tuple[SeatSummary, ...]
    seat: int | None
    view: PlayerView
    log: tuple[LoggedTurn, ...] | None = None
    # Once a rated game is over: each seat's rating after it and how much it moved, for
    # the seats that are rated (players with a key, bots), else None.
    ratings: tuple[RatingChange | None, ...] = ()
    seed: int | None = None
    clock: ClockView | None = None  # a timed game's clocks (`shared.clock`)
    absent: tuple[Absent, ...] = ()  # a casual game's players away (a vote may follow)
    rematch: RematchOffer | None = None  # once the game is over, a rematch offered


SCREENS = ("lobby", "table")  # the main screens a session can be on (`Where.screen`)


@dataclass(frozen=True, slots=True)
class Where:
    """Where the host has this session now: the screen it shows (the lobby, or a table),
    the table it is at (None: none; at the lobby screen, a waiting table it sits at) and
    its seat there (None: watching). The app changes its main screen on this message
    alone, so a player always sees the screen the host thinks they are on."""

    TAG: ClassVar[str] = "where"
    screen: str = "lobby"
    table: str | None = None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A line for one session: a refusal and its reason ("error"), or news ("info"; "call":
    news with the bell, such as a tournament's table ready)."""

    TAG: ClassVar[str] = "notice"
    text: str  # in English
    level: str = "error"
    said: Text | None = None  # the same, for the client to translate (`shared.i18n`)


@dataclass(frozen=True, slots=True)
class Advice:
    """The answer to `Hint`: the move the medium bot would play from the player's seat,
    and why, in a sentence."""

    TAG: ClassVar[str] = "advice"
    move: Move
    reason: str  # in English
    said: Text | None = None  # the same, for the client to translate (`shared.i18n`)


@dataclass(frozen=True, slots=True)
class Bye:
    """The host is closing this session; `text` says why."""

    TAG: ClassVar[str] = "bye"
    text: str  # in English
    said: Text | None = None  # the same, for the client to translate


# -- client → host ---------------------------------------------------------------


SUBSYSTEM = "splendor"  # the SSH subsystem a program opens to speak this protocol
MAX_VERSIONS = 16  # versions a `Hello` may offer


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message on the `splendor` SSH subsystem (docs/protocol.md): the protocol
    versions the client speaks. The host answers `Welcome` with the version chosen, or
    `Bye` saying why not. `client` names the program, for the host's log."""

    TAG: ClassVar[str] = "hello"
    versions: tuple[int, ...] = (PROTOCOL_VERSION,)
    client: str = ""


@dataclass(frozen=True, slots=True)
class Create:
    """A new table: `bots` has one level or None (an open seat) per seat; seat 0 is the
    creator's. `invite`, empty or one name or None per seat: a seat held for the player
    named (docs/protocol.md, "Invitations"), whose `bots` entry is None. `seed` is honoured
    only by a host that lets players choose the deal (offline play): on a server, a player
    who chose the seed would know the decks."""

    TAG: ClassVar[str] = "create"
    seats: int
    bots: tuple[str | None, ...]
    seed: int | None = None
    rated: bool = False  # the game will change the players' ratings
    clock: TimeControl = CASUAL  # its time control (`shared.clock`)
    patience: int = 10  # minutes a player may be away before the others may vote
    target: int = WINNING_PRESTIGE  # R15: one of `shared.settings.TARGETS`
    invite: tuple[str | None, ...] = ()  # seats held for players by name


@dataclass(frozen=True, slots=True)
class Quick:
    """Sit at once against bots of one level; `seed` as for `Create`."""

    TAG: ClassVar[str] = "quick"
    players: int = 2
    level: str = "medium"
    seed: int | None = None
    rated: bool = False
    clock: TimeControl = CASUAL
    target: int = WINNING_PRESTIGE  # R15: one of `shared.settings.TARGETS`


@dataclass(frozen=True, slots=True)
class Join:
    TAG: ClassVar[str] = "join"
    table: str


@dataclass(frozen=True, slots=True)
class Watch:
    TAG: ClassVar[str] = "watch"
    table: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Give up the seat of the table shown; in the lobby, decline an invitation (`table`:
    the one to decline, else the first; a player waiting at a table of their own names it)."""

    TAG: ClassVar[str] = "leave"
    table: str | None = None


@dataclass(frozen=True, slots=True)
class ToLobby:
    """Back to the lobby from a table, keeping the seat (a game goes on without its player
    looking; a waiting table keeps the seat too). `Leave` gives the seat up."""

    TAG: ClassVar[str] = "to_lobby"


@dataclass(frozen=True, slots=True)
class Start:
    TAG: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class PlayMove:
    TAG: ClassVar[str] = "move"
    move: Move


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back this player's last move, and the bots' moves after it: the player is back
    at their previous decision. Only a host that allows it (offline play) does it."""

    TAG: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Hint:
    """Ask what the medium bot would play from this player's seat now, and why (`Advice`).
    Only a host that allows it (offline play) answers."""

    TAG: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class Language:
    """The player chose the language they read (`shared.i18n.LANGUAGES`): the host keeps
    it with their name's key (a guest's for the session) and says it in `Welcome`."""

    TAG: ClassVar[str] = "language"
    language: str
    reading: str | None = None  # visual or logical: a right-to-left language's way of showing


HostMessage = (
    Welcome
    | LobbyList
    | TableUpdate
    | Where
    | Notice
    | Advice
    | Bye
    | Leaderboard
    | PlayerProfile
    | GameRecordText
    | ChatLines
    | Tourneys
    | TourneyPage
)
ClientMessage = (
    Hello
    | Create
    | Quick
    | Join
    | Watch
    | Leave
    | ToLobby
    | Start
    | PlayMove
    | Undo
    | Hint
    | AskLeaderboard
    | AskProfile
    | AskRecord
    | Say
    | Vote
    | Rematch
    | Invite
    | NextGame
    | Language
    | AskTourneys
    | AskTourney
    | EnterTourney
    | WithdrawTourney
    | CreateTourney
)
Message = HostMessage | ClientMessage
