"""The solo race planner behind the hard level's root prior (`shared.bots.race`): its
steps are the engine's moves, played as the engine plays them (R7-R10, R13, R14), it
misses no buy or take, it finishes a race it can finish, and hard asks it at 2 players."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from shared import codec
from shared.bots import Budget, explain, hard, race
from shared.cards import NOBLES
from shared.deal import new_game
from shared.moves import Buy, Reserve, Return, Take
from shared.settings import GameSettings
from shared.state import ACTION, GameState

from .positions import random_positions, winning_buy_position
from .test_budget import FakeClock


def _action_positions(num_players: int, count: int, seed: int) -> list[GameState]:
    return [s for s in random_positions(num_players, count, seed) if s.phase == ACTION]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_step_is_a_legal_move_that_lands_where_the_engine_does(num_players: int) -> None:
    """R7-R10 and R14 as the engine plays them; past 10 tokens (R13) the plan gives back
    by a fixed rule, one of the returns the engine allows."""
    checked = 0
    for state in _action_positions(num_players, 30, seed=700 + num_players):
        me = state.current_player
        legal = set(state.legal_moves())
        for step, plan in race.steps(race.start(state)):
            assert step in legal, (step, state.turn)
            after = state.apply(step)
            if after.phase != ACTION and after.current_player == me:  # R13 to come
                extra = [a - b for a, b in zip(after.tokens[me], plan.tokens, strict=True)]
                assert min(extra) >= 0 and sum(plan.tokens) == 10, step
                back = Return(tuple(c for c, n in enumerate(extra) for _ in range(n)))
                assert back in after.legal_moves(), (step, back)
                continue
            assert plan.tokens == after.tokens[me], step
            assert plan.bank == after.bank, step
            assert plan.bonuses == after.bonuses[me], step
            assert plan.points == after.prestige(me), step  # R14: the same noble
            assert plan.reserved == tuple(i for i, _ in after.reserved[me]), step
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("num_players", [2, 4])
def test_it_misses_no_buy_and_no_take_that_changes_the_hand(num_players: int) -> None:
    """Every legal buy (R10) and take (R7, R8) is a step; reserves only of face-up level 2
    and 3 cards (R9), never past 3 in hand."""
    for state in _action_positions(num_players, 30, seed=710 + num_players):
        steps = {step for step, _ in race.steps(race.start(state))}
        for move in state.legal_moves():
            if isinstance(move, Buy):
                assert move in steps, move
            elif (
                isinstance(move, Take)
                and sum(move.counts) + sum(state.tokens[state.current_player]) <= 10
            ):
                assert move in steps, move
        held = len(state.reserved[state.current_player])
        reserves = [m for m in steps if isinstance(m, Reserve)]
        assert all(m.card[0] in "23" for m in reserves)
        assert held < 3 or not reserves


def test_r14_a_noble_already_met_visits_at_the_end_of_any_turn() -> None:
    """R14: one noble a turn, after whatever action; a take or a reserve brings one the
    bonuses already meet (as when one buy met two)."""
    state = codec.loads(codec.dumps(new_game(GameSettings(2), 3)))
    me = state.current_player
    noble = state.nobles[1]
    bonuses = list(state.bonuses)
    bonuses[me] = NOBLES[noble].requires
    state.bonuses = tuple(bonuses)  # type: ignore[assignment]
    kinds = set()
    for step, plan in race.steps(race.start(state)):
        after = state.apply(step)
        assert after.phase == ACTION, step
        assert noble not in plan.nobles and plan.nobles == after.nobles, step
        assert plan.points == after.prestige(me) >= 3, step
        kinds.add(type(step))
    assert {Take, Reserve} <= kinds


def test_a_winning_buy_is_the_plan() -> None:
    """R15: a buy that reaches 15 ends the race at once."""
    state, _ = winning_buy_position()
    planned = race.race_move(state, state.legal_moves())
    assert planned is not None and state.apply(planned).prestige(0) >= 15
    assert race.race_move(state, state.legal_moves()) == planned  # no randomness in it


def test_alone_it_reaches_15_in_fewer_turns_than_a_strong_game_lasts() -> None:
    """The planner alone at a 2-player table, replanning each turn, its give-backs as
    planned (R13), the real decks refilling (R11): it reaches 15 in 27 turns at most, and
    in fewer than 24 on average."""
    turns = []
    for seed in range(6):
        state = new_game(GameSettings(2), seed)
        me = state.current_player
        count = 0
        while state.prestige(me) < 15 and count < 40:
            plan = race.start(state)
            step = race.first_step(plan)
            assert step is not None
            planned = dict(race.steps(plan))[step]
            state = state.apply(step)
            if state.phase != ACTION:  # R13: give back what the plan gives back
                extra = tuple(a - b for a, b in zip(state.tokens[me], planned.tokens, strict=True))
                state = state.apply(Return(tuple(c for c, n in enumerate(extra) for _ in range(n))))
            assert state.tokens[me] == planned.tokens
            state = replace(state, current_player=me)  # the other seat stands still
            count += 1
        turns.append(count)
    # 21 to 25 turns, 22.8 on average, when written: strong 2-player games last about 27
    assert max(turns) <= 27 and sum(turns) / len(turns) < 24, turns


def test_hard_leans_to_the_plan_at_2_players_only() -> None:
    """At 2 players the planner's move gets most of the root's prior, so a one-iteration
    search plays it; at 3 and 4 (where it won no more games) it is not asked; a deadline
    too close for it skips it."""
    leaned = 0
    for num_players in (2, 3, 4):
        for state in _action_positions(num_players, 8, seed=730):
            view = state.view(state.current_player)
            found = hard.search(view, random.Random(1), Budget(iterations=1))
            if num_players > 2:
                assert found.planned is None
            elif found.planned is not None:
                assert found.move is found.planned
                leaned += 1
            tight = Budget(iterations=50, seconds=0.04)
            assert (
                hard.search(view, random.Random(1), tight, clock=FakeClock(0.001)).planned is None
            )
    assert leaned >= 5


def test_hard_says_when_it_plays_its_race_plan() -> None:
    state = _action_positions(2, 20, seed=740)
    said = 0
    for i, s in enumerate(state):
        view = s.view(s.current_player)
        found = hard.search(view, random.Random(i), Budget(iterations=200))
        move, why = explain(view, "hard", i, Budget(iterations=200))
        assert move == found.move
        if found.planned is not None and move is found.planned:
            assert why.endswith("; its race plan's first move)"), why
            said += 1
        else:
            assert "race plan" not in why
    assert said


def test_past_its_deadline_it_answers_with_the_best_first_turn() -> None:
    """Time-aware (issue 14): a planner out of time still names a step, the best one turn
    ahead, and hard keeps a deadline with the planner in it."""
    for state in _action_positions(2, 10, seed=750):
        plan = race.start(state)
        late = race.first_step(plan, deadline=0.0, clock=lambda: 1.0)
        assert late == race.first_step(plan, replace(race.RACE, depth=1))
    view = state.view(state.current_player)
    clock = FakeClock(0.05)  # every read of the clock: 50 ms later
    found = hard.search(view, random.Random(2), Budget(10**9, seconds=0.5), clock=clock)
    assert found.planned is not None and found.iterations > 0
    # the deadline is 100.54 (the first read, less 0.01 kept back); the last read is the
    # first past it
    assert clock.now == pytest.approx(100.55)
