"""The client–host protocol (`shared.protocol`): every message round-trips through its
bytes, and anything else decodes to a clear `CodecError`, never another exception
(fuzzed with Hypothesis, derandomized)."""

from __future__ import annotations

import random
import re

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import protocol
from shared.clock import ClockView, parse_time_control
from shared.codec import FORMAT_VERSION, CodecError, dumps, loads
from shared.deal import new_game, turns
from shared.moves import Buy, parse_move
from shared.protocol import (
    Absent,
    Advice,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Bye,
    ChatLine,
    ChatLines,
    Create,
    GameLine,
    GameRecordText,
    Hint,
    Invite,
    Join,
    Leaderboard,
    Leave,
    LobbyList,
    LoggedTurn,
    NextGame,
    Notice,
    PlayerProfile,
    PlayMove,
    Quick,
    Ranked,
    RatingChange,
    Rematch,
    RematchOffer,
    Say,
    SeatSummary,
    Start,
    TableStatus,
    TableSummary,
    TableUpdate,
    Undo,
    Vote,
    Watch,
    Welcome,
    decode_client,
    decode_host,
    encode,
)
from shared.settings import GameSettings
from shared.state import GameState

from .helpers import play
from .test_fuzz import fuzz, msgpack_values

MOVES = ["take W U G", "reserve deck 1", "take R R", "reserve deck 2"]
STATE = play(new_game(GameSettings(3), seed=8), *MOVES)
SEATS = (SeatSummary("ann"), SeatSummary(None, bot="hard"), SeatSummary("bob", connected=False))
LOG = tuple(LoggedTurn(seat, turn) for seat, turn in turns(GameSettings(3), 8, MOVES))


def finished_game(players: int, seed: int) -> GameState:
    """A seeded game played to its end, buying whenever it can."""
    rng, state = random.Random(seed), new_game(GameSettings(players), seed)
    while not state.is_over:
        legal = state.legal_moves()
        buys = [m for m in legal if isinstance(m, Buy)]
        state = state.apply(rng.choice(buys or legal))
    return state


OVER = finished_game(3, 8)

HOST_MESSAGES = [
    Welcome("ann"),
    Welcome("guest-bo", guest=True, protocol=7),
    LobbyList(),
    LobbyList(
        (
            TableSummary("t1", "ann", TableStatus.WAITING, (SeatSummary("ann"), SeatSummary())),
            TableSummary("t2", "bob", TableStatus.PLAYING, SEATS, turn=12),
        ),
        ("ann", "bob"),
        ("t1",),
    ),
    TableUpdate("t2", SEATS, 1, STATE.view(1)),
    TableUpdate("t2", SEATS, None, STATE.view(None), LOG),
    TableUpdate("t2", SEATS, 0, OVER.view(0), seed=OVER.seed),
    Advice(parse_move("take W U G"), "the gems go toward 1-07"),
    Notice("`take R R`: only 3 red left; taking two needs 4 (R8)"),
    Notice("the game at table t2 was abandoned", "info"),
    Bye("the server is shutting down"),
    TableUpdate(
        "t2", SEATS, 0, OVER.view(0), ratings=(RatingChange(1512, 14), None, RatingChange(990, -3))
    ),
    Leaderboard(()),
    Leaderboard(
        (Ranked(1, "ann", 1512, 4, 3, 1.8e9), Ranked(2, "bot:hard", 1400, 9, 2, 1.7e9)),
        20,
        Ranked(57, "bob", 900, 1, 0, 1.6e9),
    ),
    PlayerProfile("guest-bo", None),
    PlayerProfile(
        "ann",
        Ranked(1, "ann", 1512, 4, 3, 1.8e9),
        (1000, 1020, 1512),
        ((2, 3, 2), (4, 1, 1)),
        (
            GameLine("t7", 2, "finished", 1.8e9, 0, ("ann", "hard bot"), (15, 9), (1, 2), True),
            GameLine("t6", 3, "abandoned", 1.7e9, 2, ("bob", "cy", "ann"), (), (), False),
        ),
    ),
    GameRecordText("t7", '[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. take W U G\n*\n'),
]
CLIENT_MESSAGES = [
    Create(2, (None, None)),
    Create(4, (None, "easy", None, "hard"), seed=(1 << 63) - 1),
    Quick(),
    Quick(3, "hard", seed=0),
    Join("t1"),
    Watch("t2"),
    Leave(),
    Leave("t3"),  # decline the invitation to t3 (protocol 3: an old host reads Leave())
    Start(),
    PlayMove(parse_move("buy 1-07")),
    Undo(),
    Hint(),
    Create(3, (None, "easy", None), rated=True),
    Quick(2, "hard", rated=True),
    AskLeaderboard(),
    AskLeaderboard(40),
    AskProfile("bot:hard"),
    AskRecord("t7"),
]

