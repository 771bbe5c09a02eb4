"""Determinization: full states consistent with a view, hidden cards sampled (issue 3)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shared.bots import Determinizer, InconsistentViewError, determinize, passes_in_a_row
from shared.cards import CARDS
from shared.deal import new_game
from shared.moves import PASS_MOVE
from shared.settings import GameSettings

from .positions import random_positions


def _hidden(state, seat):
    """The cards `seat` can't see: deck contents and other seats' blind reserves."""
    cards = {i for deck in state.decks for i in deck}
    for s, reserved in enumerate(state.reserved):
        cards |= {i for i, blind in reserved if blind and s != seat}
    return cards


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_a_sample_has_exactly_the_view_it_came_from(num_players: int) -> None:
    rng = random.Random(num_players)
    for state in random_positions(num_players, 150, seed=10 + num_players, returns=20):
        for seat in [None, *range(num_players)]:
            view = state.view(seat)
            sample = Determinizer(view).sample(rng)
            assert sample.view(seat) == view
            assert sample.passes == state.passes  # R18's counter, derived
            assert _hidden(sample, seat) == _hidden(state, seat)  # the same unseen cards


def test_samples_vary_only_what_is_hidden() -> None:
    state = random_positions(3, 1, seed=5)[0]
    for _ in range(30):
        state = state.apply(state.legal_moves()[-1])  # buys and blind reserves come last
    view = state.view(0)
    det = Determinizer(view)
    samples = [det.sample(random.Random(i)) for i in range(20)]
    assert len({s.decks for s in samples}) > 1
    for s in samples:
        assert s.view(0) == view
        for level, deck in enumerate(s.decks):
            assert all(CARDS[i].level == level + 1 for i in deck)


def test_the_same_seed_gives_the_same_sample() -> None:
    view = new_game(GameSettings(4), 9).view(2)
    assert determinize(view, random.Random(3)) == determinize(view, random.Random(3))


def test_a_sample_without_decks_leaves_bought_slots_empty() -> None:
    state = new_game(GameSettings(2), 1)
    view = state.view(state.current_player)
    flat = Determinizer(view).sample_without_decks(random.Random(0))
    assert flat.decks == ((), (), ())
    assert flat.board == state.board and flat.tokens == state.tokens


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_r18_passes_in_a_row_are_read_from_last_turns(num_players: int) -> None:
    state = random_positions(num_players, 1, seed=21)[0]
    while state.phase != "action":
        state = state.apply(state.legal_moves()[0])
    for _ in range(num_players):
        # apply_unchecked lets a pass through even when it isn't legal: enough to
        # build every count of passes in a row the view must reveal
        for seat in [None, *range(num_players)]:
            assert passes_in_a_row(state.view(seat)) == state.passes
        state = state.apply_unchecked(PASS_MOVE)
    assert state.is_over
    assert passes_in_a_row(state.view(0)) == state.passes == num_players


def test_a_view_whose_counts_do_not_add_up_is_refused() -> None:
    view = new_game(GameSettings(2), 3).view(0)
    bad = dataclasses.replace(view, deck_sizes=(view.deck_sizes[0] + 1, *view.deck_sizes[1:]))
    with pytest.raises(InconsistentViewError):
        Determinizer(bad)
