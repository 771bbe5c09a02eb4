"""What a game position holds, declared once, and what is read of it alone: prestige (R16),
ranks (R17), the round. `GameState` (`shared.state`) builds on it with the rules (its legal
moves and `apply`); `shared.hidden` makes a seat's view of it.

Every field is declared here with its type and the shape it is stored in (`shared.wire`):
plain tuples of ints (card and noble *indexes*), so that move generation and application
stay cheap; ids appear only at the edges (views, notation, codec).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform

from . import wire
from .constants import WINNING_PRESTIGE, Five, Six
from .moves import Move
from .records import Outcome, TurnSummary
from .settings import GameSettings
from .wire import stored

_T = TypeVar("_T")


@dataclass_transform(kw_only_default=True, field_specifiers=(field, stored))
def declared(cls: type[_T]) -> type[_T]:
    """A position's dataclass options (`GameState`'s too); tells type checkers that `stored`
    declares a field."""
    return dataclass(kw_only=True, slots=True, repr=False, unsafe_hash=True)(cls)


OnTable = tuple[tuple[int, ...], tuple[Move, ...], int]  # see `Position._table`


@declared
class Position:
    """A whole game position, without the rules: build a `GameState` (`shared.deal.new_game`).

    The fields are declared here and nowhere else: each with its type and the shape
    it is stored in (`shared.wire`). The constructor, `==`, the copy `apply` makes, the
    codec's encoding and decoding, and the bots' determinization follow this list.
    """

    num_players: int = stored(wire.PLAYER_COUNT)
    seed: int = stored(wire.SEED)
    target: int = stored(wire.TARGET, absent=WINNING_PRESTIGE)  # R15 (`shared.settings`)
    bank: Six = stored(wire.TOKENS)
    tokens: tuple[Six, ...] = stored(wire.per_seat(wire.TOKENS))
    bonuses: tuple[Five, ...] = stored(wire.per_seat(wire.BONUSES))
    card_prestige: tuple[int, ...] = stored(wire.per_seat(wire.PRESTIGE))
    bought: tuple[tuple[int, ...], ...] = stored(wire.per_seat(wire.CARD_LIST))
    # (card index, blind) per seat (R9)
    reserved: tuple[tuple[tuple[int, bool], ...], ...] = stored(wire.per_seat(wire.RESERVED))
    player_nobles: tuple[tuple[int, ...], ...] = stored(wire.per_seat(wire.NOBLE_LIST))
    # 3 levels x 4 slots, -1 for an empty slot (R11)
    board: tuple[tuple[int, ...], ...] = stored(wire.BOARD)
    decks: tuple[tuple[int, ...], ...] = stored(wire.DECKS)  # top of the deck first
    nobles: tuple[int, ...] = stored(wire.NOBLE_LIST)  # on the table, in table order (R14)
    current_player: int = stored(wire.SEAT)
    starting_player: int = stored(wire.SEAT)
    phase: str = stored(wire.PHASE)  # ACTION, or RETURN_PHASE (R13)
    turn: int = stored(wire.TURN)  # 1 for the first turn; +1 each time a turn ends
    final_round: bool = stored(wire.FLAG)  # R15
    passes: int = stored(wire.PASSES)  # passes in a row (R18)
    is_over: bool = stored(wire.FLAG)
    last_turns: tuple[TurnSummary | None, ...] = stored(wire.per_seat(wire.LAST_TURN))
    # What the board and decks decide, kept with the state: the face-up cards in table
    # order, the reserve moves (R9: those cards', then the decks' that still hold cards)
    # and the cards' `shared.tables.TOP_BIT`s. Not stored, compared or hashed; a cache
    # like the legal moves, but `apply` carries it to the next state and updates it when a
    # card leaves the table (`shared.steps`), since the board changes far less often than
    # the state. None until first needed (`GameState.legal_moves`).
    _table: OnTable | None = field(default=None, init=False, compare=False)

    def prestige(self, seat: int) -> int:
        """R16: cards' prestige plus 3 per noble."""
        return self.card_prestige[seat] + 3 * len(self.player_nobles[seat])

    @property
    def settings(self) -> GameSettings:
        """The settings the game was dealt with (`shared.deal.new_game`)."""
        return GameSettings(self.num_players, self.target)

    @property
    def round(self) -> int:
        """The round number, 1-based: a round is one turn of every player."""
        return (self.turn - 1) // self.num_players + 1

    def standing(self) -> Outcome:
        """Scores (R16) and ranks (R17) as the game stands now, over or not (an abandoned
        game is rated by them)."""
        scores = tuple(self.prestige(s) for s in range(self.num_players))
        keys = [(-scores[s], len(self.bought[s])) for s in range(self.num_players)]
        ranks = tuple(1 + sum(1 for k in keys if k < keys[s]) for s in range(self.num_players))
        return Outcome(scores=scores, ranks=ranks)

    def outcome(self) -> Outcome | None:
        """None until the game is over; then scores (R16) and ranks (R17)."""
        return self.standing() if self.is_over else None

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.num_players} seed={self.seed} "
            f"target={self.target} turn={self.turn} "
            f"seat={self.current_player} phase={self.phase}{' over' if self.is_over else ''}>"
        )
