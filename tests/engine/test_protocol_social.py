"""The protocol's clocks, chat, votes and rematches (issue 12): every message round-trips,
what a client sends is checked field by field, a host's chat line must be clean, and
fuzzed bytes give a `CodecError` or a message, never another exception."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import protocol
from shared.clock import ClockView, parse_time_control
from shared.codec import FORMAT_VERSION, dumps
from shared.protocol import (
    Absent,
    ChatLine,
    ChatLines,
    Create,
    LobbyList,
    NextGame,
    Quick,
    Rematch,
    RematchOffer,
    Say,
    SeatSummary,
    TableStatus,
    TableSummary,
    TableUpdate,
    Vote,
    decode_client,
    decode_host,
    encode,
)

from .test_fuzz import fuzz, msgpack_values
from .test_protocol import OVER, SEATS, STATE, check

FIVE = parse_time_control("5+10")
CLOCK = ClockView(FIVE, (12.5, None, 300.0), 0)
OFFER = RematchOffer("t9", (SeatSummary("bob", invited=True), SeatSummary(None, "hard"),
                             SeatSummary("ann")))  # fmt: skip
STOOD = (SeatSummary("ann", standin="medium", timeouts=3), *SEATS[1:])

HOST_MESSAGES = [
    LobbyList(
        (TableSummary("t1", "ann", TableStatus.PLAYING, SEATS, 3, clock=FIVE),),
        ("ann",),
        ("t1",),
        ("t1",),
    ),
    TableUpdate("t2", SEATS, 1, STATE.view(1), clock=CLOCK),
    TableUpdate("t2", STOOD, 1, STATE.view(1), absent=(Absent(2, 700.5, 600.0, ("ann",)),)),
    TableUpdate("t2", SEATS, 0, OVER.view(0), seed=OVER.seed, rematch=OFFER),
    ChatLines("", (ChatLine(1, "ann", "hello"), ChatLine(2, "guest-bo", "hi ♛", 7, True))),
    ChatLines("t2", (), whole=True),
]
CLIENT_MESSAGES = [
    Create(3, (None, None, "easy"), clock=parse_time_control("3d"), patience=30),
    Quick(2, "easy", clock=FIVE),
    Say("good game"),
    Vote(2),
    Rematch(),
    NextGame(),
]


@pytest.mark.parametrize("msg", HOST_MESSAGES, ids=lambda m: type(m).__name__)
def test_host_messages_round_trip(msg: protocol.HostMessage) -> None:
    assert decode_host(encode(msg)) == msg


@pytest.mark.parametrize("msg", CLIENT_MESSAGES, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip(msg: protocol.ClientMessage) -> None:
    assert decode_client(encode(msg)) == msg


def test_what_clocks_and_company_do_not_use_costs_no_bytes() -> None:
    plain = TableSummary("t1", "ann", TableStatus.WAITING, (SeatSummary("ann"), SeatSummary()))
    assert b"clock" not in encode(LobbyList((plain,))) and b"standin" not in encode(
        LobbyList((plain,))
    )
    assert b"absent" not in encode(TableUpdate("t2", SEATS, 1, STATE.view(1)))


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"t": "create", "seats": 2, "clock": "5 minutes"}, "clock should be a time control"),
        ({"t": "create", "seats": 2, "clock": "99d"}, "clock should be a time control"),
        ({"t": "create", "seats": 2, "patience": 0}, "patience should be"),
        ({"t": "quick", "clock": 5}, "clock should be a time control"),
        ({"t": "say", "text": ""}, "text should be text"),
        ({"t": "say", "text": "x" * 1001}, "text should be text"),
        ({"t": "vote", "seat": 4}, "seat should be"),
        ({"t": "vote"}, "needs seat"),
    ],
)
def test_a_malformed_client_message_says_what_is_wrong(
    fields: dict[str, object], words: str
) -> None:
    with pytest.raises(protocol.ProtocolError) as raised:
        decode_client(dumps(fields))
    assert words in str(raised.value)


@pytest.mark.parametrize(
    "text", ["\x1b[31mred", "a\x07", "\u202eevil", "two\nlines", " padded", "zero\u200bwidth"]
)
def test_a_host_chat_line_that_is_not_clean_is_refused(text: str) -> None:
    line = {"id": 1, "name": "ann", "text": text}
    with pytest.raises(protocol.ProtocolError, match="plain text"):
        decode_host(dumps({"t": "chat", "where": "", "lines": (line,)}))


def test_a_clock_view_must_fit_the_table() -> None:
    bad = encode(TableUpdate("t2", SEATS, 1, STATE.view(1), clock=CLOCK))
    version, tag, payload = msgpack.unpackb(bad)
    payload["clock"]["left"] = [1.0, 2.0]
    with pytest.raises(protocol.ProtocolError, match="3 seats' time"):
        decode_host(msgpack.packb([version, tag, payload]))
    payload["clock"] = {"control": "none", "left": [1.0, 2.0, 3.0]}
    with pytest.raises(protocol.ProtocolError, match="a time control with a clock"):
        decode_host(msgpack.packb([version, tag, payload]))


ENCODED = [(decode_host, encode(m)) for m in HOST_MESSAGES]
ENCODED += [(decode_client, encode(m)) for m in CLIENT_MESSAGES]
TAGS = sorted({m.TAG for m in HOST_MESSAGES} | {m.TAG for m in CLIENT_MESSAGES})
FIELDS = st.sampled_from(
    ["t", "clock", "absent", "rematch", "to_move", "where", "lines", "whole", "text", "seat",
     "patience", "standin", "timeouts", "invited", "control", "left", "running", "votes"]
)  # fmt: skip


@fuzz
@given(
    st.sampled_from(ENCODED),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=6),
)
def test_mutated_messages_give_a_codec_error_or_a_message(
    sample: tuple[object, bytes], changes: list[tuple[int, int]]
) -> None:
    decode, data = sample
    mutated = bytearray(data)
    for where, byte in changes:
        mutated[where % len(mutated)] = byte
    check(decode, bytes(mutated))


@fuzz
@given(st.sampled_from(ENCODED), FIELDS, msgpack_values)
def test_a_message_with_one_field_replaced(
    sample: tuple[object, bytes], key: str, value: object
) -> None:
    decode, data = sample
    version, tag, payload = msgpack.unpackb(data)
    payload[key] = value
    check(decode, msgpack.packb([version, tag, payload]))


@fuzz
@given(st.sampled_from(TAGS), st.dictionaries(FIELDS, msgpack_values, max_size=8))
def test_well_formed_maps_of_any_tag(tag: str, fields: dict[str, object]) -> None:
    data = msgpack.packb([FORMAT_VERSION, "msg", {**fields, "t": tag}])
    check(decode_host, data)
    check(decode_client, data)
