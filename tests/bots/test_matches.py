"""Seeded matches between levels finish, and replay identically (issue 3)."""

from __future__ import annotations

import random

import pytest

from shared.bots import Budget, make_bot
from shared.deal import new_game
from shared.settings import GameSettings
from shared.state import GameState

MAX_PLIES = 2000


def play(levels: list[str], seed: int, budget: Budget) -> tuple[GameState, list[str]]:
    """A whole game, each seat's bot seeded from the game seed; the moves as notation."""
    state = new_game(GameSettings(len(levels)), seed)
    bots = [make_bot(level) for level in levels]
    rng = random.Random(seed)
    record: list[str] = []
    while not state.is_over and len(record) < MAX_PLIES:
        seat = state.current_player
        move = bots[seat].choose(state.view(seat), random.Random(rng.getrandbits(64)), budget)
        state = state.apply(move)
        record.append(str(move))
    return state, record


@pytest.mark.parametrize(
    ("levels", "seed"),
    [
        (["easy", "medium"], 1),
        (["medium", "easy", "easy"], 2),
        (["easy", "medium", "easy", "medium"], 3),
        (["hard", "medium"], 4),
    ],
)
def test_a_seeded_match_finishes_and_replays(levels: list[str], seed: int) -> None:
    budget = Budget(iterations=25)
    state, record = play(levels, seed, budget)
    assert state.is_over
    outcome = state.outcome()
    assert outcome is not None and outcome.winners
    assert max(outcome.scores) >= 15 or state.passes == len(levels)  # R15 or R18
    assert play(levels, seed, budget)[1] == record


def test_medium_beats_easy_in_a_short_series() -> None:
    wins = 0
    for seed in range(6):
        levels = ["medium", "easy"] if seed % 2 == 0 else ["easy", "medium"]
        state, _ = play(levels, 100 + seed, Budget())
        outcome = state.outcome()
        assert outcome is not None
        wins += outcome.ranks[levels.index("medium")] == 1
    assert wins >= 5
