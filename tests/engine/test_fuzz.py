"""Hypothesis fuzzing of the two parsers that read outside input: `parse_move` (text
from players) and `codec.loads` (bytes from the wire and from saved games).
Derandomized, so every run tries the same inputs."""

from __future__ import annotations

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared import GameState, InvalidMoveError, Move, new_game, parse_move
from shared.codec import FORMAT_VERSION, CodecError, dumps, loads
from shared.settings import GameSettings
from shared.wire import stored_fields

from .helpers import play

fuzz = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=400,
    suppress_health_check=[HealthCheck.too_slow],
)

# -- parse_move ---------------------------------------------------------------------

# Text near the notation: its words and letters, digits, dashes, odd spacing and case.
pieces = st.sampled_from(
    ["take", "reserve", "buy", "return", "pass", "deck", "TAKE", "Buy", "w", "U", "g", "R",
     "k", "*", "W", "x", "1", "2", "3", "4", "0", "07", "-", "1-07", "3-20", "2-31", " ", "  ",
     "\t", "\n", "\u00a0", "\u0661", "\u00b2", "ß"]
)  # fmt: skip
near_notation = st.lists(pieces, max_size=8).map("".join)
words = st.lists(pieces, max_size=6).map(" ".join)


def check_parse(text: str) -> None:
    try:
        move = parse_move(text)
    except InvalidMoveError:
        return
    assert isinstance(move, Move)
    assert parse_move(str(move)) == move
    assert str(parse_move(str(move))) == str(move)


@fuzz
@given(st.text())
def test_parse_move_any_text(text: str) -> None:
    check_parse(text)


@fuzz
@given(st.one_of(near_notation, words))
def test_parse_move_text_near_the_notation(text: str) -> None:
    check_parse(text)


# -- codec.loads ----------------------------------------------------------------------


def check_loads(data: bytes) -> None:
    try:
        loads(data)
    except CodecError:
        pass


def _samples() -> list[bytes]:
    state = play(
        new_game(GameSettings(3), seed=8),
        "reserve deck 1",
        "take W U G",
        "reserve deck 2",
        "take R R",
    )
    return [
        dumps(state),
        dumps(state.view(1)),
        dumps(state.view(None)),
        dumps(parse_move("take W U G")),
        dumps({"t": "table", "view": state.view(0), "seats": ({"name": "x"},)}),
    ]


SAMPLES = _samples()


@fuzz
@given(st.binary(max_size=2000))
def test_loads_any_bytes(data: bytes) -> None:
    check_loads(data)


@fuzz
@given(
    st.sampled_from(SAMPLES),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6),
)
def test_loads_mutated_encodings(data: bytes, changes: list[tuple[int, int]]) -> None:
    mutated = bytearray(data)
    for where, byte in changes:
        mutated[where % len(mutated)] = byte
    check_loads(bytes(mutated))


@fuzz
@given(st.sampled_from(SAMPLES), st.integers(0, 10**6), st.binary(max_size=20))
def test_loads_truncated_and_spliced_encodings(data: bytes, cut: int, extra: bytes) -> None:
    cut %= len(data)
    check_loads(data[:cut])
    check_loads(data[:cut] + extra + data[cut:])


msgpack_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats()
    | st.text(max_size=8) | st.binary(max_size=8)
    | st.sampled_from(["1-07", "N3", "take W U G", "action", "return", "W"]),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)  # fmt: skip
view_keys = ["players", "seed", "bank", "tokens", "board", "decks", "nobles", "current",
             "phase", "reserved", "last", "seat", "players_n", "legal", "outcome", "over",
             "turn"]  # fmt: skip
state_keys = [name for name, _ in stored_fields(GameState)]  # every field GameState declares
payload_keys = st.sampled_from(sorted({*view_keys, *state_keys}))


@fuzz
@given(
    st.sampled_from(["state", "view", "move", "outcome", "msg"]),
    st.dictionaries(payload_keys, msgpack_values, max_size=17) | msgpack_values,
)
def test_loads_well_formed_msgpack_of_the_wrong_shape(tag: str, payload: object) -> None:
    check_loads(msgpack.packb([FORMAT_VERSION, tag, payload]))


@fuzz
@given(st.sampled_from(SAMPLES), payload_keys, msgpack_values)
def test_loads_a_valid_encoding_with_one_field_replaced(
    data: bytes, key: str, value: object
) -> None:
    version, tag, payload = msgpack.unpackb(data)
    if isinstance(payload, dict):
        payload[key] = value
    check_loads(msgpack.packb([version, tag, payload]))