# Clocks, chat, votes and rematches (issue 12; their own checks: test_protocol_social.py).
FIVE = parse_time_control("5+10")
CLOCK = ClockView(FIVE, (12.5, None, 300.0), 0)
OFFER = RematchOffer("t9", (SeatSummary("bob", invited=True), SeatSummary(None, "hard"),
                             SeatSummary("ann")))  # fmt: skip
STOOD = (SeatSummary("ann", standin="medium", timeouts=3), *SEATS[1:])
HOST_MESSAGES += [
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
CLIENT_MESSAGES += [
    Create(3, (None, None, "easy"), clock=parse_time_control("3d"), patience=30),
    Quick(2, "easy", clock=FIVE),
    Say("good game"),
    Vote(2),
    Rematch(),
    NextGame(),
    Invite("bob"),
    Invite("cy", 2),
    Create(3, (None, None, "easy"), invite=(None, "bob", None)),
]
HOST_MESSAGES += [  # invitations (docs/protocol.md, "Invitations")
    LobbyList((TableSummary("t3", "ann", TableStatus.WAITING, OFFER.seats, rematch=True),)),
]


@pytest.mark.parametrize("msg", HOST_MESSAGES, ids=lambda m: type(m).__name__)
def test_host_messages_round_trip(msg: protocol.HostMessage) -> None:
    assert decode_host(encode(msg)) == msg


@pytest.mark.parametrize("msg", CLIENT_MESSAGES, ids=lambda m: type(m).__name__)
def test_client_messages_round_trip(msg: protocol.ClientMessage) -> None:
    assert decode_client(encode(msg)) == msg


def test_each_side_refuses_the_others_messages() -> None:
    for msg in CLIENT_MESSAGES:
        with pytest.raises(protocol.ProtocolError, match="not a message a host sends"):
            decode_host(encode(msg))
    for hmsg in HOST_MESSAGES:
        with pytest.raises(protocol.ProtocolError, match="not a message a client sends"):
            decode_client(encode(hmsg))


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"t": "create", "seats": 5}, "seats should be a whole number from 2 to 4"),
        ({"t": "create", "seats": 2, "bots": ("easy", None)}, "seat 1 is yours"),
        ({"t": "create", "seats": 3, "bots": (None, None)}, "each of the 3 seats"),
        ({"t": "create", "seats": 2, "bots": (None, "genius")}, "bot level"),
        ({"t": "quick", "players": 2, "seed": 1 << 63}, "seed should be"),
        ({"t": "quick", "level": True}, "level should be a bot level"),
        ({"t": "join", "table": ""}, "table should be text"),
        ({"t": "join"}, "needs table"),
        ({"t": "move", "move": "take W W W"}, "`take W W W` is not a move"),
        ({"t": "move", "move": ("take",)}, "notation text"),
        ({"t": "ask-profile"}, "needs player"),
        ({"t": "ask-leaderboard", "offset": -1}, "offset should be"),
        ({"t": "ask-record", "game": "x" * 500}, "game should be"),
        ({"t": 3}, "3 is not a message"),
        ({"move": "pass"}, "None is not a message"),
        ({"t": "create", "seats": 2, "clock": "5 minutes"}, "clock should be a time control"),
        ({"t": "create", "seats": 2, "clock": "99d"}, "clock should be a time control"),
        ({"t": "create", "seats": 2, "patience": 0}, "patience should be"),
        ({"t": "quick", "clock": 5}, "clock should be a time control"),
        ({"t": "say", "text": ""}, "text should be text"),
        ({"t": "say", "text": "x" * 1001}, "text should be text"),
        ({"t": "vote", "seat": 4}, "seat should be"),
        ({"t": "vote"}, "needs seat"),
        ({"t": "invite", "name": "bob", "seat": 4}, "seat should be"),
        ({"t": "invite"}, "needs name"),
        ({"t": "create", "seats": 2, "invite": ("ann", None)}, "seat 1 (yours) left out"),
        (
            {"t": "create", "seats": 2, "bots": (None, "easy"), "invite": (None, "bob")},
            "without a bot",
        ),
        ({"t": "create", "seats": 3, "invite": (None, "bob")}, "each of the 3 seats"),
        ({"t": "create", "seats": 2, "invite": (None, 7)}, "should be a name"),
    ],
)
def test_a_malformed_client_message_says_what_is_wrong(
    fields: dict[str, object], words: str
) -> None:
    with pytest.raises(protocol.ProtocolError) as raised:
        decode_client(dumps(fields))
    assert words in str(raised.value)


