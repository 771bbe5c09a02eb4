"""Each level says in one line why it chose its move (issue 14), for the hint key and for
logs: the same move as `choose_move`, from the view alone, naming no card the seat cannot
see (R9); `explain_bytes` answers the same for another process."""

from __future__ import annotations

import pytest

from shared.bots import (
    Budget,
    choose_move,
    encode_request,
    explain,
    explain_bytes,
    explain_said,
    hard,
)
from shared.bots.reasons import describe
from shared.cards import CARDS
from shared.moves import Buy, Reserve, Return, Take
from shared.tables import shortfall_of

from .positions import random_positions
from .test_hidden_information import _with_blind_reserves, redeal

LEVELS = ["easy", "medium", "hard"]
SMALL = {2: 40, 3: 30, 4: 30}  # hard's iterations here: the default takes a second


@pytest.fixture(autouse=True)
def quick_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hard, "ITERATIONS", SMALL)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_line_goes_with_the_move_choose_move_plays(level: str, num_players: int) -> None:
    states = random_positions(num_players, 12, seed=90 + num_players, returns=3)
    for i, state in enumerate(states):
        view = state.view(state.current_player)
        move, why = explain(view, level, i)
        assert move == choose_move(view, level, i, Budget(iterations=SMALL[num_players]))
        assert why and "\n" not in why and len(why) < 160, why
        assert explain(view, level, i) == (move, why)  # seeded: the same line again
        if len(view.legal_moves) == 1:
            continue
        if isinstance(move, Buy | Reserve):  # R9, R10: the card is named
            assert f" {move.card}" in why, why
        if isinstance(move, Take):  # R7, R8
            assert why.startswith("takes "), why
        if isinstance(move, Return):  # R13
            assert why.startswith("gives back "), why


def test_a_buy_says_its_points_and_bonus() -> None:
    for state in random_positions(2, 80, seed=123):
        view = state.view(state.current_player)
        move, why = explain(view, "medium", 1)
        if isinstance(move, Buy) and len(view.legal_moves) > 1:
            card = CARDS[move.index]
            assert why.startswith(f"buys {card.id}: "), why
            assert ("no points" if card.prestige == 0 else f"{card.prestige} point") in why
            assert "bonus" in why
            return
    pytest.fail("no buy among the positions")


@pytest.mark.parametrize(("num_players", "seed", "plies"), [(2, 1, 24), (3, 2, 33), (4, 3, 40)])
@pytest.mark.parametrize("level", LEVELS)
def test_r9_the_line_names_no_hidden_card_and_hidden_cards_do_not_change_it(
    num_players: int, seed: int, plies: int, level: str
) -> None:
    state = _with_blind_reserves(num_players, seed, plies)
    seat = state.current_player
    hidden = {i for deck in state.decks for i in deck}
    hidden |= {i for s, r in enumerate(state.reserved) for i, b in r if b and s != seat}
    lines = {
        explain(t.view(seat), level, 5)
        for t in [state, *(redeal(state, seat, k) for k in range(3))]
    }
    assert len(lines) == 1
    ((_, why),) = lines
    assert not any(CARDS[i].id in why for i in hidden), why


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


def test_hard_says_when_its_root_kept_one_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A root left with one move (`hard.root_moves`: the rest undo a take, stall or
    reserve idly) is played without a search, and the line says what it does and why."""
    views = [s.view(s.current_player) for s in random_positions(2, 5, seed=7)]
    view, take = next((v, m) for v in views for m in v.legal_moves if isinstance(m, Take))
    monkeypatch.setattr(hard, "root_moves", lambda view, state: (take,))
    move, why = explain(view, "hard", 3)
    assert move == take and len(view.legal_moves) > 1
    assert why.startswith("takes ") and why.endswith(f"({hard.ONE_KEPT})"), why
    assert len(why) < 160, why


def test_explain_bytes_answers_as_explain() -> None:
    state = random_positions(2, 5, seed=7)[-1]
    view = state.view(state.current_player)
    text, why = explain_bytes(encode_request(view, "medium", 3))
    move, expected = explain(view, "medium", 3)
    assert (text, why) == (str(move), expected)


def test_a_denial_names_the_seat_as_the_table_numbers_it() -> None:
    """R9, R10: a reserve of a card another player could buy now says which seat, numbered
    from 1 as the table names seats ("Medium bot 2" sits at seat 2)."""
    found = 0
    for state in random_positions(3, 60, seed=31, returns=0):
        me = state.current_player
        for move in state.legal_moves():
            if not isinstance(move, Reserve):
                continue
            rivals = [
                q
                for q in range(3)
                if q != me and shortfall_of(move.index, state.bonuses[q], state.tokens[q]) == 0
            ]
            why = describe(state, move)
            if rivals:
                assert why.endswith(f", which seat {rivals[0] + 1} could buy"), why
                found += 1
            else:
                assert "could buy" not in why, why
    assert found


def test_the_reason_is_a_marked_message_each_language_words() -> None:
    """Issue 34: the hint's line is a `Text` (whole sentences, fields for the parts that
    vary), its English the line `explain` gives, translated in every language we ship."""
    found = set()
    for i, state in enumerate(random_positions(3, 30, seed=77, returns=10)):
        view = state.view(state.current_player)
        move, said = explain_said(view, "medium", i)
        assert (move, said.english()) == explain(view, "medium", i)
        for language in ("cs", "hu", "fa"):
            shown = said.render(language)
            assert shown != said.english() and "{" not in shown, (language, shown)
        found.add(type(move))
    assert len(found) >= 2
