"""The actions of a turn: docs/rules.md R7 (take three), R8 (take two), R9 (reserve),
R10 (buy), R11 (refill) and R12 (pass).

Positions start from seed 1 with two players and seat 0 to play. Its face-up
level-1 cards are 1-12 (blue, 1W 1G 1R 1K), 1-03 (green, 1W 2R), 1-17 (blue,
2R 2K) and 1-27 (blue, 2W 1G 2R).
"""

from __future__ import annotations

from shared import CARDS, GameState
from shared.cards import COLOURS
from shared.moves import PASS_MOVE

from .helpers import (
    counts,
    empty_bank,
    empty_deck,
    give_cards,
    give_reserved,
    give_tokens,
    idx,
    illegal,
    last_turn,
    notations,
    play,
    start,
)


def takes(state: GameState) -> list[str]:
    return [m for m in notations(state.legal_moves()) if m.startswith("take")]


# -- R7 take three different -------------------------------------------------------


def test_r7_take_three_different_gems() -> None:
    state = play(start(), "take W U G")
    assert state.tokens[0] == counts("W U G")
    assert state.bank == (3, 3, 3, 4, 4, 5)
    assert state.current_player == 1 and state.turn == 2


def test_r7_every_trio_of_colours_left_is_offered() -> None:
    assert len([m for m in takes(start()) if len(m.split()) == 4]) == 10
    no_red = empty_bank(start(), "R")
    trios = [m for m in takes(no_red) if len(m.split()) == 4]
    assert trios == ["take W U G", "take W U K", "take W G K", "take U G K"]


def test_r7_fewer_than_three_colours_left_one_move_takes_them_all() -> None:
    state = empty_bank(start(), "W U G")  # red and black left, 4 of each
    assert takes(state) == ["take R K", "take R R", "take K K"]
    after = play(state, "take R K")
    assert after.tokens[0] == counts("R K")
    assert "take one of each of the 2 colours left (R7)" in illegal(state, "take R")


def test_r7_one_colour_left_take_the_one_token() -> None:
    state = empty_bank(start(), "W U G R")
    state = give_tokens(state, 1, "K K K")  # one black left
    assert takes(state) == ["take K"]
    assert play(state, "take K").bank[:5] == (0, 0, 0, 0, 0)


def test_r7_no_gems_left_no_take() -> None:
    assert takes(empty_bank(start(), "W U G R K")) == []


def test_r7_taking_fewer_than_three_is_illegal_while_three_colours_are_left() -> None:
    message = illegal(start(), "take W U")
    assert "5 colours are left: take 3 different (R7)" in message
    assert "take W" not in takes(start())


def test_r7_taking_a_colour_the_bank_lacks_is_illegal() -> None:
    assert "no red left" in illegal(empty_bank(start(), "R"), "take W U R")


# -- R8 take two the same -------------------------------------------------------


def test_r8_take_two_needs_four_before_taking() -> None:
    state = start()
    assert state.bank[3] == 4 and "take R R" in takes(state)
    after = play(state, "take R R")
    assert after.tokens[0] == counts("R R") and after.bank[3] == 2

    three_left = give_tokens(start(), 1, "R")
    assert "take R R" not in takes(three_left)
    message = illegal(three_left, "take R R")
    assert message.startswith("`take R R`: only 3 red left")


def test_r8_after_a_pile_drops_below_four_nobody_takes_two_of_it() -> None:
    state = play(start(), "take W U G")  # 3 white left
    assert "take W W" not in takes(state)
    assert "take R R" in takes(state)


def test_r8_with_more_players_a_pile_of_seven_allows_it_twice() -> None:
    state = play(start(4), "take W W", "take W W")  # 7 -> 5 -> 3
    assert state.bank[0] == 3 and "take W W" not in takes(state)


# -- R9 reserve --------------------------------------------------------------------


def test_r9_reserve_a_face_up_card_with_a_gold() -> None:
    state = start()
    top = state.decks[0][0]
    after = play(state, "reserve 1-12")
    assert after.reserved[0] == ((idx("1-12"), False),)
    assert after.tokens[0] == counts("*") and after.bank[5] == 4
    assert after.board[0] == (top, *state.board[0][1:])  # R11: refilled at once
    assert last_turn(after, 0).took_gold


