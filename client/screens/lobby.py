"""The lobby: tables waiting and in progress, who is online, the table you sit at, the
games where it is your move, and the lobby's chat.

It renders the host's "lobby" and "chat" messages and sends the lobby commands
(`shared.protocol`: create, join, leave, start, watch, quick, say, next game, invite). Its keys
are in `lobby_keys`, the words it draws in `lobby_text`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from shared.chat import MAX_CHAT
from shared.i18n import _
from shared.players import bot_player
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
    Start,
    TableStatus,
    TableSummary,
    Watch,
)
from shared.social import LOBBY, Invite
from shared.tourney_messages import AskTourneys

from ..editing import edited, pasted
from ..widgets.chatbox import ChatBox
from ..widgets.keybar import KeyBar, Keys
from ..widgets.listing import NameList, TableList
from .club import GameIdDialog, PlayerPicker, candidates
from .language import LanguageDialog
from .lobby_dialogs import CreateTableDialog, InviteDialog, QuickGameDialog
from .lobby_keys import BINDINGS, SPARE, TYPING, key_line
from .lobby_text import (
    COLUMNS,
    held_for,
    invited_to,
    my_table,
    playing_at,
    seated_at,
    shown_table,
    table_rows,
    title,
)

if TYPE_CHECKING:
    from ..app import SplendorApp


class LobbyScreen(Screen[None]):
    """Lists the tables; Enter joins a waiting table or watches a game in progress."""

    BINDINGS = BINDINGS

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
        self._update_static("#lobby-title", title(me, guest, self.splendor.humans_only))
        self.tables.show(table_rows(lobby, self.splendor.humans_only))
        self.online.show(lobby.online)
        if self.typing is None:
            self.query_one(KeyBar).show(self._keys(), SPARE)
        self._show_mine(lobby, playing_at(lobby))

    def action_humans(self) -> None:
        """h: hide the tables where a program plays, or show them again."""
        self.splendor.humans_only = not self.splendor.humans_only
        self.show(self.lobby)

    def _keys(self) -> Keys:
        """The keys for the table shown as one's own, or for the invitation selected (its
        j accepts, its l declines: `action_join`, `action_leave`)."""
        me = self.splendor.player_name
        selected = self._selected()
        if selected is not None and held_for(selected, me):
            return key_line(selected, me)
        return key_line(shown_table(self.lobby, me), me)

    def _update_static(self, selector: str, content: str | Text) -> None:
        """`Static.update` only when the content differs from what the widget shows."""
        if self._statics.get(selector) == content:
            return
        self._statics[selector] = content
        self.query_one(selector, Static).update(content, layout=False)  # fixed heights

    def _show_mine(self, lobby: LobbyList, playing: tuple[str, ...]) -> None:
        """The table `me` sits at, else the invitation (`shown_table`); sitting at one and
        invited to another, the invitation is said too."""
        me = self.splendor.player_name
        invited = next(iter(invited_to(lobby, me)), None)
        table = shown_table(lobby, me)
        other = invited if invited is not table else None
        mine = my_table(me, table, lobby.to_move, playing, other)
        self._update_static("#my-table", mine)

    def selected_id(self) -> str | None:
        return self.tables.selected

    def _selected(self) -> TableSummary | None:
        selected = self.selected_id()
        return None if selected is None else self.lobby.table(selected)

    # -- actions ----------------------------------------------------------------

    def action_select(self, delta: int) -> None:
        self.tables.move(delta)
        if self.typing is None:  # the key line follows the selection (an invitation's)
            self.query_one(KeyBar).show(self._keys(), SPARE)

    def action_page(self, direction: int) -> None:
        self.action_select(direction * self.tables.page)

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
        me = self.splendor.player_name
        table = self._selected()
        invites = invited_to(self.lobby, me)
        if table is not None and held_for(table, me):
            self.splendor.send(Join(table.id))  # accept this invitation (a rematch too)
        elif invites and seated_at(self.lobby, me) is None:
            self.splendor.send(Join(invites[0].id))  # accept the invitation shown
        elif table is None:
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
        mine = seated_at(self.lobby, self.splendor.player_name)
        if mine is None:
            self.notify(_("You are not at a waiting table."))
        elif mine.host != self.splendor.player_name:
            self.notify(_("Only {host}, who made the table, can start it.", host=mine.host))
        else:
            self.splendor.send(Start())

    def action_invite(self) -> None:
        """i: invite a player by name to an open seat of the table one hosts."""
        mine = seated_at(self.lobby, self.splendor.player_name)
        if mine is None:
            self.notify(_("You are not at a waiting table."))
        elif mine.host != self.splendor.player_name:
            self.notify(_("Only {host}, who made the table, can invite players.", host=mine.host))
        else:
            self.app.push_screen(InviteDialog(), self._invite)

    def _invite(self, name: str | None) -> None:
        if name:
            self.splendor.send(Invite(name))

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
        """l: decline the selected table's invitation, else leave the table one sits at,
        else decline the invitation shown."""
        me = self.splendor.player_name
        table = self._selected()
        invites = invited_to(self.lobby, me)
        if table is not None and held_for(table, me):
            self.splendor.send(Leave(table.id))  # that invitation, not one's own table
        elif seated_at(self.lobby, me) is not None:
            self.splendor.send(Leave())
        elif invites:
            self.splendor.send(Leave(invites[0].id))
        else:
            self.notify(_("You are not at a table."))
