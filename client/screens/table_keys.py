"""The table's keys, as data: each key and the named action it runs (`TableScreen`'s
`action_*` methods hand them to the screen's parts). Which keys apply in each mode is
`TableScreen.check_action`'s; the key line and the help page come from
`client.screens.modes`.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from shared.i18n import N_

GEMS = "WUGRK"


def _pick(letter: str, in_take_mode_only: bool = False) -> str:
    return f"pick({GEMS.index(letter)}, {in_take_mode_only})"


BINDINGS: list[BindingType] = [
    # Gem letters first: while picking or giving back, they win over other keys.
    Binding("w,W", "give(0)", show=False, tooltip=N_("Returning: give back a white (W)")),
    Binding("u,U", "give(1)", show=False, tooltip=N_("Returning: give back a blue (U)")),
    Binding("g,G", "give(2)", show=False, tooltip=N_("Returning: give back a green (G)")),
    Binding("r,R", "give(3)", show=False, tooltip=N_("Returning: give back a red (R)")),
    Binding("k,K", "give(4)", show=False, tooltip=N_("Returning: give back a black (K)")),
    Binding("asterisk,o", "give(5)", show=False, tooltip=N_("Returning: give back a gold (*)")),
    Binding("r", _pick("R", True), show=False, tooltip=N_("While taking: pick red")),
    Binding(
        "r",
        "rematch",
        show=False,
        tooltip=N_("Game over: a rematch, the same players, seats turned (again: accept one)"),
    ),
    Binding("u", _pick("U", True), show=False, tooltip=N_("While taking: pick blue")),
    Binding("k", _pick("K", True), show=False, tooltip=N_("While taking: pick black")),
    Binding(
        "b",
        "buy",
        N_("Buy"),
        tooltip=N_("Buy the card under the cursor (b again or Enter confirms)"),
    ),
    Binding("r", "reserve", N_("Reserve"), tooltip=N_("Reserve the card or deck under the cursor")),
    Binding(
        "t", "take", N_("Take"), tooltip=N_("Take gems: then w u g r k pick them, Enter takes")
    ),
    Binding(
        "enter,space",
        "confirm",
        N_("OK"),
        tooltip=N_("Confirm; with nothing chosen, act on the cursor"),
    ),
    Binding(
        "escape",
        "cancel",
        N_("Cancel"),
        tooltip=N_("Cancel the choice; online, with nothing open: to the lobby, the seat kept"),
    ),
    Binding(
        "colon",
        "command",
        N_("Move"),
        tooltip=N_(
            "Type a move (take W U G, buy 1-07, reserve deck 2) or a card id (2-14) "
            "to see it: Enter plays it or shows the card, Esc closes the line; "
            "← → Home End Backspace Ctrl+U edit"
        ),
    ),
    Binding("W,w", _pick("W"), show=False, tooltip=N_("Pick a white gem (W)")),
    Binding("U", _pick("U"), show=False, tooltip=N_("Pick a blue gem (U; u too while taking)")),
    Binding("G,g", _pick("G"), show=False, tooltip=N_("Pick a green gem (G)")),
    Binding("R", _pick("R"), show=False, tooltip=N_("Pick a red gem (R; r too while taking)")),
    Binding("K", _pick("K"), show=False, tooltip=N_("Pick a black gem (K; k too while taking)")),
    Binding("asterisk", "pick(5, False)", show=False, tooltip=N_("Gold: says why it is not taken")),
    Binding("backspace", "unpick", show=False, tooltip=N_("Put back the last gem or token chosen")),
    Binding("y", "answer(True)", show=False, tooltip=N_("Leaving: yes, leave the game")),
    Binding("n", "answer(False)", show=False, tooltip=N_("Leaving: no, stay")),
    Binding(
        "u", "undo", N_("Undo"), tooltip=N_("Take back your last move (offline, against bots)")
    ),
    Binding("i", "hint", N_("Hint"), tooltip=N_("What the medium bot would play now, and why")),
    Binding("tab", "area(1)", show=False, tooltip=N_("Cursor to the players, moves, board")),
    Binding("shift+tab", "area(-1)", show=False, tooltip=N_("The same, backwards")),
    Binding("up,k", "cursor(-1, 0)", show=False, tooltip=N_("Cursor up")),
    Binding("down,j", "cursor(1, 0)", show=False, tooltip=N_("Cursor down")),
    Binding("left,h", "cursor(0, -1)", show=False, tooltip=N_("Cursor left")),
    Binding("right,l", "cursor(0, 1)", show=False, tooltip=N_("Cursor right")),
    Binding("pageup", "page(-1)", show=False, tooltip=N_("Moves: a page back")),
    Binding("pagedown", "page(1)", show=False, tooltip=N_("Moves: a page on")),
    Binding("home", "page(-1000)", show=False, tooltip=N_("Moves: the first")),
    Binding("end", "page(1000)", show=False, tooltip=N_("Moves: the latest")),
    Binding(
        "p", "pass_turn", show=False, tooltip=N_("Pass (only when no other move is possible, R12)")
    ),
    Binding("c", "chat", N_("Chat"), tooltip=N_("Say something to the table (/mute NAME, /bell)")),
    Binding(
        "m",
        "next_game",
        show=False,
        tooltip=N_("Your next game where it is your move, or the lobby"),
    ),
    Binding(
        "v",
        "vote_or_replay",
        show=False,
        tooltip=N_("Vote to hand an absent player's seat to a bot; once the game is over: replay"),
    ),
]
