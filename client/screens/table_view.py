"""The table screen's state and looks: what the host sent, drawn on the widgets.

`TableView` holds the current view (from the host's "table" messages) and hands
each widget what it shows (`client.faces`); `client.screens.table.TableScreen`
adds the keys. Dialogs for the R13 return and the results open from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen

from shared.moves import Buy, Move, Reserve, ReserveDeck, Return
from shared.protocol import PlayMove, TableUpdate
from shared.view import LastTurn, PlayerView

from .. import faces, model
from ..describe import ended_turns, turn_text
from ..model import Seat
from ..widgets.board import Board, BoardFace
from ..widgets.footer import QuietFooter
from ..widgets.panels import MoveLog, PlayerStrip, PromptLine, StatusLine
from ..widgets.tiles import DECK, CardFace, PileFace
from .results import AfterGame, ResultsScreen
from .returns import ReturnTokens

if TYPE_CHECKING:
    from ..app import SplendorApp

GEMS = "WUGRK"
LOG_LIMIT = 200  # lines kept; the log shows the newest that fit


class TableView(Screen[None]):
    """One table, seen from one seat (or by a spectator): state and rendering."""

    AUTO_FOCUS = ""  # every key goes to the screen (the move line is drawn, not focused)

    def __init__(self, table_id: str, seat: int | None) -> None:
        super().__init__()
        self.table_id = table_id
        self.seat = seat
        self.view: PlayerView | None = None
        self.seats: tuple[Seat, ...] = ()
        self.cursor = (2, 1)
        self.taking = False
        self.picked: list[int] = []
        self.pending: Move | None = None
        self.message: tuple[str, str] | None = None
        self.waiting = False
        self.log_lines: list[str] = []
        self.fresh_from = 0
        self.asked_return_at: int | None = None
        self.results_shown = False
        self.previous: PlayerView | None = None
        self.rows: tuple[tuple[CardFace, ...], ...] = ()
        self.piles: tuple[PileFace, ...] = ()
        self.mine: tuple[CardFace, ...] | None = None
        self.command: tuple[str, int] | None = None  # the move line being typed, and its caret

    @property
    def splendor(self) -> SplendorApp:
        return cast("SplendorApp", self.app)

    @property
    def in_game(self) -> bool:
        return self.seat is not None and self.view is not None and not self.view.is_over

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    # -- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal(id="table-main"):
            yield Board(id="board")
            yield MoveLog(id="side")
        yield PlayerStrip(id="player-strip")
        yield PromptLine(id="prompt")
        yield QuietFooter(compact=True)

    def on_mount(self) -> None:
        self.status_line = self.query_one(StatusLine)
        self.board = self.query_one(Board)
        self.players = self.query_one(PlayerStrip)
        self.move_log = self.query_one(MoveLog)
        self.prompt_line = self.query_one(PromptLine)
        if self.view is not None:
            self._redraw()

    def on_resize(self) -> None:
        # The board's layout follows the terminal's size; its own size may not change.
        if self.is_mounted and self.view is not None:
            self.board.redraw()

    def on_screen_resume(self) -> None:
        self.on_resize()  # the terminal may have changed size under a dialog

    # -- from the host ------------------------------------------------------------

    def show(self, msg: TableUpdate) -> None:
        """Render a table update: seats, this seat and its view."""
        view = msg.view
        previous = self.view
        self.seats = model.seats_from(msg.seats)
        self.seat = msg.seat
        turns = self._history(msg) if previous is None else None
        if turns is None:
            turns = [(seat, view.players[seat].last_turn) for seat in ended_turns(previous, view)]
            if turns and self.seat is None:
                self.fresh_from = len(self.log_lines)
        for seat, last in turns:
            assert last is not None
            self.log_lines.append(turn_text(self.names[seat], last))
            if seat == self.seat:  # highlight what happened since the viewer's own move
                self.fresh_from = len(self.log_lines)
        if len(self.log_lines) > LOG_LIMIT:
            cut = len(self.log_lines) - LOG_LIMIT
            del self.log_lines[:cut]
            self.fresh_from = max(0, self.fresh_from - cut)
        if previous is None or (view.turn, view.phase) != (previous.turn, previous.phase):
            self._reset_choice()
            self.message = None
        if previous is None:
            self.cursor = faces.first_row_col(view)
        self.view = view
        self.previous = previous
        self.waiting = False
        if self.is_mounted:
            self._redraw()
        self._dialogs()

    def _history(self, msg: TableUpdate) -> list[tuple[int, LastTurn | None]] | None:
        """The game's turns so far, sent to a session that comes to the table (None if the
        host sent none)."""
        if msg.log is None:
            return None
        turns: list[tuple[int, LastTurn | None]] = [(t.seat, t.turn) for t in msg.log]
        if self.seat is None and turns:
            self.fresh_from = len(turns) - min(len(turns), msg.view.num_players)
        return turns

    def show_notice(self, text: str, level: str) -> None:
        self.waiting = False
        self.message = (text, "error" if level == "error" else "")
        if self.is_mounted:
            self._prompt()

    def _dialogs(self) -> None:
        view = self.view
        assert view is not None
        if view.my_turn and view.phase == "return" and self.asked_return_at != view.turn:
            self.asked_return_at = view.turn
            me = view.me
            assert me is not None
            legal = tuple(m for m in view.legal_moves if isinstance(m, Return))
            self.app.push_screen(ReturnTokens(me.tokens, legal), self._returned)
        if view.is_over and not self.results_shown:
            self.results_shown = True
            self._show_results()

    def _returned(self, move: Return | None) -> None:
        if move is not None:
            self._send(move)

    def _show_results(self) -> None:
        assert self.view is not None
        again = "new game" if self.splendor.local else "back to the lobby"
        self.app.push_screen(ResultsScreen(self.view, self.names, again), self._after_game)

    def _after_game(self, choice: AfterGame | None) -> None:
        if choice is AfterGame.AGAIN:
            self.splendor.leave_table()
        elif choice is AfterGame.QUIT:
            self.app.exit()

    # -- rendering ----------------------------------------------------------------

    def _redraw(self) -> None:
        view = self.view
        assert view is not None
        self.status_line.show(
            faces.status_text(view, self.seats),
            mine=view.my_turn,
            final=view.final_round and not view.is_over,
        )
        self.rows = faces.board_faces(view, self.previous)
        self.mine = faces.mine_faces(view) if view.seat is not None else None
        self.players.show(tuple(faces.player_faces(view, self.seats)))
        self.move_log.show(tuple(self.log_lines), len(self.log_lines) - self.fresh_from)
        self._board()
        self._prompt()

    def _board(self) -> None:
        """Draw the board: cards, bank (with the gems picked so far), reserves, cursor."""
        view = self.view
        assert view is not None
        self.piles = faces.bank_faces(view, self.picked)
        face = BoardFace(self.rows, self.piles, self.mine, view.nobles)
        self.board.show(face, self.cursor)

    def square(self, r: int, c: int) -> CardFace | PileFace:
        """What is on the board at cursor square (r, c)."""
        if r == faces.BANK_ROW:
            return self.piles[c]
        if r == faces.MINE_ROW:
            assert self.mine is not None
            return self.mine[c]
        return self.rows[r][c]

    def _prompt(self) -> None:
        prompt = self.prompt_line
        view = self.view
        if view is None:
            return
        if self.message is not None:
            prompt.say(*self.message)
        elif self.pending is not None:
            prompt.say(self._pending_text(self.pending) + "  Enter: yes · Esc: no", "ask")
        elif self.taking:
            picked = " ".join(GEMS[c] for c in sorted(self.picked)) or "—"
            prompt.say(
                f"Take {picked}   w u g r k: pick · Backspace: undo · Enter: take · Esc: cancel",
                "ask",
            )
        else:
            prompt.say(self._cursor_text())

    def _pending_text(self, move: Move) -> str:
        assert self.view is not None
        if isinstance(move, Buy):
            return model.buy_prompt(self.view, move.card)
        if isinstance(move, Reserve | ReserveDeck):
            return model.reserve_prompt(self.view, move)
        return f"{str(move).capitalize()}?"

    def _cursor_text(self) -> str:
        view = self.view
        assert view is not None
        r, c = self.cursor
        if r == faces.BANK_ROW:
            name = ("white", "blue", "green", "red", "black", "gold")[c]
            held = "" if view.me is None else f"; you hold {view.me.tokens[c]}"
            return f"{name} ({'WUGRK*'[c]}): {view.bank[c]} in the bank{held}"
        face = self.square(r, c)
        assert isinstance(face, CardFace)
        if face.kind == DECK:
            return f"level {face.level} deck: {face.count} cards · r reserves its top card blind"
        if face.card is None:
            return (
                "your reserved cards show here (3 at most)"
                if r == faces.MINE_ROW
                else "an empty slot"
            )
        return model.card_summary(face.card, view.me)

    def _send(self, move: Move) -> None:
        self.splendor.send(PlayMove(move))
        self.waiting = True
        self._reset_choice()
        self.message = (f"sent: {move}", "")
        if self.is_mounted:
            self._board()
            self._prompt()

    def _reset_choice(self) -> None:
        self.taking, self.picked, self.pending = False, [], None
