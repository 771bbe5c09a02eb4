"""Why a well-formed move is not legal now: the reason part of `IllegalMoveError`.

The reasons are worked out from the deciding player's `PlayerView`, so the
engine and the client (which holds only views) give the same words.
"""

from __future__ import annotations

from .cards import COLOUR_NAMES, COLOURS, card
from .constants import MAX_RESERVED, RETURN_PHASE, TOKEN_LIMIT
from .i18n import L_, Ln_, Text
from .moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from .view import PlayerInfo, PlayerView


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _colour(c: int) -> Text:
    return L_(COLOUR_NAMES[c])  # marked where it is defined (`shared.cards`)


def why_not_now(view: PlayerView, move: Move) -> Text:
    """Why `move` is not among the legal moves of the player deciding in `view`, as a
    `Text` each reader sees in their own language (`shared.i18n`)."""
    if view.is_over:
        return L_("the game is over")
    me = view.players[view.current_player]
    tokens = me.tokens
    held = sum(tokens)
    if view.phase == RETURN_PHASE:
        excess = held - TOKEN_LIMIT
        if not isinstance(move, Return):
            return Ln_(
                "first return {n} token to come back to 10 (R13)",
                "first return {n} tokens to come back to 10 (R13)",
                excess,
            )
        if sum(move.counts) != excess:
            return Ln_(
                "return exactly {n} token to come back to 10 (R13)",
                "return exactly {n} tokens to come back to 10 (R13)",
                excess,
            )
        for c in range(6):
            if move.counts[c] > tokens[c]:
                return L_("you hold only {count} {colour}", count=tokens[c], colour=_colour(c))
        return L_("not a legal return")
    match move:
        case Return():
            return L_("you hold {held} tokens: nothing to return (R13)", held=held)
        case Pass():
            return L_("you may pass only when no other move is possible (R12)")
        case Take(colours=colours):
            return _why_take(view.bank[:5], colours)
        case Reserve() | ReserveDeck() if len(me.reserved) >= MAX_RESERVED:
            return L_("you already hold {most} reserved cards (R9)", most=MAX_RESERVED)
        case ReserveDeck(level=level):
            return L_("the level {level} deck is empty (R11)", level=level)
        case Reserve(card=cid):
            return L_("{card} is not face up on the table", card=cid)
        case Buy(card=cid):
            return _why_buy(view.board, me, cid)
    return L_("not legal now")


def _why_buy(board: tuple[tuple[str | None, ...], ...], me: PlayerInfo, cid: str) -> Text:
    tokens = me.tokens
    face_up = any(cid in row for row in board)
    if not face_up and all(r.card != cid for r in me.reserved):
        return L_("{card} is neither face up nor reserved by you", card=cid)
    cost = card(cid).cost
    short = [max(0, cost[c] - me.bonuses[c] - tokens[c]) for c in range(5)]
    missing = " ".join(f"{n}{COLOURS[c]}" for c, n in enumerate(short) if n)
    return L_(
        "{card} needs {missing} more than you have; your {gold} gold can't cover {short} (R10)",
        card=cid,
        missing=missing,
        gold=tokens[5],
        short=sum(short),
    )


def _why_take(gems: tuple[int, ...], colours: tuple[int, ...]) -> Text:
    if len(colours) == 2 and colours[0] == colours[1]:  # R8
        c = colours[0]
        return L_(
            "only {count} {colour} left; taking two needs 4 (R8)", count=gems[c], colour=_colour(c)
        )
    for c in colours:
        if gems[c] == 0:
            return L_("no {colour} left", colour=_colour(c))
    available = sum(1 for n in gems if n > 0)
    if len(colours) < 3 and available >= 3:
        return L_("{available} colours are left: take 3 different (R7)", available=available)
    if len(colours) < available:
        return L_("take one of each of the {available} colours left (R7)", available=available)
    return L_("not a legal take")
