"""What the table is doing, and the keys that go with it (the key line and the help page).

A table is in one mode at a time: choosing a move, waiting for another player,
picking gems, confirming a move, giving tokens back (R13), typing on the move line,
watching, the game over, asking before quitting, or too small to show. The key line
at the bottom and the first page of help both come from here, so they always agree
with what the keys do. Looking around (the cursor among the players or the moves) is
not a mode of its own, since every key keeps its meaning there, but it has its own key
line (`look_keys`).
"""

from __future__ import annotations

from rich.console import Group

from shared.i18n import N_, _
from shared.view import PlayerView

from ..widgets.keybar import Keys
from .help import key_page

CHOOSE, WAIT, PICK, CONFIRM, RETURN = "choose", "wait", "pick", "confirm", "return"
TYPE, WATCH, OVER, QUIT, SMALL = "type", "watch", "over", "quit", "small"
REPLAY = "replay"
CHAT = "chat"

TITLES = {
    CHOOSE: N_("Your turn: choose a move"),
    WAIT: N_("Another player's turn"),
    PICK: N_("Picking gems to take (R7, R8)"),
    CONFIRM: N_("Confirming a move"),
    RETURN: N_("Giving tokens back to 10 (R13)"),
    TYPE: N_("Typing on the move line"),
    CHAT: N_("Typing a line of chat"),
    WATCH: N_("Watching a game"),
    OVER: N_("The game is over"),
    QUIT: N_("Leaving the game"),
    SMALL: N_("The terminal is too small"),
    REPLAY: N_("Replaying a game"),
}


def mode_of(
    view: PlayerView | None,
    seat: int | None,
    *,
    quitting: bool = False,
    typing: bool = False,
    confirming: bool = False,
    taking: bool = False,
    chatting: bool = False,
) -> str:
    """The mode of a table (of a terminal big enough to show it)."""
    if quitting:
        return QUIT
    if typing:
        return CHAT if chatting else TYPE
    if view is None:
        return WAIT
    if view.is_over:
        return OVER
    if seat is None:
        return WATCH
    if view.my_turn and view.phase == "return":
        return RETURN
    if confirming:
        return CONFIRM
    if taking:
        return PICK
    return CHOOSE if view.my_turn else WAIT


HELP = ("question_mark", "?", N_("Help"))
QUIT_KEY = ("q", "q", N_("Quit"))
LOOK = ("tab", "Tab", N_("Look"))
PRACTICE: Keys = (("u", "u", N_("Undo")), ("i", "i", N_("Hint")))
CHAT_KEY = ("c", "c", N_("Chat"))
NEXT_KEY = ("m", "m", N_("Next game"))
LOBBY_KEY = ("escape", "esc", N_("Lobby"))
SPARE = ("tab", "colon")  # the keys that give way first on a narrow key line (in the help)
LOOKING_MODES = (CHOOSE, WAIT, WATCH, OVER)  # where looking around has its own key line


