"""The lobby: tables waiting and in progress, who is online, and the table you sit at.

It renders the host's "lobby" messages and sends the lobby commands
(`shared.protocol`: create, join, leave, start, watch, quick).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from shared.protocol import CREATE, JOIN, LEAVE, QUICK, START, WATCH

from ..widgets.listing import NameList, TableList
from .lobby_dialogs import CreateTable, CreateTableDialog, QuickGame, QuickGameDialog

if TYPE_CHECKING:
    from ..app import SplendorApp

Table = Mapping[str, Any]
COLUMNS = (("Table", 7), ("Host", 12), ("Status", 9), ("Seats", 34), ("Turn", 5))


def seat_label(seat: Mapping[str, Any]) -> str:
    """A seat in a table summary: the player's name, "easy bot", or "open"."""
    if seat.get("name"):
        away = "" if seat.get("connected", True) else " (away)"
        return f"{seat['name']}{away}"
    if seat.get("bot"):
        return f"{seat['bot']} bot"
    return "open"


def my_table(lobby: Mapping[str, Any], me: str) -> Table | None:
    """The waiting table this player sits at: from the lobby's ``mine`` ids when the host
    sends them, else the waiting table with a seat named `me`."""
    mine = lobby.get("mine")
    for table in lobby.get("tables", ()):
        if table.get("status") != "waiting":
            continue
        if mine is not None and str(table["id"]) in {str(m) for m in mine}:
            return cast(Table, table)
        if mine is None and any(s.get("name") == me for s in table["seats"]):
            return cast(Table, table)
    return None


def holds_seat(lobby: Mapping[str, Any], table: Table, me: str) -> bool:
    """Whether this player has a seat at `table` (a game to rejoin)."""
    mine = lobby.get("mine")
    if mine is not None:
        return str(table["id"]) in {str(m) for m in mine}
    return any(s.get("name") == me for s in table["seats"])


