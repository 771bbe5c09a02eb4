"""The lobby: tables waiting and in progress, who is online, the table you sit at, the
games where it is your move, and the lobby's chat.

It renders the host's "lobby" and "chat" messages and sends the lobby commands
(`shared.protocol`: create, join, leave, start, watch, quick, say, next game).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.console import Group
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from shared.chat import MAX_CHAT
from shared.constants import WINNING_PRESTIGE
from shared.i18n import N_, _, ngettext
from shared.players import bot_player, bot_shown
from shared.protocol import (
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Create,
    Join,
    Leave,
    LobbyList,
    NextGame,
    Quick,
    Say,
    SeatSummary,
    Start,
    TableStatus,
    TableSummary,
    Watch,
)
from shared.settings import target_text
from shared.social import LOBBY
from shared.tourney_messages import AskTourneys

from ..editing import edited, pasted
from ..widgets.chatbox import ChatBox
from ..widgets.keybar import KeyBar, Keys
from ..widgets.listing import NameList, Row, TableList
from .club import GameIdDialog, PlayerPicker, candidates
from .help import key_page
from .language import LanguageDialog
from .lobby_dialogs import CreateTableDialog, QuickGameDialog

if TYPE_CHECKING:
    from ..app import SplendorApp

COLUMNS = (  # 0: the rest
    (N_("Table"), 7),
    (N_("Host"), 7),
    (N_("Status"), 9),
    (N_("Game"), 9),  # rated or casual, and a target other than the rules' 15 (R15)
    (N_("Seats"), 0),
    (N_("Clock"), 5),
    (N_("Turn"), 5),
)
CLUB: Keys = (("r", "r", N_("Ranks")), ("p", "p", N_("Profile")), ("v", "v", N_("Replay")))
LANGUAGE_KEY = ("L", "L", N_("Language"))
END: Keys = (LANGUAGE_KEY, ("question_mark", "?", N_("Help")), ("q", "q", N_("Quit")))
OPEN, TALK = ("enter", "⏎", N_("Open")), ("t", "t", N_("Chat"))
JOINS: Keys = (
    ("j", "j", N_("Join")),
    ("w", "w", N_("Watch")),
    ("g", "g", N_("Quick")),
    ("c", "c", N_("Create")),
)
KEYS: Keys = (OPEN, *JOINS, TALK, *CLUB, *END)  # not at a table
KEYS_AT_TABLE: Keys = (OPEN, ("l", "l", N_("Leave")), TALK, *CLUB, *END)  # waiting to start
KEYS_HOSTING: Keys = (OPEN, ("s", "s", N_("Start")), *KEYS_AT_TABLE[1:])  # at one's own table
KEYS_INVITED: Keys = (OPEN, ("j", "j", N_("Accept")), *KEYS_AT_TABLE[1:])  # offered a rematch
SPARE = ("L", "v", "p")  # the keys that give way on a narrow key line (in the help)
STATUS_WORDS = (N_("waiting"), N_("playing"), N_("finished"))  # a table's, as the list says
TYPING: Keys = (("enter", "⏎", N_("Say")), ("escape", "esc", N_("Close")))
LOBBY_KEYS = [
    (N_("↑ ↓ PgUp PgDn"), N_("select a table")),
    (
        "Enter",
        N_(
            "join the selected table (waiting) or watch it (playing); your own game in "
            "progress: back to your seat"
        ),
    ),
    ("g", N_("a quick game against bots, at once")),
    ("c", N_("create a table: 2 to 4 seats, each open or a bot")),
    (N_("j / w"), N_("join / watch the selected table")),
    ("s", N_("start the table you host, once every seat is filled")),
    ("l", N_("leave the table you wait at")),
    ("m", N_("your next game where it is your move")),
    (
        "t",
        N_(
            "chat to the lobby: Enter says it, Esc closes; /mute NAME hides a name's lines "
            "(this session), /unmute NAME, /bell turns the bell off or on"
        ),
    ),
    ("r", N_("the leaderboard (Enter on a row: that player's profile)")),
    ("p", N_("a player's profile: yours, the selected table's players, anyone's")),
    ("v", N_("replay a finished game: type its id (profiles list them)")),
    ("h", N_("humans only: hide the tables where a program plays (⚙), or show them again")),
    ("L", N_("the language the game speaks to you in (kept with your key)")),
    ("q", N_("quit (a seat in a game is kept: connect again to play on)")),
]
LOBBY_ABOUT = N_("""\
The lobby lists every table waiting for players or playing, with its seats, rated or \
casual ("casual 21": a longer game, to 21 prestige instead of 15, R15), its clock \
(5+10: minutes each and seconds a move; 3d: days a move) and the game's turn; "your \
game" marks a game you hold a seat in, "your move" one that waits for your move. A \
rated game changes the ratings of its players with a key, and of its bots.""")


