"""The bot interface: a view in, a legal move out, with a seeded random source and a budget.

A bot never receives a `GameState`. It gets the `PlayerView` its seat would get
(the same value a human in that seat is sent), a `random.Random` that the
caller seeded, and a `Budget`. Whatever it cannot see it samples itself (see
`shared.bots.determinize`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..i18n import Text
from ..moves import Move
from ..view import PlayerView


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a bot may do for one move.

    ``iterations`` counts search iterations; None means the level's own fixed budget
    (for `hard`, a count calibrated to about a second of CPU on the reference machine).
    The same view, seed and iteration count always give the same move: a level's
    strength is a property of its code, not of the machine's load.

    ``seconds`` is a wall-clock deadline, counted from when the bot is asked: a safety
    cap, or a clock running out. A bot still searching then stops and answers with its
    best move so far, so only a deadline that binds makes the move depend on the
    machine. Levels that do not search (easy, medium) answer at once and ignore both.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and (
            not isinstance(self.iterations, int)
            or isinstance(self.iterations, bool)
            or self.iterations < 1
        ):
            raise ValueError(f"iterations must be a positive integer, not {self.iterations!r}")
        if self.seconds is not None and (
            not isinstance(self.seconds, int | float)
            or isinstance(self.seconds, bool)
            or not self.seconds > 0
        ):
            raise ValueError(f"seconds must be a positive number, not {self.seconds!r}")


class Bot(Protocol):
    """Anything that picks a move for the seat whose view it is given, and can say why."""

    level: str

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Move:
        """One of ``view.legal_moves`` (the view must be of the seat to move)."""
        ...

    def decide(self, view: PlayerView, rng: random.Random, budget: Budget) -> Decision:
        """The move `choose` gives with the same arguments, and in one line why."""
        ...


@dataclass(frozen=True, slots=True)
class Decision:
    """A bot's move, and in one line why (`shared.bots.reasons`): a marked message, shown
    in the reader's language (English in logs: `why.english()`)."""

    move: Move
    why: Text
