"""The values a tournament's pairing reads and makes: a finished game, a round."""

from __future__ import annotations

from dataclasses import dataclass

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round-robin", "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)


@dataclass(frozen=True, slots=True)
class Game:
    """One finished table of a round: its players in seat order, their ranks (R17: 1 is
    first, equal ranks are shared) and prestige. `ranks` empty: not played (no result)."""

    players: tuple[str, ...]
    ranks: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:  # R2
            raise ValueError(f"a table seats 2 to 4 players, not {len(self.players)}")
        if self.ranks and len(self.ranks) != len(self.players):
            raise ValueError("one rank per player")


@dataclass(frozen=True, slots=True)
class Round:
    """One round: its tables (each a tuple of players, best standing first) and who has a
    bye (sits this round out, with a bye's points)."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def players(self) -> list[str]:
        return [p for t in self.tables for p in t] + list(self.byes)
