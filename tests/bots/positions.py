"""Seeded positions for bot tests: random play, some bot play, both phases (R13)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from shared.deal import new_game
from shared.moves import Buy, ReserveDeck, Return
from shared.state import RETURN_PHASE, GameState


def random_positions(num_players: int, count: int, seed: int, returns: int = 0) -> list[GameState]:
    """`count` positions (not over) from seeded random games, at least `returns` of them
    in the return phase (R13). Moves lean toward buys and blind reserves so that
    positions have bought cards and hidden reserves."""
    rng = random.Random(seed)
    out: list[GameState] = []
    in_return = 0
    game = 0
    while len(out) < count or in_return < returns:
        for state in _walk(num_players, seed * 1000 + game, rng):
            is_return = state.phase == RETURN_PHASE
            if len(out) < count or (is_return and in_return < returns):
                if rng.random() < 0.15 or (is_return and in_return < returns):
                    out.append(state)
                    in_return += is_return
        game += 1
    return out


def _walk(num_players: int, game_seed: int, rng: random.Random) -> Iterator[GameState]:
    state = new_game(num_players, game_seed)
    while not state.is_over:
        yield state
        moves = state.legal_moves()
        preferred = [m for m in moves if isinstance(m, Buy | ReserveDeck)]
        if preferred and rng.random() < 0.4:
            move = rng.choice(preferred)
        else:
            move = rng.choice(moves)
        state = state.apply(move)
        if state.turn > 400:
            return


def return_phase_count(states: list[GameState]) -> int:
    return sum(
        1 for s in states if s.phase == RETURN_PHASE and isinstance(s.legal_moves()[0], Return)
    )