class LobbyScreen(Screen[None]):
    """Lists the tables; Enter joins a waiting table or watches a game in progress."""

    BINDINGS = [
        Binding("enter", "open", "Join/watch", show=False),
        Binding("up", "select(-1)", show=False),
        Binding("down", "select(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "select(-1000000)", show=False),
        Binding("end", "select(1000000)", show=False),
        Binding("c", "create", "Create table"),
        Binding("j", "join", "Join"),
        Binding("w", "watch", "Watch"),
        Binding("g", "quick", "Quick game"),
        Binding("s", "start", "Start"),
        Binding("l", "leave", "Leave table"),
    ]

    def __init__(self, lobby: Mapping[str, Any]) -> None:
        super().__init__()
        self.lobby = lobby
        self._shown: tuple[str, str, Mapping[str, Any]] | None = None  # what show() drew
        self._statics: dict[str, str | Text] = {}  # each Static's content as shown

    @property
    def splendor(self) -> SplendorApp:
        return cast("SplendorApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        with Horizontal(id="lobby-main"):
            with Vertical(id="lobby-tables"):
                yield Static("Tables", classes="section-title")
                yield TableList(COLUMNS, id="tables")
            with Vertical(id="lobby-online"):
                yield Static("Online", classes="section-title")
                yield NameList(id="online")
        yield Static(id="my-table")
        yield Footer()

    def on_mount(self) -> None:
        self.tables = self.query_one(TableList)
        self.online = self.query_one(NameList)
        self.show(self.lobby)

    def show(self, lobby: Mapping[str, Any]) -> None:
        """Render a "lobby" message; only what changed is redrawn (a turn: one line)."""
        self.lobby = lobby
        me = self.splendor.player_name
        guest = " (guest)" if self.splendor.guest else ""
        key = (me, guest, lobby)
        if key == self._shown:
            return  # the same lobby again: nothing to redraw
        self._shown = key
        self._update_static(
            "#lobby-title", f"[b #ffd23f]◆ Splendor[/] lobby — you are [b]{me}[/]{guest}"
        )
        tables: Sequence[Table] = lobby.get("tables", ())
        rows: list[tuple[str, tuple[str, ...]]] = []
        for t in tables:
            status = str(t.get("status", ""))
            seats = ", ".join(seat_label(s) for s in t["seats"])
            turn = str(t.get("turn") or "") if status == "playing" else ""
            if status == "playing" and holds_seat(lobby, t, me):
                status = "your game"
            rows.append((str(t["id"]), (str(t["id"]), str(t.get("host", "")), status, seats, turn)))
        self.tables.show(rows)
        self.online.show(lobby.get("online", ()))
        self._show_mine(my_table(lobby, me))

    def _update_static(self, selector: str, content: str | Text) -> None:
        """`Static.update` only when the content differs from what the widget shows."""
        if self._statics.get(selector) == content:
            return
        self._statics[selector] = content
        self.query_one(selector, Static).update(content, layout=False)  # fixed heights

    def _show_mine(self, table: Table | None) -> None:
        if table is None:
            self._update_static(
                "#my-table",
                "[#8a8f98]You are not at a table. [b]c[/b] creates one, [b]j[/b] joins the "
                "selected one, [b]g[/b] plays at once against bots.[/]",
            )
            return
        me = self.splendor.player_name
        seats = "   ".join(
            f"{i + 1}. {seat_label(s)}{' (you)' if s.get('name') == me else ''}"
            for i, s in enumerate(table["seats"])
        )
        host = table.get("host")
        action = "[b]s[/b] starts the game" if host == me else f"waiting for {host} to start"
        self._update_static(
            "#my-table",
            f"[b]Your table {table['id']}[/b] (waiting)  {seats}\n{action} · [b]l[/b] leaves",
        )

    def selected_id(self) -> str | None:
        return self.tables.selected

    def _selected(self) -> Table | None:
        selected = self.selected_id()
        for t in self.lobby.get("tables", ()):
            if str(t["id"]) == selected:
                return cast(Table, t)
        return None

    # -- actions ----------------------------------------------------------------

    def action_select(self, delta: int) -> None:
        self.tables.move(delta)

    def action_page(self, direction: int) -> None:
        self.tables.move(direction * self.tables.page)

    def on_table_list_chosen(self, event: TableList.Chosen) -> None:
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        table = self._selected()
        if table is None:
            self.notify("No table selected: c creates one.")
        elif table.get("status") == "waiting" or self._rejoin(table):
            self.action_join()
        else:
            self.action_watch()

    def _rejoin(self, table: Table) -> bool:
        return table.get("status") == "playing" and holds_seat(
            self.lobby, table, self.splendor.player_name
        )

    def action_join(self) -> None:
        table = self._selected()
        if table is None:
            self.notify("No table selected.")
        elif self._rejoin(table):
            self.splendor.send(JOIN, table=str(table["id"]))  # back to your seat
        elif table.get("status") != "waiting":
            self.notify(f"Table {table['id']} is not waiting for players: w watches it.")
        elif not any(s.get("name") is None and s.get("bot") is None for s in table["seats"]):
            self.notify(f"Table {table['id']} has no open seat.")
        else:
            self.splendor.send(JOIN, table=str(table["id"]))

    def action_watch(self) -> None:
        table = self._selected()
        if table is None:
            self.notify("No table selected.")
        elif table.get("status") != "playing":
            self.notify(f"Table {table['id']} has no game in progress to watch.")
        else:
            self.splendor.send(WATCH, table=str(table["id"]))

    def action_create(self) -> None:
        self.app.push_screen(CreateTableDialog(), self._requested)

    def action_quick(self) -> None:
        self.app.push_screen(QuickGameDialog(), self._requested)

    def _requested(self, request: CreateTable | QuickGame | None) -> None:
        if isinstance(request, CreateTable):
            self.splendor.send(CREATE, seats=request.seats, bots=request.bots)
        elif isinstance(request, QuickGame):
            self.splendor.send(QUICK, players=request.players, level=request.level)

    def action_start(self) -> None:
        mine = my_table(self.lobby, self.splendor.player_name)
        if mine is None:
            self.notify("You are not at a waiting table.")
        elif mine.get("host") != self.splendor.player_name:
            self.notify(f"Only {mine.get('host')}, who made the table, can start it.")
        else:
            self.splendor.send(START)

    def action_leave(self) -> None:
        if my_table(self.lobby, self.splendor.player_name) is None:
            self.notify("You are not at a table.")
        else:
            self.splendor.send(LEAVE)
