"""The medium level: a one-ply heuristic player.

It tries every legal move on a sampled position and keeps the one after which
its standing (`heuristic.evaluate`) is best compared with the strongest other
player: value of cards and bonuses, nobles in reach, gems toward affordable
targets, and what the next player could buy at once (so it denies an obvious
buy by reserving it when that is worth a turn).
"""

from __future__ import annotations

import random

from ..i18n import L_
from ..moves import Move, ReserveDeck
from ..state import RETURN_PHASE, GameState
from ..view import PlayerView
from .base import Budget, Decision
from .determinize import Determinizer
from .heuristic import DEFAULT, Weights, evaluate
from .policy import smart_return, worth_a_look
from .reasons import forced, said


def after(state: GameState, deck_state: GameState, move: Move) -> GameState:
    """The position once `move`'s turn is over: a take over 10 tokens is followed by a
    sensible return (R13). Blind reserves need the state with decks."""
    base = deck_state if isinstance(move, ReserveDeck) else state
    me = base.current_player
    nxt = base.apply_unchecked(move)
    if nxt.phase == RETURN_PHASE and nxt.current_player == me and not nxt.is_over:
        nxt = nxt.apply_unchecked(smart_return(nxt))
    return nxt


def score_moves(
    state: GameState, deck_state: GameState, moves: tuple[Move, ...], w: Weights = DEFAULT
) -> list[float]:
    """Each move's one-ply value for the player to move (see `after`)."""
    me = state.current_player
    return [evaluate(after(state, deck_state, m), me, w) for m in moves]


def best_move(view: PlayerView, rng: random.Random, w: Weights = DEFAULT) -> Move:
    """The move a one-ply search with weights `w` picks from this view."""
    return _one_ply(view, rng, w)[0]


def _one_ply(
    view: PlayerView, rng: random.Random, w: Weights
) -> tuple[Move, GameState | None, float | None]:
    """The best move, the deal it was judged on, and its lead over the next best (None
    when only one move was worth a look)."""
    moves = view.legal_moves
    if len(moves) == 1:
        return moves[0], None, None
    det = Determinizer(view)
    state = det.sample_without_decks(rng)
    deck_state = det.sample(rng) if any(isinstance(m, ReserveDeck) for m in moves) else state
    # A blind reserve is a lottery the one-ply view can't price; try it only if forced.
    candidates = worth_a_look(view, state, lambda m: not isinstance(m, ReserveDeck))
    scores = score_moves(state, deck_state, candidates, w)
    best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
    others = [x for i, x in enumerate(scores) if i != best]
    lead = scores[best] - max(others) if others else None
    return candidates[best], state, lead


class MediumBot:
    """One ply with the shared heuristic; ignores the budget."""

    level = "medium"

    def __init__(self, weights: Weights = DEFAULT) -> None:
        self.weights = weights

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Move:
        return best_move(view, rng, self.weights)

    def decide(self, view: PlayerView, rng: random.Random, budget: Budget) -> Decision:
        move, state, lead = _one_ply(view, rng, self.weights)
        if state is None:
            return Decision(move, forced(view, move))
        how = L_("its best value one move ahead")
        if lead is not None and lead >= 0.1:
            how = L_(
                "its best value one move ahead, {lead} points clear of the next",
                lead=round(lead, 1),
            )
        return Decision(move, L_("{what} ({how})", what=said(state, move), how=how))
