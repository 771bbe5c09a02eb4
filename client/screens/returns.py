"""The return-to-10 decision (R13) as a dialog that returns the `Return` move."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from shared.cards import COLOUR_NAMES, LETTERS
from shared.explain import plural
from shared.moves import Return

from ..widgets.palette import DIM, chip


class ReturnTokens(ModalScreen[Return]):
    """Choose which tokens go back to the bank. It can't be skipped: it is still your turn."""

    BINDINGS = [
        Binding("w,W", "add(0)", "Return a white"),
        Binding("u,U", "add(1)", "Return a blue"),
        Binding("g,G", "add(2)", "Return a green"),
        Binding("r,R", "add(3)", "Return a red"),
        Binding("k,K", "add(4)", "Return a black"),
        Binding("asterisk,o", "add(5)", "Return a gold"),
        Binding("left,h", "cursor(-1)", "Move between piles", show=False),
        Binding("right,l", "cursor(1)", show=False),
        Binding("space", "add_here", "Return the token under the cursor", show=False),
        Binding("backspace", "undo", "Take back the last token chosen"),
        Binding("escape", "clear", "Clear the choice"),
        Binding("enter", "confirm", "Return the chosen tokens"),
    ]

    def __init__(self, tokens: tuple[int, ...], legal: tuple[Return, ...]) -> None:
        super().__init__()
        self.tokens = tokens
        self.legal = legal
        self.excess = sum(tokens) - 10
        self.chosen: list[int] = []
        self.cursor = max(range(6), key=lambda c: tokens[c])
        self.message = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="return-dialog"):
            yield Static(
                f"You hold {sum(self.tokens)} tokens: return {plural(self.excess, 'token')} (R13)",
                classes="dialog-title",
            )
            yield Static(id="return-piles")
            yield Static(id="return-message", classes="dialog-text")
            yield Static(
                "[b]w u g r k *[/b]: choose a token   [b]Backspace[/b]: undo   "
                "[b]Esc[/b]: clear   [b]Enter[/b]: return them",
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        piles = Text()
        for c in range(6):
            held = self.tokens[c]
            back = self.chosen.count(c)
            mark = "▶" if c == self.cursor else " "
            piles.append(mark, style="bold")
            piles.append_text(chip(c, f" {LETTERS[c]} "))
            piles.append(f" {held - back}", style="bold" if held - back else DIM)
            piles.append(f" -{back}" if back else "   ", style="bold #ffd23f")
            piles.append("  ")
        self.query_one("#return-piles", Static).update(piles)
        left = self.excess - len(self.chosen)
        chosen = " ".join(LETTERS[c] for c in sorted(self.chosen)) or "nothing yet"
        if self.message:
            text = self.message
        elif left:
            text = f"Chosen: {chosen}. Choose {left} more."
        else:
            text = f"Chosen: {chosen}. Enter returns them."
        self.query_one("#return-message", Static).update(text)

    def action_add(self, colour: int) -> None:
        self.message = ""
        if len(self.chosen) >= self.excess:
            self.message = f"That is {plural(self.excess, 'token')} already: Enter returns them."
        elif self.chosen.count(colour) >= self.tokens[colour]:
            self.message = f"You hold no more {COLOUR_NAMES[colour]} to return."
        else:
            self.chosen.append(colour)
        self._refresh()

    def action_cursor(self, step: int) -> None:
        self.cursor = (self.cursor + step) % 6
        self._refresh()

    def action_add_here(self) -> None:
        self.action_add(self.cursor)

    def action_undo(self) -> None:
        self.message = ""
        if self.chosen:
            self.chosen.pop()
        self._refresh()

    def action_clear(self) -> None:
        self.message = ""
        self.chosen.clear()
        self._refresh()

    def action_confirm(self) -> None:
        move = Return(tuple(sorted(self.chosen)))
        if move in self.legal:
            self.dismiss(move)
            return
        left = self.excess - len(self.chosen)
        self.message = f"Choose {left} more: exactly {plural(self.excess, 'token')} go back (R13)."
        self._refresh()
