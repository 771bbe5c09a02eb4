"""What the engine records of play: a player's last turn and a finished game's result.

Both `shared.state` (which makes them) and `shared.view` (which shows them) use
these, so they sit below both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .moves import Move


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: prestige per seat (R16) and rank per seat (R17)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 1)


class TurnSummary(NamedTuple):
    """What one player did on their last turn, for the table and the log."""

    action: Move
    returned: Move | None = None
    noble: int | None = None  # index of the noble that visited (R14)
    took_gold: bool = False  # a reserve that came with a gold (R9)
