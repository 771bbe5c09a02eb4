"""The codec (shared/codec.py): exact round trips, ids as text, clear errors."""

from __future__ import annotations

import msgpack
import pytest

from shared import GameState, Outcome, new_game, parse_move, replay
from shared.codec import FORMAT_VERSION, MAX_BYTES, CodecError, dumps, loads
from shared.moves import ALL_MOVES
from shared.settings import GameSettings

from .helpers import play
from .test_golden import GAMES


def finished() -> GameState:
    game = GAMES[2]
    return replay(GameSettings(game["players"]), game["seed"], game["moves"])


def some_states() -> list[GameState]:
    start = new_game(GameSettings(3), seed=42)
    returning = play(
        new_game(GameSettings(2), seed=1), "take W U G", "take W U G", "take R K W", "take R K U",
        "take W G R", "take K U G", "reserve deck 1",
    )  # fmt: skip
    return [start, play(start, "reserve deck 2", "take W W"), returning, finished()]


def test_states_round_trip_exactly() -> None:
    for state in some_states():
        again = loads(dumps(state))
        assert again == state
        assert again.legal_moves() == state.legal_moves()
        assert again.outcome() == state.outcome()


def test_views_round_trip_exactly() -> None:
    for state in some_states():
        for seat in (*range(state.num_players), None):
            view = state.view(seat)
            assert loads(dumps(view)) == view


def test_moves_and_outcomes_round_trip() -> None:
    for move in ALL_MOVES:
        assert loads(dumps(move)) is move
    outcome = Outcome(scores=(15, 12, 12), ranks=(1, 2, 2))
    assert loads(dumps(outcome)) == outcome


def test_messages_round_trip_with_views_and_moves_inside() -> None:
    state = new_game(GameSettings(2), seed=5)
    message = {
        "t": "table",
        "seats": ({"name": "ann", "bot": None}, {"name": None, "bot": "easy"}),
        "view": state.view(0),
        "last": parse_move("take W U G"),
        "outcome": None,
    }
    assert loads(dumps(message)) == message


def test_cards_travel_as_their_ids() -> None:
    state = new_game(GameSettings(2), seed=1)
    version, tag, payload = msgpack.unpackb(dumps(state))
    assert (version, tag) == (FORMAT_VERSION, "state")
    assert payload["board"][0] == ["1-12", "1-03", "1-17", "1-27"]
    assert all(isinstance(c, str) for deck in payload["decks"] for c in deck)
    assert payload["nobles"] == ["N7", "N6", "N5"]
    raw_view = msgpack.unpackb(dumps(state.view(1)))[2]  # seat 1 is to play
    assert raw_view["board"][0] == ["1-12", "1-03", "1-17", "1-27"]
    assert raw_view["legal"][0] == "take W U G"


def test_another_format_version_is_refused() -> None:
    data = msgpack.packb([FORMAT_VERSION + 1, "move", "pass"])
    with pytest.raises(CodecError, match="format version"):
        loads(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "no data"),
        (b"\xc1", "not valid msgpack"),
        (msgpack.packb([FORMAT_VERSION, "move", "take W W W"]), "is not a move"),
        (msgpack.packb([FORMAT_VERSION, "sandwich", {}]), "unknown tag"),
        (msgpack.packb([FORMAT_VERSION, "state", {"num_players": 2}]), "malformed data"),
        (msgpack.packb({"t": "move"}), "top level"),
        (msgpack.packb([FORMAT_VERSION, "move", "pass"]) + b"\x00", "trailing bytes"),
        (b"\x00" * (MAX_BYTES + 1), "more than"),
    ],
)
def test_bad_bytes_raise_codec_error(data: bytes, message: str) -> None:
    with pytest.raises(CodecError, match=message):
        loads(data)


def test_every_truncation_of_a_state_raises_codec_error() -> None:
    data = dumps(finished())
    for end in range(len(data)):
        with pytest.raises(CodecError):
            loads(data[:end])


def test_only_bytes_are_decoded() -> None:
    with pytest.raises(CodecError, match="expected bytes"):
        loads("pass")  # type: ignore[arg-type]


def test_what_cannot_be_encoded_raises_codec_error() -> None:
    with pytest.raises(CodecError):
        dumps({"t": "x", "f": object()})
    with pytest.raises(CodecError):
        dumps([1, 2])  # type: ignore[arg-type]
