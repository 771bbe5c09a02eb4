"""The end of a turn and of the game: docs/rules.md R13 (ten tokens), R14 (nobles),
R15 (final round, at the rules' 15 or at the target of the game's settings), R16 and R17
(scoring), R18 (a whole round of passes).

Positions start from seed 1, whose nobles lie in the order N7 (3U 3G 3K),
N6 (3W 3U 3R), N5 (4U 4K) with two players (one more with each extra player).
"""

from __future__ import annotations

from shared import CARDS, NOBLE_BY_ID, GameSettings, GameState, Outcome, new_game, parse_move
from shared.moves import PASS_MOVE, Return

from .helpers import (
    bonus_cards,
    counts,
    edit,
    give_cards,
    give_reserved,
    give_tokens,
    illegal,
    last_turn,
    notations,
    play,
    start,
)

N5, N6, N7 = (NOBLE_BY_ID[n].index for n in ("N5", "N6", "N7"))


def with_bonuses(state: GameState, seat: int, spec: str) -> GameState:
    """Give `seat` level-1 zero-prestige cards: ``"3U 3G 2K"``."""
    for part in spec.split():
        state = give_cards(state, seat, bonus_cards(part[1], int(part[0]), state))
    return state


# -- R13 ten tokens --------------------------------------------------------------


def twelve_tokens() -> GameState:
    """Seat 0 held 9 tokens (gold among them) and took three more: 12."""
    return play(give_tokens(start(), 0, "U U G G R R K K *"), "take W U G")


def test_r13_above_ten_tokens_the_same_player_returns_in_the_same_turn() -> None:
    state = twelve_tokens()
    assert state.tokens[0] == counts("W U U U G G G R R K K *")
    assert state.phase == "return" and state.current_player == 0 and state.turn == 1
    moves = state.legal_moves()
    assert all(isinstance(m, Return) and len(m.tokens) == 2 for m in moves)
    # any 2 of the held kinds: 15 pairs of kinds, plus U U, G G, R R, K K
    assert len(moves) == 19 and len(set(moves)) == 19


def test_r13_return_is_a_separate_move_of_any_tokens_gold_included() -> None:
    state = play(twelve_tokens(), "return K *")
    assert state.tokens[0] == counts("W U U U G G G R R K")
    assert sum(state.tokens[0]) == 10
    assert state.phase == "action" and state.current_player == 1 and state.turn == 2
    assert last_turn(state, 0).action == parse_move("take W U G")
    assert last_turn(state, 0).returned == parse_move("return K *")


def test_r13_only_a_return_of_exactly_the_excess_is_allowed() -> None:
    state = twelve_tokens()
    assert "first return 2 tokens to come back to 10 (R13)" in illegal(state, "take R K W")
    assert "return exactly 2 tokens" in illegal(state, "return R")
    assert "return exactly 2 tokens" in illegal(state, "return R R K")
    assert "you hold only 1 white" in illegal(state, "return W W")
    assert "nothing to return (R13)" in illegal(start(), "return W")


def test_r13_the_return_decision_shows_in_the_views() -> None:
    state = twelve_tokens()
    mine, theirs = state.view(0), state.view(1)
    assert mine.phase == theirs.phase == "return"
    assert mine.current_player == theirs.current_player == 0
    assert mine.legal_moves == state.legal_moves() and theirs.legal_moves == ()


def test_r13_the_return_comes_after_seeing_a_blind_reserve() -> None:
    state = give_tokens(start(), 0, "W W U U G G R R K K")
    top = CARDS[state.decks[0][0]].id
    state = play(state, "reserve deck 1")  # the gold makes 11
    assert state.phase == "return"
    assert state.view(0).players[0].reserved[0].card == top
    state = play(state, "return *")
    assert state.tokens[0] == counts("W W U U G G R R K K")
    assert state.current_player == 1


def test_r13_exactly_ten_tokens_needs_no_return() -> None:
    state = play(give_tokens(start(), 0, "U U G G R R K"), "take W U G")
    assert sum(state.tokens[0]) == 10
    assert state.phase == "action" and state.current_player == 1


# -- R14 nobles -----------------------------------------------------------------


def test_r14_a_noble_visits_when_the_bonuses_meet_its_demand() -> None:
    state = with_bonuses(start(), 0, "3U 3G 3K")
    assert state.player_nobles[0] == ()  # no turn has ended yet
    after = play(state, "take W R K")
    assert after.player_nobles[0] == (N7,)
    assert after.nobles == (N6, N5)  # never replaced
    assert after.prestige(0) == after.card_prestige[0] + 3
    assert last_turn(after, 0).noble == N7
    seen = after.view(1).players[0].last_turn
    assert seen is not None and seen.noble == "N7"


