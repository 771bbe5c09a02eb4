"""Per-player views: the table as one seat may know it, and nothing more (docs/design.md).

These are the values a player receives. `GameState.view` (shared/hidden.py) is the
one function that decides hidden information: a view names a card only where
its viewer can see it: face-up cards, cards bought, face-up reserves and the
viewer's own reserves. Decks are sizes; an opponent's blind reserve is its level
alone. This module sits below `shared.state`, which builds views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .cards import NOBLES
from .constants import WINNING_PRESTIGE
from .moves import Move
from .records import Outcome, TurnSummary
from .settings import GameSettings


@dataclass(frozen=True, slots=True)
class ReservedCard:
    """A reserved card as the viewer sees it: ``card`` is None for an unseen blind one."""

    level: int
    card: str | None
    blind: bool


@dataclass(frozen=True, slots=True)
class LastTurn:
    """A player's last turn: the action, any tokens returned, the noble that visited."""

    action: Move
    returned: Move | None = None
    noble: str | None = None
    took_gold: bool = False


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """One player at the table, as the viewer sees them."""

    seat: int
    tokens: tuple[int, ...]  # W U G R K *
    bonuses: tuple[int, ...]  # W U G R K
    prestige: int
    bought: tuple[str, ...]
    nobles: tuple[str, ...]
    reserved: tuple[ReservedCard, ...]
    last_turn: LastTurn | None

    @property
    def cards_bought(self) -> int:
        return len(self.bought)

    @property
    def token_count(self) -> int:
        return sum(self.tokens)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """The table from one seat (``seat`` None: a spectator)."""

    seat: int | None
    num_players: int
    bank: tuple[int, ...]  # W U G R K *
    board: tuple[tuple[str | None, ...], ...]  # level 1..3, 4 slots, None when empty
    deck_sizes: tuple[int, ...]  # level 1..3
    nobles: tuple[str, ...]  # on the table, in table order
    players: tuple[PlayerInfo, ...]
    current_player: int
    starting_player: int
    phase: str  # "action" or "return" (R13)
    turn: int
    final_round: bool
    is_over: bool
    outcome: Outcome | None
    legal_moves: tuple[Move, ...]  # the viewer's own; empty when it is not their decision
    target: int = WINNING_PRESTIGE  # the prestige that starts the final round (R15)

    @property
    def settings(self) -> GameSettings:
        """The game's settings, as far as a view tells them (players, R15's target)."""
        return GameSettings(self.num_players, self.target)

    @property
    def my_turn(self) -> bool:
        return bool(self.legal_moves)

    @property
    def round(self) -> int:
        return (self.turn - 1) // self.num_players + 1

    @property
    def me(self) -> PlayerInfo | None:
        return None if self.seat is None else self.players[self.seat]


def last_turn(summary: TurnSummary | None) -> LastTurn | None:
    """A turn as everyone may see it (a blind reserve names only its deck, R9)."""
    if summary is None:
        return None
    noble = None if summary.noble is None else NOBLES[summary.noble].id
    return LastTurn(summary.action, summary.returned, noble, summary.took_gold)


class Played(Protocol):
    """What `ended_turn` reads of a game: a `shared.state.GameState` (named by its shape,
    since shared.state imports this module)."""

    turn: int
    is_over: bool
    current_player: int
    last_turns: tuple[TurnSummary | None, ...]


def ended_turn(before: Played, after: Played) -> LastTurn | None:
    """The turn that the move from `before` to `after` ended, as everyone may see it; None
    when the turn goes on (a take that must be followed by a return, R13). A turn ends
    when the turn counter moves on, or when the game ends (the last turn does not move it)."""
    if after.turn == before.turn and not after.is_over:
        return None
    return last_turn(after.last_turns[before.current_player])
