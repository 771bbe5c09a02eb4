"""Which of the table's keys apply now (`TableScreen.check_action`): the keys are data
(`table_keys.BINDINGS`), the mode says which of them work (`client.screens.modes`)."""

from __future__ import annotations

from . import modes


def allowed(
    action: str,
    parameters: tuple[object, ...],
    mode: str,
    *,
    seated: bool,
    local: bool,
    taking: bool,
) -> bool:
    """Whether `action` runs in `mode` (`seated`: the player holds a seat; `local`:
    offline, against bots; `taking`: gems are being picked)."""
    if mode == modes.QUIT:
        return action == "answer"
    if action == "answer":
        return False
    if action == "give":
        return mode == modes.RETURN  # R13
    if action == "rematch":
        return mode == modes.OVER and seated
    if action in ("chat", "next_game"):
        return not local  # with nobody but bots offline
    if action == "vote_or_replay":  # votes online, during a game; a replay once over
        return mode == modes.OVER or not local
    if mode == modes.RETURN and action in ("pick", "reserve", "pass_turn"):
        return False
    if action == "pick" and len(parameters) == 2 and parameters[1]:
        return taking  # lowercase r, u and k pick gems only while taking
    return True