def lobby_help() -> Group:
    """The help screen's first page in the lobby: its keys, then how to read it."""
    return Group(key_page(N_("In the lobby"), LOBBY_KEYS), Text(""), Text(_(LOBBY_ABOUT)))


def game_cell(table: TableSummary) -> str:
    """Rated or casual, and the target when it is not the rules' 15: "casual 21" (R15)."""
    kind = _("rated") if table.rated else _("casual")
    return kind if table.target == WINNING_PRESTIGE else f"{kind} {table.target}"


def seats_cell(seats: tuple[SeatSummary, ...]) -> tuple[str, ...]:
    """A table's seats for the lobby's list, longest first (the list draws the first that
    fits): "ann, bob (away), easy bot, open", then "ann, bob (away), easy, 1 open", then
    "ann +2, 1 open" (the first player, how many more seats are taken, the open ones).
    Players come first, then bots, then open seats: a name says who plays there."""
    seats = tuple(sorted(seats, key=lambda s: 0 if s.name else 1 if s.bot else 2))
    short = [seat_label(s) if s.name else (s.bot or "") for s in seats if s.name or s.bot]
    free = len(seats) - len(short)
    opens = [_("{free} open", free=free)] if free else []
    least = [f"{short[0]} +{len(short) - 1}" if len(short) > 1 else short[0]] if short else []
    full = ", ".join(seat_label(s) for s in seats)
    return (full, ", ".join(short + opens), ", ".join(least + opens))


def seat_label(seat: SeatSummary) -> str:
    """A seat in a table summary: the player's name, "easy bot", or "open"."""
    if seat.name:
        mark = "⚙ " if seat.program else ""  # a program plays it: the bots' mark
        return mark + seat.name + ("" if seat.connected else _(" (away)"))
    if seat.bot:
        return bot_shown(seat.bot)
    return _("open")


