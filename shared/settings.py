"""A game's settings: one frozen value, made once when a table is created (R2, R15).

What a game is created with besides its seed: how many play, the prestige that starts
the final round (R15: 15 in the rules; a club may choose a longer game), and the card
set. `shared.deal.new_game(settings, seed)` deals from it; the state carries the
target on to its views, and bots, screens and records read it there, never a constant.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARD_SET
from .constants import GEMS_BY_PLAYERS, WINNING_PRESTIGE
from .i18n import _

TARGETS = (WINNING_PRESTIGE, 21)  # what a table may be created with: the rules', a long game
MIN_TARGET, MAX_TARGET = 1, 99  # what the engine accepts (tests, later variants)


@dataclass(frozen=True, slots=True)
class GameSettings:
    """A game's settings: `players` (2 to 4, R2), `target` (the prestige that starts the
    final round, R15) and `card_set` (`shared.cards.CARD_SET`, the only one so far)."""

    players: int
    target: int = WINNING_PRESTIGE
    card_set: str = CARD_SET

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in GEMS_BY_PLAYERS:
            raise ValueError(f"Splendor is for 2 to 4 players, not {self.players!r}")
        if type(self.target) is not int or not MIN_TARGET <= self.target <= MAX_TARGET:
            raise ValueError(
                f"a game ends at {MIN_TARGET} to {MAX_TARGET} prestige, not {self.target!r}"
            )
        if self.card_set != CARD_SET:
            raise ValueError(f"there is no card set {self.card_set!r}; this program has {CARD_SET}")

    @property
    def standard(self) -> bool:
        """The rules' game (R15 at 15): screens name the target only when it is not."""
        return self.target == WINNING_PRESTIGE


def target_text(target: int) -> str:
    """A non-standard target as the lobby and the table name it ("to 21"); "" for 15."""
    return "" if target == WINNING_PRESTIGE else _("to {target}", target=target)


__all__ = ["MAX_TARGET", "MIN_TARGET", "TARGETS", "GameSettings", "target_text"]
