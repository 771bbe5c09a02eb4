"""The setup screen for offline play: how many players, each bot's level, the points that
end the game (R15), the seed."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from shared.i18n import N_, _
from shared.protocol import BOT_LEVELS, MAX_SEED
from shared.settings import TARGETS

from ..widgets.choice import Choice, show_seats
from ..widgets.footer import ReadersFooter


@dataclass(frozen=True, slots=True)
class GameSetup:
    """An offline game: the player count, a bot level per other seat, the seed (None:
    random), the prestige that starts the final round (R15: one of `TARGETS`)."""

    players: int = 2
    bots: tuple[str, ...] = ("medium",)
    seed: int | None = None
    target: int = TARGETS[0]

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise ValueError(_("Splendor is for 2 to 4 players"))
        if len(self.bots) != self.players - 1:
            raise ValueError(
                _(
                    "{players} players need {bots} bots",
                    players=self.players,
                    bots=self.players - 1,
                )
            )
        for level in self.bots:
            if level not in BOT_LEVELS:
                raise ValueError(
                    _(
                        "unknown bot level {level!r}: {levels}",
                        level=level,
                        levels=", ".join(BOT_LEVELS),
                    )
                )
        if self.seed is not None and not 0 <= self.seed < MAX_SEED:
            raise ValueError(_("a seed is an integer from 0 to {most}", most=MAX_SEED - 1))
        if self.target not in TARGETS:
            raise ValueError(
                _(
                    "a game is to {targets} or {last} points (R15)",
                    targets=", ".join(map(str, TARGETS[:-1])),
                    last=TARGETS[-1],
                )
            )


BANNER = N_("""\
[b #ffd23f]◆ S P L E N D O R ◆[/]
[#8a8f98]a game of gem merchants — you against the bots[/]""")


class SetupScreen(Screen[GameSetup | None]):
    """Returns the `GameSetup` chosen (None: the player left)."""

    BINDINGS = [
        Binding("enter", "start", N_("Start")),
        Binding("escape", "leave", N_("Quit")),
        Binding("down,j", "app.focus_next", N_("Next field"), show=False),
        Binding("up,k", "app.focus_previous", N_("Previous field"), show=False),
    ]

    def __init__(self, initial: GameSetup | None = None) -> None:
        super().__init__()
        self.initial = initial or GameSetup()

    def compose(self) -> ComposeResult:
        init = self.initial
        with Vertical(classes="dialog", id="setup"):
            yield Static(_(BANNER), classes="banner")
            yield Static(_("New local game"), classes="dialog-title")
            yield Choice(_("Players"), ("2", "3", "4"), str(init.players), id="players")
            for seat in range(2, 5):
                level = init.bots[seat - 2] if seat - 2 < len(init.bots) else "medium"
                yield Choice(_("Seat {seat} bot", seat=seat), BOT_LEVELS, level, id=f"bot{seat}")
            yield Static(_("Seed (blank: random)"), classes="field-label")
            yield Input(
                "" if init.seed is None else str(init.seed),
                placeholder=_("random"),
                restrict=r"\d*",
                max_length=20,
                compact=True,
                id="seed",
            )
            yield Choice(_("Play to"), tuple(map(str, TARGETS)), str(init.target), id="target")
            yield Static(id="setup-error", classes="dialog-text")
            yield Static(
                _("[b]↑↓[/b]: field   [b]←→[/b]: change   [b]Enter[/b]: start   [b]Esc[/b]: quit"),
                classes="dialog-keys",
            )
        yield ReadersFooter()

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#players", Choice).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "players":
            self._show_seats()

    def _show_seats(self) -> None:
        show_seats(self, "players", "bot")

    def setup(self) -> GameSetup:
        """The game the fields describe; ValueError if the seed is out of range."""
        players = int(self.query_one("#players", Choice).value)
        bots = tuple(self.query_one(f"#bot{seat}", Choice).value for seat in range(2, players + 1))
        text = self.query_one("#seed", Input).value.strip()
        target = int(self.query_one("#target", Choice).value)
        return GameSetup(players, bots, int(text) if text else None, target)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    def action_start(self) -> None:
        try:
            setup = self.setup()
        except ValueError as e:
            self.query_one("#setup-error", Static).update(_("[b red]{e}[/]", e=e))
            return
        self.dismiss(setup)

    def action_leave(self) -> None:
        self.dismiss(None)
