"""The table's clocks and company: each player's clock in their panel, counting down once a
second on this side only; the table's chat and news in the move log; a vote offered on a
player away longer than the table's patience; the rematch offered at the end; the bell
when it becomes the player's turn.

The host sends each seat's time left with every view (`shared.clock.ClockView`) and
nothing in between: the running clock is counted down here, from the moment the view
arrived, by a timer set for when the shown time next changes (`shared.clock.next_change`),
which repaints the one line of the one panel whose clock it is.
"""

from __future__ import annotations

import math
import time

from textual.timer import Timer

from shared.clock import ClockView, format_left, next_change
from shared.protocol import Absent, NextGame, Rematch, RematchOffer, TableUpdate, Vote
from shared.view import PlayerView

from ..talk import chat_text
from ..widgets.movelog import Notes
from ..widgets.players import NO_CLOCK, Clock, PlayerFace
from .table_view import TableView

LOW = 20.0  # seconds: a real-time clock this low shows red
RUNNING, IDLE, SHORT = "bold #ffffff", "#8a8f98", "bold #ff6b5f"


class TableCompany(TableView):
    """The table with its clocks, chat, votes, rematches and bell (see the module docstring)."""

    clock: ClockView | None = None
    clock_at = 0.0  # when the clock view arrived (time.monotonic)
    absent: tuple[Absent, ...] = ()
    absent_at = 0.0
    rematch: RematchOffer | None = None
    _faces: tuple[PlayerFace, ...] = ()
    _tick: Timer | None = None
    _absence: Timer | None = None

    def show(self, msg: TableUpdate) -> None:
        previous = self.view
        self.clock, self.clock_at = msg.clock, time.monotonic()
        self.absent, self.absent_at = msg.absent, self.clock_at
        if msg.rematch != self.rematch:
            self.message = None  # the prompt follows the offer
        self.rematch = msg.rematch
        super().show(msg)
        if self.is_mounted:
            self._ring(previous)
            self._set_timers()

    def _ring(self, previous: PlayerView | None) -> None:
        """The bell, when it has just become this player's turn (not a bot's for them)."""
        view = self.view
        mine = view is not None and view.my_turn and self.playing_seat is not None
        if mine and previous is not None and not previous.my_turn and self.splendor.talk.bell:
            self.app.bell()

    def on_unmount(self) -> None:
        for timer in (self._tick, self._absence):
            if timer is not None:
                timer.stop()

    # -- clocks ------------------------------------------------------------------

    def _players(self) -> None:
        assert self.view is not None
        self._faces = self.player_faces()
        self._show_players()

    def _show_players(self) -> None:
        cursor = self.pcursor if self.area == "players" else None
        self.players.show(self._faces, cursor, self._clocks())

    def _clocks(self) -> tuple[Clock, ...]:
        """Each panel's clock as shown now (in the panels' order)."""
        clock = self.clock
        if clock is None:
            return ()
        elapsed = time.monotonic() - self.clock_at
        out = []
        for face in self._faces:
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

    def _set_timers(self) -> None:
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
                    self._tick = self.set_timer(delay + 0.005, self._ticked)
        if self._absence is not None:
            self._absence.stop()
            self._absence = None
        waits = [a.patience - a.away for a in self.absent if a.patience > a.away]
        if waits:
            self._absence = self.set_timer(min(waits) + 0.05, self._moves)

    def _ticked(self) -> None:
        """The running clock's shown time changed: its panel's line, and the next tick."""
        self._tick = None
        if self.view is not None and self.is_mounted:
            self._show_players()
            self._set_timers()

    # -- chat and news -------------------------------------------------------------

    def show_chat(self, where: str) -> None:
        """The app has this table's chat (or the lobby's: nothing to show here)."""
        if where != self.table_id:
            return
        self.history.talk(self.splendor.talk.lines(where), chat_text)
        if self.view is not None and self.is_mounted:
            self._moves()

    def show_notice(self, text: str, level: str) -> None:
        """A notice: on the prompt; news about the table (a time-out, a bot standing in, a
        vote) goes in the move log too, where it stays."""
        if level == "info" and self.view is not None:
            self.history.tell(self.view.turn, text)
            if self.is_mounted:
                self._moves()
        super().show_notice(text, level)

    # -- votes and rematches ---------------------------------------------------------

    def action_rematch(self) -> None:
        self.splendor.send(Rematch())
        self.message = ("a rematch: the same players, seats turned…", "")
        self._prompt()

    def action_next_game(self) -> None:
        self.splendor.send(NextGame())

    def action_vote(self) -> None:
        """Vote on the first absent player this player has not voted on yet."""
        me = self.splendor.player_name
        votes = [a for a in self.votable() if me not in a.votes]
        if not votes:
            self._refuse("no vote now: nobody has been away longer than the table's patience")
            return
        self.splendor.send(Vote(votes[0].seat))
        self.message = (f"you voted to hand {self.names[votes[0].seat]}'s seat to a bot", "")
        self._prompt()

    def _refuse(self, reason: str) -> None:
        raise NotImplementedError  # `TableScreen`'s

    def votable(self) -> list[Absent]:
        """The players away longer than the table's patience, whom this player may vote on."""
        if self.playing_seat is None:
            return []
        elapsed = time.monotonic() - self.absent_at
        return [a for a in self.absent if a.away + elapsed >= a.patience]

    def table_notes(self) -> Notes:
        out = []
        me = self.splendor.player_name
        for a in self.votable():
            name = self.names[a.seat] if a.seat < len(self.names) else f"Seat {a.seat + 1}"
            minutes = max(1, round((a.away + time.monotonic() - self.absent_at) / 60))
            votes = f" (voted: {', '.join(a.votes)})" if a.votes else ""
            what = "you voted" if me in a.votes else "v votes to hand the seat to a bot"
            out.append((f"{name} away {minutes} min: {what}{votes}", "bold #d8b4fe"))
        return tuple(out)

    def over_text(self) -> str:
        offer = self.rematch
        if offer is None:
            return super().over_text()
        me = self.splendor.player_name
        mine = next((s for s in offer.seats if s.name == me), None)
        waiting = [s.name for s in offer.seats if s.invited and s.name]
        if mine is not None and mine.invited:
            return f"A rematch is offered at table {offer.table} (seats turned): r accepts"
        if waiting:
            return f"Rematch at table {offer.table}: waiting for {', '.join(waiting)}"
        return f"Rematch at table {offer.table}: starting"
