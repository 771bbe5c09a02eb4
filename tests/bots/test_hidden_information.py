"""A bot cannot reach hidden information (issue 3, docs/design.md "Bots never see hidden
information").

The process entry point takes bytes only, and those bytes are the seat's view:
real games that differ only in what the seat can't see (deck order and contents,
other seats' blind reserves) give the same bytes, hence the same move. The hidden
cards' ids appear nowhere in the bytes.
"""

from __future__ import annotations

import inspect
import random

import pytest

from shared import codec
from shared.bots import BotRequestError, choose_move, choose_move_bytes, encode_request
from shared.cards import CARDS
from shared.deal import new_game
from shared.moves import Buy, ReserveDeck
from shared.settings import GameSettings
from shared.state import GameState

LEVEL_BUDGETS = [("easy", None), ("medium", None), ("hard", 60)]


def redeal(state: GameState, seat: int, seed: int) -> GameState:
    """Another real game `seat` can't tell from `state`: the decks and the other seats'
    blind reserves dealt again from the same unseen cards, level by level."""
    rng = random.Random(seed)
    copy = codec.loads(codec.dumps(state))
    pools: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for deck in state.decks:
        for i in deck:
            pools[CARDS[i].level].append(i)
    for s, reserved in enumerate(state.reserved):
        for i, blind in reserved:
            if blind and s != seat:
                pools[CARDS[i].level].append(i)
    for pool in pools.values():
        rng.shuffle(pool)
    copy.reserved = tuple(
        tuple(
            (pools[CARDS[i].level].pop(), True) if blind and s != seat else (i, blind)
            for i, blind in reserved
        )
        for s, reserved in enumerate(state.reserved)
    )
    copy.decks = tuple(tuple(pools[level]) for level in (1, 2, 3))
    return copy


def _with_blind_reserves(num_players: int, seed: int, plies: int) -> GameState:
    """A position where several seats hold blind reserves and have bought cards."""
    rng = random.Random(seed)
    state = new_game(GameSettings(num_players), seed)
    for _ in range(plies):
        moves = state.legal_moves()
        keen = [m for m in moves if isinstance(m, ReserveDeck | Buy)]
        state = state.apply(rng.choice(keen) if keen and rng.random() < 0.6 else rng.choice(moves))
    assert not state.is_over, "pick another seed"
    return state


@pytest.mark.parametrize(("num_players", "seed", "plies"), [(2, 1, 24), (3, 2, 33), (4, 3, 40)])
def test_games_that_differ_only_in_hidden_cards_get_the_same_move(
    num_players: int, seed: int, plies: int
) -> None:
    state = _with_blind_reserves(num_players, seed, plies)
    seat = state.current_player
    others_blind = [i for s, r in enumerate(state.reserved) for i, b in r if b and s != seat]
    assert others_blind, "the position should hide some reserves"
    twins = [redeal(state, seat, k) for k in range(4)]
    assert len({t.decks for t in twins} | {state.decks}) == 5  # really different games
    for level, budget in LEVEL_BUDGETS:
        requests = {encode_request(t.view(seat), level, 11, budget) for t in [state, *twins]}
        assert len(requests) == 1  # the bot's whole input is the same bytes ...
        moves = {choose_move_bytes(encode_request(t.view(seat), level, 11, budget))
                 for t in [state, *twins]}  # fmt: skip
        assert len(moves) == 1  # ... so the move is the same
        # and the Python API, given the views, agrees
        assert {str(choose_move(t.view(seat), level, 11, budget)) for t in twins} == moves


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_hidden_card_ids_are_nowhere_in_the_request(num_players: int) -> None:
    state = _with_blind_reserves(num_players, 40 + num_players, 30)
    seat = state.current_player
    data = encode_request(state.view(seat), "hard", 1, 10)
    hidden = {i for deck in state.decks for i in deck}
    hidden |= {i for s, r in enumerate(state.reserved) for i, b in r if b and s != seat}
    assert hidden
    for i in hidden:
        assert CARDS[i].id.encode() not in data
    own_blind = [i for i, b in state.reserved[seat] if b]
    for i in own_blind:  # the seat's own blind reserves it does know
        assert CARDS[i].id.encode() in data


def test_the_entry_point_takes_bytes_and_nothing_else() -> None:
    params = inspect.signature(choose_move_bytes).parameters
    assert list(params) == ["data"]
    state = new_game(GameSettings(2), 5)
    view = state.view(state.current_player)
    with pytest.raises(BotRequestError):
        choose_move_bytes(view)  # type: ignore[arg-type]
    with pytest.raises(BotRequestError):
        choose_move_bytes(state)  # type: ignore[arg-type]
    # a full state smuggled into a request is refused, not used
    for payload in (state, {"view": state, "level": "easy", "seed": 1, "budget": None}):
        with pytest.raises(BotRequestError):
            choose_move_bytes(codec.dumps(payload))


def test_the_entry_point_refuses_bad_requests() -> None:
    state = new_game(GameSettings(3), 6)
    view = state.view(state.current_player)
    other = state.view((state.current_player + 1) % 3)
    bad = [
        {"view": view, "level": "grandmaster", "seed": 1, "budget": None},
        {"view": view, "level": "easy", "seed": "1", "budget": None},
        {"view": view, "level": "easy", "seed": 1, "budget": "fast"},
        {"view": view, "level": "easy", "seed": 1, "budget": {"turns": 3}},
        {"view": view, "level": "hard", "seed": 1, "budget": -5},
        {"view": other, "level": "easy", "seed": 1, "budget": None},  # not its turn
    ]
    for message in bad:
        with pytest.raises(BotRequestError):
            choose_move_bytes(codec.dumps(message))
    with pytest.raises(codec.CodecError):
        choose_move_bytes(b"\x93\x01")