def test_a_table_update_must_agree_with_its_view() -> None:
    good = loads(encode(HOST_MESSAGES[4]))
    for key, value in [("seat", 0), ("seats", good["seats"][:2]), ("log", ((3, ("pass",)),))]:
        with pytest.raises(protocol.ProtocolError):
            decode_host(dumps({**good, key: value}))


def test_ratings_come_one_or_none_per_seat() -> None:
    over = loads(encode(TableUpdate("t2", SEATS, 0, OVER.view(0))))
    for ratings, words in [
        (((1500, 3),), "one change or none for each of the 3 seats"),
        (((1500, "3"), None, None), "should be [rating, change]"),
        ((("x",), None, None), "should be [rating, change]"),
    ]:
        with pytest.raises(protocol.ProtocolError, match=re.escape(words)):
            decode_host(dumps({**over, "ratings": ratings}))


def test_a_seed_travels_only_once_the_game_is_over() -> None:
    """The seed deals the decks: a table update of a game in progress never carries it,
    and a client refuses one that does."""
    playing = loads(encode(TableUpdate("t2", SEATS, 1, STATE.view(1))))
    assert "seed" not in playing
    with pytest.raises(protocol.ProtocolError, match="seed should be absent until the game"):
        decode_host(dumps({**playing, "seed": 8}))
    over = decode_host(encode(TableUpdate("t2", SEATS, 0, OVER.view(0), seed=OVER.seed)))
    assert isinstance(over, TableUpdate) and over.seed == OVER.seed == 8


def test_advice_carries_a_move_and_a_reason() -> None:
    with pytest.raises(protocol.ProtocolError, match="is not a move"):
        decode_host(dumps({"t": "advice", "move": "take W W W", "reason": "why"}))
    with pytest.raises(protocol.ProtocolError, match="reason should be text"):
        decode_host(dumps({"t": "advice", "move": "pass", "reason": ""}))


def test_a_host_of_an_older_protocol_is_told_apart() -> None:
    old = decode_host(dumps({"t": "welcome", "name": "ann", "guest": False}))  # version 1
    assert old == Welcome("ann", False, 1) and old.protocol != protocol.PROTOCOL_VERSION


def check(decode: object, data: bytes) -> None:
    try:
        decode(data)  # type: ignore[operator]
    except CodecError:
        pass


ENCODED = [(decode_host, encode(m)) for m in HOST_MESSAGES]
ENCODED += [(decode_client, encode(m)) for m in CLIENT_MESSAGES]
TAGS = sorted({m.TAG for m in HOST_MESSAGES} | {m.TAG for m in CLIENT_MESSAGES})
FIELDS = st.sampled_from(
    ["t", "name", "guest", "protocol", "tables", "online", "mine", "table", "seats", "seat",
     "view", "log", "text", "level", "bots", "seed", "players", "move", "id", "status",
     "reason", "clock", "absent", "rematch", "to_move", "where", "lines", "whole", "patience",
     "standin", "timeouts", "invited", "control", "left", "running", "votes"]
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
