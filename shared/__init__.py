"""The Splendor rules engine (docs/rules.md): pure Python, no I/O.

from shared import GameSettings, new_game, parse_move
state = new_game(GameSettings(players=3), seed=42)
state = state.apply(parse_move("take W U G"))
"""

from .cards import CARD_BY_ID, CARDS, COLOURS, LETTERS, NOBLE_BY_ID, NOBLES, Card, Noble, card
from .deal import new_game, replay
from .errors import IllegalMoveError, InvalidMoveError, SplendorError
from .moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take, parse_move
from .settings import GameSettings
from .state import ACTION, RETURN_PHASE, GameState, Outcome
from .view import LastTurn, PlayerInfo, PlayerView, ReservedCard

__all__ = [
    "ACTION",
    "CARDS",
    "CARD_BY_ID",
    "COLOURS",
    "LETTERS",
    "NOBLES",
    "NOBLE_BY_ID",
    "RETURN_PHASE",
    "Buy",
    "Card",
    "GameSettings",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "LastTurn",
    "Move",
    "Noble",
    "Outcome",
    "Pass",
    "PlayerInfo",
    "PlayerView",
    "Reserve",
    "ReserveDeck",
    "ReservedCard",
    "Return",
    "SplendorError",
    "Take",
    "card",
    "new_game",
    "parse_move",
    "replay",
]
