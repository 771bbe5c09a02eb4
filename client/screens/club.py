"""The club's screens: the leaderboard, a player's profile, and the two small dialogs
that open them from the lobby (choose a player, type a game id to replay).

Each screen shows what the host answered (`shared.protocol`: `Leaderboard`,
`PlayerProfile`) and asks for more (`AskLeaderboard`, `AskProfile`, `AskRecord`);
the app routes the answers (`client.app`). Esc closes each one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from shared.i18n import N_, _
from shared.players import bot_player, player_named, player_shown
from shared.protocol import (
    BOT_LEVELS,
    LEADERBOARD_PAGE,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Leaderboard,
    PlayerProfile,
)

from .. import club
from ..widgets.keybar import KeyBar, Keys
from ..widgets.listing import TableList, row_strip, sized

if TYPE_CHECKING:
    from ..app import SplendorApp

BOARD_COLUMNS = (
    ("#", 5),
    (N_("Player"), 0),
    (N_("Rating"), 6),
    (N_("Games"), 5),
    (N_("Wins"), 5),
    (N_("Last game"), 11),
)
GAME_COLUMNS = (
    (N_("Game"), 8),
    (N_("When"), 11),
    (N_("Result"), 12),
    ("", 6),
    (N_("Players and scores"), 0),
)
BACK = ("escape", "esc", N_("Back"))


class _ClubScreen(Screen[None]):
    """A page of the club over the lobby (or the table): rows, a key line, Esc closes."""

    BINDINGS = [
        Binding("up,k", "select(-1)", show=False),
        Binding("down,j", "select(1)", show=False),
        Binding("home", "select(-1000000)", show=False),
        Binding("end", "select(1000000)", show=False),
        Binding("escape", "close", N_("Back"), tooltip=N_("Back to where you were")),
    ]

    @property
    def splendor(self) -> SplendorApp:
        return cast("SplendorApp", self.app)

    @property
    def me(self) -> str:
        """The viewer as the ratings name players (names are case-insensitive)."""
        return self.splendor.player_name.lower()

    def action_select(self, delta: int) -> None:
        self.query_one(TableList).move(delta)

    def action_close(self) -> None:
        self.splendor.asked.clear()  # an answer on its way is no longer wanted
        self.dismiss(None)


class LeaderboardScreen(_ClubScreen):
    """The rated players and bots, best first, a page at a time; your own row stands out,
    and shows under the list when it is on another page."""

    BINDINGS = [
        *_ClubScreen.BINDINGS,
        Binding("enter", "profile", N_("Profile"), tooltip=N_("The selected player's profile")),
        Binding("pagedown", "page(1)", show=False, tooltip=N_("The next rows")),
        Binding("pageup", "page(-1)", show=False, tooltip=N_("The rows before")),
        Binding("m", "mine", N_("Me"), tooltip=N_("The page with your own row")),
    ]
    KEYS: Keys = (
        ("", "↑ ↓", N_("Select")),
        ("enter", "⏎", N_("Profile")),
        ("pagedown", "PgUp PgDn", N_("Page")),
        ("m", "m", N_("My row")),
        BACK,
    )

    def __init__(self, board: Leaderboard) -> None:
        super().__init__()
        self.board = board
        self._to_me = True  # the selection goes to your row when it is in view

    def compose(self) -> ComposeResult:
        yield Static(id="club-title")
        yield TableList(BOARD_COLUMNS, empty=_(" Nobody is rated yet: play a rated game."))
        yield Static(id="club-me")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(KeyBar).show(self.KEYS)
        self.show(self.board)

    def show(self, board: Leaderboard) -> None:
        if not board.rows and board.offset > 0:  # past the last page: stay on this one
            self.notify(_("That is the end of the leaderboard."))
            board = Leaderboard(self.board.rows, self.board.offset, board.me)
        turned = board.offset - self.board.offset  # a page on (> 0) or back (< 0)
        self.board = board
        span = (
            _(
                " · rows {first}–{last}",
                first=board.offset + 1,
                last=board.offset + len(board.rows),
            )
            if board.rows
            else ""
        )
        self.query_one("#club-title", Static).update(
            _("[b #ffd23f]◆ Leaderboard[/] — rated games; ⚙ marks a bot level{span}", span=span)
        )
        me = self.me
        rows = [(r.player, club.ranked_cells(r, me)) for r in board.rows]
        listing = self.query_one(TableList)
        listing.show(rows, marked=me)
        my_row = [i for i, r in enumerate(board.rows) if r.player == me]
        if my_row and self._to_me:  # opened, or "m": on your own row
            listing.move(my_row[0] - listing.cursor)
        elif turned:  # a page on starts at its top, a page back at its bottom
            listing.move(-len(rows) if turned > 0 else len(rows))
        self._to_me = False
        mine = board.me
        note = self.query_one("#club-me", Static)
        if self.splendor.guest:
            note.update(_("[#8a8f98]Guests are not rated: connect with a key to be.[/]"))
        elif mine is None:
            note.update(
                _("[#8a8f98]You are not rated yet: your first rated game puts you here.[/]")
            )
        elif any(r.player == mine.player for r in board.rows):
            note.update(
                _("[#8a8f98]You are #{rank} with {rating}.[/]", rank=mine.rank, rating=mine.rating)
            )
        else:
            width = max(40, self.size.width or self.app.size.width)
            cells = club.ranked_cells(mine, me)
            line = row_strip(sized(BOARD_COLUMNS, width), cells, width, listing.rich_style, False)
            note.update(f"[b #ffd23f]{escape(line.text[1:].rstrip())}[/]")  # the pad is 1

    def action_page(self, direction: int) -> None:
        listing = self.query_one(TableList)
        rows = len(self.board.rows)
        at_end = listing.cursor >= rows - 1
        if direction > 0 and at_end and rows == LEADERBOARD_PAGE:
            self.splendor.send(AskLeaderboard(self.board.offset + rows))
        elif direction < 0 and listing.cursor == 0 and self.board.offset > 0:
            self.splendor.send(AskLeaderboard(max(0, self.board.offset - LEADERBOARD_PAGE)))
        else:
            listing.move(direction * listing.page)

    def action_mine(self) -> None:
        mine = self.board.me
        if mine is None:
            self.notify(_("You are not on the leaderboard yet."))
            return
        self._to_me = True
        offset = (mine.rank - 1) // LEADERBOARD_PAGE * LEADERBOARD_PAGE
        self.splendor.send(AskLeaderboard(offset))

    def action_profile(self) -> None:
        selected = self.query_one(TableList).selected
        if selected is not None:
            self.splendor.send(AskProfile(selected))


class ProfileScreen(_ClubScreen):
    """A player's rating and its course, games by player count, recent games (Enter
    replays one)."""

    BINDINGS = [
        *_ClubScreen.BINDINGS,
        Binding("enter,v", "replay", N_("Replay"), tooltip=N_("Replay the selected game")),
    ]
    KEYS: Keys = (("", "↑ ↓", N_("Select a game")), ("enter", "⏎", N_("Replay")), BACK)

    def __init__(self, profile: PlayerProfile) -> None:
        super().__init__()
        self.profile = profile

    def compose(self) -> ComposeResult:
        with Vertical(id="profile-head"):
            yield Static(id="club-title")
            yield Static(id="profile-standing")
            yield Static(id="profile-history")
            yield Static(id="profile-counts")
            yield Static(id="profile-tourneys")
            yield Static(_("Recent games"), classes="section-title")
        yield TableList(GAME_COLUMNS, empty=_(" No finished games yet."))
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(KeyBar).show(self.KEYS)
        self.show(self.profile)

    def on_resize(self) -> None:
        self.show(self.profile)

    def show(self, profile: PlayerProfile) -> None:
        self.profile = profile
        label = escape(player_shown(profile.player))
        program = profile.standing is not None and profile.standing.program
        mark = "⚙ " if club.is_bot(profile.player) or program else ""
        you = _(" (you)") if profile.player == self.me else ""
        self.query_one("#club-title", Static).update(
            _("[b #ffd23f]◆ {mark}{label}[/]{you}", mark=mark, label=label, you=you)
        )
        guest = self.splendor.guest and profile.player == self.splendor.player_name
        width = self.size.width or self.app.size.width
        if guest:  # a guest's own page: this session's games, nothing rated
            lines = (_("You play as a guest: not rated. Your games this session:"), "", "")
        else:
            lines = (
                club.standing_text(profile),
                club.history_text(profile.history, width),
                club.by_players_text(profile.by_players),
            )
        for name, text in zip(("standing", "history", "counts"), lines, strict=True):
            widget = self.query_one(f"#profile-{name}", Static)
            widget.display = bool(text)
            widget.update(escape(text))
        tourneys = self.query_one("#profile-tourneys", Static)
        places = [str(t) for t in profile.tournaments_said] or list(profile.tournaments)
        tourneys.display = bool(places)
        tourneys.update(escape(_("Tournaments: {list}", list=" · ".join(places))))
        rows = [(g.game, club.game_cells(g)) for g in profile.recent]
        self.query_one(TableList).show(rows)

    def action_replay(self) -> None:
        selected = self.query_one(TableList).selected
        if selected is not None:
            self.splendor.send(AskRecord(selected))


class _AskDialog(ModalScreen[str | None]):
    """One line to type (and, in `PlayerPicker`, a list to pick from); Enter answers. A
    dialog of one line only names its words: `TITLE`, `PLACEHOLDER` and `KEYS`, marked
    messages translated when it is shown."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]
    TITLE = PLACEHOLDER = KEYS = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_(self.TITLE), classes="dialog-title")
            yield Input(placeholder=_(self.PLACEHOLDER), max_length=16, compact=True)
            yield Static(_(self.KEYS), classes="dialog-keys")

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit(event.value.strip())

    def submit(self, text: str) -> None:
        self.dismiss(text or None)


