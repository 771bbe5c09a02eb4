"""Why a well-formed move is not legal now: the reason part of `IllegalMoveError`.

The reasons are worked out from the deciding player's `PlayerView`, so the
engine and the client (which holds only views) give the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import COLOUR_NAMES, COLOURS, card
from .moves import BUY, PASS, RESERVE, RESERVE_DECK, RETURN, TAKE, Move
from .state import MAX_RESERVED, RETURN_PHASE, TOKEN_LIMIT

if TYPE_CHECKING:
    from .state import GameState
    from .view import PlayerView



def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def why_illegal(state: GameState, move: Move) -> str:
    """A short reason, in the player's words, that `move` is not legal in `state`."""
    if state.is_over:
        return "the game is over"
    return why_not_now(state.view(state.current_player), move)


def why_not_now(view: PlayerView, move: Move) -> str:
    """Why `move` is not among the legal moves of the player deciding in `view`."""
    me = view.players[view.current_player]
    tokens = me.tokens
    held = sum(tokens)
    if view.phase == RETURN_PHASE:
        excess = held - TOKEN_LIMIT
        if move.kind != RETURN:
            return f"first return {plural(excess, 'token')} to come back to 10 (R13)"
        counts = move.counts  # type: ignore[attr-defined]
        if sum(counts) != excess:
            return f"return exactly {plural(excess, 'token')} to come back to 10 (R13)"
        for c in range(6):
            if counts[c] > tokens[c]:
                return f"you hold only {tokens[c]} {COLOUR_NAMES[c]}"
        return "not a legal return"
    if move.kind == RETURN:
        return f"you hold {held} tokens: nothing to return (R13)"
    if move.kind == PASS:
        return "you may pass only when no other move is possible (R12)"
    if move.kind == TAKE:
        return _why_take(view.bank[:5], move.colours)  # type: ignore[attr-defined]
    if move.kind in (RESERVE, RESERVE_DECK):
        if len(me.reserved) >= MAX_RESERVED:
            return f"you already hold {MAX_RESERVED} reserved cards (R9)"
        if move.kind == RESERVE_DECK:
            return f"the level {move.level} deck is empty (R11)"  # type: ignore[attr-defined]
        return f"{move.card} is not face up on the table"  # type: ignore[attr-defined]
    if move.kind == BUY:
        cid: str = move.card  # type: ignore[attr-defined]
        face_up = any(cid in row for row in view.board)
        if not face_up and all(r.card != cid for r in me.reserved):
            return f"{cid} is neither face up nor reserved by you"
        cost = card(cid).cost
        short = [max(0, cost[c] - me.bonuses[c] - tokens[c]) for c in range(5)]
        missing = " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(short) if n)
        return (
            f"{cid} needs {missing} more than you have; "
            f"your {tokens[5]} gold can't cover {sum(short)} (R10)"
        )
    return "not legal now"


def _why_take(gems: tuple[int, ...], colours: tuple[int, ...]) -> str:
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
