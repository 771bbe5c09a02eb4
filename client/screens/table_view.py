"""The table's widgets and their drawing: what a `TableState` holds, on the screen.

`TableView` lays out the status line, the board with the move log (and the chat beside
the moves) under it, the players' column, the prompt line and the key line, fits them
to the terminal (`client.layout`), and draws each from plain values it is given (the
cursor, the gems picked, the notes above the moves, the clocks): it keeps no state of
its own but what it drew. The table screen (`client.screens.table`) and the replay
viewer (`client.screens.replay`) are both a `TableView`, each deciding what to draw.
Nothing covers the table while a decision is made: the R13 return, a confirmation and
the results happen on the prompt line, the key line and the move log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from shared.i18n import N_
from shared.social import ChatLine
from shared.view import PlayerInfo, PlayerView

from .. import faces
from ..layout import Layout, layout, too_small
from ..table_state import TableState
from ..widgets.board import Board, BoardFace
from ..widgets.keybar import KeyBar
from ..widgets.movelog import MoveLog, Notes
from ..widgets.panels import PromptLine, SizeNote, StatusLine
from ..widgets.players import Clock, PlayerFace, Players
from ..widgets.tiles import CardFace, PileFace

Cursor = tuple[int, int] | None
Clocks = Callable[[tuple[PlayerFace, ...]], tuple[Clock, ...]]  # the panels' clocks now


class TableView(Screen[None]):
    """One table, seen from one seat (or by a spectator, or replayed): its widgets."""

    AUTO_FOCUS = ""  # every key goes to the screen (the move line is drawn, not focused)
    onlooker = N_("watching")  # the status line's word for a view of no seat

    def __init__(self, state: TableState) -> None:
        super().__init__()
        self.state = state
        self.rows: tuple[tuple[CardFace, ...], ...] = ()  # the board as last drawn
        self.piles: tuple[PileFace, ...] = ()
        self.mine: tuple[CardFace, ...] | None = None
        self.faces: tuple[PlayerFace, ...] = ()  # the players' panels as last drawn

    @property
    def table_id(self) -> str:
        return self.state.table_id

    @property
    def view(self) -> PlayerView | None:
        return self.state.view

    @property
    def names(self) -> list[str]:
        return self.state.names

    @property
    def log_lines(self) -> list[str]:
        return [e.text for e in self.state.entries]

    @property
    def shape(self) -> Layout:
        size = self.size if self.is_mounted else self.app.size
        players = self.view.num_players if self.view is not None else 2
        return layout(size.width, size.height, players)

    @property
    def fits(self) -> bool:
        """The terminal shows the whole table (else it says how big it must be)."""
        return not self.is_mounted or self.shape.fits

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="table-main"):
            with Vertical(id="table-left"):
                yield Board(id="board")
                yield MoveLog(id="table-moves")
            yield Players(id="table-players")
        yield SizeNote(id="size-note")
        yield PromptLine(id="prompt")
        yield KeyBar(id="table-keys")

    def on_mount(self) -> None:
        self.status_line = self.query_one(StatusLine)
        self.board = self.query_one(Board)
        self.players = self.query_one(Players)
        self.move_log = self.query_one(MoveLog)
        self.prompt_line = self.query_one(PromptLine)
        self.key_line = self.query_one(KeyBar)
        self.size_note = self.query_one(SizeNote)
        self._fit()
        if self.view is not None:
            self.redraw()

    def on_resize(self) -> None:
        if self.is_mounted:
            self._fit()
            if self.view is not None:
                self.redraw()
                self.board.redraw()  # its cards follow the terminal's size

    def on_screen_resume(self) -> None:
        self.on_resize()  # the terminal may have changed size under the help

    def _fit(self) -> None:
        """Size the board and the players' column for the terminal; too small: say so."""
        shape = self.shape
        main = self.query_one("#table-main")
        main.display = shape.fits
        self.size_note.display = not shape.fits
        self.size_note.say(too_small(shape.columns, shape.lines))
        g = shape.board
        self.query_one("#table-left").styles.width = g.width
        self.board.styles.height = g.lines

    def redraw(self) -> None:
        """Everything again (a new view, a new size): here the table as it stands, with
        no cursor and nothing said (each screen draws its own instead)."""
        view = self.view
        assert view is not None
        self.paint_status(mine=False)
        self.paint_players(None)
        self.paint_cards(view.me)
        self.paint_board(None, None, view.me)
        self.paint_moves(None, ())
        self.prompt_line.say("")

    # -- drawing, from what each screen gives -------------------------------------------

    def paint_status(self, mine: bool) -> None:
        """The top line; `mine`: it is this player's move (it shows so)."""
        state = self.state
        view = state.view
        assert view is not None
        self.status_line.show(
            faces.status_text(view, state.seats, onlooker=self.onlooker, ended=state.ended),
            mine=mine and not state.ended,
            final=view.final_round and not view.is_over and not state.ended,
        )

    def paint_players(self, cursor: Cursor, clocks: Clocks | None = None) -> None:
        """The players' panels from the view, the cursor among them, and each one's clock
        (`clocks` reads them for the panels)."""
        assert self.view is not None
        self.faces = faces.player_faces(self.view, self.state.seats)
        self.players.show(self.faces, cursor, () if clocks is None else clocks(self.faces))

    def paint_clocks(self, cursor: Cursor, clocks: Sequence[Clock]) -> None:
        """The panels as last drawn, with the clocks as they read now (a tick)."""
        self.players.show(self.faces, cursor, tuple(clocks))

    def paint_cards(self, me: PlayerInfo | None) -> None:
        """The cards' faces, as `me` would buy them (with tokens being given back gone)."""
        view = self.view
        assert view is not None
        self.rows = faces.board_faces(view, self.state.previous, me)
        self.mine = faces.mine_faces(view, me) if view.seat is not None else None

    def paint_board(
        self,
        cursor: Cursor,
        looked: str | None,
        me: PlayerInfo | None,
        picked: Sequence[int] = (),
        giving: Sequence[int] = (),
    ) -> None:
        """The board: nobles, cards, bank (with the gems `picked` or `giving` back so far),
        reserves, the card `looked` at, the cursor."""
        view = self.view
        assert view is not None
        self.piles = faces.bank_faces(view, list(picked), list(giving))
        face = BoardFace(
            self.rows,
            self.piles,
            self.mine,
            faces.noble_faces(view),
            None if looked is None else faces.card_face(view, looked, me=me, look=True),
        )
        self.board.show(face, cursor)

    def paint_moves(
        self,
        selected: int | None,
        notes: Notes,
        chat: tuple[ChatLine, ...] | None = None,
        fresh: int | None = None,
    ) -> None:
        """The move log (an entry `selected`, `notes` above it, the `fresh` newest entries
        standing out: by default those since the viewer's own turn) and the chat beside it
        (None: no chat column)."""
        history = self.state.history
        fresh = history.fresh if fresh is None else fresh
        self.move_log.show_chat(chat, self.shape.chat)
        self.move_log.show(tuple(history.entries), fresh, selected, notes)

    def square(self, r: int, c: int) -> CardFace | PileFace:
        """What is on the board at cursor square (r, c) (not the nobles' row)."""
        if r == faces.BANK_ROW:
            return self.piles[c]
        if r == faces.MINE_ROW:
            assert self.mine is not None
            return self.mine[c]
        return self.rows[r - 1][c]
