"""The pure parts of the client: needs, picks, reasons, log lines, tie notes."""

from __future__ import annotations

from clientkit import fewer_than_three, find_position

from client import describe, model
from client.screens.results import end_note, tie_notes
from shared.deal import new_game, replay
from shared.moves import Buy, Reserve, ReserveDeck, Return, Take, parse_move
from shared.settings import GameSettings
from shared.view import LastTurn, PlayerInfo, PlayerView


def view0(state) -> PlayerView:  # type: ignore[no-untyped-def]
    return state.view(0)


def test_needs_text_shows_shortfall_after_bonuses_and_tokens() -> None:
    state = new_game(GameSettings(2), 1)
    if state.current_player != 0:
        state = state.apply(parse_move("take W U G"))
    view = view0(state)
    me = view.me
    assert me is not None
    cid = view.board[0][0]
    assert cid is not None
    assert model.shortfall(cid, me) == model.card(cid).cost  # nothing held yet
    assert model.needs_text(cid, me) == "need " + model.letters(model.card(cid).cost)


def test_r7_r8_picks_follow_the_legal_takes() -> None:
    view = view0(
        new_game(GameSettings(2), 1)
        if new_game(GameSettings(2), 1).current_player == 0
        else new_game(GameSettings(2), 2)
    )
    assert view.my_turn
    assert model.can_extend(view, [], 0)
    assert model.can_extend(view, [0], 0)  # R8: 4 white in the bank
    assert not model.can_extend(view, [0, 1], 0)
    assert "3 different" in model.why_not_pick(view, [0, 1], 0)
    assert "gold" in model.why_not_pick(view, [], 5)


def test_r7_fewer_than_three_colours_left() -> None:
    view = view0(find_position(2, fewer_than_three).state)
    left = tuple(c for c in range(5) if view.bank[c])
    assert model.take_of(list(left)) in view.legal_moves
    if len(left) == 2:
        assert "one of each" in model.why_not(view, Take((left[0],)))


def test_why_not_explains_each_kind_of_refusal() -> None:
    state = new_game(GameSettings(2), 5)
    view = state.view(state.current_player)
    other = state.view(1 - state.current_player)
    assert "turn" in model.why_not(other, Take((0, 1, 2)), ["Ann", "Bob"])
    assert "R12" in model.why_not(view, parse_move("pass"))
    assert "nothing to return" in model.why_not(view, Return((0,)))
    cid = view.board[2][0]
    assert cid is not None
    assert "R10" in model.why_not(view, Buy(cid))
    assert "not face up" in model.why_not(view, Reserve("3-01" if cid != "3-01" else "3-02"))
    assert model.check(view, ReserveDeck(1)) is None


def test_log_lines_read_like_the_issue() -> None:
    assert (
        describe.turn_text("Bob", LastTurn(parse_move("reserve 2-14"), took_gold=True))
        == "Bob reserved 2-14 and took 1 gold"
    )
    assert (
        describe.turn_text("Ann", LastTurn(parse_move("buy 1-07"), noble="N3"))
        == "Ann bought 1-07; the noble N3 visited"
    )
    assert describe.turn_text("Cy", LastTurn(parse_move("take R R"))) == "Cy took 2 R"
    text = describe.turn_text(
        "Di", LastTurn(parse_move("take W U G"), returned=parse_move("return W *"))
    )
    assert text == "Di took W U G, returned W *"


def test_a_narrow_panel_names_the_card_whole() -> None:
    """A player's panel is 18 cells wide at 80 columns: "last: reserved 2-…" lost the very
    card; the short form keeps it, and says gold and returns as the bank line does."""
    short = describe.short_turn
    assert short(LastTurn(parse_move("reserve 2-14"), took_gold=True)) == "res 2-14 +1*"
    assert short(LastTurn(parse_move("reserve deck 3"), took_gold=False)) == "res L3?"
    assert short(LastTurn(parse_move("buy 1-07"), noble="N3")) == "bought 1-07"
    turn = LastTurn(parse_move("take W U G"), returned=parse_move("return W *"))
    assert short(turn) == "took W U G -W *"
    assert short(LastTurn(parse_move("take R R"))) == "took 2 R"


def test_ended_turns_follow_the_turn_counter() -> None:
    state = new_game(GameSettings(3), 9)
    start = state.current_player
    before = state.view(0)
    state = state.apply(parse_move("take W U G"))
    state = state.apply(parse_move("take W U G"))
    after = state.view(0)
    assert describe.ended_turns(before, after) == [start, (start + 1) % 3]
    assert describe.ended_turns(after, after) == []


def test_tie_notes_explain_r17() -> None:
    moves: list[str] = []
    state = replay(GameSettings(2), 3, moves)
    assert tie_notes.__doc__ and end_note.__doc__
    assert state.outcome() is None


def test_a_card_line_in_brief_leaves_out_what_the_gold_covers() -> None:
    """R10: gold pays for any missing gem. The prompt says so when it has room; a
    narrow one says the card and what is missing."""
    me = PlayerInfo(0, (0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0), 0, (), (), (), None)
    whole = model.card_summary("1-06", me)
    assert whole.endswith("— you need 3K more (your 1 gold covers 1)")
    assert model.card_summary("1-06", me, brief=True) == whole.removesuffix(
        " (your 1 gold covers 1)"
    )
