"""The Splendor app: one per player screen, fed only by a `Connection` (docs/design.md).

    app = SplendorApp(connection)             # online: welcome, lobby, tables
    app = SplendorApp(connection, local=True) # offline play: the setup screen first

The app never holds a `GameState`: it decodes the host's messages once, into the
typed messages of `shared.protocol`, and hands them to its screens. Its `HostLink`
(client/host_link.py) sends, and its receiver only posts a message to the app, so a host
may call it from any task.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen

from shared.gamerecord import RecordError, parse_record
from shared.i18n import N_, _, current_language, reader, set_language
from shared.messages import MAX_TEXT
from shared.protocol import (
    PROTOCOL_VERSION,
    Advice,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Bye,
    ChatLines,
    ClientMessage,
    Create,
    GameRecordText,
    Language,
    Leaderboard,
    Leave,
    LobbyList,
    Notice,
    PlayerProfile,
    Start,
    TableUpdate,
    ToLobby,
    Welcome,
    Where,
)
from shared.social import LOBBY
from shared.text import safe_text
from shared.tourney_messages import TourneyPage, Tourneys

from .bidi import Mode, mode_of
from .connection import Connection
from .host_link import HostData, HostLink
from .replay import Replay
from .rtl import IMPLICIT, TextLayout, tell_terminal
from .screens.club import LeaderboardScreen, ProfileScreen
from .screens.help import HelpScreen
from .screens.help_here import help_screen
from .screens.lobby import LobbyScreen
from .screens.reading import ReadingScreen
from .screens.replay import ReplayScreen
from .screens.setup import GameSetup, SetupScreen
from .screens.table import TableScreen
from .screens.tourneys import show_tourneys
from .talk import Talk

EARLY_KEPT = 64  # a table's updates kept while its `Where` has not come


class SplendorApp(App[None]):
    """The game client. ``local``: play against the in-process host (setup screen first);
    ``setup``: with ``local``, start this game at once. Other keywords go to `App`."""

    CSS_PATH = "splendor.tcss"
    TITLE = "Splendor"
    ENABLE_COMMAND_PALETTE = False  # its screenshot command writes files on the server
    BINDINGS = [
        Binding("ctrl+c", "request_quit", N_("Quit"), show=False, priority=True),
        Binding("ctrl+q", "request_quit", N_("Quit"), show=False, priority=True),
        Binding("q", "request_quit", N_("Quit")),
        Binding("question_mark", "help", N_("Help")),
    ]

    def __init__(
        self,
        connection: Connection,
        *,
        local: bool = False,
        setup: GameSetup | None = None,
        **app_options: Any,
    ) -> None:
        super().__init__(**app_options)
        self.link = HostLink(connection)  # commands out, the host's messages in
        self.local = local
        self.initial_setup = setup
        self.player_name = ""
        self.guest = False
        self.lobby_data = LobbyList()
        self.bye_text: str | None = None
        self.where = Where()  # where the host has this session (it says when that changes)
        self._early: list[TableUpdate] = []  # the table's updates that came before `Where`
        self.asked = self.link.asked  # questions to the club desk, unanswered
        self.talk = Talk()  # chat lines, muted names, the bell
        self.humans_only = False  # the lobby hides tables where a program plays (h)
        # Right to left, and how (client/rtl.py): from this session's reader (`shared.i18n`).
        self.layout = TextLayout.of(current_language(), mode_of(reader().reading))
        self._told = IMPLICIT  # the terminal's bidi mode as last sent (its default at first)

    # -- wiring -----------------------------------------------------------------

    def on_mount(self) -> None:
        self.link.open(lambda message: self.post_message(message))  # looked up at each call
        self._tell(self.layout.sequence())  # a way of showing kept: before the first frame
        if self.local:
            if self.initial_setup is not None:
                self.start_local(self.initial_setup)
            else:
                self.push_screen(SetupScreen(), self._setup_done)

    def on_unmount(self) -> None:
        self.link.close()
        if self._told != IMPLICIT:
            tell_terminal(self, IMPLICIT)  # the terminal's default again (SSH: P11 too)

    # -- right to left (client/rtl.py) -------------------------------------------

    def get_line_filters(self) -> list[LineFilter]:
        return [*super().get_line_filters(), *self.layout.filters()]

    async def use_language(self, language: str, mode: Mode | None = None) -> None:
        """The reader's language changed (`mode`: the way of showing kept with it): the
        screen mirrors for a right-to-left one, and the first time, the player is asked
        which way of showing reads right (`ReadingScreen`)."""
        self.layout = TextLayout.of(language, mode)
        await self._apply_layout()

    async def _apply_layout(self) -> None:
        if self.layout.must_ask:
            if self.main_screen is not None and not isinstance(self.screen, ReadingScreen):
                self._tell(IMPLICIT, again=True)  # the terminal's own layout, for line 2
                await self.push_screen(ReadingScreen(), self._read)
            return  # asked once the first main screen shows (`show_main`)
        self._tell(self.layout.sequence())
        for screen in self.screen_stack:
            for widget in screen.query("*"):
                widget.refresh()  # every line again, through the new filters
            screen.refresh()

    def _tell(self, sequence: str, again: bool = False) -> None:
        """Put the terminal in `sequence`'s bidi mode unless it is (`again`: whatever it
        is, for the question, which a program run before may have left otherwise)."""
        if again or sequence != self._told:
            self._told = sequence
            tell_terminal(self, sequence)

    async def _read(self, mode: Mode | None) -> None:
        self.layout.mode = mode or "visual"
        reader().reading = self.layout.mode  # kept with the language (the host stores it)
        self.send(Language(current_language(), self.layout.mode))
        await self._apply_layout()

    def send(self, msg: ClientMessage) -> None:
        """One command to the host; screens call this (``send(PlayMove(move))``)."""
        self.link.send(msg)

    def answered(self, question: type[ClientMessage]) -> bool:
        """An answer of the club desk came: True if it was asked for (and is now answered);
        one that comes after its screen was closed is dropped."""
        return self.link.answered(question)

    # -- host messages ----------------------------------------------------------

    async def on_host_data(self, message: HostData) -> None:
        msg = self.link.decode(message.data)  # None: not a host message (logged)
        match msg:
            case Welcome():
                self._welcome(msg)
            case Where():
                await self._moved(msg)
            case LobbyList():
                self.lobby_data = msg
                main = self.main_screen
                if isinstance(main, LobbyScreen):
                    main.show(msg)
            case TableUpdate():
                await self._table(msg)
            case Notice(text, level, said):
                text = str(said) if said is not None else text  # in the reader's language
                main = self.main_screen
                if level == "call" and self.talk.bell:
                    self.bell()  # news that calls the player (a tournament's table)
                if isinstance(main, TableScreen):
                    main.show_notice(text, level)
                else:
                    severity: SeverityLevel = "error" if level == "error" else "information"
                    self.notify(text, severity=severity, markup=False)  # words, not markup
            case Advice(move, reason, said):
                main = self.main_screen
                if isinstance(main, TableScreen):  # in the reader's language (issue 34)
                    main.show_advice(move, str(said) if said is not None else reason)
            case Leaderboard() if self.answered(AskLeaderboard):
                if isinstance(self.screen, LeaderboardScreen):
                    self.screen.show(msg)
                else:
                    await self.push_screen(LeaderboardScreen(msg))
            case PlayerProfile() if self.answered(AskProfile):
                await self.push_screen(ProfileScreen(msg))
            case GameRecordText(game, text) if self.answered(AskRecord):
                await self._replay(game, text)
            case Tourneys() | TourneyPage():
                await show_tourneys(self, msg)
            case ChatLines():
                self.talk.heard(msg)
                main = self.main_screen
                if isinstance(main, LobbyScreen | TableScreen):
                    main.show_chat(msg.where)
            case Bye(text, said):
                self.bye_text = str(said) if said is not None else text
                self.exit()

    def _welcome(self, msg: Welcome) -> None:
        if msg.protocol != PROTOCOL_VERSION:  # a host of another version: say so and leave
            self.bye_text = _(
                "This host speaks protocol version {protocol} and this client version "
                "{PROTOCOL_VERSION}: update the older one to play.",
                protocol=msg.protocol,
                PROTOCOL_VERSION=PROTOCOL_VERSION,
            )
            self.exit()
            return
        self.player_name, self.guest = msg.name, msg.guest
        if msg.language is not None and msg.language != current_language():
            set_language(msg.language)  # the player's saved choice beats the environment
            reader().reading = msg.reading
            self.call_later(self._language_changed)

    def choose_language(self, language: str) -> None:
        """The player picked a language (the lobby's key): read it from now on, and have
        the host keep it with their key (a guest's for this session)."""
        set_language(language)  # a way of showing stays only with its own language
        self.send(Language(current_language(), reader().reading))
        self.call_later(self._language_changed)

    async def _language_changed(self) -> None:
        """Show the reader's language: right to left or not (asking how, the first time),
        and the lobby drawn again in it (other screens on their next message)."""
        if isinstance(self.main_screen, LobbyScreen):
            await self.show_main(LobbyScreen(self.lobby_data))
        await self.use_language(current_language(), mode_of(reader().reading))
        self.refresh(layout=True)

    async def _replay(self, game: str, text: str) -> None:
        """A finished game's record came: its replay opens over what is shown."""
        try:
            replay = Replay.of(parse_record(text))
        except RecordError as e:
            said = safe_text(
                _("The record of game {game} cannot be replayed: {error}", game=game, error=e),
                MAX_TEXT,
            )
            self.notify(said, severity="error", markup=False)
            return
        main = self.main_screen
        if isinstance(main, TableScreen):
            main.message = None  # "fetching the game's record…" is done
        await self.push_screen(ReplayScreen(replay))

    async def _moved(self, where: Where) -> None:
        """The host moved this session: show the screen it is on now (the one place the
        main screen changes, so the app never shows a screen the host has left)."""
        if self.return_code is not None:
            return  # leaving (a host of another version): no screen to show
        before, self.where = self.where, where
        main = self.main_screen
        if where.screen == "table" and where.table is not None:
            here = isinstance(main, TableScreen) and main.table_id == where.table
            if not here or before != where:
                self.talk.forget(keep=(LOBBY, where.table))
                main = TableScreen(where.table, where.seat)
                await self.show_main(main)
            assert isinstance(main, TableScreen)
            early, self._early = self._early, []
            for update in early:
                if update.table == where.table:
                    main.show(update)
        elif self.local:
            if where.table is None and isinstance(main, TableScreen):
                await self._to_setup()  # offline: after a table, the setup screen
        elif not isinstance(main, LobbyScreen):
            self._early = []
            await self.show_main(LobbyScreen(self.lobby_data))

    async def _table(self, msg: TableUpdate) -> None:
        """A table's update: shown if this session is at that table's screen; kept until
        `Where` comes if it is at that table on the lobby screen (a game starting: the
        view can come first); else it is a late update from a table left, dropped."""
        where, main = self.where, self.main_screen
        if where.table != msg.table:
            return
        if where.screen == "table" and isinstance(main, TableScreen):
            main.show(msg)
        elif msg.log is not None:  # a whole history: what came before it is not needed
            self._early = [msg]
        elif len(self._early) < EARLY_KEPT:
            self._early.append(msg)

    # -- screens ----------------------------------------------------------------

    @property
    def main_screen(self) -> Screen[Any] | None:
        """The lobby, setup or table screen under any dialogs (None before the first)."""
        stack = self.screen_stack
        return stack[1] if len(stack) > 1 else None

    async def show_main(self, screen: Screen[Any]) -> None:
        """Make `screen` the main screen, closing dialogs and the previous main screen."""
        while len(self.screen_stack) > 2:
            await self.pop_screen()
        if len(self.screen_stack) == 2:
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)
        if self.layout.must_ask or self.layout.sequence() != self._told:
            await self._apply_layout()  # asked, or a way of showing kept with the language

    def leave_table(self) -> None:
        """Leave the table (its seat too, in a game: bots play it); the host says where to
        go (`Where`): the lobby online, the setup screen offline."""
        self.send(Leave())

    def to_lobby(self) -> None:
        """Back to the lobby keeping the seat (Esc at a table); the host says when."""
        self.send(ToLobby())

    async def _to_setup(self) -> None:
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(SetupScreen(self.initial_setup), self._setup_done)

    def _setup_done(self, setup: GameSetup | None) -> None:
        if setup is None:
            self.exit()
        else:
            self.start_local(setup)

    def start_local(self, setup: GameSetup) -> None:
        self.send(Create(setup.players, (None, *setup.bots), setup.seed, target=setup.target))
        self.send(Start())

    # -- actions ----------------------------------------------------------------

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(help_screen(self.screen, self.main_screen, self.local, self.BINDINGS))

    def action_request_quit(self) -> None:
        """q / Ctrl+C: quit; in a game, after asking on the table's prompt line (a second
        Ctrl+C while it asks quits)."""
        main = self.main_screen
        if isinstance(main, TableScreen) and main.in_game:
            if main.quitting:
                self.exit()
                return
            while self.screen is not main and len(self.screen_stack) > 2:
                self.pop_screen()  # the help: the question shows on the table
            main.ask_quit()
        else:
            self.exit()
