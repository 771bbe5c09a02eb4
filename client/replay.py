"""A game replayed from its record (docs/records.md), turn by turn, for the replay viewer.

Pure, no Textual: `Replay.of(record)` plays the record's moves with the engine and
keeps the table before the first turn and after each one; the viewer
(`client.screens.replay`) shows them. Once the game is over every card is named,
the blind reserves too: R9 hides them only while the game is played. A record of a
game not over is seen as a spectator sees it (a server never gives one out: its
seed would tell the decks).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.deal import new_game
from shared.gamerecord import Record, replay_steps
from shared.players import bot_level, player_named
from shared.protocol import LoggedTurn, SeatSummary
from shared.state import GameState
from shared.view import PlayerView, ended_turn

from .model import Seat, seats_from


@dataclass(frozen=True)
class Replay:
    """A record played out: `positions[k]` is the table after `k` turns."""

    record: Record
    positions: tuple[GameState, ...]
    log: tuple[LoggedTurn, ...]  # each turn as the move log lists it
    notes: tuple[str, ...]  # each turn's comments, " / " between two ("" for none)

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
                notes.append(" / ".join(said))
                said = []
        if not positions:  # a record of no moves: the deal
            positions.append(new_game(record.players, record.seed))
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
            name = self.record.tags.get(f"Seat{i + 1}", f"seat {i + 1}")
            level = bot_level(player_named(name))
            summaries.append(SeatSummary(None, level) if level else SeatSummary(name))
        return seats_from(summaries)

    @property
    def title(self) -> str:
        """ "game 4fa2c1" (the record of a server's game), else "a record"."""
        game = self.record.tags.get("Game")
        return f"game {game}" if game else "a record"
