"""The lobby's dialogs: create a table, start a quick game, invite a player. Each returns
the request to send (`shared.protocol.Create` or `Quick`; a name for `Invite`), or None."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from shared.clock import PRESETS, parse_time_control
from shared.i18n import N_, _
from shared.protocol import BOT_LEVELS, Create, Quick
from shared.settings import TARGETS

from ..widgets.choice import Choice, show_seats
from .club import _AskDialog

OPEN = N_("open")
PLAYER = N_("a player")  # a seat held for the player named below it (an invitation)
PATIENCE = (
    N_("2 min"),
    N_("5 min"),
    N_("10 min"),
    N_("30 min"),
    N_("60 min"),
)  # before absent players' vote


RATED, CASUAL = N_("rated"), N_("casual")
NO_CLOCK = N_("none")  # the first clock a dialog offers (`shared.clock.PRESETS`)


def target_choice() -> Choice:
    """The points that start the final round (R15): the rules' 15 first, then longer games."""
    return Choice(_("Play to"), tuple(map(str, TARGETS)), id="target")


class _Dialog(ModalScreen[Create | Quick | None]):
    """A lobby dialog; its last choice is rated or casual (a guest's default: casual,
    since guests are never rated)."""

    BINDINGS = [
        Binding("enter", "submit", N_("OK")),
        Binding("escape", "cancel", N_("Cancel")),
        Binding("down,j", "app.focus_next", N_("Next field"), show=False),
        Binding("up,k", "app.focus_previous", N_("Previous field"), show=False),
    ]

    def action_cancel(self) -> None:
        self.dismiss(None)

    def rated_choice(self) -> Choice:
        guest = getattr(self.app, "guest", False)
        return Choice(_("Game"), (RATED, CASUAL), CASUAL if guest else RATED, id="rated")

    @property
    def rated(self) -> bool:
        return self.query_one("#rated", Choice).value == RATED

    @property
    def target(self) -> int:
        """The prestige that starts the final round (R15): the rules' 15, or longer."""
        return int(self.query_one("#target", Choice).value)


class CreateTableDialog(_Dialog):
    """Seats and, for each seat but yours, "open" (for a person), a bot level, or "a
    player" named in the line that then shows below it (invited: their seat is held)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("Create a table"), classes="dialog-title")
            yield Choice(_("Seats"), ("2", "3", "4"), "2", id="seats")
            yield Choice(_("Seat 1"), (N_("you"),), id="seat1")
            for seat in range(2, 5):
                yield Choice(
                    _("Seat {seat}", seat=seat), (OPEN, *BOT_LEVELS, PLAYER), OPEN, id=f"seat{seat}"
                )
                yield Input(
                    placeholder=_("the player's name"),
                    max_length=16,
                    compact=True,
                    id=f"name{seat}",
                    classes="seat-name -hidden",
                )
            yield Choice(_("Clock"), PRESETS, NO_CLOCK, id="clock")
            yield Choice(_("Patience"), PATIENCE, "10 min", id="patience")
            yield self.rated_choice()
            yield target_choice()
            yield Static(
                _(
                    "Clock: 5+10 is 5 minutes each and 10 s more a move; 3d is 3 days a move. "
                    "Patience: how long a player may be away before the others may vote a bot "
                    "into their seat (no clock). Play to: the prestige that starts the final "
                    "round (R15); 21 is a longer game."
                ),
                classes="dialog-text",
            )
            yield Static(self._keys(False), classes="dialog-keys", id="create-keys")

    @staticmethod
    def _keys(naming: bool) -> str:
        """The dialog's keys; on an invited player's name, that it is typed there."""
        if naming:
            return _("Type the player's name.  [b]Enter[/b]: create   [b]↑[/b]: back")
        return _("[b]↑↓[/b]: field   [b]←→[/b]: change   [b]Enter[/b]: create   [b]Esc[/b]: cancel")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        naming = isinstance(event.widget, Input)
        self.query_one("#create-keys", Static).update(self._keys(naming))

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#seat1", Choice).can_focus = False
        self.query_one("#seats", Choice).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "seats" or (event.choice.id or "").startswith("seat"):
            self._show_seats()
        if event.choice.id == "clock":  # a clock sees to absent players itself
            timed = event.choice.value != "none"
            self.query_one("#patience", Choice).set_class(timed, "-hidden")

    def _show_seats(self) -> None:
        """The seats the count leaves room for; below each "a player", its name's line."""
        count = show_seats(self, "seats", "seat")
        for seat in range(2, 5):
            invited = seat <= count and self.query_one(f"#seat{seat}", Choice).value == PLAYER
            self.query_one(f"#name{seat}", Input).set_class(not invited, "-hidden")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        seats = int(self.query_one("#seats", Choice).value)
        bots: list[str | None] = [None]
        invite: list[str | None] = [None]
        for seat in range(2, seats + 1):
            value = self.query_one(f"#seat{seat}", Choice).value
            name = self.query_one(f"#name{seat}", Input).value.strip() if value == PLAYER else ""
            if value == PLAYER and not name:
                self.notify(_("Seat {seat}: type the name of the player you invite.", seat=seat))
                return
            bots.append(None if value in (OPEN, PLAYER) else value)
            invite.append(name or None)
        clock = parse_time_control(self.query_one("#clock", Choice).value)
        patience = int(self.query_one("#patience", Choice).value.split()[0])
        rated, target = self.rated, self.target
        invited = tuple(invite) if any(invite) else ()  # an older host knows no `invite`
        create = Create(seats, tuple(bots), None, rated, clock, patience, target, invited)
        self.dismiss(create)


class QuickGameDialog(_Dialog):
    """Players and bot level for a game that starts at once."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("Quick game against bots"), classes="dialog-title")
            yield Choice(_("Players"), ("2", "3", "4"), "2", id="players")
            yield Choice(_("Bots"), BOT_LEVELS, "medium", id="level")
            yield Choice(_("Clock"), PRESETS, NO_CLOCK, id="clock")
            yield self.rated_choice()
            yield target_choice()
            yield Static(
                _("[b]↑↓[/b]: field   [b]←→[/b]: change   [b]Enter[/b]: play   [b]Esc[/b]: cancel"),
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        self.query_one("#players", Choice).focus()

    def action_submit(self) -> None:
        players = int(self.query_one("#players", Choice).value)
        clock = parse_time_control(self.query_one("#clock", Choice).value)
        level = self.query_one("#level", Choice).value
        self.dismiss(Quick(players, level, clock=clock, rated=self.rated, target=self.target))


class InviteDialog(_AskDialog):
    """The name of a player to invite to the table one hosts (its first open seat)."""

    TITLE = N_("Invite a player")
    PLACEHOLDER = N_("the player's name")
    KEYS = N_(
        "Their seat is held for them until they accept ([b]j[/b]) or decline "
        "([b]l[/b]).  [b]Enter[/b]: invite  [b]Esc[/b]: cancel"
    )
