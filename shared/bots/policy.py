"""Fast move rules without look-ahead: search playouts, the easy level, sensible returns.

`fast_move` is a greedy player cheap enough to run thousands of times a
second: buy the best card it can (R10); otherwise aim at the card in reach
that is worth most for the turns it would take, and take the gems it lacks
(R7, R8); reserve it for gold when gems cannot help (R9). Returns (R13) keep
what its targets still need.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..moves import ALL_MOVES, RESERVES, Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from ..state import ACTION, GameState
from ..tables import COST_PAIRS, LANE, PRESTIGE, SHIFT, shortfalls
from ..view import PlayerView
from .heuristic import greedy_return, is_pointless

TARGET_DISCOUNT = 0.6
BONUS_WORTH = 0.6


_WORTH = tuple(tuple((p + BONUS_WORTH) * TARGET_DISCOUNT**t for t in range(40)) for p in range(6))


# Per take move (R7, R8), its colours with their counts: (colour, 1) or (colour, 2).
_TAKE_PAIRS = {
    id(m): tuple((c, k) for c, k in enumerate(m.counts) if k)
    for m in ALL_MOVES
    if isinstance(m, Take)
}


def _turns_and_worth(state: GameState, q: int) -> list[tuple[float, int, int]]:
    """(worth, turns away, index) of every card q could aim at, in table order (see
    `ranked_targets`)."""
    bonus = state.bonuses[q]
    tok = state.tokens[q]
    gold = tok[5]
    bank = state.bank
    lanes = shortfalls(bonus, tok)
    low_bank = min(bank[0], bank[1], bank[2], bank[3], bank[4])
    out: list[tuple[float, int, int]] = []
    targets = [i for row in state.board for i in row if i >= 0]
    targets.extend(i for i, _ in state.reserved[q])
    for idx in targets:
        short = lanes >> SHIFT[idx] & LANE
        if short <= gold:
            turns = 0
        else:
            scarce = 0
            if short > low_bank:  # else no colour can lack more than the bank holds
                for c, k in COST_PAIRS[idx]:
                    d = k - bonus[c] - tok[c]
                    if d > bank[c]:
                        scarce += d - bank[c]
            turns = (short - gold + 2) // 3 + max(0, scarce - gold)
        out.append((_WORTH[PRESTIGE[idx]][turns], turns, idx))
    return out


def ranked_targets(state: GameState, q: int) -> list[tuple[float, int, int]]:
    """Cards player q could aim at (face up, own reserves) as (worth, turns away, index),
    best first; worth is prestige plus a bonus, discounted per turn of gathering."""
    out = _turns_and_worth(state, q)
    out.sort(key=lambda t: (-t[0], t[2]))
    return out


def best_two(state: GameState, q: int) -> tuple[int, int]:
    """The first two cards of `ranked_targets` (-1 where there are fewer)."""
    w1 = w2 = -1.0
    i1 = i2 = -1
    for worth, _, idx in _turns_and_worth(state, q):
        if worth > w1 or (worth == w1 and idx < i1):
            w1, w2, i1, i2 = worth, w1, idx, i1
        elif worth > w2 or (worth == w2 and idx < i2):
            w2, i2 = worth, idx
    return i1, i2


def keep_for(state: GameState, q: int, count: int = 2) -> list[int]:
    """Gems worth keeping per colour: what player q's best `count` targets cost after bonuses."""
    bonus = state.bonuses[q]
    keep = [0, 0, 0, 0, 0]
    for _, _, idx in ranked_targets(state, q)[:count]:
        for c, k in COST_PAIRS[idx]:
            d = k - bonus[c]
            if d > keep[c]:
                keep[c] = d
    return keep


def smart_return(state: GameState) -> Move:
    """R13 without look-ahead: keep what the best targets need, give back the rest."""
    return greedy_return(state, keep_for(state, state.current_player))


def _lacks(state: GameState, q: int, idx: int) -> list[int]:
    bonus = state.bonuses[q]
    tok = state.tokens[q]
    lack = [0, 0, 0, 0, 0]
    for c, k in COST_PAIRS[idx]:
        d = k - bonus[c] - tok[c]
        if d > 0:
            lack[c] = d
    return lack


def token_jam(view: PlayerView) -> bool:
    """Every player's last turn gave tokens back (R13) or passed: nobody is getting
    anywhere, and bots that weigh only the position could go round forever."""
    for p in view.players:
        last = p.last_turn
        if last is None or (last.returned is None and not isinstance(last.action, Pass)):
            return False
    return True


def progress_moves(view: PlayerView) -> tuple[Move, ...]:
    """In a token jam, the moves that change the position for good: buys, else reserves."""
    buys = tuple(m for m in view.legal_moves if isinstance(m, Buy))
    if buys:
        return buys
    return tuple(m for m in view.legal_moves if isinstance(m, Reserve))


def worth_a_look(
    view: PlayerView, state: GameState, keep: Callable[[Move], bool]
) -> tuple[Move, ...]:
    """The moves a level weighs: no return that gives back exactly what was just taken
    (R13), only moves that change the position in a token jam, and of those the ones
    `keep` accepts; each step keeps what it had if it would leave nothing."""
    moves = view.legal_moves
    kept = tuple(m for m in moves if not is_pointless(state, m)) or moves
    if view.phase == ACTION and token_jam(view):
        kept = progress_moves(view) or kept
    return tuple(m for m in kept if keep(m)) or kept


def fast_move(state: GameState, rng: random.Random) -> Move:
    """A greedy move for the player to move (see the module docstring)."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    first = moves[0]
    if isinstance(first, Return):
        return smart_return(state)
    p = state.current_player
    # R10: the buys come last in the legal order.
    best_buy: Move | None = None
    best_worth = -1.0
    for m in reversed(moves):
        if not isinstance(m, Buy):
            break
        worth = PRESTIGE[m.index] + rng.random() * 0.5
        if worth > best_worth:
            best_worth, best_buy = worth, m
    if best_buy is not None:
        return best_buy
    aim, aim2 = best_two(state, p)
    if aim < 0:
        return moves[rng.randrange(len(moves))]
    lack = _lacks(state, p, aim)
    lack2 = _lacks(state, p, aim2) if aim2 >= 0 else [0, 0, 0, 0, 0]
    held = sum(state.tokens[p])
    best_take: Move | None = None
    best_gain = 0.0
    for m in moves:
        if type(m) is not Take:
            break
        gain = 0.0
        n = 0
        for c, k in _TAKE_PAIRS[id(m)]:
            n += k
            a = lack[c]
            b = lack2[c]
            gain += 2 * (k if k < a else a) + (k if k < b else b)
        if held + n > 10:
            gain -= held + n - 10  # R13: what would go straight back
        gain += rng.random() * 0.5
        if gain > best_gain:
            best_gain, best_take = gain, m
    if best_take is not None and best_gain >= 1.0:
        return best_take
    target = aim
    if len(state.reserved[p]) < 3 and any(target in row for row in state.board):
        return RESERVES[target]  # R9: the gold will pay for what gems can't
    if best_take is not None:
        return best_take
    others = [m for m in moves if not isinstance(m, Reserve | ReserveDeck)] or list(moves)
    return others[rng.randrange(len(others))]


__all__ = ["progress_moves", "token_jam", "fast_move", "keep_for", "ranked_targets", "smart_return"]