class LobbyScreen(Screen[None]):
    """Lists the tables; Enter joins a waiting table or watches a game in progress."""

    BINDINGS = [
        Binding("enter", "open", N_("Join/watch"), show=False),
        Binding("up", "select(-1)", show=False),
        Binding("down", "select(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "select(-1000000)", show=False),
        Binding("end", "select(1000000)", show=False),
        Binding("c", "create", N_("Create table")),
        Binding("j", "join", N_("Join")),
        Binding("w", "watch", N_("Watch")),
        Binding("g", "quick", N_("Quick game")),
        Binding("s", "start", N_("Start")),
        Binding("l", "leave", N_("Leave table")),
        Binding("r", "leaderboard", N_("Leaderboard")),
        Binding("p", "profile", N_("Profile")),
        Binding("v", "replay", N_("Replay a game")),
        Binding("t", "talk", N_("Chat")),
        Binding("m", "next_game", N_("Your move")),
        Binding("h", "humans", show=False),
        Binding("L", "language", N_("Language")),
        Binding("o", "tournaments", N_("Tournaments")),
    ]

    def __init__(self, lobby: LobbyList) -> None:
        super().__init__()
        self.lobby = lobby
        self._shown: tuple[str, str, LobbyList] | None = None  # what show() drew
        self._statics: dict[str, str | Text] = {}  # each Static's content as shown
        self.typing: tuple[str, int] | None = None  # a chat line being typed

    @property
    def splendor(self) -> SplendorApp:
        return cast("SplendorApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        with Horizontal(id="lobby-main"):
            with Vertical(id="lobby-tables"):
                yield Static(_("Tables"), classes="section-title")
                yield TableList(COLUMNS, id="tables")
                yield Static(_("Chat"), classes="section-title", id="lobby-chat-title")
                yield ChatBox(id="lobby-chat")
            with Vertical(id="lobby-online"):
                yield Static(_("Online"), classes="section-title")
                yield NameList(id="online")
        yield Static(id="my-table")
        yield KeyBar(id="lobby-keys")

    def on_mount(self) -> None:
        self.tables = self.query_one(TableList)
        self.online = self.query_one(NameList)
        self.chat = self.query_one(ChatBox)
        self.on_resize()
        self.show(self.lobby)
        self.show_chat(LOBBY)

    def on_resize(self) -> None:
        """Below 100 columns the names online get a narrower column, the tables the rest;
        a short terminal has no room for the chat."""
        online = self.query_one("#lobby-online")
        online.styles.width = 22 if self.app.size.width >= 100 else 16
        lines = self.app.size.height  # the chat gets room the tables can spare
        for part in self.query("#lobby-chat-title, #lobby-chat"):
            part.display = lines >= 20
        self.query_one(ChatBox).styles.height = 8 if lines >= 36 else 5

    def show(self, lobby: LobbyList) -> None:
        """Render a "lobby" message; only what changed is redrawn (a turn: one line)."""
        self.lobby = lobby
        me = self.splendor.player_name
        guest = _(" (guest)") if self.splendor.guest else ""
        key = (me, guest + str(self.splendor.humans_only), lobby)
        if key == self._shown:
            return  # the same lobby again: nothing to redraw
        self._shown = key
        humans = self.splendor.humans_only
        only = _(" · humans only ([b]h[/b]: all)") if humans else ""
        self._update_static(
            "#lobby-title",
            _("[b #ffd23f]◆ Splendor[/] lobby — you are [b]{me}[/]{guest}", me=me, guest=guest)
            + only,
        )
        rows: list[Row] = []
        for t in lobby.tables:
            if humans and any(s.program for s in t.seats) and t.id not in lobby.mine:
                continue  # a program plays there (a table of one's own always shows)
            status = _(t.status.value)  # waiting, playing (marked in `STATUS_WORDS`)
            seats = seats_cell(t.seats)
            playing = t.status is TableStatus.PLAYING
            turn = str(t.turn or "") if playing else ""
            if playing and t.id in lobby.mine:
                status = _("your move") if t.id in lobby.to_move else _("your game")
            kind = game_cell(t)
            clock = str(t.clock) if t.clock.timed else _("none")
            rows.append((t.id, (t.id, t.host, status, kind, seats, clock, turn)))
        self.tables.show(rows)
        self.online.show(lobby.online)
        if self.typing is None:
            self.query_one(KeyBar).show(self._keys(), SPARE)
        self._show_mine(lobby.waiting_at(), lobby.to_move)

    def action_humans(self) -> None:
        """h: hide the tables where a program plays, or show them again."""
        self.splendor.humans_only = not self.splendor.humans_only
        self.show(self.lobby)

    def _keys(self) -> Keys:
        table = self.lobby.waiting_at()
        me = self.splendor.player_name
        if table is None:
            return KEYS
        if any(s.invited and s.name == me for s in table.seats):
            return KEYS_INVITED
        return KEYS_HOSTING if table.host == me else KEYS_AT_TABLE

    def _update_static(self, selector: str, content: str | Text) -> None:
        """`Static.update` only when the content differs from what the widget shows."""
        if self._statics.get(selector) == content:
            return
        self._statics[selector] = content
        self.query_one(selector, Static).update(content, layout=False)  # fixed heights

    def _show_mine(self, table: TableSummary | None, to_move: tuple[str, ...] = ()) -> None:
        moves = ""
        if to_move:
            moves = "\n" + (
                ngettext(
                    "[b #5fdc7f]Your move at {n} table[/]: {tables} · [b]m[/b] goes to each",
                    "[b #5fdc7f]Your move at {n} tables[/]: {tables} · [b]m[/b] goes to each",
                    len(to_move),
                    tables=", ".join(to_move),
                )
            )
        if table is None:
            self._update_static(
                "#my-table",
                _(
                    "[#8a8f98]You are not at a table. [b]c[/b] creates one, [b]j[/b] joins the "
                    "selected one, [b]g[/b] plays at once against bots.[/]"
                )
                + moves,
            )
            return
        me = self.splendor.player_name
        seats = "   ".join(
            f"{i + 1}. {seat_label(s)}{_(' (you)') if s.name == me else ''}"
            for i, s in enumerate(table.seats)
        )
        host = table.host
        action = (
            _("[b]s[/b] starts the game")
            if host == me
            else _("waiting for {host} to start", host=host)
        )
        longer = target_text(table.target)  # a game to 21, say (R15)
        waiting = _("waiting, {longer}", longer=longer) if longer else _("waiting")
        invited = [s.name for s in table.seats if s.invited and s.name]
        if me in invited:
            action = _("a rematch: [b]j[/b] accepts")
        elif invited:
            action = _("a rematch: waiting for {names} to accept", names=", ".join(invited))
        self._update_static(
            "#my-table",
            _(
                "[b]Your table {id}[/b] ({waiting})  {seats}\n{action} · [b]l[/b] leaves{moves}",
                id=table.id,
                waiting=waiting,
                seats=seats,
                action=action,
                moves=moves,
            ),
        )

    def selected_id(self) -> str | None:
        return self.tables.selected

    def _selected(self) -> TableSummary | None:
        selected = self.selected_id()
        return None if selected is None else self.lobby.table(selected)

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
            self.notify(_("No table selected: c creates one."))
        elif table.status is TableStatus.WAITING or self._rejoin(table):
            self.action_join()
        else:
            self.action_watch()

    def _rejoin(self, table: TableSummary) -> bool:
        return table.status is TableStatus.PLAYING and table.id in self.lobby.mine

    def action_join(self) -> None:
        mine = self.lobby.waiting_at()
        me = self.splendor.player_name
        if mine is not None and any(s.invited and s.name == me for s in mine.seats):
            self.splendor.send(Join(mine.id))  # accept the rematch you are invited to
            return
        table = self._selected()
        if table is None:
            self.notify(_("No table selected."))
        elif self._rejoin(table):
            self.splendor.send(Join(table.id))  # back to your seat
        elif table.status is not TableStatus.WAITING:
            self.notify(_("Table {id} is not waiting for players: w watches it.", id=table.id))
        elif table.id in self.lobby.mine:
            self.splendor.send(Join(table.id))  # your own seat there
        elif not any(s.open for s in table.seats):
            self.notify(_("Table {id} has no open seat.", id=table.id))
        else:
            self.splendor.send(Join(table.id))

    def action_watch(self) -> None:
        table = self._selected()
        if table is None:
            self.notify(_("No table selected."))
        elif table.status is not TableStatus.PLAYING:
            self.notify(_("Table {id} has no game in progress to watch.", id=table.id))
        else:
            self.splendor.send(Watch(table.id))

    def action_create(self) -> None:
        self.app.push_screen(CreateTableDialog(), self._requested)

    def action_quick(self) -> None:
        self.app.push_screen(QuickGameDialog(), self._requested)

    def action_leaderboard(self) -> None:
        self.splendor.send(AskLeaderboard())

    def action_profile(self) -> None:
        table = self._selected()
        seated = [] if table is None else [s for s in table.seats if not s.open]
        seats = [s.name or bot_player(str(s.bot)) for s in seated]
        picker = PlayerPicker(candidates(self.splendor.player_name, seats, self.lobby.online))
        self.app.push_screen(picker, self._profile_of)

    def _profile_of(self, player: str | None) -> None:
        if player:
            self.splendor.send(AskProfile(player))

    def action_language(self) -> None:
        self.app.push_screen(LanguageDialog(), self._language_of)

    def _language_of(self, language: str | None) -> None:
        if language is not None:
            self.splendor.choose_language(language)

    def action_tournaments(self) -> None:
        self.splendor.send(AskTourneys())

    def action_replay(self) -> None:
        self.app.push_screen(GameIdDialog(), self._replay_of)

    def _replay_of(self, game: str | None) -> None:
        if game:
            self.splendor.send(AskRecord(game))

    def _requested(self, request: Create | Quick | None) -> None:
        if request is not None:
            self.splendor.send(request)

    def action_start(self) -> None:
        mine = self.lobby.waiting_at()
        if mine is None:
            self.notify(_("You are not at a waiting table."))
        elif mine.host != self.splendor.player_name:
            self.notify(_("Only {host}, who made the table, can start it.", host=mine.host))
        else:
            self.splendor.send(Start())

    # -- chat and your moves ------------------------------------------------------

    def show_chat(self, where: str) -> None:
        """The app has the lobby's chat (a table's: nothing to show here)."""
        if where == LOBBY and self.is_mounted:
            self.chat.show(self.splendor.talk.lines(LOBBY))

    def action_talk(self) -> None:
        self._type(("", 0))

    def action_next_game(self) -> None:
        if not self.lobby.to_move:
            self.notify(_("No game waits for your move."))
        else:
            self.splendor.send(NextGame())

    def _type(self, line: tuple[str, int] | None) -> None:
        self.typing = line
        self.chat.edit(line)
        self.query_one(KeyBar).show(self._keys() if line is None else TYPING, SPARE)

    def on_key(self, event: events.Key) -> None:
        """While a chat line is typed every key edits it; Enter says it, Esc closes it."""
        if self.typing is None:
            if event.key == "t":  # here, not only by the binding: the next keys are typed
                event.stop()
                event.prevent_default()
                self.action_talk()
            return
        event.stop()
        event.prevent_default()
        if event.key == "enter":
            text = self.typing[0].strip()
            self._type(None)
            if text.startswith("/"):
                self.notify(self.splendor.talk.command(text), markup=False)
                self.show_chat(LOBBY)
            elif text:
                self.splendor.send(Say(text))
        elif event.key == "escape":
            self._type(None)
        else:
            character = event.character if event.is_printable else None
            self._type(edited(self.typing, event.key, character, MAX_CHAT))

    def on_paste(self, event: events.Paste) -> None:
        if self.typing is not None:
            event.stop()
            self._type(pasted(self.typing, event.text, MAX_CHAT))

    def action_leave(self) -> None:
        if self.lobby.waiting_at() is None:
            self.notify(_("You are not at a table."))
        else:
            self.splendor.send(Leave())
