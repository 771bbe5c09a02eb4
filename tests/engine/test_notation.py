"""Notation (docs/rules.md "Notation"): every move prints and parses itself; malformed
text is an `InvalidMoveError`; a well-formed move that is not allowed now is an
`IllegalMoveError` naming the move, the reason, the turn and the seat."""

from __future__ import annotations

import pytest

from shared import (
    IllegalMoveError,
    InvalidMoveError,
    Move,
    SplendorError,
    new_game,
    parse_move,
)
from shared.moves import ALL_MOVES, Buy, Pass, Reserve, ReserveDeck, Return, Take
from shared.settings import GameSettings

from .helpers import play


@pytest.mark.parametrize("move", ALL_MOVES, ids=str)
def test_every_move_round_trips_through_its_notation(move: Move) -> None:
    assert parse_move(str(move)) == move
    assert parse_move(str(move)) is move  # interned: legality is an identity test
    assert repr(move) == f"parse_move({str(move)!r})"
    assert hash(parse_move(str(move))) == hash(move)


def test_all_moves_lists_each_move_once() -> None:
    assert len(set(ALL_MOVES)) == len(ALL_MOVES)
    assert len({str(m) for m in ALL_MOVES}) == len(ALL_MOVES)
    kinds = [type(m) for m in ALL_MOVES]
    # 10 trios, 5 pairs, 10 + 5 smaller takes (R7); 90 reserves, 3 decks, 90 buys;
    # returns of 1, 2 or 3 tokens of 6 kinds (6 + 21 + 56); pass
    assert kinds.count(Take) == 30
    assert (kinds.count(Reserve), kinds.count(ReserveDeck), kinds.count(Buy)) == (90, 3, 90)
    assert kinds.count(Return) == 83 and kinds.count(Pass) == 1


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("take W U G", "take W U G"),
        ("take wug", "take W U G"),
        ("take G W U", "take W U G"),
        ("  TAKE   g  U w ", "take W U G"),
        ("take rr", "take R R"),
        ("take K", "take K"),
        ("take k r", "take R K"),
        ("reserve 1-07", "reserve 1-07"),
        ("reserve 1-7", "reserve 1-07"),
        ("Reserve   3-5", "reserve 3-05"),
        ("reserve deck 2", "reserve deck 2"),
        ("reserve  DECK   3", "reserve deck 3"),
        ("buy 2-14", "buy 2-14"),
        ("BUY 1-7", "buy 1-07"),
        ("return W W *", "return W W *"),
        ("return *ww", "return W W *"),
        ("return k", "return K"),
        ("pass", "pass"),
        (" PASS ", "pass"),
    ],
)
def test_accepted_variants_parse_to_the_canonical_move(text: str, canonical: str) -> None:
    assert str(parse_move(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "take W W W",
        "take * U G",
        "reserve deck 4",
        "",
        "   ",
        "take",
        "take W U G R",
        "take W W U",
        "take X",
        "take *",
        "reserve",
        "reserve deck",
        "reserve deck 1 2",
        "reserve deck 0",
        "reserve 4-01",
        "reserve 1-41",
        "reserve 1-00",
        "buy",
        "buy 2-31",
        "buy 1-07 1-08",
        "buy 107",
        "buy 01-07",
        "buy deck 1",
        "return",
        "return W W W W",
        "return X",
        "pass now",
        "hello",
        "takeWUG",
    ],
)
def test_text_that_can_never_be_a_move_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not a move"):
        parse_move(text)


def test_invalid_move_error_quotes_the_text() -> None:
    with pytest.raises(InvalidMoveError) as err:
        parse_move("take W W W")
    assert str(err.value).startswith("`take W W W` is not a move")


@pytest.mark.parametrize("value", [None, 3, b"take W U G", ["pass"]])
def test_only_text_is_parsed(value: object) -> None:
    with pytest.raises(InvalidMoveError):
        parse_move(value)  # type: ignore[arg-type]


def test_errors_share_one_base() -> None:
    assert issubclass(InvalidMoveError, SplendorError)
    assert issubclass(IllegalMoveError, SplendorError)
    assert issubclass(SplendorError, ValueError)


def test_illegal_move_error_names_the_move_the_reason_the_turn_and_the_seat() -> None:
    """Seats count from 1 in the message, as records and the table number them (index 0
    is seat 1)."""
    state = new_game(GameSettings(2), seed=1)  # index 1 starts
    state = play(state, "take W R K")
    with pytest.raises(IllegalMoveError) as err:
        state.apply(parse_move("take R R"))
    assert str(err.value) == (
        "`take R R`: only 3 red left; taking two needs 4 (R8) (turn 2, seat 1)"
    )


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("buy 1-01", "1-01 is neither face up nor reserved by you"),
        ("buy 1-12", "1-12 needs 1W 1G 1R 1K more than you have; your 0 gold can't cover 4 (R10)"),
        ("reserve 1-01", "1-01 is not face up on the table"),
        ("return W", "you hold 0 tokens: nothing to return (R13)"),
        ("pass", "you may pass only when no other move is possible (R12)"),
    ],
)
def test_illegal_move_reasons(move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as err:
        new_game(GameSettings(2), seed=1).apply(parse_move(move))
    assert str(err.value) == f"`{move}`: {reason} (turn 1, seat 2)"


def test_a_finished_game_takes_no_more_moves() -> None:
    from shared import GameSettings, replay

    from .test_golden import GAMES

    game = GAMES[0]
    state = replay(GameSettings(game["players"]), game["seed"], game["moves"])
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply(parse_move("pass"))
