"""Bots in a longer game (issue 32): the target of R15 comes from the game's settings, so a
game to 21 is played to 21 by every level: through the bytes a bot process gets (the view
carries the target), by the heuristic, the hard search's deals and its race planner."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from shared import GameSettings, new_game
from shared.bots import Budget, choose_move_bytes, encode_request, race
from shared.bots.determinize import Determinizer
from shared.bots.heuristic import DEFAULT, player_score
from shared.moves import parse_move
from shared.state import GameState
from shared.view import ended_turn

from .positions import winning_buy_position

LONG = GameSettings(2, target=21)
MAX_PLIES = 1500  # a game to 21 between bots lasts 150 to 250 plies
BUDGETS = {"easy": Budget(), "medium": Budget(), "hard": Budget(iterations=20)}


@cache
def bot_game(settings: GameSettings, level: str, seed: int) -> tuple[GameState, list[int]]:
    """Two bots of `level` play a whole game, each move asked of the bytes a bot process
    gets; the game's end, and after each turn the prestige of the seat that played it
    (played once per test process: the same arguments play the same game)."""
    state = new_game(settings, seed)
    rng = random.Random(seed)
    ended: list[int] = []  # the prestige each turn ended with, in order
    plies = 0
    while not state.is_over and plies < MAX_PLIES:
        seat = state.current_player
        request = encode_request(state.view(seat), level, rng.getrandbits(62), BUDGETS[level])
        before, state = state, state.apply(parse_move(choose_move_bytes(request)))
        if ended_turn(before, state) is not None:
            ended.append(state.prestige(seat))
        plies += 1
    return state, ended


def check_r15_end(state: GameState, ended: list[int], target: int) -> None:
    """The game ended by R15 at `target`: once a turn first ended at `target` or more, the
    round was played out, and never before."""
    assert state.is_over and state.final_round and state.passes < state.num_players  # not R18
    outcome = state.outcome()
    assert outcome is not None and max(outcome.scores) >= target
    first = next(i for i, points in enumerate(ended) if points >= target)
    n = state.num_players
    # the round of the first turn at the target was the last: its turns, and no more
    first_in_round = (first // n) * n
    assert len(ended) == first_in_round + n, (first, len(ended))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_r15_each_level_plays_a_game_to_21_to_its_end(level: str) -> None:
    state, ended = bot_game(LONG, level, seed=31)
    check_r15_end(state, ended, 21)
    # 15 to 20 ended a turn on the way, and the game went on: the target is the settings'
    assert any(15 <= points < 21 for points in ended)
    assert state.target == 21


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_r15_the_same_bots_end_a_game_to_15_at_15_and_sooner(level: str) -> None:
    long, long_ended = bot_game(LONG, level, seed=31)
    short, ended = bot_game(GameSettings(2), level, seed=31)
    check_r15_end(short, ended, 15)
    assert short.target == 15 and len(ended) < len(long_ended)


def test_the_deals_a_bot_samples_keep_the_target() -> None:
    view = new_game(LONG, 3).view(0)
    deals = Determinizer(view)
    rng = random.Random(1)
    assert deals.sample(rng).target == 21 and deals.sample_without_decks(rng).target == 21


def test_bonuses_keep_their_worth_until_the_games_own_target_nears() -> None:
    """The heuristic values a bonus less as the leader nears the target (R15): at 15 points
    a bonus is worth nothing more in a game to 15, and still something in a game to 21."""
    bonuses = ((2, 2, 1, 0, 0), (0, 0, 0, 0, 0))
    state = replace(new_game(GameSettings(2), 1), card_prestige=(15, 0), bonuses=bonuses)
    long = replace(state, target=21)
    assert player_score(long, 0, DEFAULT) > player_score(state, 0, DEFAULT)


def test_the_race_planner_races_to_the_games_target() -> None:
    """At 13 points with a 2-point card to buy, the race to 15 ends in one move; in a game
    to 21 the plan is to 21, and its bonuses are still worth something on the way."""
    state, _ = winning_buy_position()
    planned = race.race_move(state, state.legal_moves())
    assert planned is not None and state.apply(planned).prestige(0) >= 15
    short, long = race.start(state), race.start(replace(state, target=21))
    assert (short.target, long.target) == (15, 21)
    assert race.plan_value(long) > race.plan_value(short)
