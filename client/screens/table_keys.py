"""The table's keys, as data: each key and the named action it runs (`TableScreen`'s
`action_*` methods hand them to the screen's parts). Which keys apply in each mode is
`TableScreen.check_action`'s; the key line and the help page come from
`client.screens.modes`.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

GEMS = "WUGRK"


def _pick(letter: str, in_take_mode_only: bool = False) -> str:
    return f"pick({GEMS.index(letter)}, {in_take_mode_only})"


BINDINGS: list[BindingType] = [
    # Gem letters first: while picking or giving back, they win over other keys.
    Binding("w,W", "give(0)", show=False, tooltip="Returning: give back a white (W)"),
    Binding("u,U", "give(1)", show=False, tooltip="Returning: give back a blue (U)"),
    Binding("g,G", "give(2)", show=False, tooltip="Returning: give back a green (G)"),
    Binding("r,R", "give(3)", show=False, tooltip="Returning: give back a red (R)"),
    Binding("k,K", "give(4)", show=False, tooltip="Returning: give back a black (K)"),
    Binding("asterisk,o", "give(5)", show=False, tooltip="Returning: give back a gold (*)"),
    Binding("r", _pick("R", True), show=False, tooltip="While taking: pick red"),
    Binding(
        "r",
        "rematch",
        show=False,
        tooltip="Game over: a rematch, the same players, seats turned (again: accept one)",
    ),
    Binding("u", _pick("U", True), show=False, tooltip="While taking: pick blue"),
    Binding("k", _pick("K", True), show=False, tooltip="While taking: pick black"),
    Binding("b", "buy", "Buy", tooltip="Buy the card under the cursor (b again or Enter confirms)"),
    Binding("r", "reserve", "Reserve", tooltip="Reserve the card or deck under the cursor"),
    Binding("t", "take", "Take", tooltip="Take gems: then w u g r k pick them, Enter takes"),
    Binding(
        "enter,space",
        "confirm",
        "OK",
        tooltip="Confirm; with nothing chosen, act on the cursor",
    ),
    Binding(
        "escape",
        "cancel",
        "Cancel",
        tooltip="Cancel the choice; online, with nothing open: to the lobby, the seat kept",
    ),
    Binding(
        "colon",
        "command",
        "Move",
        tooltip="Type a move (take W U G, buy 1-07, reserve deck 2) or a card id (2-14) "
        "to see it: Enter plays it or shows the card, Esc closes the line; "
        "← → Home End Backspace Ctrl+U edit",
    ),
    Binding("W,w", _pick("W"), show=False, tooltip="Pick a white gem (W)"),
    Binding("U", _pick("U"), show=False, tooltip="Pick a blue gem (U; u too while taking)"),
    Binding("G,g", _pick("G"), show=False, tooltip="Pick a green gem (G)"),
    Binding("R", _pick("R"), show=False, tooltip="Pick a red gem (R; r too while taking)"),
    Binding("K", _pick("K"), show=False, tooltip="Pick a black gem (K; k too while taking)"),
    Binding("asterisk", "pick(5, False)", show=False, tooltip="Gold: says why it is not taken"),
    Binding("backspace", "unpick", show=False, tooltip="Put back the last gem or token chosen"),
    Binding("y", "answer(True)", show=False, tooltip="Leaving: yes, leave the game"),
    Binding("n", "answer(False)", show=False, tooltip="Leaving: no, stay"),
    Binding("u", "undo", "Undo", tooltip="Take back your last move (offline, against bots)"),
    Binding("i", "hint", "Hint", tooltip="What the medium bot would play now, and why"),
    Binding("tab", "area(1)", show=False, tooltip="Cursor to the players, moves, board"),
    Binding("shift+tab", "area(-1)", show=False, tooltip="The same, backwards"),
    Binding("up,k", "cursor(-1, 0)", show=False, tooltip="Cursor up"),
    Binding("down,j", "cursor(1, 0)", show=False, tooltip="Cursor down"),
    Binding("left,h", "cursor(0, -1)", show=False, tooltip="Cursor left"),
    Binding("right,l", "cursor(0, 1)", show=False, tooltip="Cursor right"),
    Binding("pageup", "page(-1)", show=False, tooltip="Moves: a page back"),
    Binding("pagedown", "page(1)", show=False, tooltip="Moves: a page on"),
    Binding("home", "page(-1000)", show=False, tooltip="Moves: the first"),
    Binding("end", "page(1000)", show=False, tooltip="Moves: the latest"),
    Binding(
        "p", "pass_turn", show=False, tooltip="Pass (only when no other move is possible, R12)"
    ),
    Binding("c", "chat", "Chat", tooltip="Say something to the table (/mute NAME, /bell)"),
    Binding(
        "m", "next_game", show=False, tooltip="Your next game where it is your move, or the lobby"
    ),
    Binding(
        "v",
        "vote_or_replay",
        show=False,
        tooltip="Vote to hand an absent player's seat to a bot; once the game is over: replay",
    ),
]
