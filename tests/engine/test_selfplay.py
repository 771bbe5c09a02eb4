"""Random self-play: 1,000 seeded games across 2, 3 and 4 players, every one played to
its end, with the invariants checked after every move (docs/contributing.md, after OpenSpiel):

- tokens and cards are conserved, nobody ends a turn above 10 tokens (R13);
- a game that is not over has legal moves, each listed once (R12);
- `apply` and `apply_unchecked` agree, and `apply` refuses a move not listed;
- the state round-trips through the codec, legal moves included;
- no view leaks: the bytes sent to a seat name no card of a deck and no blind
  reserve of another player (views are checked one seat a move, in turn; their
  round trips are in test_codec.py).
"""

from __future__ import annotations

import random
import re

import pytest

from shared import CARDS, GameState, IllegalMoveError, new_game, parse_move
from shared.codec import dumps, loads
from shared.moves import ALL_MOVES
from shared.settings import GameSettings
from shared.state import WINNING_PRESTIGE

from .helpers import check_invariants

GAMES = 1000
CHUNK = 100
IDS = [card.id.encode() for card in CARDS]
CARD_ID = re.compile(rb"[123]-[0-4]\d")  # anything in the bytes that reads as a card id


def hidden_from(state: GameState, seat: int | None) -> list[int]:
    """Cards `seat` may not know: the decks, and the others' blind reserves."""
    hidden = [i for deck in state.decks for i in deck]
    for other, reserved in enumerate(state.reserved):
        if other != seat:
            hidden.extend(i for i, blind in reserved if blind)
    return hidden


def check_view(state: GameState, seat: int | None) -> None:
    named = set(CARD_ID.findall(dumps(state.view(seat))))
    leaked = named & {IDS[i] for i in hidden_from(state, seat)}
    assert not leaked, f"the view of seat {seat} names {sorted(leaked)}"


def check_move(state: GameState, rng: random.Random) -> GameState:
    """Play one random legal move, checking everything on the way."""
    moves = state.legal_moves()
    assert moves and len(set(moves)) == len(moves)
    move = rng.choice(moves)
    after = state.apply_unchecked(move)
    assert state.apply(move) == after
    other = rng.choice(ALL_MOVES)
    if other not in moves:
        with pytest.raises(IllegalMoveError, match=f"seat {state.current_player + 1}\\)"):
            state.apply(other)
    check_invariants(after)
    again = loads(dumps(after))
    assert again == after and again.legal_moves() == after.legal_moves()
    return after


def play_game(number: int) -> GameState:
    players = 2 + number % 3
    state = new_game(GameSettings(players), seed=number * 7919)
    rng = random.Random(number)
    seats: list[int | None] = [*range(players), None]
    plies = 0
    while not state.is_over:
        state = check_move(state, rng)
        plies += 1
        check_view(state, seats[plies % len(seats)])
    return state


def check_end(state: GameState) -> None:
    outcome = state.outcome()
    assert outcome is not None and state.legal_moves() == ()
    n = state.num_players
    assert outcome.scores == tuple(state.prestige(s) for s in range(n))
    assert 1 in outcome.ranks
    if state.passes >= n:  # R18: a whole round of passes
        assert all(str(t.action) == "pass" for t in state.last_turns if t is not None)
    else:  # R15: someone reached 15, and everyone had the same number of turns
        assert state.final_round and max(outcome.scores) >= WINNING_PRESTIGE
        assert state.turn % n == 0
        assert state.current_player == (state.starting_player - 1) % n


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_random_self_play(first: int) -> None:
    for number in range(first, first + CHUNK):
        check_end(play_game(number))


def test_the_leak_check_finds_a_card_that_is_named() -> None:
    """The check above would see a leak: the owner's own view names the blind reserve."""
    state = new_game(GameSettings(2), seed=3)
    owner = state.current_player
    state = state.apply(parse_move("reserve deck 1"))
    hidden = IDS[state.reserved[owner][0][0]]
    assert hidden in CARD_ID.findall(dumps(state.view(owner)))
    assert hidden not in CARD_ID.findall(dumps(state.view(1 - owner)))
    check_view(state, 1 - owner)
