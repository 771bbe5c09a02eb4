"""The table's clocks and company: each player's clock in their panel, counting down once a
second on this side only; the table's chat beside the moves and its news among them; a
vote offered on a player away longer than the table's patience; the rematch offered at
the end; the bell when it becomes the player's turn.

The host sends each seat's time left with every view (`shared.clock.ClockView`) and
nothing in between: the running clock is counted down here, from the moment the view
arrived, by a timer set for when the shown time next changes (`shared.clock.next_change`),
which repaints the one line of the one panel whose clock it is.

`Company` is one part of the table screen (`client.screens.table`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Protocol

from textual.timer import Timer

from shared.clock import ClockView, format_left, next_change
from shared.i18n import _
from shared.protocol import (
    Absent,
    ClientMessage,
    NextGame,
    Rematch,
    RematchOffer,
    Say,
    TableUpdate,
    Vote,
)
from shared.social import ChatLine
from shared.view import PlayerView

from ..table_state import TableState
from ..talk import Talk
from ..widgets.movelog import Notes
from ..widgets.players import NO_CLOCK, Clock, PlayerFace

LOW = 20.0  # seconds: a real-time clock this low shows red
RUNNING, IDLE, SHORT = "bold #ffffff", "#8a8f98", "bold #ff6b5f"


class Club(Protocol):
    """What the company asks of the app: the player, the chat heard, the host, the bell."""

    player_name: str
    talk: Talk

    def send(self, msg: ClientMessage) -> None: ...

    def bell(self) -> None: ...


class CompanyScreen(Protocol):
    """What the company asks of the table screen: say things and draw its parts again."""

    def say(self, text: str | None, kind: str = "") -> None: ...

    def refuse(self, reason: str) -> None: ...

    def draw_prompt(self) -> None: ...

    def draw_moves(self) -> None:
        """The move log, its notes and the chat beside it."""

    def draw_clocks(self) -> None:
        """The players' panels with the clocks as they read now."""


Timers = Callable[[float, Callable[[], None]], Timer]


