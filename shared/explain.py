"""Why a well-formed move is not legal now: the reason part of `IllegalMoveError`.

The reasons are worked out from the deciding player's `PlayerView`, so the
engine and the client (which holds only views) give the same words.
"""

from __future__ import annotations

from .cards import COLOUR_NAMES, COLOURS, card
from .constants import MAX_RESERVED, RETURN_PHASE, TOKEN_LIMIT
from .moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from .view import PlayerInfo, PlayerView


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def why_not_now(view: PlayerView, move: Move) -> str:
    """Why `move` is not among the legal moves of the player deciding in `view`."""
    if view.is_over:
        return "the game is over"
    me = view.players[view.current_player]
    tokens = me.tokens
    held = sum(tokens)
    if view.phase == RETURN_PHASE:
        excess = held - TOKEN_LIMIT
        if not isinstance(move, Return):
            return f"first return {plural(excess, 'token')} to come back to 10 (R13)"
        if sum(move.counts) != excess:
            return f"return exactly {plural(excess, 'token')} to come back to 10 (R13)"
        for c in range(6):
            if move.counts[c] > tokens[c]:
                return f"you hold only {tokens[c]} {COLOUR_NAMES[c]}"
        return "not a legal return"
    match move:
        case Return():
            return f"you hold {held} tokens: nothing to return (R13)"
        case Pass():
            return "you may pass only when no other move is possible (R12)"
        case Take(colours=colours):
            return _why_take(view.bank[:5], colours)
        case Reserve() | ReserveDeck() if len(me.reserved) >= MAX_RESERVED:
            return f"you already hold {MAX_RESERVED} reserved cards (R9)"
        case ReserveDeck(level=level):
            return f"the level {level} deck is empty (R11)"
        case Reserve(card=cid):
            return f"{cid} is not face up on the table"
        case Buy(card=cid):
            return _why_buy(view.board, me, cid)
    return "not legal now"


def _why_buy(board: tuple[tuple[str | None, ...], ...], me: PlayerInfo, cid: str) -> str:
    tokens = me.tokens
    face_up = any(cid in row for row in board)
    if not face_up and all(r.card != cid for r in me.reserved):
        return f"{cid} is neither face up nor reserved by you"
    cost = card(cid).cost
    short = [max(0, cost[c] - me.bonuses[c] - tokens[c]) for c in range(5)]
    missing = " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(short) if n)
    return (
        f"{cid} needs {missing} more than you have; "
        f"your {tokens[5]} gold can't cover {sum(short)} (R10)"
    )


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
