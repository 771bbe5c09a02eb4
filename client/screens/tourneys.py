"""The club's tournaments (docs/tournaments.md): the list, and one tournament's page with
its standings (rank, player, points, tie-breaks, games, each player's path) and every
round's tables, watchable while they play and replayable once over.

Each shows what the host answered (`Tourneys`, `TourneyPage`) and asks for more; `e`
enters, `x` withdraws (the host answers with the page again). Esc closes each one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from shared.clock import PRESETS, parse_time_control
from shared.i18n import N_, Text, _
from shared.protocol import AskRecord, Watch
from shared.tournament import FORMATS
from shared.tourney_messages import (
    AskTourney,
    AskTourneys,
    CreateTourney,
    EnterTourney,
    TourneyLine,
    TourneyPage,
    Tourneys,
    WithdrawTourney,
)

from ..widgets.choice import Choice
from ..widgets.keybar import KeyBar, Keys
from ..widgets.listing import TableList
from .club import BACK, _ClubScreen
from .lobby_dialogs import CASUAL, RATED, target_choice

LIST_COLUMNS = (
    (N_("Id"), 7), (N_("Name"), 0), (N_("Format"), 24), (N_("Status"), 9), (N_("In"), 4),
    (N_("Rnd"), 4),
)  # fmt: skip
ROW_COLUMNS = (
    ("#", 3), (N_("Player"), 14), (N_("Pts"), 5), (N_("Buch"), 5), (N_("W"), 3), (N_("G"), 3),
    (N_("Path"), 0),
)  # fmt: skip
if TYPE_CHECKING:
    from ..app import SplendorApp

STARTS = ("4", "6", "8", "9", "12", "16", "24", "32")  # entrants a tournament starts at
MOSTS = ("8", "16", "32", "64")  # the most entrants it takes
# when it starts even if fewer came: minutes from now (the Choice shows the words translated)
START_IN = {N_("none"): 0, N_("30 min"): 30, N_("60 min"): 60, N_("2 h"): 120, N_("1 d"): 1440}
TABLE_COLUMNS = ((N_("R"), 3), (N_("Game"), 7), (N_("State"), 10), (N_("Players / result"), 0))
STATES = {"playing": N_("playing"), "over": N_("over"), "abandoned": N_("abandoned")}
# a tournament's status as a player reads it (marked here, translated where shown)
STATUSES = {"open": N_("open"), "running": N_("running"), "done": N_("finished")}


def status_text(status: str) -> str:
    """A tournament's status in the reader's language."""
    return _(STATUSES[status]) if status in STATUSES else status


# the format choice shows its values translated (Choice): marked here for the catalog
_FORMAT_WORDS = (N_("swiss"), N_("round-robin"), N_("knockout"))
BOTS = (N_("no"), N_("may enter"))  # whether bot levels may enter (the values Choice shows)


def said(text: str, marked: Text | None) -> str:
    """A host's words in the reader's language when they came marked (issue 34)."""
    return str(marked) if marked is not None else text


def line_cells(t: TourneyLine) -> tuple[str, ...]:
    mark = " ✓" if t.entered else ""
    fmt = said(t.format, t.format_said)
    return (t.id, t.name + mark, fmt, status_text(t.status), str(t.entrants), str(t.round))


class CreateTourneyDialog(ModalScreen[CreateTourney | None]):
    """Announce a tournament: its name, format, rounds (a Swiss's), players a table, its
    tables' clock, when it starts, bots, rated or casual, the target (R15)."""

    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("down", "app.focus_next", N_("Next field"), show=False),
        Binding("up", "app.focus_previous", N_("Previous field"), show=False),
        Binding("enter", "submit", N_("Announce"), show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("Announce a tournament"), classes="dialog-title")
            yield Input(placeholder=_("its name"), max_length=40, id="name")
            yield Choice(_("Format"), FORMATS, "swiss", id="format")
            yield Choice(_("Rounds"), ("3", "4", "5", "6", "7"), "4", id="rounds")
            yield Choice(_("Seats"), ("2", "3", "4"), "2", id="seats")
            yield Choice(_("Clock"), PRESETS, "none", id="clock")
            yield Choice(_("Starts at"), STARTS, "8", id="start")
            yield Choice(_("Starts in"), tuple(START_IN), "none", id="start_in")
            yield Choice(_("Most"), MOSTS, "64", id="most")
            yield Choice(_("Bots"), BOTS, BOTS[0], id="bots")
            yield Choice(_("Game"), (CASUAL, RATED), CASUAL, id="rated")
            yield target_choice()
            yield Static(
                _("Rounds: a Swiss's (a round robin and a knockout make their own). Starts "
                  "at: how many entrants start it. A player who does not come loses."),
                classes="dialog-text",
            )  # fmt: skip
            yield Static(
                _(
                    "[b]↑↓[/b]: field   [b]←→[/b]: change   "
                    "[b]Enter[/b]: announce   [b]Esc[/b]: cancel"
                ),
                classes="dialog-keys",
            )  # fmt: skip

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        name = " ".join(self.query_one("#name", Input).value.split())
        if not name:
            self.notify(_("A tournament needs a name."), severity="error")
            return

        def value(key: str) -> str:
            return self.query_one(f"#{key}", Choice).value

        self.dismiss(
            CreateTourney(
                name,
                value("format"),
                int(value("rounds")),
                int(value("seats")),
                str(parse_time_control(value("clock"))),
                value("rated") == RATED,
                int(value("target")),
                int(value("start")),
                value("bots") == BOTS[1],
                int(value("most")),
                START_IN[value("start_in")],
            )  # fmt: skip
        )


class TourneyListScreen(_ClubScreen):
    """Every tournament: open and running first; ✓ marks those you are in."""

    BINDINGS = [
        *_ClubScreen.BINDINGS,
        Binding("enter", "open", N_("Open"), tooltip=N_("The selected tournament's page")),
        Binding("e", "enter", N_("Enter"), tooltip=N_("Enter the selected tournament")),
        Binding("n", "new", N_("Announce"), tooltip=N_("Announce a tournament")),
    ]
    KEYS: Keys = (
        ("", "↑ ↓", _("Select")),
        ("enter", "⏎", _("Open")),
        ("e", "e", _("Enter")),
        ("n", "n", _("Announce one")),
        BACK,
    )

    def __init__(self, listed: Tourneys) -> None:
        super().__init__()
        self.listed = listed

    def compose(self) -> ComposeResult:
        yield Static(id="club-title")
        yield TableList(LIST_COLUMNS, empty=_(" No tournaments yet: an admin announces them."))
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(KeyBar).show(self.KEYS)
        self.show(self.listed)

    def show(self, listed: Tourneys) -> None:
        self.listed = listed
        self.query_one("#club-title", Static).update(
            "[b #ffd23f]◆ " + _("Tournaments") + "[/] — " + _("✓: you are in it")
        )
        rows = [(t.id, line_cells(t)) for t in listed.items]
        self.query_one(TableList).show(rows)

    def action_open(self) -> None:
        selected = self.query_one(TableList).selected
        if selected is not None:
            self.splendor.send(AskTourney(selected))

    def action_enter(self) -> None:
        selected = self.query_one(TableList).selected
        if selected is not None:
            self.splendor.send(EnterTourney(selected))

    def action_new(self) -> None:
        self.app.push_screen(CreateTourneyDialog(), self._announce)

    def _announce(self, request: CreateTourney | None) -> None:
        if request is not None:
            self.splendor.send(request)


class TourneyScreen(_ClubScreen):
    """One tournament: standings above, the rounds' tables below (the latest first).
    Tab chooses which list the arrows move; w watches the selected table, v replays it."""

    BINDINGS = [
        *_ClubScreen.BINDINGS,
        Binding("tab", "switch", N_("Standings/tables"), tooltip=N_("Move in the other list")),
        Binding("e", "enter", N_("Enter"), tooltip=N_("Enter this tournament")),
        Binding("x", "withdraw", N_("Withdraw"), tooltip=N_("No more rounds for you")),
        Binding("w", "watch", N_("Watch"), tooltip=N_("Watch the selected table")),
        Binding("v,enter", "replay", N_("Replay"), tooltip=N_("Replay the selected table's game")),
    ]
    KEYS: Keys = (
        ("tab", "Tab", _("Lists")),
        ("e", "e", _("Enter")),
        ("x", "x", _("Withdraw")),
        ("w", "w", _("Watch")),
        ("v", "v", _("Replay")),
        BACK,
    )

    def __init__(self, page: TourneyPage) -> None:
        super().__init__()
        self.page = page
        self.on_tables = True  # the arrows move the tables' list

    def compose(self) -> ComposeResult:
        yield Static(id="club-title")
        yield Static(id="tourney-about")
        yield TableList(ROW_COLUMNS, empty=_(" Nobody has entered yet."), id="tourney-rows")
        yield TableList(TABLE_COLUMNS, empty=_(" No round has begun."), id="tourney-tables")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(KeyBar).show(self.KEYS)
        self.show(self.page)

    @property
    def tables(self) -> TableList:
        return self.query_one("#tourney-tables", TableList)

    def show(self, page: TourneyPage) -> None:
        self.page = page
        t = page.line
        state = (
            _("open, starts {when}", when=said(t.starts, t.starts_said))
            if t.status == "open"
            else status_text(t.status)
        )
        rnd = ", " + _("round {n}", n=t.round) if t.round else ""
        mine = " · ✓ " + _("you are in it") if t.entered else ""
        self.query_one("#club-title", Static).update(
            f"[b #ffd23f]◆ {escape(t.name)}[/] ({t.id}) — {said(t.format, t.format_said)} · "
            f"{state}{rnd}"
        )
        about = said(page.about, page.about_said)
        self.query_one("#tourney-about", Static).update(escape(about) + mine)
        me = self.splendor.player_name.lower()
        rows = []
        for r in page.rows:
            name = r.name + (" ✗" if r.out else "")
            path = " · ".join(str(s) for s in r.path_said) if r.path_said else r.path
            cells = (str(r.rank), name, r.points, r.buchholz, str(r.wins), str(r.games), path)
            rows.append((r.name.lower(), cells))
        self.query_one("#tourney-rows", TableList).show(rows, marked=me)
        tables = []
        for tb in page.tables:
            shown = tb.result if tb.state == "over" else ", ".join(tb.names)
            state = _(STATES[tb.state]) if tb.state in STATES else tb.state
            tables.append((tb.game, (str(tb.round), tb.game, state, shown)))
        self.tables.show(tables)

    def action_select(self, delta: int) -> None:
        which = self.tables if self.on_tables else self.query_one("#tourney-rows", TableList)
        which.move(delta)

    def action_switch(self) -> None:
        self.on_tables = not self.on_tables

    def action_enter(self) -> None:
        self.splendor.send(EnterTourney(self.page.line.id))

    def action_withdraw(self) -> None:
        self.splendor.send(WithdrawTourney(self.page.line.id))

    def _table(self) -> tuple[str, str] | None:
        game = self.tables.selected
        states = {tb.game: tb.state for tb in self.page.tables}
        return None if game is None else (game, states.get(game, ""))

    def action_watch(self) -> None:
        chosen = self._table()
        if chosen is not None and chosen[1] == "playing":
            self.splendor.send(Watch(chosen[0]))  # the host moves this session there
        elif chosen is not None:
            self.notify(_("That game is over: v replays it."))

    def action_replay(self) -> None:
        chosen = self._table()
        if chosen is not None and chosen[1] == "over":
            self.splendor.send(AskRecord(chosen[0]))
        elif chosen is not None:
            self.notify(_("That game has no record to replay yet: w watches it."))


async def show_tourneys(app: SplendorApp, msg: Tourneys | TourneyPage) -> None:
    """The tournaments list or a page from the host: shown where it is open, else opened
    if it was asked for (an answer that comes after its screen closed is dropped)."""
    screen = app.screen
    if isinstance(msg, Tourneys) and app.answered(AskTourneys):
        if isinstance(screen, TourneyListScreen):
            screen.show(msg)
        else:
            await app.push_screen(TourneyListScreen(msg))
    elif isinstance(msg, TourneyPage) and app.answered(AskTourney):
        if isinstance(screen, TourneyScreen) and screen.page.line.id == msg.line.id:
            screen.show(msg)
        else:
            await app.push_screen(TourneyScreen(msg))