def keys(mode: str, local: bool, again: str = "New game", player: bool = True) -> Keys:
    """The key line for `mode` (`local`: offline play, with undo and hints; online, chat,
    m to the next game and Esc to the lobby, the seat kept; `player`: a seat's, not a
    spectator's)."""
    practice = PRACTICE if local else ()
    chat = () if local else (CHAT_KEY,)
    away: Keys = () if local else (NEXT_KEY, LOBBY_KEY)  # online: the seat kept
    rematch = (("r", "r", N_("Rematch")),) if player else ()
    table: dict[str, Keys] = {
        CHOOSE: (
            ("b", "b", N_("Buy")),
            ("r", "r", N_("Reserve")),
            ("t", "t", N_("Take")),
            ("colon", ":", N_("Move")),
            LOOK,
            *practice,
            *chat,
            *away,
            HELP,
            QUIT_KEY,
        ),
        WAIT: (
            LOOK,
            ("colon", ":", N_("Look up a card")),
            *practice[:1],
            *chat,
            *away,
            HELP,
            QUIT_KEY,
        ),
        PICK: (
            ("", "w u g r k", N_("Pick")),
            ("backspace", "⌫", N_("Put back")),
            ("enter", "⏎", N_("Take")),
            ("escape", "esc", N_("Cancel")),
            HELP,
        ),
        CONFIRM: (("enter", "⏎", N_("Yes")), ("escape", "esc", N_("No")), HELP),
        RETURN: (
            ("", "w u g r k *", N_("Give back")),
            ("backspace", "⌫", N_("Put back")),
            ("enter", "⏎", N_("Return")),
            ("escape", "esc", N_("Clear")),
            HELP,
            LOOK,
            *practice[:1],
        ),
        TYPE: (("enter", "⏎", N_("Play / look up")), ("escape", "esc", N_("Close"))),
        CHAT: (("enter", "⏎", N_("Say")), ("escape", "esc", N_("Close"))),
        WATCH: (LOOK, LOBBY_KEY, *chat, *away[:1], HELP, QUIT_KEY),
        OVER: (
            ("enter", "⏎", again),
            ("v", "v", N_("Replay")),
            *rematch,
            LOOK,
            *chat,
            *away[:1],
            HELP,
            QUIT_KEY,
        ),
        QUIT: (("y", "y", N_("Yes, leave")), ("n", "n", N_("No, stay"))),
        SMALL: (HELP, QUIT_KEY),
        REPLAY: (
            ("right", "← →", N_("Turn")),
            ("", "↑ ↓", N_("Move list")),
            ("end", "Home End", N_("Deal / end")),
            ("escape", "esc", N_("Close")),
            HELP,
        ),
    }
    return table[mode]


def look_keys(moves: bool) -> Keys:
    """The key line while the cursor is among the players or along the moves (`moves`):
    the keys that move it, and the way back to the board."""
    if moves:
        walk: Keys = (
            ("", "↑ ↓ PgUp PgDn", N_("Look back")),
            ("end", "Home End", N_("First / last")),
        )
    else:
        walk = (("", "↑ ↓ ← →", N_("Players, reserves")), ("tab", "Tab", N_("Moves")))
    return (*walk, ("escape", "esc", N_("Board")), HELP, QUIT_KEY)


