"""Looking around the table: the cursor on the board, among the players' reserved cards
and along the move log (Tab goes from one to the next), and what each place points at.

`Looking` is one part of the table screen (`client.screens.table`): it keeps where the
cursor is and moves it; the screen draws what changed. It reads the table's state and
the board's faces (`Board`: what is on a square), nothing else.
"""

from __future__ import annotations

from typing import Any, Protocol

from shared.view import PlayerInfo

from .. import faces
from ..table_state import TableState
from ..widgets.tiles import DECK, CardFace, PileFace

BOARD, PLAYERS, MOVES = "board", "players", "moves"  # where the cursor is
AREAS = (BOARD, PLAYERS, MOVES)


class Squares(Protocol):
    """What is drawn on the board, square by square (the table's drawing)."""

    def square(self, r: int, c: int) -> CardFace | PileFace: ...


class Looking:
    """Where the cursor is: `area`, and in it `cursor` (board), `pcursor` (players:
    panel, reserved card) or `log_at` (moves); `looked`: a card id typed on the move
    line, shown beside the hand."""

    def __init__(self, state: TableState, squares: Squares) -> None:
        self.state = state
        self.squares = squares
        self.area = BOARD
        self.cursor = (3, 1)  # on the board: (row, column), `faces` numbers the rows
        self.pcursor = (0, 0)  # among the players: (panel, reserved card)
        self.log_at = 0  # among the moves: an entry
        self.looked: str | None = None

    @property
    def elsewhere(self) -> bool:
        """Off the board: among the players or the moves (look mode's keys)."""
        return self.area != BOARD

    # -- moving --------------------------------------------------------------------

    def start(self) -> None:
        """A first view (or one after moves were taken back): the cursor on a card the
        player can buy."""
        assert self.state.view is not None
        self.cursor = faces.first_row_col(self.state.view)

    def step(self, dr: int, dc: int) -> None:
        view = self.state.view
        if view is None:
            return
        if self.area == PLAYERS:
            self.pcursor = faces.player_step(view, self.pcursor, dr, dc)
        elif self.area == MOVES:
            last = len(self.state.entries) - 1
            self.log_at = max(0, min(last, self.log_at + dr + dc))
        else:
            self.cursor = faces.board_step(view, self.cursor, dr, dc)

    def next_area(self, step: int) -> None:
        """Tab: to the players, then the moves, then the board."""
        self.area = AREAS[(AREAS.index(self.area) + step) % len(AREAS)]
        if self.area == MOVES:
            self.log_at = max(0, len(self.state.entries) - 1)

    def page(self, pages: int, room: int) -> bool:
        """PgUp PgDn Home End: along the moves, `room` entries a page (from elsewhere: to
        the newest first); False when there is nothing to do (Home or End elsewhere)."""
        last = len(self.state.entries) - 1
        if self.area != MOVES:
            if abs(pages) >= 1000:
                return False  # Home and End mean something only in the moves
            self.area = MOVES
            self.log_at = max(0, last)
        self.log_at = max(0, min(last, self.log_at + pages * room))
        return True

    def back(self) -> bool:
        """Esc: back to the board, a card looked up put away; False if already there."""
        if self.area == BOARD and self.looked is None:
            return False
        self.area, self.looked = BOARD, None
        return True

    def go(self, square: tuple[int, int]) -> None:
        """The board cursor to `square` (a hint's card)."""
        self.area, self.cursor = BOARD, square

    def look_up(self, card_id: str | None) -> None:
        """A card id typed on the move line: shown beside the hand."""
        self.area, self.looked = BOARD, card_id

    def clamp(self) -> None:
        """Keep the cursors on squares that exist (nobles leave, reserves change)."""
        view = self.state.view
        assert view is not None
        lengths = faces.row_lengths(view)
        r, c = self.cursor
        if lengths[r] == 0 or (r == faces.MINE_ROW and view.seat is None):
            r = faces.level_row(1)
        self.cursor = (r, min(c, lengths[r] - 1))
        i = min(self.pcursor[0], view.num_players - 1)
        items = max(1, len(view.players[faces.order(view)[i]].reserved))
        self.pcursor = (i, min(self.pcursor[1], items - 1))
        self.log_at = max(0, min(self.log_at, len(self.state.entries) - 1))

    # -- what the cursor points at ---------------------------------------------------

    def board_cursor(self) -> tuple[int, int] | None:
        return self.cursor if self.area == BOARD else None

    def players_cursor(self) -> tuple[int, int] | None:
        return self.pcursor if self.area == PLAYERS else None

    def moves_selected(self) -> int | None:
        return self.log_at if self.area == MOVES else None

    def player_at(self) -> PlayerInfo:
        view = self.state.view
        assert view is not None
        return view.players[faces.order(view)[self.pcursor[0]]]

    def looked_card(self) -> str | None:
        """The card shown beside the hand: under the cursor among the players or the
        moves, else one typed on the move line."""
        if self.state.view is None:
            return None
        if self.area == PLAYERS:
            reserved = self.player_at().reserved
            j = self.pcursor[1]
            return reserved[j].card if j < len(reserved) else None
        entries = self.state.entries
        if self.area == MOVES and entries:
            cards = entries[self.log_at].cards
            return cards[0] if cards else None
        return self.looked

    def target(self) -> tuple[str, Any]:
        """What is under the board cursor: ("card", id), ("deck", level), ("gem", colour),
        ("noble", index) or ("none", None). Off the board, the card looked at, if any."""
        if self.area != BOARD:
            looked = self.looked_card()
            return ("look", looked) if looked is not None else ("none", None)
        r, c = self.cursor
        if r == faces.BANK_ROW:
            return "gem", c
        if r == faces.NOBLE_ROW:
            return "noble", c
        face = self.squares.square(r, c)
        assert isinstance(face, CardFace)
        if face.kind == DECK:
            return "deck", face.level
        if face.card is not None:
            return "card", face.card
        return "none", None

    @property
    def on_my_hand(self) -> bool:
        """The board cursor is on the player's own reserved cards."""
        return self.area == BOARD and self.cursor[0] == faces.MINE_ROW
