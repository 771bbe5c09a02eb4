"""Looking around the table: the cursor on the board, among the players' reserved cards
and along the move log (Tab goes from one to the next), and what each place shows.
"""

from __future__ import annotations

from .. import faces
from .move_line import MoveLine
from .table_view import BOARD, MOVES, PLAYERS

AREAS = (BOARD, PLAYERS, MOVES)


class Looking(MoveLine):
    """The table's cursor keys (the other keys are `client.screens.table.TableScreen`'s)."""

    def _moved(self, everywhere: bool = False) -> None:
        """The cursor moved (`everywhere`: from one area to another): a refusal or a card
        looked up no longer applies; only the area it moves in is drawn again."""
        self.looked = None
        if self.message and self.message[1] == "error":
            self.message = None
        self._board()
        if everywhere or self.area == PLAYERS:
            self._players()
        if everywhere or self.area == MOVES:
            self._moves()
        self._prompt()

    def action_cursor(self, dr: int, dc: int) -> None:
        view = self.view
        if view is None:
            return
        if self.area == PLAYERS:
            self.pcursor = faces.player_step(view, self.pcursor, dr, dc)
        elif self.area == MOVES:
            self.log_at = max(0, min(len(self.entries) - 1, self.log_at + dr + dc))
        else:
            self.cursor = faces.board_step(view, self.cursor, dr, dc)
        self._moved()

    def action_area(self, step: int) -> None:
        """Tab: the cursor goes to the players, then the moves, then the board."""
        self.area = AREAS[(AREAS.index(self.area) + step) % len(AREAS)]
        if self.area == MOVES:
            self.log_at = max(0, len(self.entries) - 1)
        self._moved(everywhere=True)

    def action_page(self, pages: int) -> None:
        if self.area != MOVES:
            if abs(pages) >= 1000:
                return  # Home and End mean something only in the moves
            self.area = MOVES
            self.log_at = max(0, len(self.entries) - 1)
        room = max(1, self.move_log.content_size.height - 2)
        self.log_at = max(0, min(len(self.entries) - 1, self.log_at + pages * room))
        self._moved(everywhere=True)
