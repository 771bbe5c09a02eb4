"""The table screen's state and looks: what the host sent, drawn on the widgets.

`TableView` holds the current view (from the host's "table" messages) and what the
player is doing with it (the cursor, gems being picked, tokens being given back, a
move waiting for Enter), and hands each widget what it shows (`client.faces`);
`client.screens.table.TableScreen` adds the keys. Nothing covers the table while a
decision is made: the R13 return, a confirmation and the results happen on the
prompt line, the key line and the move log, with the board in view.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from shared.moves import Move
from shared.protocol import PlayMove, RatingChange, TableUpdate
from shared.view import PlayerInfo, PlayerView

from .. import faces, model, prompts
from ..history import History
from ..layout import Layout, layout, too_small
from ..model import Seat
from ..widgets.board import Board, BoardFace
from ..widgets.keybar import KeyBar
from ..widgets.movelog import LogEntry, MoveLog, Notes
from ..widgets.panels import PromptLine, SizeNote, StatusLine
from ..widgets.players import PlayerFace, Players
from ..widgets.tiles import DECK, CardFace, PileFace
from . import modes
from .results import results_notes

if TYPE_CHECKING:
    from ..app import SplendorApp

GEMS = "WUGRK"
BOARD, PLAYERS, MOVES = "board", "players", "moves"  # where the cursor is


def _moment(view: PlayerView) -> tuple[int, str, bool]:
    """When a choice in progress stops making sense: a new turn, phase, or the end."""
    return view.turn, view.phase, view.is_over


class TableView(Screen[None]):
    """One table, seen from one seat (or by a spectator): state and rendering."""

    AUTO_FOCUS = ""  # every key goes to the screen (the move line is drawn, not focused)

    def __init__(self, table_id: str, seat: int | None) -> None:
        super().__init__()
        self.table_id = table_id
        self.seat = seat
        self.view: PlayerView | None = None
        self.previous: PlayerView | None = None
        self.seats: tuple[Seat, ...] = ()
        self.seed: int | None = None  # the deal, once the game is over
        self.ended = ""  # why a game that is not over ended all the same (abandoned)
        self.ratings: tuple[RatingChange | None, ...] = ()  # after a rated game, per seat
        self.cursor = (3, 1)  # on the board: (row, column), `faces` numbers the rows
        self.area = BOARD  # where the cursor is: the board, the players or the moves
        self.pcursor = (0, 0)  # among the players: (panel, reserved card)
        self.log_at = 0  # among the moves: an entry
        self.taking = False
        self.picked: list[int] = []
        self.giving: list[int] = []  # tokens chosen to give back (R13)
        self.pending: Move | None = None
        self.quitting = False  # asking whether to leave the game
        self.message: tuple[str, str] | None = None
        self.waiting = False
        self.history = History()
        self.looked: str | None = None  # a card id typed on the move line
        self.advice: tuple[Move, str] | None = None  # the latest hint
        self.rows: tuple[tuple[CardFace, ...], ...] = ()
        self.piles: tuple[PileFace, ...] = ()
        self.mine: tuple[CardFace, ...] | None = None
        self.command: tuple[str, int] | None = None  # the move line being typed, and its caret
        self.chatting = False  # ...a line of chat, not a move

    @property
    def splendor(self) -> SplendorApp:
        return cast("SplendorApp", self.app)

    onlooker = "watching"  # the status line's word for a view of no seat

    @property
    def in_game(self) -> bool:
        return self.seat is not None and self.view is not None and not self.view.is_over

    @property
    def playing_seat(self) -> int | None:
        """The viewer's seat if they play it (not when a bot stands in for them)."""
        seat = self.seat
        if seat is None or (seat < len(self.seats) and self.seats[seat].standin):
            return None
        return seat

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def entries(self) -> list[LogEntry]:
        return self.history.entries

    @property
    def log_lines(self) -> list[str]:
        return [e.text for e in self.entries]

    @property
    def shape(self) -> Layout:
        size = self.size if self.is_mounted else self.app.size
        players = self.view.num_players if self.view is not None else 2
        return layout(size.width, size.height, players)

    @property
    def mode(self) -> str:
        """What the player is doing (`client.screens.modes`)."""
        if self.is_mounted and not self.shape.fits:
            return modes.SMALL
        return modes.mode_of(
            self.view,
            self.playing_seat,
            quitting=self.quitting,
            typing=self.command is not None,
            confirming=self.pending is not None,
            taking=self.taking,
            chatting=self.chatting,
        )

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
            self._redraw()

    def on_resize(self) -> None:
        if self.is_mounted:
            self._fit()
            if self.view is not None:
                self._redraw()
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

    # -- from the host ------------------------------------------------------------

    def show(self, msg: TableUpdate) -> None:
        """Render a table update: seats, this seat and its view."""
        view = msg.view
        previous = self.view
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
        taken_back = msg.log is not None and previous is not None
        if previous is None or taken_back or _moment(view) != _moment(previous):
            self._reset_choice()
            self.message = ("your move was taken back", "") if taken_back else None
            self.advice = None
        if previous is None or taken_back:
            self.cursor = faces.first_row_col(view)
        self.view, self.previous = view, previous
        self.waiting = False
        self._clamp()
        if self.is_mounted:
            self._redraw()

    def show_notice(self, text: str, level: str) -> None:
        self.waiting = False
        self.message = (text, "error" if level == "error" else "")
        if self.is_mounted:
            self._prompt()

    def show_advice(self, move: Move, reason: str) -> None:
        """A hint arrived: the cursor goes to the card or deck it names (`Advice`)."""
        self.advice = (move, reason)
        self.message = (f"Hint: {move} — see it under Moves", "")
        square = None if self.view is None else faces.square_of(self.view, move)
        if square is not None:
            self.area, self.cursor = BOARD, square
        if self.is_mounted:
            self._redraw()

    # -- rendering ----------------------------------------------------------------

    def _me_now(self) -> PlayerInfo | None:
        """The viewer as the cards should count them: with the tokens being given back
        already gone (R13), so the cards show what would be needed after the return."""
        me = self.view.me if self.view is not None else None
        if me is None or not self.giving:
            return me
        return replace(me, tokens=model.kept(me.tokens, self.giving))

    def table_ended(self, why: str) -> None:
        """The game ended without being over (the host left it: abandoned)."""
        if self.view is not None and not self.view.is_over and not self.ended:
            self.ended = why
            self._redraw()

    def _redraw(self) -> None:
        view = self.view
        assert view is not None
        self.status_line.show(
            faces.status_text(view, self.seats, onlooker=self.onlooker, ended=self.ended),
            mine=view.my_turn and self.playing_seat is not None and not self.ended,
            final=view.final_round and not view.is_over and not self.ended,
        )
        self._players()
        self._moves()
        self._cards()

    def _cards(self) -> None:
        """The cards' faces again (what the viewer needs changes while giving tokens back),
        then the board and the prompt."""
        view = self.view
        assert view is not None
        self.rows = faces.board_faces(view, self.previous, self._me_now())
        self.mine = faces.mine_faces(view, self._me_now()) if view.seat is not None else None
        self._board()
        self._prompt()

    def _players(self) -> None:
        assert self.view is not None
        cursor = self.pcursor if self.area == PLAYERS else None
        self.players.show(self.player_faces(), cursor)

    def player_faces(self) -> tuple[PlayerFace, ...]:
        """The players' panels (the clocks' layer adds each clock)."""
        assert self.view is not None
        return faces.player_faces(self.view, self.seats)

    def table_notes(self) -> Notes:
        """Lines above the moves about the table itself (absent players: a vote)."""
        return ()

    def over_text(self) -> str:
        """The prompt once the game is over (a rematch offered, or the winning move)."""
        assert self.view is not None
        return faces.winning_move(self.view, self.seats) or "The game is over."

    def _moves(self) -> None:
        view = self.view
        assert view is not None
        notes: Notes = ()
        if view.is_over:  # the results; only their first line while looking at the moves
            notes = results_notes(view, self.seats, self.seed, self.ratings)
            notes = notes[: 1 if self.area == MOVES else 9]
        elif self.advice is not None:
            move, reason = self.advice
            notes = ((f"Hint (medium bot): {move} — {reason}", "bold #8fd3ff"),)
        notes += self.table_notes()
        selected = self.log_at if self.area == MOVES else None
        self.move_log.show(tuple(self.entries), self.history.fresh, selected, notes)

    def _board(self) -> None:
        """Draw the board: nobles, cards, bank (with the gems picked or given back so far),
        reserves, a card looked up, the cursor."""
        view = self.view
        assert view is not None
        self.piles = faces.bank_faces(view, self.picked, self.giving)
        look = self.looked_card()
        face = BoardFace(
            self.rows,
            self.piles,
            self.mine,
            faces.noble_faces(view),
            None if look is None else faces.card_face(view, look, me=self._me_now(), look=True),
        )
        self.board.show(face, self.cursor if self.area == BOARD else None)

    def looked_card(self) -> str | None:
        """The card shown beside the hand: under the cursor among the players or the
        moves, else one typed on the move line."""
        view = self.view
        if view is None:
            return None
        if self.area == PLAYERS:
            reserved = self._player_at().reserved
            j = self.pcursor[1]
            return reserved[j].card if j < len(reserved) else None
        if self.area == MOVES and self.entries:
            cards = self.entries[self.log_at].cards
            return cards[0] if cards else None
        return self.looked

    def _player_at(self) -> PlayerInfo:
        assert self.view is not None
        return self.view.players[faces.order(self.view)[self.pcursor[0]]]

    def square(self, r: int, c: int) -> CardFace | PileFace:
        """What is on the board at cursor square (r, c) (not the nobles' row)."""
        if r == faces.BANK_ROW:
            return self.piles[c]
        if r == faces.MINE_ROW:
            assert self.mine is not None
            return self.mine[c]
        return self.rows[r - 1][c]

    def _clamp(self) -> None:
        """Keep the cursors on squares that exist (nobles leave, reserves change)."""
        view = self.view
        assert view is not None
        lengths = faces.row_lengths(view)
        r, c = self.cursor
        if lengths[r] == 0 or (r == faces.MINE_ROW and view.seat is None):
            r = faces.level_row(1)
        self.cursor = (r, min(c, lengths[r] - 1))
        i = min(self.pcursor[0], view.num_players - 1)
        items = max(1, len(view.players[faces.order(view)[i]].reserved))
        self.pcursor = (i, min(self.pcursor[1], items - 1))
        self.log_at = max(0, min(self.log_at, len(self.entries) - 1))

    def _prompt(self) -> None:
        view = self.view
        if view is None:
            return
        mode = self.mode
        player = self.seat is not None
        self.key_line.show(modes.keys(mode, self.splendor.local, self._again(), player))
        prompt = self.prompt_line
        if mode == modes.SMALL:
            prompt.say(*(self.message or ("",)))
        elif mode == modes.QUIT:
            ask, answers = "Leave this game and quit?", "y: yes · n: no"
            if self.splendor.local:
                prompt.say(f"{ask} A local game ends when you quit.  {answers}", "ask")
            else:
                detail = "Your seat is kept: connect again to play on."
                brief = f"{ask} Your seat is kept.  {answers}"
                prompt.say(f"{ask} {detail}  {answers}", "ask", short=brief)
        elif self.message is not None:
            prompt.say(*self.message)
        elif mode == modes.CONFIRM:
            assert self.pending is not None
            text = prompts.pending_text(view, self.pending)  # the key line says Enter, Esc
            prompt.say(text + "  Enter: yes · Esc: no", "ask", short=text)
        elif mode == modes.PICK:
            picked = " ".join(GEMS[c] for c in sorted(self.picked)) or "—"
            prompt.say(
                f"Take {picked}   w u g r k: pick · Backspace: undo · Enter: take · Esc: cancel",
                "ask",
            )
        elif mode == modes.RETURN:
            prompt.say(prompts.return_text(view, self.giving), "ask")
        elif mode == modes.OVER and self.area == BOARD:
            prompt.say(self.over_text())
        else:
            text, short = self._cursor_text()
            prompt.say(text, short=short)

    def _again(self) -> str:
        return "New game" if self.splendor.local else "Lobby"

    def _cursor_text(self) -> tuple[str, str | None]:
        """What the prompt says of what is under the cursor, and a shorter form for a
        prompt too narrow for it (None: nothing shorter to say)."""
        view = self.view
        assert view is not None
        if self.area == PLAYERS:
            seat = faces.order(view)[self.pcursor[0]]
            me = self._me_now()
            return prompts.player_text(view, self.names, seat, self.pcursor[1], me), None
        if self.area == MOVES:
            if not self.entries:
                return "no moves yet", None
            turn = self.entries[self.log_at].text
            look = self.looked_card()
            if look is None:
                return turn, None
            me = self._me_now()
            text = f"{turn} · {prompts.card_text(view, self.names, look, me)}"
            if me is None:
                return text, None
            return text, f"{turn} · {model.your_need(look, me, True)}"  # the face is by the hand
        if self.looked is not None:
            return self._card_text(self.looked)
        r, c = self.cursor
        if r == faces.NOBLE_ROW:
            nid = view.nobles[c]
            return prompts.noble_text(view, self.names, nid), prompts.noble_short(view, nid)
        if r == faces.BANK_ROW:
            return prompts.pile_text(view, c), None
        face = self.square(r, c)
        assert isinstance(face, CardFace)
        if face.card is None or face.kind == DECK:
            return prompts.slot_text(face, mine=r == faces.MINE_ROW), None
        return self._card_text(face.card)

    def _card_text(self, card_id: str) -> tuple[str, str]:
        """A card as the prompt says it, and in short (without what the gold covers)."""
        assert self.view is not None
        me = self._me_now()
        return (
            prompts.card_text(self.view, self.names, card_id, me),
            prompts.card_text(self.view, self.names, card_id, me, brief=True),
        )

    def _send(self, move: Move) -> None:
        self.splendor.send(PlayMove(move))
        self.waiting = True
        self._reset_choice()
        self.message = (f"sent: {move}", "")
        if self.is_mounted:  # the host's answer redraws the rest
            self._board()
            self._prompt()

    def _reset_choice(self) -> None:
        self.taking, self.picked, self.pending, self.giving = False, [], None, []
