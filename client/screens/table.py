"""The game table, played with the keyboard alone (issue 4, item 4).

Keys turn into a move only when the move is among the view's legal moves;
otherwise the prompt line says why. `TableView` (table_view.py) draws the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.binding import Binding

from shared.errors import SplendorError
from shared.moves import Buy, Move, Reserve, ReserveDeck, parse_move
from shared.view import PlayerView

from .. import faces, model
from ..widgets.tiles import DECK, CardFace
from .table_view import GEMS, TableView


def _pick(letter: str, in_take_mode_only: bool = False) -> str:
    return f"pick({GEMS.index(letter)}, {in_take_mode_only})"


class TableScreen(TableView):
    """The table with its keys: cursor, buy, reserve, take, confirm, cancel, the move line."""

    BINDINGS = [
        Binding(
            "b", "buy", "Buy", tooltip="Buy the card under the cursor (b again or Enter confirms)"
        ),
        Binding("r", _pick("R", True), show=False, tooltip="While taking: pick red"),
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
            tooltip="Type a move (take W U G, buy 1-07, reserve deck 2): Enter plays it, "
            "Esc closes the line; ← → Home End Backspace Ctrl+U edit",
        ),
        Binding("W,w", _pick("W"), show=False, tooltip="Pick a white gem (W)"),
        Binding("U,u", _pick("U"), show=False, tooltip="Pick a blue gem (U)"),
        Binding("G,g", _pick("G"), show=False, tooltip="Pick a green gem (G)"),
        Binding("R", _pick("R"), show=False, tooltip="Pick a red gem (R; r too while taking)"),
        Binding("K", _pick("K"), show=False, tooltip="Pick a black gem (K; k too while taking)"),
        Binding("k", _pick("K", True), show=False),
        Binding("asterisk", "pick(5, False)", show=False, tooltip="Gold: says why it is not taken"),
        Binding("backspace", "unpick", show=False, tooltip="Put back the last gem picked"),
        Binding("up,k", "cursor(-1, 0)", show=False, tooltip="Cursor up"),
        Binding("down,j", "cursor(1, 0)", show=False, tooltip="Cursor down"),
        Binding("left,h", "cursor(0, -1)", show=False, tooltip="Cursor left"),
        Binding("right,l", "cursor(0, 1)", show=False, tooltip="Cursor right"),
        Binding(
            "p", "pass_turn", show=False, tooltip="Pass (only when no other move is possible, R12)"
        ),
    ]

    # -- actions ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and len(parameters) == 2 and parameters[1]:
            return self.taking  # lowercase r and k pick gems only while taking
        return True

    def _refuse(self, reason: str) -> None:
        self.message = (reason, "error")
        self._prompt()

    def _ready(self) -> PlayerView | None:
        """The view if the player may choose a move now; else say why and return None."""
        view = self.view
        if view is None:
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
        """What is under the cursor: ("card", id), ("deck", level), ("gem", colour) or "none"."""
        r, c = self.cursor
        if r == faces.BANK_ROW:
            return "gem", c
        face = self.square(r, c)
        assert isinstance(face, CardFace)
        if face.kind == DECK:
            return "deck", face.level
        if face.card is not None:
            return "card", face.card
        return "none", None

    def action_cursor(self, dr: int, dc: int) -> None:
        r, c = self.cursor
        lengths = faces.ROW_LENGTHS
        if dr:
            r = (r + dr) % len(lengths)
            if r == faces.MINE_ROW and self.mine is None:
                r = (r + dr) % len(lengths)
        c = min(c, lengths[r] - 1) if dr else (c + dc) % lengths[r]
        self.cursor = (r, c)
        if self.message and self.message[1] == "error":
            self.message = None
        self._board()
        self._prompt()

    def action_buy(self) -> None:
        kind, target = self._target()
        if kind != "card":
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

    def action_unpick(self) -> None:
        if self.picked:
            self.picked.pop()
            self.message = None
            self._board()
            self._prompt()

    def action_confirm(self) -> None:
        view = self.view
        if view is None:
            return
        if view.is_over:
            self._show_results()
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
            elif kind == "card":
                on_board = self.cursor[0] != faces.MINE_ROW
                legal = view.legal_moves
                if Buy(target) not in legal and on_board and Reserve(target) in legal:
                    self._refuse(model.why_not(view, Buy(target), self.names) + " · r reserves it")
                else:
                    self._offer(Buy(target))

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
        if self.pending is not None or self.taking:
            self._reset_choice()
            self.message = None
            self._board()
        elif self.seat is None or (self.view is not None and self.view.is_over):
            self.splendor.leave_table()
            return
        else:
            self.message = None
        self._prompt()

    def action_pass_turn(self) -> None:
        self._offer(parse_move("pass"))

    def action_command(self) -> None:
        self._edit(("", 0))

    def _edit(self, line: tuple[str, int] | None) -> None:
        self.command = line
        self.prompt_line.edit(line)

    def on_key(self, event: events.Key) -> None:
        """While the move line is open every key edits it; the table's keys wait.

        ":" opens the line here too, not only through its binding: keys typed quickly
        (or pasted) reach this handler in order, before any binding runs, so the keys
        after ":" must already find the line open."""
        if self.command is None:
            if event.key == "colon":
                event.stop()
                event.prevent_default()
                self.action_command()
            return
        event.stop()
        event.prevent_default()
        text, caret = self.command
        key = event.key
        if key == "enter":
            self._edit(None)
            self._submit(text.strip())
        elif key == "escape":
            self._edit(None)  # the prompt line shows again, with any notice that came meanwhile
            self._prompt()
        elif key in EDITING:
            self._edit(EDITING[key](text, caret))
        elif event.is_printable and event.character and len(text) < COMMAND_LIMIT:
            self._edit((text[:caret] + event.character + text[caret:], caret + 1))

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text goes on the move line (opened if need be), as if typed; Enter plays it."""
        event.stop()
        text = "".join(ch for ch in " ".join(event.text.split()) if ch.isprintable())
        line, caret = self.command or ("", 0)
        text = text[: COMMAND_LIMIT - len(line)]
        if text:
            self._edit((line[:caret] + text + line[caret:], caret + len(text)))

    def _submit(self, text: str) -> None:
        if not text:
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


COMMAND_LIMIT = 60  # characters on the move line: any move is far shorter
# Editing keys on the move line: (text, caret) -> (text, caret).
EDITING: dict[str, Callable[[str, int], tuple[str, int]]] = {
    "backspace": lambda t, i: (t[: i - 1] + t[i:], i - 1) if i else (t, i),
    "delete": lambda t, i: (t[:i] + t[i + 1 :], i),
    "left": lambda t, i: (t, max(0, i - 1)),
    "right": lambda t, i: (t, min(len(t), i + 1)),
    "home": lambda t, i: (t, 0),
    "ctrl+a": lambda t, i: (t, 0),
    "end": lambda t, i: (t, len(t)),
    "ctrl+e": lambda t, i: (t, len(t)),
    "ctrl+u": lambda t, i: (t[i:], 0),
    "ctrl+k": lambda t, i: (t[:i], i),
}
