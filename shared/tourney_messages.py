"""The messages of club tournaments (docs/tournaments.md): the list, one tournament's
page, entering and withdrawing (`shared.messages` has the rest; `shared.protocol`
encodes them, `shared.tourney_protocol` reads them off the wire)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .i18n import Text

MAX_TOURNEYS = 100  # tournaments in the list
MAX_ROWS = 256  # players on a page
MAX_TABLES = 512  # tables on a page (every round's)
MAX_WORDS = 200  # characters of a short text (a name, a description, a path)


@dataclass(frozen=True, slots=True)
class TourneyLine:
    """A tournament as the list shows it: its id, name, format in words, status (open,
    running, finished, cancelled), entrants, the round it is at, whether the asking
    player is in it, and when it starts (words)."""

    id: str
    name: str
    format: str
    status: str
    entrants: int
    round: int
    entered: bool = False
    starts: str = "-"
    # the same words for the client to translate (issue 34; English above, for any client)
    format_said: Text | None = None
    starts_said: Text | None = None


@dataclass(frozen=True, slots=True)
class TourneyRow:
    """A player's line of the standings, and their path (each round: where they ranked,
    at which table, or a bye)."""

    rank: int
    name: str
    points: str  # as people read them: 2, 2.5, 1.67
    buchholz: str
    wins: int
    games: int
    path: str
    out: bool = False  # withdrawn, or knocked out
    path_said: tuple[Text, ...] = ()  # the path's steps, for the client to translate


@dataclass(frozen=True, slots=True)
class TourneyTable:
    """One table of a round: its game's id, the round (from 1), its players in seat order,
    its state (playing: watchable; over or abandoned: replayable) and its result."""

    game: str
    round: int
    names: tuple[str, ...]
    state: str
    result: str = "-"


@dataclass(frozen=True, slots=True)
class Tourneys:
    """The tournaments list: open and running ones first, then the latest finished."""

    TAG: ClassVar[str] = "tourneys"
    items: tuple[TourneyLine, ...] = ()


@dataclass(frozen=True, slots=True)
class TourneyPage:
    """One tournament: what it is, its standings, and every round's tables."""

    TAG: ClassVar[str] = "tourney"
    line: TourneyLine
    about: str  # its tables' settings, in words
    rows: tuple[TourneyRow, ...] = ()
    tables: tuple[TourneyTable, ...] = ()
    about_said: Text | None = None  # `about` for the client to translate (issue 34)


@dataclass(frozen=True, slots=True)
class AskTourneys:
    TAG: ClassVar[str] = "ask-tourneys"


@dataclass(frozen=True, slots=True)
class AskTourney:
    TAG: ClassVar[str] = "ask-tourney"
    id: str


@dataclass(frozen=True, slots=True)
class EnterTourney:
    """Enter an open tournament (then its page comes again)."""

    TAG: ClassVar[str] = "enter-tourney"
    id: str


@dataclass(frozen=True, slots=True)
class WithdrawTourney:
    """Leave a tournament: before it begins the entry goes; after, no more rounds."""

    TAG: ClassVar[str] = "withdraw-tourney"
    id: str


@dataclass(frozen=True, slots=True)
class CreateTourney:
    """Announce a tournament (where the host lets players: a server setting): its name,
    format (swiss, round-robin, knockout), a Swiss's rounds, players a table, its tables'
    clock (`shared.clock` notation), rating and target (R15), the entrants it starts at,
    whether bot levels may enter, the most entrants, and in how many minutes it starts.
    Its page comes back."""

    TAG: ClassVar[str] = "create-tourney"
    name: str
    format: str = "swiss"
    rounds: int = 4
    seats: int = 2
    clock: str = "none"
    rated: bool = False
    target: int = 15
    start_players: int = 8
    bots: bool = False
    most: int = 64  # the most entrants it takes
    start_in: int = 0  # minutes from now it starts even if fewer came (0: no time)


TOURNEY_PARTS = (TourneyLine, TourneyRow, TourneyTable)
TOURNEY_QUESTIONS = (AskTourneys, AskTourney, EnterTourney, WithdrawTourney, CreateTourney)
TourneyQuestion = AskTourneys | AskTourney | EnterTourney | WithdrawTourney | CreateTourney
