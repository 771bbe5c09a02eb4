"""The game table, played with the keyboard alone.

Keys turn into a move only when the move is among the view's legal moves;
otherwise the prompt line says why. What a key does depends on the mode
(`client.screens.modes`): ``r`` reserves while choosing, picks red while taking
gems, and gives a red back while returning tokens (R13). Below it, in layers:
`Looking` (looking.py) moves the cursor, `MoveLine` (move_line.py) is the line for
typed moves, `TableView` (table_view.py) holds the state and draws the table.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding

from shared.cards import COLOUR_NAMES
from shared.errors import SplendorError
from shared.explain import plural
from shared.moves import Buy, Move, Reserve, ReserveDeck, Return, parse_move
from shared.protocol import AskRecord, Hint, Undo
from shared.view import PlayerView

from .. import faces, model
from ..widgets.tiles import DECK, CardFace
from . import modes
from .looking import Looking
from .table_view import BOARD, GEMS


def _pick(letter: str, in_take_mode_only: bool = False) -> str:
    return f"pick({GEMS.index(letter)}, {in_take_mode_only})"


class TableScreen(Looking):
    """The table with its keys: cursor, buy, reserve, take, give back, confirm, cancel, the
    move line, looking at the players and the moves, undo and hints (offline)."""

    BINDINGS = [
        # Gem letters first: while picking or giving back, they win over other keys.
        Binding("w,W", "give(0)", show=False, tooltip="Returning: give back a white (W)"),
        Binding("u,U", "give(1)", show=False, tooltip="Returning: give back a blue (U)"),
        Binding("g,G", "give(2)", show=False, tooltip="Returning: give back a green (G)"),
        Binding("r,R", "give(3)", show=False, tooltip="Returning: give back a red (R)"),
        Binding("k,K", "give(4)", show=False, tooltip="Returning: give back a black (K)"),
        Binding("asterisk,o", "give(5)", show=False, tooltip="Returning: give back a gold (*)"),
        Binding("r", _pick("R", True), show=False, tooltip="While taking: pick red"),
        Binding(
            "r",
            "rematch",
            show=False,
            tooltip="Game over: a rematch, the same players, seats turned (again: accept one)",
        ),
        Binding("u", _pick("U", True), show=False, tooltip="While taking: pick blue"),
        Binding("k", _pick("K", True), show=False, tooltip="While taking: pick black"),
        Binding(
            "b", "buy", "Buy", tooltip="Buy the card under the cursor (b again or Enter confirms)"
        ),
        Binding("r", "reserve", "Reserve", tooltip="Reserve the card or deck under the cursor"),
        Binding("t", "take", "Take", tooltip="Take gems: then w u g r k pick them, Enter takes"),
        Binding(
            "enter,space",
            "confirm",
            "OK",
            tooltip="Confirm; with nothing chosen, act on the cursor",
        ),
        Binding(
            "escape", "cancel", "Cancel", tooltip="Cancel the choice (watching: back to the lobby)"
        ),
        Binding(
            "colon",
            "command",
            "Move",
            tooltip="Type a move (take W U G, buy 1-07, reserve deck 2) or a card id (2-14) "
            "to see it: Enter plays it or shows the card, Esc closes the line; "
            "← → Home End Backspace Ctrl+U edit",
        ),
        Binding("W,w", _pick("W"), show=False, tooltip="Pick a white gem (W)"),
        Binding("U", _pick("U"), show=False, tooltip="Pick a blue gem (U; u too while taking)"),
        Binding("G,g", _pick("G"), show=False, tooltip="Pick a green gem (G)"),
        Binding("R", _pick("R"), show=False, tooltip="Pick a red gem (R; r too while taking)"),
        Binding("K", _pick("K"), show=False, tooltip="Pick a black gem (K; k too while taking)"),
        Binding("asterisk", "pick(5, False)", show=False, tooltip="Gold: says why it is not taken"),
        Binding("backspace", "unpick", show=False, tooltip="Put back the last gem or token chosen"),
        Binding("y", "answer(True)", show=False, tooltip="Leaving: yes, leave the game"),
        Binding("n", "answer(False)", show=False, tooltip="Leaving: no, stay"),
        Binding("u", "undo", "Undo", tooltip="Take back your last move (offline, against bots)"),
        Binding("i", "hint", "Hint", tooltip="What the medium bot would play now, and why"),
        Binding("tab", "area(1)", show=False, tooltip="Cursor to the players, moves, board"),
        Binding("shift+tab", "area(-1)", show=False, tooltip="The same, backwards"),
        Binding("up,k", "cursor(-1, 0)", show=False, tooltip="Cursor up"),
        Binding("down,j", "cursor(1, 0)", show=False, tooltip="Cursor down"),
        Binding("left,h", "cursor(0, -1)", show=False, tooltip="Cursor left"),
        Binding("right,l", "cursor(0, 1)", show=False, tooltip="Cursor right"),
        Binding("pageup", "page(-1)", show=False, tooltip="Moves: a page back"),
        Binding("pagedown", "page(1)", show=False, tooltip="Moves: a page on"),
        Binding("home", "page(-1000)", show=False, tooltip="Moves: the first"),
        Binding("end", "page(1000)", show=False, tooltip="Moves: the latest"),
        Binding(
            "p", "pass_turn", show=False, tooltip="Pass (only when no other move is possible, R12)"
        ),
        Binding("c", "chat", "Chat", tooltip="Say something to the table (/mute NAME, /bell)"),
        Binding("m", "next_game", show=False, tooltip="Your next game where it is your move"),
        Binding(
            "v",
            "vote_or_replay",
            show=False,
            tooltip="Vote to hand an absent player's seat to a bot; once the game is over: replay",
        ),
    ]

    # -- actions ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode = self.mode
        if mode == modes.QUIT:
            return action == "answer"
        if action == "answer":
            return False
        if action == "give":
            return mode == modes.RETURN
        if action == "rematch":
            return mode == modes.OVER and self.seat is not None
        if action in ("chat", "next_game"):
            return not self.splendor.local  # with nobody but bots offline
        if action == "vote_or_replay":  # votes online, during a game; a replay once over
            return mode == modes.OVER or not self.splendor.local
        if mode == modes.RETURN and action in ("pick", "reserve", "pass_turn"):
            return False
        if action == "pick" and len(parameters) == 2 and parameters[1]:
            return self.taking  # lowercase r, u and k pick gems only while taking
        return True

    def _refuse(self, reason: str) -> None:
        self.message = (reason, "error")
        self._prompt()

    def _ready(self) -> PlayerView | None:
        """The view if the player may choose a move now; else say why and return None."""
        view = self.view
        if view is None:
            return None
        if self.seat is not None and self.playing_seat is None:
            self._refuse("a bot plays your seat for the rest of this game")
            return None
        if self.waiting:
            self._refuse("waiting for the host to answer your move…")
            return None
        if not view.my_turn:
            self._refuse(model.why_not(view, Buy("1-01"), self.names))
            return None
        return view

    def _offer(self, move: Move) -> None:
        """Ask for Enter if `move` is legal; explain if it is not. The same key twice confirms."""
        view = self._ready()
        if view is None:
            return
        reason = model.check(view, move, self.names)
        if reason is not None:
            self._refuse(reason)
            return
        if self.pending == move:
            self._send(move)
            return
        self.taking, self.picked, self.message = False, [], None
        self.pending = move
        self._board()
        self._prompt()

    def _target(self) -> tuple[str, Any]:
        """What is under the board cursor: ("card", id), ("deck", level), ("gem", colour),
        ("noble", id) or ("none", None). Off the board, the card looked at, if any."""
        if self.area != BOARD:
            looked = self.looked_card()
            return ("look", looked) if looked is not None else ("none", None)
        r, c = self.cursor
        if r == faces.BANK_ROW:
            return "gem", c
        if r == faces.NOBLE_ROW:
            return "noble", c
        face = self.square(r, c)
        assert isinstance(face, CardFace)
        if face.kind == DECK:
            return "deck", face.level
        if face.card is not None:
            return "card", face.card
        return "none", None

    def action_buy(self) -> None:
        kind, target = self._target()
        if kind not in ("card", "look"):
            self._refuse("put the cursor on a card to buy it")
        else:
            self._offer(Buy(target))

    def action_reserve(self) -> None:
        kind, target = self._target()
        if kind == "deck":
            self._offer(ReserveDeck(target))
        elif kind == "card" and self.cursor[0] != faces.MINE_ROW:
            self._offer(Reserve(target))
        else:
            self._refuse("put the cursor on a face-up card or a deck to reserve it")

    def action_take(self) -> None:
        if self.taking and self.picked:
            self.action_confirm()
            return
        if self._ready() is None:
            return
        self.pending, self.message = None, None
        self.taking = True
        kind, target = self._target()
        if kind == "gem" and target < 5 and not self.picked:
            self.action_pick(target)
            return
        self._prompt()

    def action_pick(self, colour: int, in_take_mode_only: bool = False) -> None:
        view = self._ready()
        if view is None:
            return
        self.pending, self.message = None, None
        self.taking = True
        if colour == 5 or not model.can_extend(view, self.picked, colour):
            self._refuse(model.why_not_pick(view, self.picked, colour))
            return
        self.picked.append(colour)
        self._board()
        self._prompt()

    def action_give(self, colour: int) -> None:
        """R13: choose a token to give back; the cards show what you would then need."""
        view = self.view
        if view is None or view.me is None:
            return
        self.message = None
        excess = view.me.token_count - 10
        if len(self.giving) >= excess:
            self.message = (f"That is {excess} already: Enter returns them.", "error")
        elif self.giving.count(colour) >= view.me.tokens[colour]:
            self.message = (f"You hold no more {COLOUR_NAMES[colour]} to give back.", "error")
        else:
            self.giving.append(colour)
        self._cards()

    def action_unpick(self) -> None:
        if self.picked:
            self.picked.pop()
        elif self.giving:
            self.giving.pop()
        else:
            return
        self.message = None
        self._cards()

    def action_confirm(self) -> None:
        view = self.view
        if view is None:
            return
        mode = self.mode
        if mode == modes.OVER:
            self.splendor.leave_table()
            return
        if mode == modes.RETURN:
            self._return()
            return
        if self.pending is not None:
            self._send(self.pending)
        elif self.taking and self.picked:
            self._offer_take(model.take_of(self.picked))
        else:
            kind, target = self._target()
            if kind == "gem":
                self.action_pick(target)
            elif kind == "deck":
                self._offer(ReserveDeck(target))
            elif kind in ("card", "look"):
                on_board = kind == "card" and self.cursor[0] != faces.MINE_ROW
                legal = view.legal_moves
                if Buy(target) not in legal and on_board and Reserve(target) in legal:
                    self._refuse(model.why_not(view, Buy(target), self.names) + " · r reserves it")
                else:
                    self._offer(Buy(target))

    def _return(self) -> None:
        view = self.view
        assert view is not None and view.me is not None
        move = Return(tuple(sorted(self.giving)))
        if move in view.legal_moves:
            self._send(move)
            return
        excess = view.me.token_count - 10
        left = excess - len(self.giving)
        self._refuse(f"Choose {left} more: exactly {plural(excess, 'token')} go back (R13).")

    def _offer_take(self, move: Move) -> None:
        view = self._ready()
        if view is None:
            return
        reason = model.check(view, move, self.names)
        if reason is None:
            self._send(move)
        else:
            self._refuse(reason)

    def action_cancel(self) -> None:
        mode = self.mode
        if self.pending is not None or self.taking or self.giving:
            self._reset_choice()
            self.message = None
            self._cards()
            return
        if self.area != BOARD or self.looked is not None:
            self.area, self.looked = BOARD, None
            self._moved(everywhere=True)
            return
        if mode in (modes.WATCH, modes.OVER):
            self.splendor.leave_table()
            return
        if self.splendor.local:
            self.message = None
            self._prompt()
            return
        self.splendor.to_lobby()  # nothing open: to the lobby, keeping the seat

    def action_pass_turn(self) -> None:
        self._offer(parse_move("pass"))

    def action_vote_or_replay(self) -> None:
        if self.mode != modes.OVER:
            self.action_vote()
        else:
            self.splendor.send(AskRecord(self.table_id))
            self.message = ("fetching the game's record…", "")
            self._prompt()

    def action_undo(self) -> None:
        if not self.splendor.local:
            self._refuse("moves are taken back only in offline games against bots")
        elif self.view is None or not self.in_game:
            self._refuse("there is no game in progress to take a move back in")
        else:
            self.splendor.send(Undo())
            self.message = ("taking back your last move…", "")
            self._prompt()

    def action_hint(self) -> None:
        if not self.splendor.local:
            self._refuse("hints are only for offline games against bots")
        elif self._ready() is not None:
            self.splendor.send(Hint())
            self.message = ("asking the medium bot…", "")
            self._prompt()

    def ask_quit(self) -> None:
        """q or Ctrl+C in a game: ask on the prompt line (y leaves, n stays)."""
        self.quitting = True
        self._prompt()

    def on_key(self, event: events.Key) -> None:
        """While asking whether to leave, Enter and Esc answer too; else the move line's."""
        if self.quitting and event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            self.action_answer(event.key == "enter")
            return
        super().on_key(event)

    def action_answer(self, yes: bool) -> None:
        self.quitting = False
        if yes:
            self.app.exit()
        else:
            self._prompt()

    def _submit(self, text: str) -> None:
        """Enter on the move line: a card id shows that card; anything else is a move."""
        if not text:
            return
        looked = faces.card_id(text.removeprefix("show ").removeprefix("look "))
        if looked is not None:
            self.area, self.looked, self.message = BOARD, looked, None
            self._board()
            self._prompt()
            return
        try:
            move = parse_move(text)
        except SplendorError as e:
            self._refuse(str(e))
            return
        view = self._ready()
        if view is None:
            return
        reason = model.check(view, move, self.names)
        if reason is not None:
            self._refuse(f"`{move}`: {reason}")
        else:
            self._send(move)
