"""A game's settings (shared/settings.py): one value the deal, the state, its views, the
codec and the protocol carry (R15's target); data from before it reads as the rules' game."""

from __future__ import annotations

import msgpack
import pytest

from shared import GameSettings, new_game, protocol, replay
from shared.cards import CARD_SET
from shared.codec import dumps, loads
from shared.deal import turns
from shared.protocol import (
    Create,
    Quick,
    SeatSummary,
    TableStatus,
    TableSummary,
    decode_client,
    decode_host,
    encode,
)
from shared.settings import TARGETS, target_text

from .helpers import play

LONG = GameSettings(2, target=21)


def test_r2_r15_the_settings_default_to_the_rules_game() -> None:
    settings = GameSettings(3)
    assert (settings.players, settings.target, settings.card_set) == (3, 15, CARD_SET)
    assert settings.standard and not LONG.standard
    assert TARGETS == (15, 21)
    assert (target_text(15), target_text(21)) == ("", "to 21")


@pytest.mark.parametrize(
    ("players", "target", "card_set", "words"),
    [
        (1, 15, CARD_SET, "2 to 4 players"),
        (5, 15, CARD_SET, "2 to 4 players"),
        (True, 15, CARD_SET, "2 to 4 players"),
        (2, 0, CARD_SET, "1 to 99 prestige"),
        (2, 100, CARD_SET, "1 to 99 prestige"),
        (2, 21.0, CARD_SET, "1 to 99 prestige"),
        (2, 15, "2", "no card set"),
    ],
)
def test_settings_refuse_what_no_game_is_played_with(
    players: int, target: int, card_set: str, words: str
) -> None:
    with pytest.raises(ValueError, match=words):
        GameSettings(players, target, card_set)


def test_r15_the_deal_is_the_same_whatever_the_target() -> None:
    for seed in range(5):
        long, short = new_game(LONG, seed), new_game(GameSettings(2), seed)
        assert (long.board, long.decks, long.nobles) == (short.board, short.decks, short.nobles)
        assert long.starting_player == short.starting_player and long.target == 21
    with pytest.raises(TypeError, match="GameSettings"):
        new_game("2", 1)  # type: ignore[arg-type]


def test_replay_and_turns_play_a_game_of_its_settings() -> None:
    moves = ["take W U G", "take R K W", "reserve deck 1"]
    state = replay(LONG, 4, moves)
    assert state.target == 21 and state.settings == LONG
    assert turns(LONG, 4, moves) == turns(GameSettings(2), 4, moves)


def test_r15_a_state_and_its_views_carry_the_target_through_the_codec() -> None:
    state = play(new_game(LONG, 7), "take W U G", "reserve deck 2")
    again = loads(dumps(state))
    assert again == state and again.target == 21
    assert again != play(new_game(GameSettings(2), 7), "take W U G", "reserve deck 2")
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view.target == 21 and loads(dumps(view)) == view


def test_a_state_stored_before_targets_reads_as_a_game_to_15() -> None:
    state = play(new_game(GameSettings(3), 2), "take W U G")
    version, tag, payload = msgpack.unpackb(dumps(state))
    assert payload.pop("target") == 15
    old = msgpack.packb([version, tag, payload], use_bin_type=True)
    assert loads(old) == state


def test_a_view_of_the_rules_game_leaves_the_target_off_the_wire() -> None:
    view = new_game(GameSettings(2), 3).view(0)
    _, _, payload = msgpack.unpackb(dumps(view))
    assert "target" not in payload and loads(dumps(view)).target == 15
    _, _, payload = msgpack.unpackb(dumps(new_game(LONG, 3).view(0)))
    assert payload["target"] == 21


def test_the_protocol_carries_a_tables_target() -> None:
    seats = (SeatSummary("ann"), SeatSummary(None, bot="easy"))
    table = TableSummary("t1", "ann", TableStatus.WAITING, seats, target=21)
    lobby = protocol.LobbyList((table,), ("ann",))
    assert decode_host(encode(lobby)) == lobby
    for msg in (Create(2, (None, "easy"), target=21), Quick(3, "hard", target=21), Quick()):
        assert decode_client(encode(msg)) == msg
    assert "target" not in loads(encode(Quick()))  # the default costs nothing on the wire


@pytest.mark.parametrize(
    "fields",
    [
        {"t": "create", "seats": 2, "target": 20},
        {"t": "quick", "target": 99},
        {"t": "quick", "target": "21"},
    ],
)
def test_a_table_is_created_only_with_a_target_offered(fields: dict[str, object]) -> None:
    with pytest.raises(protocol.ProtocolError, match="target should be"):
        decode_client(dumps(fields))
