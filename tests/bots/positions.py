"""Seeded positions for bot tests: random play, some bot play, both phases (R13)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from shared import codec
from shared.cards import CARDS
from shared.deal import new_game
from shared.moves import Buy, ReserveDeck, Return
from shared.settings import GameSettings
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
    state = new_game(GameSettings(num_players), game_seed)
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


def winning_buy_position() -> tuple[GameState, Buy]:
    """Seat 0 plays last in the round (R15), has 13 prestige and can afford a face-up
    2-prestige card; seat 1 has 14. Buying it wins (15 to 14); anything else hands
    seat 1 another turn."""
    state = codec.loads(codec.dumps(new_game(GameSettings(2), 8)))
    on_board = {i for row in state.board for i in row}
    target = next(i for i in on_board if CARDS[i].prestige == 2)
    decks = [list(d) for d in state.decks]

    def take_cards(points: int) -> list[int]:
        chosen: list[int] = []
        for level in (3, 2):  # big cards first, then fill in from level 2
            for i in list(decks[level - 1]):
                if sum(CARDS[c].prestige for c in chosen) + CARDS[i].prestige <= points:
                    chosen.append(i)
                    decks[level - 1].remove(i)
        assert sum(CARDS[c].prestige for c in chosen) == points
        return chosen

    bought = (take_cards(13), take_cards(14))
    state.bought = tuple(tuple(b) for b in bought)
    state.card_prestige = (13, 14)
    bonuses = [[0] * 5, [0] * 5]
    for seat, cards in enumerate(bought):
        for i in cards:
            bonuses[seat][CARDS[i].colour] += 1
    state.bonuses = tuple(tuple(b) for b in bonuses)  # type: ignore[assignment]
    need = [max(0, n - bonuses[0][c]) for c, n in enumerate(CARDS[target].cost)]
    state.tokens = ((*need, 0), (0, 0, 0, 0, 0, 0))  # type: ignore[assignment]
    state.bank = tuple(b - t for b, t in zip(state.bank, state.tokens[0], strict=True))  # type: ignore[assignment]
    state.decks = tuple(tuple(d) for d in decks)
    state.current_player, state.starting_player = 0, 1
    state.turn = 30
    assert min(state.bank) >= 0
    return state, Buy(CARDS[target].id)
