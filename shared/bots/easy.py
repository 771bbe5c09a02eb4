"""The easy level: plausible moves a beginner can beat.

It buys when it can (a random affordable card, the costlier ones a little more
often), otherwise takes gems toward one of the cheaper cards in reach, chosen
with a lot of chance; now and then it reserves a card on a whim. It never
takes gems it would have to give straight back when another take exists, and
its returns (R13) keep what its target needs.
"""

from __future__ import annotations

import random

from ..i18n import L_
from ..moves import Buy, Move, Reserve, Return, Take
from ..state import RETURN_PHASE, GameState
from ..tables import COST_PAIRS, PRESTIGE
from ..view import PlayerView
from .base import Budget, Decision
from .determinize import Determinizer
from .heuristic import greedy_return
from .policy import ranked_targets
from .reasons import forced, said

BUY_CHANCE = 0.8
WHIM_RESERVE = 0.05


class EasyBot:
    """Greedy with plenty of chance; ignores the budget."""

    level = "easy"

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Move:
        return self._pick(view, rng)[0]

    def decide(self, view: PlayerView, rng: random.Random, budget: Budget) -> Decision:
        move, state = self._pick(view, rng)
        if state is None:
            return Decision(move, forced(view, move))
        how = L_("a near card, picked partly by chance")
        return Decision(move, L_("{what} ({how})", what=said(state, move), how=how))

    def _pick(self, view: PlayerView, rng: random.Random) -> tuple[Move, GameState | None]:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0], None
        state = Determinizer(view).sample_without_decks(rng)
        return self._from(state, moves, rng), state

    def _from(self, state: GameState, moves: tuple[Move, ...], rng: random.Random) -> Move:
        p = state.current_player
        ranked = ranked_targets(state, p)
        # A target among the few nearest cards, not the best one.
        near = sorted(ranked, key=lambda t: (t[1], -PRESTIGE[t[2]], t[2]))[:4]
        target = near[rng.randrange(len(near))][2] if near else -1
        want = [0, 0, 0, 0, 0]
        if target >= 0:
            bonus = state.bonuses[p]
            for c, k in COST_PAIRS[target]:
                want[c] = max(0, k - bonus[c])
        if state.phase == RETURN_PHASE or isinstance(moves[0], Return):
            return greedy_return(state, want)
        buys = [m for m in moves if isinstance(m, Buy)]
        if buys and rng.random() < BUY_CHANCE:
            weights = [1 + PRESTIGE[m.index] for m in buys]
            return rng.choices(buys, weights)[0]
        reserves = [m for m in moves if isinstance(m, Reserve)]
        if reserves and rng.random() < WHIM_RESERVE:
            return reserves[rng.randrange(len(reserves))]
        takes = [m for m in moves if isinstance(m, Take)]
        if takes:
            tok = state.tokens[p]
            held = sum(tok)
            lack = [max(0, want[c] - tok[c]) for c in range(5)]

            def gain(m: Take) -> float:
                counts = m.counts
                over = max(0, held + sum(counts) - 10)
                useful = sum(min(counts[c], lack[c]) for c in range(5))
                return useful - 2 * over + rng.random() * 1.5

            return max(takes, key=gain)
        others = [m for m in moves if not isinstance(m, Return)]
        return others[rng.randrange(len(others))] if others else moves[0]