def test_r9_a_face_up_reserve_stays_known_to_everyone() -> None:
    after = play(start(), "reserve 1-12")
    for seat in (0, 1, None):
        (reserved,) = after.view(seat).players[0].reserved
        assert reserved.card == "1-12" and not reserved.blind


def test_r9_a_blind_reserve_is_known_only_to_its_owner() -> None:
    state = start()
    top = CARDS[state.decks[1][0]].id
    after = play(state, "reserve deck 2")
    assert after.reserved[0] == ((idx(top), True),)
    assert after.board == state.board
    assert len(after.decks[1]) == len(state.decks[1]) - 1
    assert after.view(0).players[0].reserved[0].card == top
    for seat in (1, None):
        (hidden,) = after.view(seat).players[0].reserved
        assert hidden.card is None and hidden.level == 2 and hidden.blind


def test_r9_reserving_is_allowed_with_no_gold_left() -> None:
    state = give_tokens(start(), 1, "* * * * *")
    assert "reserve 1-03" in notations(state.legal_moves())
    after = play(state, "reserve 1-03")
    assert after.reserved[0] == ((idx("1-03"), False),)
    assert after.tokens[0] == counts("") and after.bank[5] == 0
    assert not last_turn(after, 0).took_gold


def test_r9_never_more_than_three_reserved_cards() -> None:
    state = play(start(), "reserve 1-12", "take W U G", "reserve 2-03", "take W U G")
    assert any(str(m).startswith("reserve") for m in state.legal_moves())
    state = play(state, "reserve deck 3", "take R K W")
    assert len(state.reserved[0]) == 3
    assert not any(str(m).startswith("reserve") for m in state.legal_moves())
    assert "you already hold 3 reserved cards (R9)" in illegal(state, "reserve deck 1")


def test_r9_only_the_owner_can_buy_a_reserved_card() -> None:
    state = play(start(), "reserve 1-12")  # seat 1 to play, and rich enough
    state = give_tokens(state, 1, "W G R K")
    assert "buy 1-12" not in notations(state.legal_moves())
    assert "1-12 is neither face up nor reserved by you" in illegal(state, "buy 1-12")


def test_r9_a_reserved_card_stays_in_hand_until_its_owner_buys_it() -> None:
    state = play(start(), "reserve deck 1", "reserve 1-03", "reserve 1-17", "reserve 1-27")
    hidden = state.reserved[0][0][0]
    assert state.reserved[0] == ((hidden, True), (idx("1-17"), False))
    cost = "".join(COLOURS[c] * n for c, n in enumerate(CARDS[hidden].cost))
    state = play(give_tokens(state, 0, cost), f"buy {CARDS[hidden].id}")
    assert state.reserved[0] == ((idx("1-17"), False),) and state.bought[0] == (hidden,)
    assert state.view(1).players[0].bought == (CARDS[hidden].id,)  # no longer hidden


# -- R10 buy -----------------------------------------------------------------------


def test_r10_fixed_payment_gems_first_gold_only_for_the_shortfall() -> None:
    state = give_tokens(start(), 0, "W W R * *")  # 1-12 costs 1W 1G 1R 1K
    after = play(state, "buy 1-12")
    assert after.tokens[0] == counts("W")  # one white kept, two gold spent for G and K
    assert after.bank == (4 - 1, 4, 4, 4, 4, 5)  # spent tokens, gold included, go back
    assert after.bought[0] == (idx("1-12"),)
    assert after.bonuses[0] == (0, 1, 0, 0, 0)


def test_r10_gold_must_cover_the_whole_shortfall() -> None:
    state = give_tokens(start(), 0, "W R *")  # short of G and K, one gold
    assert "buy 1-12" not in notations(state.legal_moves())
    reason = "1-12 needs 1G 1K more than you have; your 1 gold can't cover 2 (R10)"
    assert reason in illegal(state, "buy 1-12")