class GameIdDialog(_AskDialog):
    """The id of a finished game to replay (a table id, as the lobby and profiles show)."""

    TITLE = N_("Replay a game")
    PLACEHOLDER = N_("a game id, like t42")
    KEYS = N_("A finished game's id: profiles list them.  [b]Enter[/b]: replay  [b]Esc[/b]: cancel")


class PlayerPicker(_AskDialog):
    """Whose profile: type a name, or pick one of `candidates` (you, the selected table's
    seats, who is online, the bot levels)."""

    BINDINGS = [
        *_AskDialog.BINDINGS,
        Binding("up", "select(-1)", show=False),
        Binding("down", "select(1)", show=False),
    ]

    def __init__(self, candidates: list[tuple[str, str]]) -> None:
        super().__init__()
        self.candidates = candidates  # (player, where seen)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="picker"):
            yield Static(_("A player's profile"), classes="dialog-title")
            yield Input(placeholder=_("a name (or pick one below)"), max_length=32, compact=True)
            yield TableList(((N_("Player"), 0), ("", 12)), empty=_(" nobody to pick"))
            yield Static(
                _("[b]↑↓[/b]: pick   [b]Enter[/b]: open   [b]Esc[/b]: cancel"),
                classes="dialog-keys",
            )

    def on_mount(self) -> None:
        rows = [(p, (player_shown(p), where)) for p, where in self.candidates]
        self.query_one(TableList).show(rows)

    def action_select(self, delta: int) -> None:
        self.query_one(TableList).move(delta)

    def submit(self, text: str) -> None:
        self.dismiss(player_named(text) if text else self.query_one(TableList).selected)


def candidates(me: str, seats: list[str], online: tuple[str, ...]) -> list[tuple[str, str]]:
    """Whom the player picker offers, each once: you, the selected table's players, who
    is online, then the bot levels."""
    out: list[tuple[str, str]] = [(me, _("you"))]
    seen = {me.lower()}
    for name, where in [
        *((s, _("at the table")) for s in seats),
        *((o, _("online")) for o in online),
    ]:
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append((name, where))
    bots = [bot_player(level) for level in BOT_LEVELS]
    return out + [(bot, _("bot level")) for bot in bots if bot not in seen]
