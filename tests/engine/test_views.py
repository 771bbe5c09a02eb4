"""Per-player views (docs/design.md): what one seat may know, and nothing more."""

from __future__ import annotations

import pytest

from shared import CARDS, NOBLES, codec, new_game, protocol, replay
from shared.deal import turns
from shared.settings import GameSettings

from .helpers import play
from .test_golden import GAMES


def test_a_view_shows_the_table() -> None:
    state = play(new_game(GameSettings(3), seed=42), "take W U G", "reserve 1-17")  # seat 1 starts
    view = state.view(0)
    assert view.seat == 0 and view.num_players == 3
    assert view.bank == state.bank
    assert view.board == tuple(tuple(CARDS[i].id for i in row) for row in state.board)
    assert view.deck_sizes == (35, 26, 16)
    assert view.nobles == tuple(NOBLES[n].id for n in state.nobles)
    assert (view.current_player, view.starting_player) == (0, 1)
    assert (view.phase, view.turn, view.round) == ("action", 3, 1)
    assert not view.final_round and not view.is_over and view.outcome is None
    me = view.me
    assert me is not None and me.seat == 0 and me.token_count == 0
    two = view.players[2]
    assert two.tokens == (0, 0, 0, 0, 0, 1) and two.reserved[0].card == "1-17"
    assert two.last_turn is not None and str(two.last_turn.action) == "reserve 1-17"
    assert two.last_turn.took_gold
    assert view.players[1].tokens == (1, 1, 1, 0, 0, 0)
    assert view.players[1].cards_bought == 0 and view.players[1].prestige == 0


def test_only_the_deciding_seat_sees_legal_moves() -> None:
    state = new_game(GameSettings(3), seed=42)
    for seat in range(3):
        view = state.view(seat)
        expected = state.legal_moves() if seat == state.current_player else ()
        assert view.legal_moves == expected
        assert view.my_turn == (seat == state.current_player)
    spectator = state.view(None)
    assert spectator.seat is None and spectator.me is None and spectator.legal_moves == ()


def test_views_never_name_deck_cards_or_others_blind_reserves() -> None:
    state = play(new_game(GameSettings(2), seed=3), "reserve deck 1", "reserve deck 3")
    starter = state.current_player  # reserved from deck 1; the other seat from deck 3
    other = 1 - starter
    level1, level3 = state.reserved[starter][0][0], state.reserved[other][0][0]
    starter_view, other_view, spectator = state.view(starter), state.view(other), state.view(None)
    assert starter_view.players[starter].reserved[0].card == CARDS[level1].id
    assert starter_view.players[other].reserved[0].card is None
    assert starter_view.players[other].reserved[0].level == 3
    assert other_view.players[starter].reserved[0].card is None
    assert other_view.players[starter].reserved[0].level == 1
    assert other_view.players[other].reserved[0].card == CARDS[level3].id
    assert all(r.card is None and r.blind for p in spectator.players for r in p.reserved)
    text = repr(spectator) + repr(starter_view)
    assert CARDS[level3].id not in text
    assert not any(CARDS[i].id in text for deck in state.decks for i in deck)


def test_a_finished_game_shows_the_outcome_and_no_moves() -> None:
    game = GAMES[1]
    state = replay(GameSettings(game["players"]), game["seed"], game["moves"])
    for seat in (0, 1, None):
        view = state.view(seat)
        assert view.is_over and view.outcome == state.outcome() and view.legal_moves == ()


@pytest.mark.parametrize("seat", [-1, 2, 4])
def test_no_view_for_a_seat_that_is_not_there(seat: int) -> None:
    with pytest.raises(ValueError, match="no seat"):
        new_game(GameSettings(2), seed=1).view(seat)


def _update(n: int, seed: int, moves: list[str], log: object) -> bytes:
    """A table update's bytes with `log` as its log, as any host could send them."""
    seats = tuple(protocol.SeatSummary(f"p{i}") for i in range(n))
    update = protocol.TableUpdate("t1", seats, 0, replay(GameSettings(n), seed, moves).view(0))
    return codec.dumps({**codec.loads(protocol.encode(update)), "log": log})


@pytest.mark.parametrize("game", GAMES[:6], ids=[g["name"] for g in GAMES[:6]])
def test_the_turn_log_round_trips_and_names_no_hidden_card(game: dict[str, object]) -> None:
    """A table update's log carries each turn as everyone saw it, in the one encoding of
    a turn (`codec.turn_payload`): a blind reserve (R9) names its deck, never its card."""
    moves = list(game["moves"])  # type: ignore[call-overload]
    n, seed = int(game["players"]), int(game["seed"])  # type: ignore[call-overload]
    played = turns(GameSettings(n), seed, moves)
    log = tuple(protocol.LoggedTurn(seat, turn) for seat, turn in played)
    view = replay(GameSettings(n), seed, moves).view(0)
    seats = tuple(protocol.SeatSummary(f"p{i}") for i in range(n))
    data = protocol.encode(protocol.TableUpdate("t1", seats, 0, view, log))
    received = protocol.decode_host(data)
    assert isinstance(received, protocol.TableUpdate) and received.log == log
    state = replay(GameSettings(n), seed, moves)
    assert len(played) == state.turn - (0 if state.is_over else 1)
    hidden = {CARDS[i].id for r in state.reserved for i, blind in r if blind}
    sent_log = codec.loads(data)["log"]
    assert not any(card in repr(sent_log) for card in hidden)


@pytest.mark.parametrize(
    "entry",
    [
        (0, ("return W", None, None, False)),  # a return is never a turn's action (R13)
        (0, ("take W U G", "take R", None, False)),  # what was given back is a return
        (0, ("take W U G", None, "N99", False)),  # no such noble
        (5, ("take W U G", None, None, False)),  # no such seat
        (0, (7, None, None, False)),  # not notation
        (0, ("take W U G", None, None)),  # a turn has four parts
        ("zero",),
    ],
)
def test_a_bad_turn_log_is_refused(entry: tuple[object, ...]) -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_host(_update(2, 1, ["take W U G"], (entry,)))
