"""Bots at three levels that play only from what their seat may see (issue 3).

    from shared.bots import choose_move, choose_move_bytes, encode_request
    move = choose_move(state.view(seat), "medium", seed=7)
    text = choose_move_bytes(encode_request(view, "hard", seed=7, budget=2000))
    move, why = explain(state.view(seat), "medium", seed=7)   # a hint: the move and why

A bot receives a `PlayerView`, a seeded random source and a `Budget`, never a
`GameState`; it samples what it cannot see (`determinize`). Levels: ``easy``
(plausible, weak), ``medium`` (one-ply heuristic), ``hard`` (determinized MCTS,
1 s a move by default; give an iteration budget for reproducible play).
"""

from .api import (
    LEVELS,
    BotRequestError,
    budget_to_wire,
    choose_move,
    choose_move_bytes,
    encode_request,
    explain,
    explain_bytes,
    make_bot,
    to_budget,
)
from .base import Bot, Budget
from .determinize import Determinizer, InconsistentViewError, determinize, passes_in_a_row

__all__ = [
    "LEVELS",
    "Bot",
    "BotRequestError",
    "Budget",
    "Determinizer",
    "InconsistentViewError",
    "budget_to_wire",
    "choose_move",
    "choose_move_bytes",
    "determinize",
    "encode_request",
    "explain",
    "explain_bytes",
    "make_bot",
    "passes_in_a_row",
    "to_budget",
]
