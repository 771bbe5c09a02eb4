"""The club's messages: the leaderboard, a player's profile and a finished game's record
(`shared.messages` has the session's, lobby's and tables'; `shared.protocol` encodes them,
`shared.club_protocol` reads them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .i18n import Text

LEADERBOARD_PAGE = 20  # rows a leaderboard page holds
PROFILE_HISTORY = 51  # ratings a profile's course holds: the start and 50 games
PROFILE_GAMES = 20  # games a profile lists, at most


@dataclass(frozen=True, slots=True)
class Ranked:
    """A rated player (a name, or bot:LEVEL) on the leaderboard."""

    rank: int
    player: str
    rating: int  # as shown (server.store.ratings.display)
    games: int
    wins: int
    last: float  # when it last finished a rated game (seconds since the epoch)
    program: bool = False  # a program's name (a bot account): the bots' mark


@dataclass(frozen=True, slots=True)
class GameLine:
    """A finished game as a profile lists it: the profile's player sat at `seat`."""

    game: str
    players: int
    status: str  # "finished" or "abandoned"
    finished: float
    seat: int
    names: tuple[str, ...]
    scores: tuple[int, ...]  # () when abandoned
    ranks: tuple[int, ...]
    rated: bool


@dataclass(frozen=True, slots=True)
class AskLeaderboard:
    TAG: ClassVar[str] = "ask-leaderboard"
    offset: int = 0  # the first row wanted (0: the top)


@dataclass(frozen=True, slots=True)
class AskProfile:
    TAG: ClassVar[str] = "ask-profile"
    player: str  # a name, or bot:LEVEL


@dataclass(frozen=True, slots=True)
class AskRecord:
    """A finished game's record (docs/records.md), to replay it."""

    TAG: ClassVar[str] = "ask-record"
    game: str


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A page of the leaderboard from `offset`, and the asking player's own row (None for
    a guest or a player not rated yet), wherever it is."""

    TAG: ClassVar[str] = "leaderboard"
    rows: tuple[Ranked, ...]
    offset: int = 0
    me: Ranked | None = None


@dataclass(frozen=True, slots=True)
class PlayerProfile:
    """A player's page: where they stand, their rating's course (where it began, then
    after each rated game: the latest 50, oldest first), rated games and wins by player
    count (players, games, wins), and their latest games. A guest asking about themselves
    gets their session's games."""

    TAG: ClassVar[str] = "profile"
    player: str
    standing: Ranked | None
    history: tuple[int, ...] = ()
    by_players: tuple[tuple[int, int, int], ...] = ()
    recent: tuple[GameLine, ...] = ()
    tournaments: tuple[str, ...] = ()  # their latest, in words ("Club night: 2nd of 9")
    tournaments_said: tuple[Text, ...] = ()  # the same, for the client to translate


@dataclass(frozen=True, slots=True)
class GameRecordText:
    TAG: ClassVar[str] = "record"
    game: str
    text: str  # the record, as docs/records.md writes it