def test_r10_bonuses_reduce_the_cost_never_below_zero() -> None:
    state = give_cards(start(), 0, ["1-01", "1-06", "1-11"])  # three white bonuses
    state = give_tokens(state, 0, "G R K")
    after = play(state, "buy 1-12")  # 1W 1G 1R 1K: the white is free, no refund
    assert after.tokens[0] == counts("")
    assert after.bank[:5] == (4, 4, 4, 4, 4)


def test_r10_a_card_with_no_cost_left_is_bought_for_nothing() -> None:
    state = give_cards(start(), 0, ["1-04", "1-09", "1-05", "1-10"])  # R R K K
    assert "buy 1-17" in notations(state.legal_moves())  # 2R 2K
    assert play(state, "buy 1-17").tokens[0] == counts("")


def test_r10_a_new_bonus_counts_from_the_next_purchase() -> None:
    state = give_tokens(start(), 0, "W W W G R R R R")
    after = play(state, "buy 1-03")  # 1W 2R, a green card
    assert after.bonuses[0] == (0, 0, 1, 0, 0) and after.tokens[0] == counts("W W G R R")
    after = play(after, "take U R K")
    # 1-27 costs 2W 1G 2R; with the green bonus it is 2W 2R, and the green token stays
    assert play(after, "buy 1-27").tokens[0] == counts("G")


def test_r10_buy_one_of_your_own_reserved_cards() -> None:
    state = give_reserved(start(), 0, "3-01", blind=True)  # 5U 3G 3R 3K
    state = give_cards(state, 0, ["1-02", "1-07", "1-22", "1-32", "1-37"])  # 5 blue bonuses
    state = give_tokens(state, 0, "G G G R R R K K *")  # one black short: the gold pays
    after = play(state, "buy 3-01")
    assert after.reserved[0] == () and after.bought[0][-1] == idx("3-01")
    assert after.board == state.board  # a reserved card leaves no slot to refill
    assert after.tokens[0] == counts("")
    assert after.card_prestige[0] == state.card_prestige[0] + 3


# -- R11 refill ----------------------------------------------------------------------


def test_r11_a_bought_card_is_replaced_from_the_same_levels_deck() -> None:
    state = give_tokens(start(), 0, "W R R")
    top = state.decks[0][0]
    after = play(state, "buy 1-03")
    assert after.board[0] == (state.board[0][0], top, *state.board[0][2:])
    assert after.decks[0] == state.decks[0][1:]
    assert after.board[1:] == state.board[1:]


def test_r11_an_empty_deck_leaves_the_slot_empty() -> None:
    state = empty_deck(start(), 1)
    assert "reserve deck 1" not in notations(state.legal_moves())
    assert "the level 1 deck is empty (R11)" in illegal(state, "reserve deck 1")
    after = play(state, "reserve 1-03")
    assert after.board[0] == (idx("1-12"), -1, idx("1-17"), idx("1-27"))
    assert after.view(1).board[0] == ("1-12", None, "1-17", "1-27")
    moves = notations(after.legal_moves())
    assert "reserve 1-03" not in moves
    assert len([m for m in moves if m.startswith("reserve")]) == 11 + 2  # 11 cards, 2 decks


# -- R12 pass ----------------------------------------------------------------------


def stuck(state: GameState) -> GameState:
    """Seat 0 holds 3 reserved level-3 cards and nothing else; the bank has no gems."""
    s = empty_bank(state, "W U G R K")
    for cid in ("3-01", "3-02", "3-03"):
        s = give_reserved(s, 0, cid, blind=False)
    return s


def test_r12_pass_only_when_no_other_move_is_possible() -> None:
    state = stuck(start())
    assert state.legal_moves() == (PASS_MOVE,)
    after = play(state, "pass")
    assert after.current_player == 1 and after.passes == 1 and not after.is_over


def test_r12_pass_is_illegal_while_anything_else_is_possible() -> None:
    assert "pass" not in notations(start().legal_moves())
    message = illegal(start(), "pass")
    assert "you may pass only when no other move is possible (R12)" in message
    # one card that costs nothing after bonuses is enough to forbid passing
    free = give_cards(stuck(start()), 0, ["1-01", "1-04", "1-09"])
    assert notations(free.legal_moves()) == ["buy 1-03"]  # 1W 2R, paid by W R R bonuses
