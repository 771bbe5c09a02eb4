"""A one-line, keyboard-only picker: ``Players  ◀ 3 ▶``; ←/→ (h/l) change the value."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from shared.i18n import N_, _

from .palette import DIM


class Choice(Widget, can_focus=True):
    """Pick one of `options` with the arrow keys; posts `Choice.Changed`."""

    DEFAULT_CSS = """
    Choice { height: 1; width: 1fr; padding: 0 1; }
    Choice:focus { background: #40506e; text-style: bold; }
    Choice.-hidden { display: none; }
    """

    BINDINGS = [
        Binding("left,h", "step(-1)", N_("Previous"), show=False),
        Binding("right,l,space", "step(1)", N_("Next"), show=False),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self,
        label: str,
        options: Sequence[str],
        value: str | None = None,
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        self.options = tuple(options)
        if value is not None and value in self.options:
            self.set_reactive(Choice.index, self.options.index(value))

    @property
    def value(self) -> str:
        return self.options[self.index]

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.options)
        self.post_message(self.Changed(self))

    def render(self) -> Text:
        out = Text(f"{self.label:<14}", style="bold")
        out.append("◀ ", style=DIM)
        out.append(f"{_(self.value):^8}", style="bold")  # the value's words, translated
        out.append(" ▶", style=DIM)
        return out


def show_seats(screen: Widget, count_id: str, seat_prefix: str) -> int:
    """Show the seat choices `#{seat_prefix}2` to `#{seat_prefix}4` that the player count
    in `#{count_id}` leaves room for, hide the others; the count."""
    count = int(screen.query_one(f"#{count_id}", Choice).value)
    for seat in range(2, 5):
        screen.query_one(f"#{seat_prefix}{seat}", Choice).set_class(seat > count, "-hidden")
    return count
