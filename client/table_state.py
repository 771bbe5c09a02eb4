"""What a session knows of one table, from the host's table updates (pure, no Textual).

The table screen and the replay viewer both draw a `TableState`: the seats, the view
of this seat (or of none), the one before it, the move log, and once a game is over
its seed and rating changes. The screen's parts (the cursor, the move being chosen,
the company) read it; only `TableState.take` writes it, from one update.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.i18n import _
from shared.moves import Move
from shared.protocol import RatingChange, TableUpdate
from shared.view import PlayerView

from . import model
from .history import History
from .model import Seat
from .widgets.movelog import LogEntry


def moment(view: PlayerView) -> tuple[int, str, bool]:
    """When a choice in progress stops making sense: a new turn, phase, or the end."""
    return view.turn, view.phase, view.is_over


@dataclass(frozen=True, slots=True)
class Change:
    """What an update changed, for the parts that keep a choice: a new moment (the turn,
    the phase, the end), the first view of the table, or moves taken back."""

    new_moment: bool
    first: bool
    taken_back: bool


@dataclass
class TableState:
    """One table seen from `seat` (None: watching, or a replay)."""

    table_id: str
    seat: int | None
    view: PlayerView | None = None
    previous: PlayerView | None = None
    seats: tuple[Seat, ...] = ()
    seed: int | None = None  # the deal, once the game is over
    ended: str = ""  # why a game that is not over ended all the same (abandoned)
    ratings: tuple[RatingChange | None, ...] = ()  # after a rated game, per seat
    history: History = field(default_factory=History)
    advice: tuple[Move, str] | None = None  # the latest hint (offline)

    def take(self, msg: TableUpdate) -> Change:
        """A table update: the seats, this seat and its view, and the log."""
        view, previous = msg.view, self.view
        self.seats = model.seats_from(msg.seats)
        self.seat = msg.seat
        if msg.seed is not None:
            self.seed = msg.seed
        if msg.ratings:
            self.ratings = msg.ratings
        if msg.log is not None:  # the whole log: a first update, or moves taken back
            self.history.replace(msg.log, self.seat, self.names, view.num_players)
        else:
            self.history.follow(previous, view, self.seat, self.names)
        # A whole log that goes back in the game (a log at the same moment or later is a
        # session come back, `splendor connect` reconnecting: nothing was taken back).
        taken_back = (
            msg.log is not None and previous is not None and moment(view) < moment(previous)
        )
        first = previous is None
        new = previous is None or taken_back or moment(view) != moment(previous)
        if new:
            self.advice = None
        self.view, self.previous = view, previous
        return Change(new, first, taken_back)

    def end(self, why: str) -> bool:
        """The game ended without being over (the host left it: abandoned); False if
        that changes nothing."""
        if self.view is None or self.view.is_over or self.ended:
            return False
        self.ended = why
        return True

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def playing_seat(self) -> int | None:
        """The viewer's seat if they play it (not when a bot stands in for them)."""
        seat = self.seat
        if seat is None or (seat < len(self.seats) and self.seats[seat].standin):
            return None
        return seat

    @property
    def in_game(self) -> bool:
        return self.seat is not None and self.view is not None and not self.view.is_over

    @property
    def my_move(self) -> bool:
        """This player is to move, and plays the seat themselves."""
        view = self.view
        return view is not None and view.my_turn and self.playing_seat is not None

    @property
    def entries(self) -> list[LogEntry]:
        return self.history.entries

    def name(self, seat: int) -> str:
        """A seat's name, as the table shows it (seats count from 1)."""
        return self.seats[seat].name if seat < len(self.seats) else _("Seat {seat}", seat=seat + 1)
