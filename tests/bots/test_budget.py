"""Budgets (issue 14): a level's strength is a fixed iteration count; a deadline only cuts
the search short, and then the bot answers within it with its best move so far. The
clock is a fake one here: tests never time anything."""

from __future__ import annotations

import random

import pytest

from shared.bots import Budget, hard, to_budget
from shared.bots.hard import HardBot, search

from .positions import random_positions


class FakeClock:
    """Seconds that advance by `step` each time they are read."""

    def __init__(self, step: float) -> None:
        self.now = 100.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture(scope="module")
def views() -> list:
    states = [s for n in (2, 3, 4) for s in random_positions(n, 4, seed=60 + n, returns=1)]
    return [s.view(s.current_player) for s in states if len(s.legal_moves()) > 1]


def test_hard_stops_at_the_deadline_with_its_best_move_so_far(views) -> None:
    for view in views:
        budget = Budget(iterations=10**9, seconds=0.05)
        found = search(view, random.Random(3), budget, clock=FakeClock(0.001))
        assert found.move in view.legal_moves
        assert 0 < found.iterations < 50  # a read a millisecond: about 40 iterations fit
        again = search(view, random.Random(3), budget, clock=FakeClock(0.001))
        assert (again.move, again.iterations) == (found.move, found.iterations)


def test_a_deadline_too_short_to_search_still_gets_a_legal_move(views) -> None:
    bot = HardBot(clock=FakeClock(1.0))
    for view in views:
        assert bot.choose(view, random.Random(1), Budget(seconds=0.5)) in view.legal_moves
        found = search(view, random.Random(1), Budget(seconds=0.5), clock=FakeClock(1.0))
        assert found.iterations == 0


def test_the_level_runs_its_own_iterations_and_a_loose_deadline_changes_nothing(
    views, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hard, "ITERATIONS", {2: 25, 3: 20, 4: 15})
    for view in views:
        plain = search(view, random.Random(8), Budget())
        if plain.iterations == 0:
            continue  # one move worth playing: nothing to search
        assert plain.iterations == hard.ITERATIONS[view.num_players]
        capped = search(view, random.Random(8), Budget(seconds=60.0), clock=FakeClock(0.001))
        assert (capped.move, capped.iterations, capped.stats) == (
            plain.move,
            plain.iterations,
            plain.stats,
        )


def test_a_budget_in_seconds_is_a_deadline_on_the_level_s_own_iterations() -> None:
    assert to_budget(1.0) == Budget(iterations=None, seconds=1.0)
    assert to_budget(300) == Budget(iterations=300)
    assert to_budget({"iterations": 50, "seconds": 2}) == Budget(iterations=50, seconds=2.0)
    assert to_budget(None) == Budget()