LOOKING = [
    ("Tab", N_("cursor to the players, the moves, back to the board")),
    (N_("arrows h j k l"), N_("move the cursor; what is under it shows below")),
]
PAGES: dict[str, list[tuple[str, str]]] = {
    CHOOSE: [
        ("b", N_("buy the card under the cursor (b again or Enter: yes)")),
        ("r", N_("reserve the card or deck under the cursor, take a gold (R9)")),
        (N_("t w u g r k"), N_("pick gems to take, Enter takes them (R7, R8)")),
        ("Enter", N_("act on the cursor: buy, reserve a deck, pick a gem")),
        (":", N_("type a move (take W U G, buy 1-07) or a card id")),
        ("p", N_("pass, only when nothing else is possible (R12)")),
        *LOOKING,
    ],
    WAIT: [*LOOKING, (N_(": 2-14"), N_("a card id: its face, and what you need for it"))],
    CHAT: [
        ("Enter", N_("say the line to the table (spectators: to spectators till the end)")),
        ("Esc", N_("close the line")),
        (N_("/mute NAME"), N_("hide NAME's lines (this session); /unmute NAME; /mute lists")),
        ("/bell", N_("the bell when it becomes your turn: on or off")),
    ],
    PICK: [
        (N_("w u g r k"), N_("pick a white, blue, green, red, black gem")),
        ("Backspace", N_("put back the last gem picked")),
        (N_("Enter or t"), N_("take the gems picked")),
        ("Esc", N_("stop picking")),
    ],
    CONFIRM: [("Enter", N_("play the move (or the same key again)")), ("Esc", N_("do not"))],
    RETURN: [
        (N_("w u g r k *"), N_("give back a white, blue, green, red, black, gold (o)")),
        ("Backspace", N_("take back the last one chosen")),
        ("Enter", N_("return them: exactly down to 10 tokens")),
        ("Esc", N_("clear the choice")),
        ("", N_("the cards show what you need with the tokens you keep")),
        *LOOKING,
    ],
    TYPE: [
        ("Enter", N_("play the move typed, or show the card of that id")),
        ("Esc", N_("close the line")),
        (N_("← → Home End"), N_("move in the line; Backspace Ctrl+U Ctrl+K edit")),
    ],
    WATCH: [*LOOKING, ("Esc", N_("back to the lobby"))],
    OVER: [
        ("Enter", N_("a new game (offline) or the lobby")),
        ("v", N_("replay the game, every card shown")),
        ("r", N_("a rematch: the same players, seats turned; again to accept one")),
        ("Esc", N_("leave")),
        *LOOKING,
    ],
    QUIT: [(N_("y or Enter"), N_("leave and quit")), (N_("n or Esc"), N_("stay"))],
    SMALL: [("", N_("make the terminal at least 80×22 to see the table"))],
    REPLAY: [
        (N_("← → h l"), N_("a turn back, a turn on")),
        (N_("↑ ↓ PgUp PgDn"), N_("along the move list: the table follows")),
        (N_("Home End"), N_("the deal, the last turn")),
        ("Esc", N_("close the replay")),
        ("", N_("the move log marks the turn shown; its card shows beside the hand")),
    ],
}
PRACTICE_HELP = [
    ("u", N_("take back your last move and the bots' since (offline)")),
    ("i", N_("hint: the medium bot's move now, and why (offline)")),
]
ONLINE_HELP = [
    ("c", N_("chat with the table (/mute NAME, /bell)")),
    ("m", N_("your next game where it is your move, or the lobby (this seat stays yours)")),
    ("Esc", N_("back to the lobby; the seat stays yours (j or Enter on the table: back)")),
    ("v", N_("vote to hand an absent player's seat to a bot (past the patience)")),
]

LEGEND = N_("""\
[b]Reading the table[/b]
 [b] K 1-25   2★[/b]   a card: its bonus colour (K black), its id, its prestige
 [b] 3W 5K[/b]         its cost: W U G R K are white blue green red black
 [b] need 1W 3K[/b]    what you still lack for it
 [b] ✓ buy[/b]         you can buy it; [b]✓ buy 2*[/b]: with 2 of your gold (*)
 [b]N7 3U3G3K[/b]      a noble (3★, R14) and the bonuses it asks for;
 [b]you 2U1K[/b]       under it, what you still lack for it
 [b]Bank[/b]           the tokens left; +1 picked, -1 given back
 [b]Hand[/b]           your reserved cards; beside them, a card you look at

[b]Players[/b] (in turn order: [b]1st[/b] starts each round; [b]▶[/b] to play, [b]▌[/b] moved last)
 [b]gem[/b]  tokens of each colour and Σ their total (10 at most, R13)
 [b]crd[/b]  bonuses: the cards bought of each colour, Σ all of them
 [b]res[/b]  reserved cards ([b]L2?[/b] another's blind level 2 card)
 [b]♛[/b]    the nobles, closest first, and what this player lacks for each
 [b]last[/b] their last turn; in short, [b]res[/b] reserved, [b]+1*[/b] a gold, \
[b]-W[/b] W given back""")


def page(mode: str, local: bool) -> Group:
    """The first help page for `mode`: the keys of the moment."""
    entries = PAGES[mode] + (PRACTICE_HELP if local and mode in (CHOOSE, WAIT, RETURN) else [])
    entries += ONLINE_HELP if not local and mode in (CHOOSE, WAIT) else []
    entries += [("? q", _("help (Tab: the table, rules, every key) · quit"))]
    return key_page(TITLES[mode], entries)  # key_page translates both
