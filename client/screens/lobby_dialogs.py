"""The lobby's dialogs: create a table, start a quick game. Each returns the request to
send (`shared.protocol.Create` or `Quick`), or None."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from shared.protocol import BOT_LEVELS, Create, Quick

from ..widgets.choice import Choice, show_seats

OPEN = "open"


RATED, CASUAL = "rated", "casual"


class _Dialog(ModalScreen[Create | Quick | None]):
    """A lobby dialog; its last choice is rated or casual (a guest's default: casual,
    since guests are never rated)."""

    BINDINGS = [
        Binding("enter", "submit", "OK"),
        Binding("escape", "cancel", "Cancel"),
        Binding("down,j", "app.focus_next", "Next field", show=False),
        Binding("up,k", "app.focus_previous", "Previous field", show=False),
    ]

    def action_cancel(self) -> None:
        self.dismiss(None)

    def rated_choice(self) -> Choice:
        guest = getattr(self.app, "guest", False)
        return Choice("Game", (RATED, CASUAL), CASUAL if guest else RATED, id="rated")

    @property
    def rated(self) -> bool:
        return self.query_one("#rated", Choice).value == RATED


class CreateTableDialog(_Dialog):
    """Seats and, for each seat but yours, "open" (for a person) or a bot level."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Create a table", classes="dialog-title")
            yield Choice("Seats", ("2", "3", "4"), "2", id="seats")
            yield Choice("Seat 1", ("you",), id="seat1")
            for seat in range(2, 5):
                yield Choice(f"Seat {seat}", (OPEN, *BOT_LEVELS), OPEN, id=f"seat{seat}")
            yield self.rated_choice()
            yield Static(
                "[b]↑↓[/b]: field   [b]←→[/b]: change   [b]Enter[/b]: create   [b]Esc[/b]: cancel",
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#seat1", Choice).can_focus = False
        self.query_one("#seats", Choice).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "seats":
            self._show_seats()

    def _show_seats(self) -> None:
        show_seats(self, "seats", "seat")

    def action_submit(self) -> None:
        seats = int(self.query_one("#seats", Choice).value)
        bots: list[str | None] = [None]
        for seat in range(2, seats + 1):
            value = self.query_one(f"#seat{seat}", Choice).value
            bots.append(None if value == OPEN else value)
        self.dismiss(Create(seats, tuple(bots), rated=self.rated))


class QuickGameDialog(_Dialog):
    """Players and bot level for a game that starts at once."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Quick game against bots", classes="dialog-title")
            yield Choice("Players", ("2", "3", "4"), "2", id="players")
            yield Choice("Bots", BOT_LEVELS, "medium", id="level")
            yield self.rated_choice()
            yield Static(
                "[b]↑↓[/b]: field   [b]←→[/b]: change   [b]Enter[/b]: play   [b]Esc[/b]: cancel",
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        self.query_one("#players", Choice).focus()

    def action_submit(self) -> None:
        players = int(self.query_one("#players", Choice).value)
        level = self.query_one("#level", Choice).value
        self.dismiss(Quick(players, level, rated=self.rated))
