"""The lobby's language dialog (issue 34): every language in its own name, the reader's
first; Enter picks one, Esc keeps the one there is. It returns the language's code."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from shared.i18n import LANGUAGES, N_, _, current_language

from ..widgets.choice import Choice


class LanguageDialog(ModalScreen[str | None]):
    """Choose the language the game speaks to you in."""

    BINDINGS = [
        Binding("enter", "submit", N_("OK")),
        Binding("escape", "cancel", N_("Cancel")),
    ]

    def compose(self) -> ComposeResult:
        names = tuple(LANGUAGES.values())
        with Vertical(classes="dialog"):
            yield Static(_("Language"), classes="dialog-title")
            yield Choice("", names, LANGUAGES[current_language()], id="language")
            yield Static(
                _("Kept with your key: the next time you connect, the game speaks it too."),
                classes="dialog-text",
            )
            yield Static(
                _("[b]←→[/b]: change   [b]Enter[/b]: choose   [b]Esc[/b]: cancel"),
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        self.query_one(Choice).focus()

    def action_submit(self) -> None:
        name = self.query_one(Choice).value
        self.dismiss(next(code for code, own in LANGUAGES.items() if own == name))

    def action_cancel(self) -> None:
        self.dismiss(None)