def test_r14_tokens_never_count_for_nobles() -> None:
    state = give_tokens(with_bonuses(start(), 0, "3U 3G 2K"), 0, "K K K")
    after = play(state, "take W U G")
    assert after.player_nobles[0] == () and after.nobles == (N7, N6, N5)


def test_r14_the_first_eligible_noble_in_table_order_one_per_turn() -> None:
    state = with_bonuses(start(), 0, "4U 3G 4K")  # meets N7 and N5
    state = play(state, "take W U G")
    assert state.player_nobles[0] == (N7,)
    state = play(state, "take W U G", "take R K W")  # the next turn of seat 0: N5 comes now
    assert state.player_nobles[0] == (N7, N5) and state.nobles == (N6,)

    reordered = edit(with_bonuses(start(), 0, "4U 3G 4K"), nobles=(N5, N6, N7))
    assert play(reordered, "take W U G").player_nobles[0] == (N5,)


def test_r14_the_noble_comes_after_the_return_decision() -> None:
    state = with_bonuses(start(), 0, "3U 3G 3K")
    state = play(give_tokens(state, 0, "W W U U G G R R K"), "take W U G")
    assert state.phase == "return" and state.player_nobles[0] == ()
    state = play(state, "return W U")
    assert state.player_nobles[0] == (N7,)
    assert last_turn(state, 0).noble == N7


# -- R15 game end ---------------------------------------------------------------


def fifteen(state: GameState, seat: int) -> GameState:
    """Give `seat` three level-3 cards worth 5 each."""
    return give_cards(state, seat, ["3-16", "3-17", "3-19"])


def test_r15_the_final_round_ends_before_the_starting_player() -> None:
    state = fifteen(start(3), 1)
    state = play(state, "take W U G", "take W U G")
    assert state.final_round and not state.is_over and state.current_player == 2
    state = play(state, "take W U G")
    assert state.is_over and state.turn == 3  # seat 0, who started, plays no more
    assert state.outcome() == Outcome(scores=(0, 15, 0), ranks=(2, 1, 2))


def test_r15_the_player_before_the_starting_player_ends_the_game_at_once() -> None:
    state = play(fifteen(start(3), 2), "take W U G", "take W U G", "take W U G")
    assert state.is_over and state.final_round and state.turn == 3


def test_r15_the_starting_player_triggering_lets_everyone_else_play() -> None:
    state = play(fifteen(start(3), 0), "take W U G")
    assert state.final_round and state.current_player == 1
    state = play(state, "take W U G")
    assert not state.is_over
    state = play(state, "take W U G")
    assert state.is_over and state.turn == 3


def test_r15_the_starting_player_need_not_be_seat_0() -> None:
    state = fifteen(start(3, seat=2), 0)
    state = play(state, "take W U G", "take W U G")  # seat 2, then seat 0 reaches 15
    assert state.final_round and state.current_player == 1
    state = play(state, "take W U G")  # seat 1 sits just before seat 2
    assert state.is_over and state.turn == 3


def test_r15_a_noble_can_bring_the_fifteen() -> None:
    state = give_cards(start(), 0, ["3-16", "3-19", "2-11"])  # 12 prestige
    state = with_bonuses(state, 0, "3U 3G 3K")
    assert state.prestige(0) == 12
    state = play(state, "take W U G")
    assert state.prestige(0) == 15 and state.final_round and not state.is_over


def test_r15_below_fifteen_the_game_goes_on() -> None:
    state = give_cards(start(), 0, ["3-16", "3-19", "2-27"])  # 13 prestige
    state = play(state, "take W U G", "take W U G")
    assert not state.final_round and not state.is_over


def to_21(state: GameState) -> GameState:
    """The same position in a longer game: R15's target is 21 (`shared.settings`)."""
    return edit(state, target=21)


def test_r15_the_target_comes_from_the_settings() -> None:
    assert new_game(GameSettings(2), 1).target == 15  # the rules' game
    state = new_game(GameSettings(3, target=21), 1)
    assert state.target == 21 and state.settings == GameSettings(3, target=21)
    assert state.view(0).target == 21 and state.view(None).settings.target == 21
    # the target deals nothing: the same seed deals the same game
    assert edit(state, target=15) == new_game(GameSettings(3), 1)


def test_r15_in_a_game_to_21_fifteen_does_not_start_the_final_round() -> None:
    state = play(fifteen(to_21(start(3)), 1), "take W U G", "take W U G", "take W U G")
    assert state.prestige(1) == 15 and not state.final_round and not state.is_over
    state = play(give_cards(state, 1, ["3-18"]), "take W U G", "take R K W")  # seats 0, 1
    assert state.prestige(1) == 20 and state.current_player == 2
    assert not state.final_round  # 20 is not enough either