class TableCompany:
    """The table's clocks, chat, news, votes, rematches and bell (see the module docstring)."""

    def __init__(self, state: TableState, club: Club, table: CompanyScreen, timers: Timers) -> None:
        self.state, self.club, self.table, self.timers = state, club, table, timers
        self.clock: ClockView | None = None
        self.clock_at = 0.0  # when the clock view arrived (time.monotonic)
        self.absent: tuple[Absent, ...] = ()
        self.absent_at = 0.0
        self.rematch: RematchOffer | None = None
        self._tick: Timer | None = None
        self._absence: Timer | None = None

    def take(self, msg: TableUpdate) -> bool:
        """A table update's clocks, absences and rematch offer; True if the offer
        changed (the prompt follows it)."""
        self.clock, self.clock_at = msg.clock, time.monotonic()
        self.absent, self.absent_at = msg.absent, self.clock_at
        changed = msg.rematch != self.rematch
        self.rematch = msg.rematch
        return changed

    def shown(self, previous: PlayerView | None) -> None:
        """The update is drawn: ring if it became this player's turn, set the timers."""
        if self.state.my_move and previous is not None and not previous.my_turn:
            if self.club.talk.bell:
                self.club.bell()
        self.set_timers()

    def stop(self) -> None:
        for timer in (self._tick, self._absence):
            if timer is not None:
                timer.stop()

    # -- clocks ------------------------------------------------------------------

    def clocks(self, faces: tuple[PlayerFace, ...]) -> tuple[Clock, ...]:
        """Each panel's clock as shown now (in the panels' order)."""
        clock = self.clock
        if clock is None:
            return ()
        elapsed = time.monotonic() - self.clock_at
        out = []
        for face in faces:
            seat = face.info.seat
            left = clock.left[seat] if seat < len(clock.left) else None
            if face.standin or left is None:
                out.append(NO_CLOCK)
                continue
            running = seat == clock.running
            if running:
                left -= elapsed
            short = running and clock.control.realtime and left < LOW
            out.append((format_left(left), SHORT if short else RUNNING if running else IDLE))
        return tuple(out)

    def set_timers(self) -> None:
        """The next tick of the running clock, and the moment an absence allows a vote."""
        if self._tick is not None:
            self._tick.stop()
            self._tick = None
        clock = self.clock
        if clock is not None and clock.running is not None:
            left = clock.left[clock.running]
            if left is not None:
                delay = next_change(left - (time.monotonic() - self.clock_at))
                if math.isfinite(delay):
                    self._tick = self.timers(delay + 0.005, self._ticked)
        if self._absence is not None:
            self._absence.stop()
            self._absence = None
        waits = [a.patience - a.away for a in self.absent if a.patience > a.away]
        if waits:
            self._absence = self.timers(min(waits) + 0.05, self.table.draw_moves)

    def _ticked(self) -> None:
        """The running clock's shown time changed: its panel's line, and the next tick."""
        self._tick = None
        if self.state.view is not None:
            self.table.draw_clocks()
            self.set_timers()

    # -- chat and news -------------------------------------------------------------

    def chat(self) -> tuple[ChatLine, ...]:
        """This table's chat as shown beside the moves (without the names muted)."""
        return tuple(self.club.talk.lines(self.state.table_id))

    def say(self, text: str) -> None:
        """Enter on the chat line: a `/` command is this player's own, else it is said."""
        if text.startswith("/"):
            self.table.say(self.club.talk.command(text))
            self.table.draw_moves()  # a name muted or unmuted
            self.table.draw_prompt()
        elif text:
            self.club.send(Say(text))

    def tell(self, text: str) -> None:
        """News about the table (a time-out, a bot standing in, a vote) in the move log,
        where it stays."""
        if self.state.view is not None:
            self.state.history.tell(self.state.view.turn, text)
            self.table.draw_moves()

    # -- votes and rematches ---------------------------------------------------------

    def offer_rematch(self) -> None:
        self.club.send(Rematch())
        self.table.say(_("a rematch: the same players, seats turned…"))
        self.table.draw_prompt()

    def next_game(self) -> None:
        self.club.send(NextGame())

    def vote(self) -> None:
        """Vote on the first absent player this player has not voted on yet."""
        me = self.club.player_name
        votes = [a for a in self.votable() if me not in a.votes]
        if not votes:
            self.table.refuse(
                _("no vote now: nobody has been away longer than the table's patience")
            )
            return
        self.club.send(Vote(votes[0].seat))
        self.table.say(
            _("you voted to hand {name}'s seat to a bot", name=self.state.name(votes[0].seat))
        )
        self.table.draw_prompt()

    def votable(self) -> list[Absent]:
        """The players away longer than the table's patience, whom this player may vote on."""
        if self.state.playing_seat is None:
            return []
        elapsed = time.monotonic() - self.absent_at
        return [a for a in self.absent if a.away + elapsed >= a.patience]

    def notes(self) -> Notes:
        """Lines above the moves: the absent players one may vote on."""
        out = []
        me = self.club.player_name
        for a in self.votable():
            minutes = max(1, round((a.away + time.monotonic() - self.absent_at) / 60))
            votes = _(" (voted: {names})", names=", ".join(a.votes)) if a.votes else ""
            what = _("you voted") if me in a.votes else _("v votes to hand the seat to a bot")
            text = _(
                "{name} away {minutes} min: {what}{votes}",
                name=self.state.name(a.seat),
                minutes=minutes,
                what=what,
                votes=votes,
            )
            out.append((text, "bold #d8b4fe"))
        return tuple(out)

    def over_text(self) -> str | None:
        """The prompt once the game is over, if a rematch is offered."""
        offer = self.rematch
        if offer is None:
            return None
        me = self.club.player_name
        mine = next((s for s in offer.seats if s.name == me), None)
        waiting = [s.name for s in offer.seats if s.invited and s.name]
        if mine is not None and mine.invited:
            return _(
                "A rematch is offered at table {table} (seats turned): r accepts", table=offer.table
            )
        if waiting:
            return _(
                "Rematch at table {table}: waiting for {names}",
                table=offer.table,
                names=", ".join(waiting),
            )
        return _("Rematch at table {table}: starting", table=offer.table)
