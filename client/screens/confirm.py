"""A yes/no question as a modal screen: `Confirm(question)` returns a bool."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class Confirm(ModalScreen[bool]):
    """Ask one question; y or Enter answers yes, n or Esc answers no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-title")
            if self.detail:
                yield Static(self.detail, classes="dialog-text")
            yield Static("[b]y[/b] / Enter: yes    [b]n[/b] / Esc: no", classes="dialog-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