def test_r15_in_a_game_to_21_reaching_21_starts_the_final_round() -> None:
    state = give_cards(fifteen(to_21(start(3)), 1), 1, ["3-06", "2-11"])  # 15 + 4 + 2
    assert state.prestige(1) == 21
    state = play(state, "take W U G", "take W U G")
    assert state.final_round and not state.is_over and state.current_player == 2
    state = play(state, "take W U G")
    assert state.is_over and state.turn == 3  # seat 0, who started, plays no more
    assert state.outcome() == Outcome(scores=(0, 21, 0), ranks=(2, 1, 2))


def test_r15_in_a_game_to_21_a_noble_can_bring_the_21() -> None:
    state = give_cards(to_21(start()), 0, ["3-16", "3-19", "3-17", "2-26"])  # 18 prestige
    state = with_bonuses(state, 0, "3U 3G 3K")
    state = play(state, "take W U G")
    assert state.prestige(0) == 21 and state.final_round and not state.is_over


# -- R16, R17 scoring -------------------------------------------------------------


def finished(*cards_by_seat: list[str], nobles: dict[int, int] | None = None) -> GameState:
    state = start(len(cards_by_seat))
    for seat, cards in enumerate(cards_by_seat):
        state = give_cards(state, seat, cards)
    for seat, noble in (nobles or {}).items():
        state = edit(
            state,
            nobles=tuple(n for n in state.nobles if n != noble),
            player_nobles=tuple(
                (*ns, noble) if s == seat else ns for s, ns in enumerate(state.player_nobles)
            ),
        )
    return edit(state, is_over=True)


def test_r16_prestige_is_the_cards_plus_three_per_noble() -> None:
    state = finished(["3-16", "2-01"], ["1-36"], nobles={1: N7})
    assert state.outcome() == Outcome(scores=(6, 4), ranks=(1, 2))


def test_r17_most_prestige_wins() -> None:
    outcome = finished(["3-16"], ["3-08"], ["2-26"]).outcome()
    assert outcome == Outcome(scores=(5, 4, 3), ranks=(1, 2, 3))
    assert outcome is not None and outcome.winners == (0,)


def test_r17_on_a_tie_fewer_cards_bought_ranks_higher() -> None:
    outcome = finished(["3-16", "1-01"], ["3-17"]).outcome()
    assert outcome == Outcome(scores=(5, 5), ranks=(2, 1))


def test_r17_still_tied_players_share_the_rank_and_the_next_is_skipped() -> None:
    outcome = finished(["3-16", "1-01"], ["3-17", "1-02"], ["3-08"]).outcome()
    assert outcome == Outcome(scores=(5, 5, 4), ranks=(1, 1, 3))
    assert outcome is not None and outcome.winners == (0, 1)
    shared_second = finished(["3-16"], ["2-26"], ["2-27"], ["1-01"]).outcome()
    assert shared_second == Outcome(scores=(5, 3, 3, 0), ranks=(1, 2, 2, 4))


def test_r17_no_outcome_before_the_end() -> None:
    assert start().outcome() is None


# -- R18 when nobody can act ---------------------------------------------------------


def nothing_to_do(state: GameState) -> GameState:
    """No gems in the bank and no cards on the table: every player can only pass."""
    return edit(state, bank=(0, 0, 0, 0, 0, 5), board=((-1,) * 4,) * 3, decks=((), (), ()))


def test_r18_a_whole_round_of_passes_ends_the_game() -> None:
    state = nothing_to_do(give_cards(start(3), 2, ["2-26"]))
    state = play(state, "pass", "pass")
    assert not state.is_over and state.passes == 2
    state = play(state, "pass")
    assert state.is_over and state.turn == 3 and not state.final_round
    assert state.outcome() == Outcome(scores=(0, 0, 3), ranks=(2, 2, 1))
    assert state.legal_moves() == ()


def test_r18_the_passes_must_come_in_a_row() -> None:
    state = edit(start(), bank=(0, 0, 0, 0, 0, 5))
    for cid in ("3-01", "3-02", "3-03"):  # seat 0 can only pass; seat 1 can still reserve
        state = give_reserved(state, 0, cid, blind=False)
    assert state.legal_moves() == (PASS_MOVE,)
    state = play(state, "pass", "reserve 1-12", "pass")
    assert state.passes == 1 and not state.is_over


def test_r18_the_last_passing_turn_ends_with_its_noble_visit() -> None:
    state = nothing_to_do(with_bonuses(start(), 1, "3U 3G 3K"))
    state = play(state, "pass", "pass")
    assert state.is_over
    assert state.player_nobles[1] == (N7,)
    assert state.outcome() == Outcome(scores=(0, 3), ranks=(2, 1))
    assert notations(state.legal_moves()) == []
