"""Why a well-formed move is not legal now: the reason part of `IllegalMoveError`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARDS, COLOUR_NAMES
from .moves import BUY, PASS, RESERVE, RESERVE_DECK, RETURN, TAKE, Move

if TYPE_CHECKING:
    from .state import GameState


def why_illegal(state: GameState, move: Move) -> str:
    """A short reason, in the player's words, that `move` is not legal in `state`."""
    from .state import MAX_RESERVED, RETURN_PHASE, TOKEN_LIMIT

    if state.is_over:
        return "the game is over"
    p = state.current_player
    tokens = state.tokens[p]
    if state.phase == RETURN_PHASE:
        excess = sum(tokens) - TOKEN_LIMIT
        if move.kind != RETURN:
            return f"first return {excess} token{'s' * (excess > 1)} to come back to 10 (R13)"
        counts = move.counts  # type: ignore[attr-defined]
        if sum(counts) != excess:
            return f"return exactly {excess} token{'s' * (excess > 1)} to come back to 10 (R13)"
        for c in range(6):
            if counts[c] > tokens[c]:
                return f"you hold only {tokens[c]} {COLOUR_NAMES[c]}"
        return "not a legal return"
    if move.kind == RETURN:
        return f"you hold {sum(tokens)} tokens: nothing to return (R13)"
    if move.kind == PASS:
        return "you may pass only when no other move is possible (R12)"
    if move.kind == TAKE:
        return _why_take(state, move)
    if move.kind in (RESERVE, RESERVE_DECK):
        if len(state.reserved[p]) >= MAX_RESERVED:
            return f"you already hold {MAX_RESERVED} reserved cards (R9)"
        if move.kind == RESERVE_DECK:
            return f"the level {move.level} deck is empty (R11)"  # type: ignore[attr-defined]
        return f"{move.card} is not face up on the table"  # type: ignore[attr-defined]
    if move.kind == BUY:
        idx = move.index  # type: ignore[attr-defined]
        on_board = any(idx in row for row in state.board)
        if not on_board and all(r != idx for r, _ in state.reserved[p]):
            return f"{move.card} is neither face up nor reserved by you"  # type: ignore[attr-defined]
        short = 0
        bonus = state.bonuses[p]
        for c, n in enumerate(CARDS[idx].cost):
            short += max(0, n - bonus[c] - tokens[c])
        return f"you are {short} token{'s' * (short > 1)} short and hold {tokens[5]} gold (R10)"
    return "not legal now"


def _why_take(state: GameState, move: Move) -> str:
    colours: tuple[int, ...] = move.colours  # type: ignore[attr-defined]
    gems = state.bank[:5]
    if len(colours) == 2 and colours[0] == colours[1]:  # R8
        c = colours[0]
        return f"only {gems[c]} {COLOUR_NAMES[c]} left; taking two needs 4 (R8)"
    for c in colours:
        if gems[c] == 0:
            return f"no {COLOUR_NAMES[c]} left"
    available = sum(1 for n in gems if n > 0)
    if len(colours) < 3 and available >= 3:
        return f"{available} colours are left: take 3 different (R7)"
    if len(colours) < available:
        return f"take one of each of the {available} colours left (R7)"
    return "not a legal take"
