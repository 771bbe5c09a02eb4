"""Components and setup: docs/rules.md R1, R2, R5 and R6 (R3 and R4, the card set, are in
test_cards.py)."""

from __future__ import annotations

import random

import pytest

from shared import CARDS, LETTERS, NOBLES, InvalidMoveError, Take, new_game, parse_move, replay
from shared.cards import COLOUR_NAMES, COLOURS
from shared.settings import GameSettings

from .helpers import all_cards, check_invariants

# -- R1 gems -------------------------------------------------------------------


def test_r1_five_gem_colours_and_gold_with_one_letter_codes() -> None:
    assert COLOURS == "WUGRK"
    assert LETTERS == "WUGRK*"
    assert COLOUR_NAMES == ("white", "blue", "green", "red", "black", "gold")


def test_r1_notation_writes_colours_in_the_order_w_u_g_r_k_gold() -> None:
    assert str(parse_move("take k g w")) == "take W G K"
    assert str(parse_move("return * k W")) == "return W K *"


def test_r1_gold_is_a_token_but_not_a_gem_to_take() -> None:
    with pytest.raises(InvalidMoveError):
        parse_move("take * U G")
    state = new_game(GameSettings(2), 1)
    assert all(5 not in m.colours for m in state.legal_moves() if isinstance(m, Take))


# -- R2 bank -------------------------------------------------------------------


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_r2_bank_holds_4_5_or_7_of_each_gem_and_always_5_gold(players: int, gems: int) -> None:
    state = new_game(GameSettings(players), seed=7)
    assert state.bank == (gems, gems, gems, gems, gems, 5)
    assert state.tokens == ((0, 0, 0, 0, 0, 0),) * players


@pytest.mark.parametrize("players", [0, 1, 5])
def test_r2_only_two_to_four_players(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(GameSettings(players), seed=1)


# -- R5 the deal -----------------------------------------------------------------


def test_r5_four_face_up_cards_per_level_and_the_rest_in_that_levels_deck() -> None:
    state = new_game(GameSettings(3), seed=11)
    for level, (row, deck) in enumerate(zip(state.board, state.decks, strict=True), start=1):
        assert len(row) == 4
        assert {CARDS[i].level for i in (*row, *deck)} == {level}
    assert [len(d) for d in state.decks] == [36, 26, 16]
    assert sorted(all_cards(state)) == list(range(90))
    check_invariants(state)


def test_r5_each_level_is_shuffled_from_the_seed() -> None:
    assert new_game(GameSettings(2), 5).board == new_game(GameSettings(2), 5).board
    assert new_game(GameSettings(2), 5).decks == new_game(GameSettings(2), 5).decks
    boards = {new_game(GameSettings(2), seed).board for seed in range(50)}
    assert len(boards) == 50
    # every card of a level can come up: over many seeds each one is dealt face up
    seen = {i for seed in range(200) for row in new_game(GameSettings(2), seed).board for i in row}
    assert seen == set(range(90))


# -- R6 nobles, starting player, replay ------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r6_players_plus_one_nobles_are_revealed(players: int) -> None:
    state = new_game(GameSettings(players), seed=3)
    assert len(state.nobles) == players + 1
    assert len(set(state.nobles)) == players + 1
    assert all(0 <= n < len(NOBLES) for n in state.nobles)


def test_r6_starting_player_is_drawn_from_the_seed() -> None:
    starts = [new_game(GameSettings(4), seed).starting_player for seed in range(100)]
    assert set(starts) == {0, 1, 2, 3}
    for seed in range(20):
        state = new_game(GameSettings(3), seed)
        assert state.current_player == state.starting_player
        assert new_game(GameSettings(3), seed).starting_player == state.starting_player


@pytest.mark.parametrize("seed", [-1, 1 << 64, 1.5, True, "7"])
def test_r6_a_seed_is_an_integer_in_64_bits(seed: object) -> None:
    with pytest.raises(ValueError, match="seed"):
        new_game(GameSettings(2), seed)  # type: ignore[arg-type]


def test_r6_a_seed_and_the_moves_replay_the_game_exactly() -> None:
    rng = random.Random(6)
    state = new_game(GameSettings(3), seed=1234)
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    again = replay(GameSettings(3), 1234, moves)
    assert again == state
    assert again.outcome() == state.outcome()
