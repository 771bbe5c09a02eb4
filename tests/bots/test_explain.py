"""Hints: `explain` gives the move a level would play and a reason in the player's words."""

from __future__ import annotations

import pytest

from shared.bots import choose_move, encode_request, explain, explain_bytes
from shared.moves import Buy, Return, Take

from .positions import random_positions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_explain_plays_the_levels_move_and_says_why(players: int) -> None:
    kinds: set[type] = set()
    for i, state in enumerate(random_positions(players, 40, seed=500 + players, returns=20)):
        view = state.view(state.current_player)
        move, why = explain(view, "medium", i)
        assert move == choose_move(view, "medium", i)  # the same move the level plays
        assert move in view.legal_moves
        assert why and len(why) < 300 and "\n" not in why
        kinds.add(type(move))
        if isinstance(move, Buy):
            assert move.card in why
    assert kinds & {Take, Buy, Return}


def test_explain_bytes_answers_as_explain() -> None:
    state = random_positions(2, 5, seed=7)[-1]
    view = state.view(state.current_player)
    text, why = explain_bytes(encode_request(view, "medium", 3))
    move, expected = explain(view, "medium", 3)
    assert (text, why) == (str(move), expected)
