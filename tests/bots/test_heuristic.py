"""The heuristic every level shares (`shared.bots.heuristic`), part by part: each test
changes one thing about a position and checks which way the score moves, or that it
does not move where the rules say the difference is worth nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from shared.bots.heuristic import (
    DEFAULT,
    SEARCH,
    WIN,
    evaluate,
    greedy_return,
    is_pointless,
    player_score,
    undo_counts,
)
from shared.deal import new_game
from shared.moves import Return, Take
from shared.settings import GameSettings
from shared.state import RETURN_PHASE, GameState
from shared.tables import COST_PAIRS, NOBLE_PAIRS, PRESTIGE

EMPTY_ROW = (-1, -1, -1, -1)
NO_TOKENS = (0, 0, 0, 0, 0, 0)
NO_BONUSES = (0, 0, 0, 0, 0)

# A card costing 5 of one colour and 3 of another (a level 2 card with 2 points).
CARD = next(i for i, pairs in enumerate(COST_PAIRS) if sorted(k for _, k in pairs) == [3, 5])
FIVE, THREE = (next(c for c, k in COST_PAIRS[CARD] if k == n) for n in (5, 3))


def position(**changes: Any) -> GameState:
    """A two-player deal with `CARD` alone on the board and no noble, changed by
    `changes`; seat 0 to move."""
    state = new_game(GameSettings(2), 1)
    only = ((CARD, -1, -1, -1), EMPTY_ROW, EMPTY_ROW)
    settings: dict[str, Any] = {"board": only, "nobles": (), "current_player": 0}
    settings.update(changes)
    return replace(state, **settings)


def gems(**held: int) -> tuple[int, int, int, int, int, int]:
    """Six token counts: `five`, `three` (the colours of `CARD`'s cost), `gold`."""
    counts = [0] * 6
    counts[FIVE] = held.get("five", 0)
    counts[THREE] = held.get("three", 0)
    counts[5] = held.get("gold", 0)
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


def test_the_chosen_card_is_what_the_tests_say():
    assert PRESTIGE[CARD] == 2
    assert FIVE != THREE


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_two_gems_of_one_colour_a_turn_puts_a_lopsided_need_further_off(weights):
    """R8: at most two gems of one colour a turn. Lacking 4 of one colour is two turns
    away; lacking 2 of each of two colours, the same 4 gems, is under two (R7: three
    different a turn)."""
    lopsided = position(tokens=(gems(five=1, three=3), NO_TOKENS))  # lacks 4 of one
    even = position(tokens=(gems(five=3, three=1), NO_TOKENS))  # lacks 2 and 2
    assert player_score(even, 0, weights) > player_score(lopsided, 0, weights)


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_a_colour_the_bank_is_short_of_puts_a_card_further_off(weights):
    """R7, R8: gems come from the bank. Lacking 4 of a colour the bank holds 4 of is a
    wait of two turns; the bank holding 1 of it, longer."""
    tokens = (gems(five=1, three=3), NO_TOKENS)
    full = position(tokens=tokens)
    short = [4, 4, 4, 4, 4, 5]
    short[FIVE] = 1
    scarce = position(tokens=tokens, bank=tuple(short))
    assert player_score(scarce, 0, weights) < player_score(full, 0, weights)


def final_round(**changes: Any) -> GameState:
    """The final round (R15): seat 1 began the game, so seat 0, to move, plays last."""
    return position(final_round=True, starting_player=1, **changes)


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_gold_stands_in_for_the_gem_a_card_lacks(weights):
    """R10: a gold token pays for a gem of any colour. In the final round only what can
    be bought now counts (R15), so the gold is worth exactly the gem it replaces."""
    exact = final_round(tokens=(gems(five=5, three=3), NO_TOKENS))
    with_gold = final_round(tokens=(gems(five=4, three=3, gold=1), NO_TOKENS))
    assert player_score(with_gold, 0, weights) == player_score(exact, 0, weights)


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_in_the_final_round_a_card_one_gem_away_is_worth_nothing(weights):
    """R15: no turn is left to gather for it; the score is the points held, less the
    R17 tie-break's hundredth a card bought."""
    bought = ((1, 2, 3), ())
    held = final_round(tokens=(gems(five=4, three=3), NO_TOKENS), bought=bought)
    can_buy = final_round(tokens=(gems(five=5, three=3), NO_TOKENS), bought=bought)
    assert player_score(held, 0, weights) == pytest.approx(-0.03)
    assert player_score(can_buy, 0, weights) > 0


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_a_player_who_will_not_play_again_scores_the_points_held(weights):
    """R15: seat 0 began the game, so in the final round seat 1 is the last to move and
    seat 0 has played its last turn: its score is its prestige (R16) less a hundredth a
    card (R17), whatever it holds."""
    state = position(
        final_round=True,
        starting_player=0,
        current_player=1,
        card_prestige=(15, 9),
        player_nobles=((1,), ()),
        bought=((1, 2, 3, 4), (5,)),
        tokens=(gems(five=5, three=3, gold=2), NO_TOKENS),
        bonuses=(gems(five=5, three=3)[:5], NO_BONUSES),  # CARD would cost it nothing
    )
    assert player_score(state, 0, weights) == pytest.approx(15 + 3 - 0.04)


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_a_noble_one_bonus_away_is_worth_more_than_bonuses_elsewhere(weights):
    """R14: a noble comes with the bonuses it asks for. The same number of bonuses,
    one short of a noble or nowhere near it: the first scores more."""
    noble = next(n for n, pairs in enumerate(NOBLE_PAIRS) if len(pairs) == 2)
    (a, ka), (b, kb) = NOBLE_PAIRS[noble]
    near = [0, 0, 0, 0, 0]
    near[a], near[b] = ka, kb - 1
    others = [c for c in range(5) if c not in (a, b)]
    far = [0, 0, 0, 0, 0]
    far[others[0]], far[others[1]] = ka, kb - 1
    empty = (EMPTY_ROW, EMPTY_ROW, EMPTY_ROW)  # no card in reach: bonuses and nobles only
    close = position(board=empty, nobles=(noble,), bonuses=(tuple(near), NO_BONUSES))
    away = position(board=empty, nobles=(noble,), bonuses=(tuple(far), NO_BONUSES))
    assert player_score(close, 0, weights) > player_score(away, 0, weights)


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_bonuses_are_worth_less_as_the_leader_nears_15(weights):
    """R15: the game ends once a player reaches 15, so a bonus has fewer buys left to
    pay for when someone is close."""
    empty = (EMPTY_ROW, EMPTY_ROW, EMPTY_ROW)
    bonuses = ((1, 1, 1, 1, 1), NO_BONUSES)
    early = position(board=empty, bonuses=bonuses, card_prestige=(0, 0))
    late = position(board=empty, bonuses=bonuses, card_prestige=(0, 12))
    assert player_score(late, 0, weights) < player_score(early, 0, weights)


@pytest.mark.parametrize("weights", [DEFAULT, SEARCH], ids=["medium", "hard"])
def test_each_reserve_slot_taken_costs(weights):
    """R9 allows three reserved cards: a slot taken is one fewer for later. With the
    same card in reach (on the board, or in hand), holding it in reserve scores less by
    the slot's cost."""
    on_board = position()
    in_hand = position(board=(EMPTY_ROW, EMPTY_ROW, EMPTY_ROW), reserved=(((CARD, False),), ()))
    cost = player_score(on_board, 0, weights) - player_score(in_hand, 0, weights)
    assert cost == pytest.approx(weights.reserved)


def test_a_finished_game_is_a_win_a_loss_or_a_shared_win():
    """R16, R17: the most prestige wins; a tie with as many cards bought is shared."""
    won = position(is_over=True, card_prestige=(15, 12))
    assert evaluate(won, 0) == WIN
    assert evaluate(won, 1) == -WIN
    tied = position(is_over=True, card_prestige=(15, 15), bought=((1, 2), (3, 4)))
    assert evaluate(tied, 0) == evaluate(tied, 1) == WIN / 2
    fewer = position(is_over=True, card_prestige=(15, 15), bought=((1, 2), (3, 4, 5)))
    assert evaluate(fewer, 0) == WIN  # R17: fewer cards bought ranks higher
    assert evaluate(fewer, 1) == -WIN


def over_ten(tokens: tuple[int, ...], colours: tuple[int, ...]) -> GameState:
    """Seat 0 holding `tokens` takes `colours` and must give some back (R13)."""
    state = replace(new_game(GameSettings(2), 1), current_player=0, tokens=(tokens, NO_TOKENS))
    state = state.apply(Take(colours))
    assert state.phase == RETURN_PHASE
    return state


def test_the_return_that_undoes_the_take_is_pointless():
    """R13: giving back exactly what was taken changes nothing; bots must not loop."""
    state = over_ten((2, 2, 2, 2, 2, 0), (0, 1, 2))
    assert undo_counts(state) == (1, 1, 1, 0, 0, 0)
    assert is_pointless(state, Return((0, 1, 2)))
    assert not is_pointless(state, Return((0, 1, 3)))


def test_greedy_return_never_undoes_the_take_when_another_return_exists():
    """R13: holding 13 after taking one each of three colours, the three held most
    over what is wanted are those very three; the return differs by one."""
    state = over_ten((2, 2, 2, 2, 2, 0), (0, 1, 2))
    move = greedy_return(state, [0, 0, 0, 0, 0, 0])
    assert move in state.legal_moves()
    assert sum(move.counts) == 3
    assert move.counts != (1, 1, 1, 0, 0, 0)


def test_greedy_return_gives_back_what_is_not_wanted_and_gold_last():
    """R13: the gems held beyond what is wanted go first; gold only when nothing else
    is left to give."""
    state = over_ten((0, 2, 2, 2, 2, 1), (0, 1, 2))  # 12 tokens: two to give back
    move = greedy_return(state, [1, 3, 3, 0, 0, 0])  # colours 3 and 4 are not wanted
    assert move in state.legal_moves()
    assert move.counts[3] + move.counts[4] == 2
    assert move.counts[5] == 0
