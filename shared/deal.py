"""The deal (R2, R5, R6): a new game's `GameState`, and replaying a game from its moves.

`new_game` deals a game of the given settings (`shared.settings.GameSettings`: players,
R15's target) and draws all chance from the seed (`shared.rng`), so a game is its
settings, its seed and its moves (`replay`).
"""

from __future__ import annotations

from .cards import LEVEL_CARDS, NOBLES
from .moves import parse_move
from .rng import SplitMix64
from .settings import GameSettings
from .state import ACTION, GEMS_BY_PLAYERS, GOLD_TOKENS, GameState
from .view import LastTurn, ended_turn


def new_game(settings: GameSettings, seed: int) -> GameState:
    """A new game of these settings (R2, R5, R6; R15's target): all chance drawn from
    `seed` (see `shared.rng`), the same deal whatever the target."""
    if not isinstance(settings, GameSettings):
        raise TypeError(f"a game is dealt from its GameSettings, not {settings!r}")
    num_players = settings.players
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        raise ValueError(f"a seed is an integer from 0 to 2**64-1, not {seed!r}")
    rng = SplitMix64(seed)
    decks: list[list[int]] = []
    for level_cards in LEVEL_CARDS:  # R5
        deck = list(level_cards)
        rng.shuffle(deck)
        decks.append(deck)
    nobles = list(range(len(NOBLES)))  # R6
    rng.shuffle(nobles)
    start = rng.below(num_players)
    gems = GEMS_BY_PLAYERS[num_players]
    return GameState(
        num_players=num_players,
        seed=seed,
        target=settings.target,
        bank=(gems, gems, gems, gems, gems, GOLD_TOKENS),
        tokens=((0, 0, 0, 0, 0, 0),) * num_players,
        bonuses=((0, 0, 0, 0, 0),) * num_players,
        card_prestige=(0,) * num_players,
        bought=((),) * num_players,
        reserved=((),) * num_players,
        player_nobles=((),) * num_players,
        board=tuple(tuple(d[:4]) for d in decks),
        decks=tuple(tuple(d[4:]) for d in decks),
        nobles=tuple(nobles[: num_players + 1]),
        current_player=start,
        starting_player=start,
        phase=ACTION,
        turn=1,
        final_round=False,
        passes=0,
        is_over=False,
        last_turns=(None,) * num_players,
    )


def replay(settings: GameSettings, seed: int, moves: list[str] | tuple[str, ...]) -> GameState:
    """The state after playing these notation moves from a new game (checked)."""
    state = new_game(settings, seed)
    for text in moves:
        state = state.apply(parse_move(text))
    return state


def turns(
    settings: GameSettings, seed: int, moves: list[str] | tuple[str, ...]
) -> list[tuple[int, LastTurn]]:
    """Every turn of the game these moves play, oldest first: the seat, and the turn as
    everyone saw it (what a move log lists)."""
    state, out = new_game(settings, seed), []
    for text in moves:
        before, state = state, state.apply(parse_move(text))
        if (turn := ended_turn(before, state)) is not None:
            out.append((before.current_player, turn))
    return out


__all__ = ["new_game", "replay", "turns"]
