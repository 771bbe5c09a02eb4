"""GameState's fields are declared once (shared/position.py); the copy, the constructor, the
codec and the bots' determinization all follow that declaration."""

from __future__ import annotations

import dataclasses
import random

import msgpack

from shared import GameState, new_game
from shared.bots import Determinizer
from shared.codec import dumps, loads
from shared.settings import GameSettings
from shared.state import _copy
from shared.wire import stored_fields

from .helpers import play

DECLARED = [f.name for f in dataclasses.fields(GameState)]
STORED = [name for name, _ in stored_fields(GameState)]


def a_position() -> GameState:
    """Some way into a 3-player game, with a blind reserve and a card bought."""
    rng = random.Random(2)
    state = play(new_game(GameSettings(3), seed=4), "reserve deck 2")
    while not any(state.bought):
        state = state.apply(rng.choice(state.legal_moves()))
    state.legal_moves()  # fill the cache, which copies must not share
    return state


def test_every_field_but_the_caches_is_stored() -> None:
    """The caches: the board's face-up cards and reserve moves, the legal moves."""
    assert STORED == [name for name in DECLARED if name not in ("_table", "_legal")]
    assert STORED[0] == "num_players"  # decoded first: other fields' checks depend on it


def test_the_copy_that_apply_starts_from_has_every_field_and_an_empty_cache() -> None:
    state = a_position()
    copy = _copy(state)
    assert copy is not state and copy == state
    assert all(getattr(copy, name) is getattr(state, name) for name in STORED)
    assert copy._legal is None and state._legal is not None


def test_a_stored_state_holds_its_declared_fields_under_their_names() -> None:
    state = a_position()
    _, tag, payload = msgpack.unpackb(dumps(state))
    assert tag == "state"
    assert list(payload) == STORED
    assert payload["current_player"] == state.current_player
    assert loads(dumps(state)) == state


def test_determinization_sets_every_field_the_view_shows() -> None:
    state = a_position()
    seat = state.current_player
    sample = Determinizer(state.view(seat)).sample(random.Random(1))
    hidden = {"seed", "reserved", "decks"}  # the deal's seed and the cards the seat can't see
    for name in STORED:
        if name not in hidden:
            assert getattr(sample, name) == getattr(state, name), name
