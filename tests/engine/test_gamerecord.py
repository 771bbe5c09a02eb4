"""Game records (docs/records.md): written and parsed back exactly, replayed to the same
final state with no server, for a thousand random and bot games; malformed records give a
clear error with the line."""

from __future__ import annotations

import random

import pytest

from shared.bots import choose_move
from shared.deal import new_game, replay
from shared.gamerecord import (
    Record,
    RecordError,
    parse_record,
    record_of,
    replay_record,
    write_record,
)
from shared.settings import GameSettings
from shared.state import GameState


def random_game(players: int, seed: int) -> tuple[GameState, list[str]]:
    rng = random.Random(seed)
    state, moves = new_game(GameSettings(players), seed), []
    while not state.is_over and len(moves) < 400:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    return state, moves


def bot_game(players: int, seed: int, level: str) -> tuple[GameState, list[str]]:
    state, moves = new_game(GameSettings(players), seed), []
    while not state.is_over:
        move = choose_move(state.view(state.current_player), level, seed + len(moves))
        moves.append(str(move))
        state = state.apply(move)
    return state, moves


def check_round_trip(state: GameState, moves: list[str], **tags: str) -> Record:
    record = record_of(state.num_players, state.seed, moves, **tags)
    text = write_record(record)
    back = parse_record(text)
    assert back == record
    assert write_record(back) == text
    assert replay_record(back) == state
    assert all(len(line) <= 79 or line.startswith("[") for line in text.splitlines())
    return back


def test_a_thousand_random_games_round_trip_and_replay() -> None:
    for seed in range(1000):
        state, moves = random_game(2 + seed % 3, seed)
        check_round_trip(state, moves, Game=f"g{seed}")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bot_games_round_trip_and_replay(level: str) -> None:
    for seed in range(30):
        state, moves = bot_game(2 + seed % 3, seed, level)
        assert state.is_over
        back = check_round_trip(state, moves, Seat1="ann", Event="Bots")
        outcome = state.outcome()
        assert outcome is not None
        assert back.tags["Result"] == " ".join(map(str, outcome.ranks))
        assert back.tags["Scores"] == " ".join(map(str, outcome.scores))


def test_the_text_reads_like_a_game_record() -> None:
    state, moves = random_game(2, 7)
    record = record_of(
        2, 7, moves[:12], Event="Club night", Site="play.example.org", Seat1='ann "the bold"'
    )
    text = write_record(Record(record.tags, record.moves, {2: ("a bold take",)}))
    assert text.startswith('[Event "Club night"]\n[Site "play.example.org"]\n')
    assert '[Seat1 "ann \\"the bold\\""]' in text
    assert '[Result "*"]' in text and text.endswith("\n*\n")  # not over yet
    assert "1. " + moves[0] in text and "{a bold take}" in text
    back = parse_record(text)
    assert back.tags["Seat1"] == 'ann "the bold"' and back.comments == {2: ("a bold take",)}


def test_a_turn_over_ten_tokens_keeps_its_return_in_the_turn() -> None:
    """R13: the return is part of the turn of the take before it."""
    for seed in range(200):
        state, moves = random_game(2, seed)
        if any(m.startswith("return ") for m in moves):
            break
    text = write_record(record_of(2, state.seed, moves))
    i = next(i for i, m in enumerate(moves) if m.startswith("return "))
    turn = sum(1 for m in moves[:i] if not m.startswith("return "))
    assert f"{turn}. {moves[i - 1]} {moves[i]}" in " ".join(text.split())
    assert parse_record(text).moves == tuple(moves)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[Seed "1"]\n[CardSet "1"]\n\n1. pass\n', "the tag Players is missing"),
        ('[Players "5"]\n[Seed "1"]\n[CardSet "1"]\n', "Players should be 2, 3 or 4"),
        ('[Players "2"]\n[Seed "x"]\n[CardSet "1"]\n', "Seed should be a whole number"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "9"]\n', "card set '9'"),
        ('[Players "2"]\n[Seed "1"]\n[Seed "2"]\n', "line 3: the tag Seed comes twice"),
        ('[Players "2"]\n[Seed 1]\n', "line 2: not a tag pair"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. take W W W\n', "line 5, turn 1"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. take W U G 3. pass\n', "line 5: turn 2"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. take W U G take R K W\n', "one action"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. return W\n', "a return ends"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n{early} 1. pass\n', "a comment before"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. pass\n*\n2. pass\n', "line 5, turn 1"),
        ('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. 2. pass\n', "turn 1 has no move"),
    ],
)
def test_a_malformed_record_says_what_is_wrong_and_where(text: str, words: str) -> None:
    with pytest.raises(RecordError) as raised:
        parse_record(text)
    assert words in str(raised.value)


def test_a_record_that_breaks_a_rule_names_the_turn() -> None:
    state, moves = random_game(2, 3)
    record = record_of(2, 3, moves[:6])
    text = write_record(Record(record.tags, (*record.moves, "pass")))  # R12: not now
    with pytest.raises(RecordError, match=r"turn 7 \(move 7\).*\(R12\)"):
        replay_record(parse_record(text))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_record_that_breaks_a_rule_names_the_seat_as_the_record_numbers_it(
    players: int,
) -> None:
    """Seats count from 1 in the error, as the record's Seat1, Seat2... tags do (issue 32)."""
    _, moves = random_game(players, 5)
    for played in range(1, 9):
        mover = replay(GameSettings(players), 5, moves[:played]).current_player
        record = record_of(players, 5, moves[:played])
        text = write_record(Record(record.tags, (*record.moves, "pass")))  # R12: not now
        with pytest.raises(RecordError) as raised:
            replay_record(parse_record(text))
        assert str(raised.value).endswith(f", seat {mover + 1})")
