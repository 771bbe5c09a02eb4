"""Bots at three levels that play only from what their seat may see (issue 3).

    from shared.bots import choose_move, choose_move_bytes, encode_request
    move = choose_move(state.view(seat), "medium", seed=7)
    text = choose_move_bytes(encode_request(view, "hard", seed=7, budget=2000))
    move, why = explain(view, "hard", seed=7)  # "buys 2-14: 3 points, ..." (explain_said: a Text)

A bot receives a `PlayerView`, a seeded random source and a `Budget`, never a
`GameState`; it samples what it cannot see (`determinize`). Levels: ``easy``
(plausible, weak), ``medium`` (one-ply heuristic), ``hard`` (determinized MCTS with
a fixed iteration budget, about a second of CPU; a ``seconds`` deadline cuts it short).
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
    explain_said,
    explain_said_bytes,
    make_bot,
    to_budget,
)
from .base import Bot, Budget, Decision
from .determinize import Determinizer, InconsistentViewError, determinize, passes_in_a_row

__all__ = [
    "LEVELS",
    "Bot",
    "BotRequestError",
    "Budget",
    "Decision",
    "Determinizer",
    "InconsistentViewError",
    "budget_to_wire",
    "choose_move",
    "choose_move_bytes",
    "determinize",
    "encode_request",
    "explain",
    "explain_bytes",
    "explain_said",
    "explain_said_bytes",
    "make_bot",
    "passes_in_a_row",
    "to_budget",
]
