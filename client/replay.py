"""A game replayed from its record (docs/records.md), turn by turn, for the replay viewer.

Pure, no Textual: `Replay.of(record)` plays the record's moves with the engine and
keeps the table before the first turn and after each one; the viewer
(`client.screens.replay`) shows them. Once the game is over every card is named,
the blind reserves too: R9 hides them only while the game is played. A record of a
game not over is seen as a spectator sees it (a server never gives one out: its
seed would tell the decks).

A record is a file anyone may have written: its tags and comments are shown only as
`shared.text.safe_text` leaves them (no escape sequence, control or bidirectional
override reaches the terminal); the `Record` itself keeps them as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.gamerecord import Record, replay_record, replay_steps
from shared.i18n import _
from shared.messages import MAX_ID, MAX_NAME
from shared.players import bot_level, player_named
from shared.protocol import LoggedTurn, SeatSummary
from shared.state import GameState
from shared.text import safe_text
from shared.view import PlayerView, ended_turn

from .model import Seat, seats_from

MAX_NOTE = 1000  # characters of a turn's comments shown


@dataclass(frozen=True)
class Replay:
    """A record played out: `positions[k]` is the table after `k` turns."""

    record: Record
    positions: tuple[GameState, ...]
    log: tuple[LoggedTurn, ...]  # each turn as the move log lists it
    notes: tuple[str, ...]  # each turn's comments, " / " between two, as shown ("" for none)

    @classmethod
    def of(cls, record: Record) -> Replay:
        """`RecordError` (naming the turn) if a move of the record is not legal."""
        positions: list[GameState] = []
        log: list[LoggedTurn] = []
        notes: list[str] = []
        said: list[str] = []  # the comments of the turn being played (action, return)
        for i, before, after in replay_steps(record):
            if not positions:
                positions.append(before)
            said.extend(record.comments.get(i, ()))
            turn = ended_turn(before, after)
            if turn is not None:
                positions.append(after)
                log.append(LoggedTurn(before.current_player, turn))
                notes.append(safe_text(" / ".join(said), MAX_NOTE))
                said = []
        if not positions:  # a record of no moves: the deal, of the record's settings
            positions.append(replay_record(record))
        return cls(record, tuple(positions), tuple(log), tuple(notes))

    @property
    def turns(self) -> int:
        return len(self.log)

    @property
    def over(self) -> bool:
        """The game ended: by the rules, or abandoned (a `Termination` tag): its record
        says it all, so nothing is hidden any more."""
        return self.positions[-1].is_over or "Termination" in self.record.tags

    def view(self, k: int) -> PlayerView:
        """The table after `k` turns, as a spectator sees it, every card named once the
        game is over."""
        return self.positions[k].view(None, reveal=self.over)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as the record's `SeatN` tags name them ("hard bot" is a bot)."""
        summaries = []
        for i in range(self.record.players):
            name = safe_text(self.record.tags.get(f"Seat{i + 1}", ""), MAX_NAME) or f"seat {i + 1}"
            level = bot_level(player_named(name))
            summaries.append(SeatSummary(None, level) if level else SeatSummary(name))
        return seats_from(summaries)

    @property
    def game(self) -> str:
        """The record's `Game` tag as it may be shown ("" for none)."""
        return safe_text(self.record.tags.get("Game", ""), MAX_ID)

    @property
    def title(self) -> str:
        """ "game 4fa2c1" (the record of a server's game), else "a record"."""
        return _("game {game}", game=self.game) if self.game else _("a record")
