"""Fast move rules without look-ahead: search playouts, the easy level, sensible returns.

`fast_move` is a greedy player cheap enough to run thousands of times a
second: buy the best card it can (R10); otherwise aim at the card in reach
that is worth most for the turns it would take, and take the gems it lacks
(R7, R8); reserve it for gold when gems cannot help (R9). Returns (R13) keep
what its targets still need.
"""

from __future__ import annotations

import random

from ..moves import RESERVES, Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from ..state import GameState
from ..view import PlayerView
from .heuristic import COST_PAIRS, PRESTIGE, greedy_return

TARGET_DISCOUNT = 0.6
BONUS_WORTH = 0.6


def ranked_targets(state: GameState, q: int) -> list[tuple[float, int, int]]:
    """Cards player q could aim at (face up, own reserves) as (worth, turns away, index),
    best first; worth is prestige plus a bonus, discounted per turn of gathering."""
    bonus = state.bonuses[q]
    tok = state.tokens[q]
    gold = tok[5]
    bank = state.bank
    out: list[tuple[float, int, int]] = []
    targets = [i for row in state.board for i in row if i >= 0]
    targets.extend(i for i, _ in state.reserved[q])
    for idx in targets:
        short = 0
        scarce = 0
        for c, k in COST_PAIRS[idx]:
            d = k - bonus[c] - tok[c]
            if d > 0:
                short += d
                if d > bank[c]:
                    scarce += d - bank[c]
        short -= gold
        turns = 0 if short <= 0 else (short + 2) // 3 + max(0, scarce - gold)
        worth = (PRESTIGE[idx] + BONUS_WORTH) * TARGET_DISCOUNT**turns
        out.append((worth, turns, idx))
    out.sort(key=lambda t: (-t[0], t[2]))
    return out


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
    ranked = ranked_targets(state, p)
    if not ranked:
        return moves[rng.randrange(len(moves))]
    lack = _lacks(state, p, ranked[0][2])
    lack2 = _lacks(state, p, ranked[1][2]) if len(ranked) > 1 else [0, 0, 0, 0, 0]
    held = sum(state.tokens[p])
    best_take: Move | None = None
    best_gain = 0.0
    for m in moves:
        if not isinstance(m, Take):
            break
        counts = m.counts
        gain = 0.0
        n = 0
        for c in range(5):
            k = counts[c]
            if k:
                n += k
                gain += 2 * min(k, lack[c]) + min(k, lack2[c])
        if held + n > 10:
            gain -= held + n - 10  # R13: what would go straight back
        gain += rng.random() * 0.5
        if gain > best_gain:
            best_gain, best_take = gain, m
    if best_take is not None and best_gain >= 1.0:
        return best_take
    target = ranked[0][2]
    if len(state.reserved[p]) < 3 and any(target in row for row in state.board):
        return RESERVES[target]  # R9: the gold will pay for what gems can't
    if best_take is not None:
        return best_take
    others = [m for m in moves if not isinstance(m, Reserve | ReserveDeck)] or list(moves)
    return others[rng.randrange(len(others))]


__all__ = ["progress_moves", "token_jam", "fast_move", "keep_for", "ranked_targets", "smart_return"]
