"""The game table, played with the keyboard alone.

Keys turn into a move only when the move is among the view's legal moves; otherwise the
prompt line says why. What a key does depends on the mode (`client.screens.modes`): ``r``
reserves while choosing, picks red while taking gems, and gives a red back while
returning tokens (R13).

`TableScreen` is a `TableView` (the widgets and their drawing) that holds its parts,
each a class of its own that is handed what it needs:

- `TableState` (client/table_state.py): what the host sent about this table;
- `Looking` (looking.py): the cursor on the board, among the players and the moves;
- `Choosing` (choosing.py): the move being put together, sent once legal;
- `MoveLine` (move_line.py): the line for a typed move or a line of chat;
- `TableCompany` (table_company.py): clocks, chat, news, votes, rematches, the bell.

The keys are data (`table_keys.BINDINGS`), and which apply in each mode is
`table_allowed`'s; each action hands its key to a part, and the screen draws what changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import events

from shared.i18n import _
from shared.moves import Move
from shared.protocol import AskRecord, ClientMessage, Hint, TableUpdate, Undo

from .. import faces
from ..table_state import TableState
from ..widgets.movelog import Notes
from ..widgets.panels import CHAT_PLACEHOLDER, PLACEHOLDER
from . import modes
from .choosing import Choosing
from .looking import MOVES, PLAYERS, Looking
from .move_line import MoveLine
from .results import results_notes
from .table_allowed import allowed
from .table_company import TableCompany
from .table_keys import BINDINGS
from .table_prompt import said
from .table_view import TableView

if TYPE_CHECKING:
    from ..app import SplendorApp


class TableScreen(TableView):
    """The table with its keys: cursor, buy, reserve, take, give back, confirm, cancel, the
    move line, looking at the players and the moves, chat, votes, rematches, undo and
    hints (offline)."""

    BINDINGS = BINDINGS

    def __init__(self, table_id: str, seat: int | None) -> None:
        state = TableState(table_id, seat)
        super().__init__(state)
        self.message: tuple[str, str] | None = None  # what the prompt line says
        self.quitting = False  # asking whether to leave the game
        self.look = Looking(state, self)
        self.choice = Choosing(state, self.look, self)
        self.line = MoveLine(self._show_line, self.choice.submit, self._say)
        self.company = TableCompany(state, self.splendor, self, self.set_timer)

    @property
    def splendor(self) -> SplendorApp:
        return cast("SplendorApp", self.app)

    @property
    def seat(self) -> int | None:
        return self.state.seat

    @property
    def in_game(self) -> bool:
        return self.state.in_game

    @property
    def playing_seat(self) -> int | None:
        return self.state.playing_seat

    @property
    def mode(self) -> str:
        """What the player is doing (`client.screens.modes`)."""
        if not self.fits:
            return modes.SMALL
        return modes.mode_of(
            self.view,
            self.playing_seat,
            quitting=self.quitting,
            typing=self.line.open,
            confirming=self.choice.pending is not None,
            taking=self.choice.taking,
            chatting=self.line.chatting,
        )

    # -- from the host (the app calls these) ------------------------------------------

    def show(self, msg: TableUpdate) -> None:
        """A table update: the seats, this seat, its view, its clocks and company."""
        previous = self.view
        if self.company.take(msg):
            self.message = None  # the prompt follows the rematch offer
        change = self.state.take(msg)
        if change.new_moment:
            self.choice.reset()
            self.message = (_("your move was taken back"), "") if change.taken_back else None
        if change.first or change.taken_back:
            self.look.start()
        self.choice.waiting = False
        self.look.clamp()
        if self.is_mounted:
            self.redraw()
            self.company.shown(previous)

    def show_notice(self, text: str, level: str) -> None:
        """A notice on the prompt; news about the table (a time-out, a bot standing in, a
        vote) in the move log too, where it stays."""
        if level in ("info", "call"):
            self.company.tell(text)
        self.choice.waiting = False
        self.message = (text, "error" if level == "error" else "")
        self.draw_prompt()

    def show_advice(self, move: Move, reason: str) -> None:
        """A hint arrived: the cursor goes to the card or deck it names (`Advice`)."""
        self.state.advice = (move, reason)
        self.message = (_("Hint: {move} — see it under Moves", move=move), "")
        square = None if self.view is None else faces.square_of(self.view, move)
        if square is not None:
            self.look.go(square)
        if self.is_mounted and self.view is not None:
            self.redraw()

    def show_chat(self, where: str) -> None:
        """The app has this table's chat (or the lobby's: nothing to show here)."""
        if where == self.table_id:
            self.draw_moves()

    def table_ended(self, why: str) -> None:
        """The game ended without being over (the host left it: abandoned)."""
        if self.state.end(why) and self.is_mounted:
            self.redraw()

    def ask_quit(self) -> None:
        """q or Ctrl+C in a game: ask on the prompt line (y leaves, n stays); on a terminal
        too small to show the table, quit at once (it says "q quits")."""
        if self.mode == modes.SMALL:
            self.app.exit()
            return
        self.quitting = True
        self.draw_prompt()

    def on_unmount(self) -> None:
        self.company.stop()

    # -- what the parts ask of the screen ------------------------------------------------

    def say(self, text: str | None, kind: str = "") -> None:
        self.message = None if text is None else (text, kind)

    def refuse(self, reason: str) -> None:
        self.message = (reason, "error")
        self.draw_prompt()

    def send(self, msg: ClientMessage) -> None:
        self.splendor.send(msg)

    def _say(self, text: str) -> None:
        self.company.say(text)

    def _show_line(self, line: tuple[str, int] | None, chatting: bool) -> None:
        if self.is_mounted:
            self.prompt_line.edit(line, CHAT_PLACEHOLDER if chatting else PLACEHOLDER)
            self.draw_prompt()

    # -- drawing ------------------------------------------------------------------------

    def redraw(self) -> None:
        self.paint_status(mine=self.state.my_move)
        self.paint_players(self.look.players_cursor(), self.company.clocks)
        self.draw_moves()
        self.draw_cards()

    def draw_clocks(self) -> None:
        if self.is_mounted:
            self.paint_clocks(self.look.players_cursor(), self.company.clocks(self.faces))

    def draw_cards(self) -> None:
        """The cards' faces (what the player needs changes while giving tokens back), then
        the board and the prompt."""
        if self.is_mounted and self.view is not None:
            self.paint_cards(self.choice.me_now())
            self.draw_board()

    def draw_board(self) -> None:
        """The board (with the cursor, the gems picked or given back), then the prompt."""
        if self.is_mounted and self.view is not None:
            choice = self.choice
            cursor, looked = self.look.board_cursor(), self.look.looked_card()
            self.paint_board(cursor, looked, choice.me_now(), choice.picked, choice.giving)
            self.draw_prompt()

    def draw_moves(self) -> None:
        """The move log with the notes above it (the results, a hint, a vote), and the
        chat beside it (online: offline there is nobody to chat with)."""
        state = self.state
        view = state.view
        if not self.is_mounted or view is None:
            return
        notes: Notes = ()
        if view.is_over:  # the results; only their first line while looking at the moves
            notes = results_notes(view, state.seats, state.seed, state.ratings)
            notes = notes[: 1 if self.look.area == MOVES else 9]
        elif state.advice is not None:
            move, reason = state.advice
            notes = (
                (
                    _("Hint (medium bot): {move} — {reason}", move=move, reason=reason),
                    "bold #8fd3ff",
                ),
            )
        notes += self.company.notes()
        chat = None if self.splendor.local else self.company.chat()
        self.paint_moves(self.look.moves_selected(), notes, chat)

    def draw_prompt(self) -> None:
        """The key line and the prompt line, for the mode and what the cursor is on."""
        if not self.is_mounted or self.view is None:
            return
        mode, local = self.mode, self.splendor.local
        again = _("New game") if local else _("Lobby")
        if self.look.elsewhere and mode in modes.LOOKING_MODES:
            keys = modes.look_keys(self.look.area == MOVES)
        else:
            keys = modes.keys(mode, local, again, self.seat is not None)
        self.key_line.show(keys, modes.SPARE)
        over = self.company.over_text() if mode == modes.OVER else None
        state, look, choice = self.state, self.look, self.choice
        self.prompt_line.say(*said(mode, local, self.message, state, look, choice, self, over))

    # -- keys ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        seated, local, taking = self.seat is not None, self.splendor.local, self.choice.taking
        return allowed(action, parameters, self.mode, seated=seated, local=local, taking=taking)

    def on_key(self, event: events.Key) -> None:
        """While asking whether to leave, Enter and Esc answer too; while the move line
        is open every key edits it. ":" and "c" open it here, not only by their bindings:
        keys typed quickly (or pasted) reach this handler in order, before any binding
        runs, so the keys after ":" must already find the line open."""
        if self.quitting and event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            self.action_answer(event.key == "enter")
            return
        if self.line.key(event):
            return
        opens = {"colon": False, "c": True}.get(event.key)
        chat_ok = event.key != "c" or not self.splendor.local
        if opens is not None and chat_ok and self.mode not in (modes.SMALL, modes.QUIT):
            event.stop()
            event.prevent_default()
            self.line.start(chatting=opens)

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text goes on the move line (opened if need be), as if typed."""
        event.stop()
        self.line.paste(event.text)

    def action_command(self) -> None:
        self.line.start(chatting=False)

    def action_chat(self) -> None:
        self.line.start(chatting=True)

    def action_buy(self) -> None:
        self.choice.buy()

    def action_reserve(self) -> None:
        self.choice.reserve()

    def action_take(self) -> None:
        self.choice.take()

    def action_pick(self, colour: int, in_take_mode_only: bool = False) -> None:
        self.choice.pick(colour)

    def action_give(self, colour: int) -> None:
        self.choice.give(colour)

    def action_unpick(self) -> None:
        self.choice.unpick()

    def action_pass_turn(self) -> None:
        self.choice.pass_turn()

    def action_confirm(self) -> None:
        mode = self.mode
        if self.view is None:
            return
        if mode == modes.OVER:
            self.splendor.leave_table()
        elif mode == modes.RETURN:
            self.choice.give_back()
        else:
            self.choice.confirm()

    def action_cancel(self) -> None:
        """Esc: the choice under way, else back to the board, else (watching, the game
        over, and online during a game, the seat kept) back to the lobby."""
        if self.choice.cancel():
            return
        if self.look.back():
            self._moved(everywhere=True)
        elif self.mode in (modes.WATCH, modes.OVER):
            self.splendor.leave_table()
        elif self.splendor.local:
            self.message = None
            self.draw_prompt()
        else:
            self.splendor.to_lobby()  # nothing open: to the lobby, keeping the seat

    def action_cursor(self, dr: int, dc: int) -> None:
        if self.view is not None:
            self.look.step(dr, dc)
            self._moved()

    def action_area(self, step: int) -> None:
        """Tab: the cursor goes to the players, then the moves, then the board."""
        self.look.next_area(step)
        self._moved(everywhere=True)

    def action_page(self, pages: int) -> None:
        room = max(1, self.move_log.content_size.height - 2)
        if self.look.page(pages, room):
            self._moved(everywhere=True)

    def _moved(self, everywhere: bool = False) -> None:
        """The cursor moved (`everywhere`: from one area to another): a refusal or a card
        looked up no longer applies; only the area it moves in is drawn again."""
        self.look.looked = None
        if self.message and self.message[1] == "error":
            self.message = None
        if everywhere or self.look.area == PLAYERS:
            self.paint_players(self.look.players_cursor(), self.company.clocks)
        if everywhere or self.look.area == MOVES:
            self.draw_moves()
        self.draw_board()

    def action_rematch(self) -> None:
        self.company.offer_rematch()

    def action_next_game(self) -> None:
        self.company.next_game()

    def action_vote_or_replay(self) -> None:
        if self.mode != modes.OVER:
            self.company.vote()
        else:
            self.send(AskRecord(self.table_id))
            self.message = (_("fetching the game's record…"), "")
            self.draw_prompt()

    def action_undo(self) -> None:
        if not self.splendor.local:
            self.refuse(_("moves are taken back only in offline games against bots"))
        elif self.view is None or not self.in_game:
            self.refuse(_("there is no game in progress to take a move back in"))
        else:
            self.send(Undo())
            self.message = (_("taking back your last move…"), "")
            self.draw_prompt()

    def action_hint(self) -> None:
        if not self.splendor.local:
            self.refuse(_("hints are only for offline games against bots"))
        elif self.choice.ready() is not None:
            self.send(Hint())
            self.message = (_("asking the medium bot…"), "")
            self.draw_prompt()

    def action_answer(self, yes: bool) -> None:
        self.quitting = False
        if yes:
            self.app.exit()
        else:
            self.draw_prompt()
