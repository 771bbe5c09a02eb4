"""Choosing a move: the Python call, and the bytes-in, notation-out call for another process.

`choose_move_bytes` is what a server runs in a process pool: its only input is
the bytes of a codec message ``{"view": PlayerView, "level": str, "seed": int,
"budget": ...}``, so a bot run this way can know nothing but what the seat's
view holds. `encode_request` builds those bytes.

A budget on the wire is None (the level's default), an int (iterations), a
float (seconds: a deadline, with the level's own iterations), or a map with
``"iterations"`` and/or ``"seconds"`` (`Budget`).
"""

from __future__ import annotations

import random
from typing import Any

from ..codec import dumps, loads
from ..errors import SplendorError
from ..i18n import Text
from ..moves import Move
from ..view import PlayerView
from .base import Bot, Budget
from .easy import EasyBot
from .hard import HardBot
from .medium import MediumBot

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")

BudgetLike = Budget | int | float | dict[str, Any] | None


class BotRequestError(SplendorError):
    """A bot request that can't be served: unknown level, bad budget, not the seat's turn."""


def make_bot(level: str) -> Bot:
    """A fresh bot of this level (`LEVELS`)."""
    if level == "easy":
        return EasyBot()
    if level == "medium":
        return MediumBot()
    if level == "hard":
        return HardBot()
    raise BotRequestError(f"no bot level {level!r}; the levels are {', '.join(LEVELS)}")


def to_budget(budget: BudgetLike) -> Budget:
    """A `Budget` from any accepted form (see the module docstring)."""
    try:
        if budget is None:
            return Budget()
        if isinstance(budget, Budget):
            return budget
        if isinstance(budget, bool):
            raise BotRequestError(f"{budget!r} is not a budget")
        if isinstance(budget, int):
            return Budget(iterations=budget)
        if isinstance(budget, float):
            return Budget(seconds=budget)
        if isinstance(budget, dict):
            unknown = set(budget) - {"iterations", "seconds"}
            if unknown:
                raise BotRequestError(
                    f"unknown budget keys: {', '.join(sorted(map(str, unknown)))}"
                )
            seconds = budget.get("seconds")
            return Budget(
                iterations=budget.get("iterations"),
                seconds=float(seconds)
                if isinstance(seconds, int) and not isinstance(seconds, bool)
                else seconds,
            )
    except ValueError as e:
        raise BotRequestError(str(e)) from e
    raise BotRequestError(f"{budget!r} is not a budget")


def budget_to_wire(budget: BudgetLike) -> dict[str, Any]:
    """A budget as a message value: ``{"iterations": ..., "seconds": ...}``."""
    b = to_budget(budget)
    return {"iterations": b.iterations, "seconds": b.seconds}


def _checked(view: PlayerView, level: str, seed: int) -> Bot:
    if not view.legal_moves:
        raise BotRequestError("the view has no legal moves: it is not this seat's decision")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BotRequestError(f"a seed is an integer, not {seed!r}")
    return make_bot(level)


def choose_move(view: PlayerView, level: str, seed: int, budget: BudgetLike = None) -> Move:
    """The move a bot of `level` plays from `view`, with its random source seeded by `seed`.
    The same view, level, seed and iteration budget always give the same move; a deadline
    (``seconds``) that binds gives the best move found by then."""
    bot = _checked(view, level, seed)
    move = bot.choose(view, random.Random(seed), to_budget(budget))
    assert move in view.legal_moves, f"{level} bot chose {move}, not a legal move"
    return move


def explain(view: PlayerView, level: str, seed: int, budget: BudgetLike = None) -> tuple[Move, str]:
    """The move `choose_move(view, level, seed, budget)` plays, and in one line why: for
    logs ("buys 2-14: 3 points, a blue bonus, and N4 is 1 card away (...)"). Each level
    says how it chose (`Bot.decide`); like the move, the line comes from the view alone."""
    move, why = explain_said(view, level, seed, budget)
    return move, why.english()


def explain_said(
    view: PlayerView, level: str, seed: int, budget: BudgetLike = None
) -> tuple[Move, Text]:
    """`explain` with the line as a marked message, for the hint key: each player reads it
    in their own language (issue 34)."""
    bot = _checked(view, level, seed)
    decision = bot.decide(view, random.Random(seed), to_budget(budget))
    assert decision.move in view.legal_moves, f"{level} bot chose {decision.move}, not legal"
    return decision.move, decision.why


def encode_request(view: PlayerView, level: str, seed: int, budget: BudgetLike = None) -> bytes:
    """The bytes `choose_move_bytes` takes."""
    return dumps({"view": view, "level": level, "seed": seed, "budget": budget_to_wire(budget)})


def choose_move_bytes(data: bytes) -> str:
    """Bytes of a codec-encoded request in, the chosen move's notation out. Pure: the
    answer depends on the bytes alone (and on the clock, if the budget caps time)."""
    view, level, seed, budget = _request(data)
    return str(choose_move(view, level, seed, budget))


def explain_bytes(data: bytes) -> tuple[str, str]:
    """`explain` for another process: the bytes of `encode_request` in, the move's
    notation and the reason out."""
    move, why = explain(*_request(data))
    return str(move), why


def explain_said_bytes(data: bytes) -> tuple[str, Text]:
    """`explain_said` for another process (what a hint's worker runs)."""
    move, why = explain_said(*_request(data))
    return str(move), why


def _request(data: bytes) -> tuple[PlayerView, str, int, Budget]:
    """A bot request's fields, checked: the view, the level, the seed, the budget."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise BotRequestError(f"a bot request is bytes, not {type(data).__name__}")
    msg = loads(bytes(data))
    if not isinstance(msg, dict):
        raise BotRequestError("a bot request is a message map")
    view = msg.get("view")
    if not isinstance(view, PlayerView):
        raise BotRequestError("a bot request needs a view")
    level = msg.get("level")
    if not isinstance(level, str):
        raise BotRequestError("a bot request needs a level")
    seed = msg.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise BotRequestError("a bot request needs an integer seed")
    return view, level, seed, to_budget(msg.get("budget"))
