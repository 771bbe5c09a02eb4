"""Every level returns one of the view's legal moves, from thousands of positions (issue 3)."""

from __future__ import annotations

import random

import pytest

from shared.bots import Budget, make_bot
from shared.moves import Return
from shared.state import RETURN_PHASE

from .positions import random_positions

TINY = Budget(iterations=6)  # keeps hard's search to a few iterations


@pytest.fixture(scope="module")
def positions() -> dict[int, list]:
    return {n: random_positions(n, 700, seed=n, returns=120) for n in (2, 3, 4)}


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_cheap_levels_always_move_legally(positions, level: str, num_players: int) -> None:
    bot = make_bot(level)
    states = positions[num_players]
    returns = 0
    for i, state in enumerate(states):
        view = state.view(state.current_player)
        move = bot.choose(view, random.Random(i), Budget())
        assert move in state.legal_moves(), (level, num_players, i, str(move))
        if state.phase == RETURN_PHASE:
            assert isinstance(move, Return)
            returns += 1
        state.apply(move)  # the engine agrees
    assert len(states) >= 700 and returns >= 120


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_hard_always_moves_legally(positions, num_players: int) -> None:
    bot = make_bot("hard")
    states = positions[num_players][::3]  # a third of them: hard is slower
    returns = 0
    for i, state in enumerate(states):
        move = bot.choose(state.view(state.current_player), random.Random(i), TINY)
        assert move in state.legal_moves(), (num_players, i, str(move))
        returns += state.phase == RETURN_PHASE
    assert returns >= 30
