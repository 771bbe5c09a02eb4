"""The lobby's keys, as data: its bindings (`LobbyScreen`'s `action_*` methods), the key
lines shown below it for where the player is, and the help's page about the lobby.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.binding import Binding, BindingType

from shared.i18n import N_, _
from shared.protocol import TableSummary

from ..widgets.keybar import Keys
from .help import key_page

BINDINGS: list[BindingType] = [
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
    Binding("i", "invite", N_("Invite")),
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
KEYS_HOSTING: Keys = (  # at one's own table
    OPEN,
    ("s", "s", N_("Start")),
    ("i", "i", N_("Invite")),
    *KEYS_AT_TABLE[1:],
)
KEYS_INVITED: Keys = (  # a seat held for one: an invitation, a rematch too
    OPEN,
    ("j", "j", N_("Accept")),
    ("l", "l", N_("Decline")),
    *KEYS_AT_TABLE[2:],
)
SPARE = ("L", "v", "p")  # the keys that give way on a narrow key line (in the help)
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
    ("c", N_("create a table: 2 to 4 seats, each open, a bot or a player you invite")),
    ("i", N_("invite a player by name to an open seat of the table you host")),
    (N_("j / w"), N_("join / watch the selected table")),
    ("s", N_("start the table you host, once every seat is filled")),
    ("l", N_("leave the table you wait at")),
    (N_("j / l"), N_("invited to a table: accept / decline")),
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


def key_line(table: TableSummary | None, me: str) -> Keys:
    """The key line for where `me` is: at no table, invited to one, hosting one, or
    waiting at another's."""
    if table is None:
        return KEYS
    if any(s.invited and s.name == me for s in table.seats):
        return KEYS_INVITED
    return KEYS_HOSTING if table.host == me else KEYS_AT_TABLE
