"""The replay viewer: a record played out turn by turn (client/replay.py), its screen
through Pilot (← → Home End, the move list, every card shown once the game is over),
and `splendor replay FILE` with no host."""

from __future__ import annotations

import random

import pytest
from clientkit import screen_text

from client.replay import Replay
from client.screens.replay import ReplayApp, ReplayScreen, record_bytes
from server.commands.play import main
from shared.bots import choose_move
from shared.deal import new_game, turns
from shared.gamerecord import (
    LIMITS,
    Record,
    parse_record,
    record_of,
    replay_record,
    write_record,
)
from shared.moves import ReserveDeck, parse_move
from shared.protocol import LoggedTurn
from shared.settings import GameSettings


def random_game(players: int, seed: int, limit: int = 400) -> list[str]:
    rng, state, moves = random.Random(seed), new_game(GameSettings(players), seed), []
    while not state.is_over and len(moves) < limit:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    return moves


def bot_game(players: int, seed: int) -> list[str]:
    state, moves = new_game(GameSettings(players), seed), []
    while not state.is_over:
        move = choose_move(state.view(state.current_player), "easy", seed + len(moves))
        moves.append(str(move))
        state = state.apply(move)
    return moves


def blind_game() -> tuple[int, list[str]]:
    """A seed and moves of a finished 2-player game where seat 1 reserved blind (R9)."""
    for seed in range(200):
        moves, state = random_game(2, seed), new_game(GameSettings(2), seed)
        for text in moves:
            move = parse_move(text)
            if isinstance(move, ReserveDeck) and state.current_player == 1:
                return seed, moves
            state = state.apply(move)
    raise AssertionError("no game with a blind reserve by seat 1")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_replay_has_the_table_after_every_turn(players: int) -> None:
    for seed in range(10):
        moves = random_game(players, seed) if seed % 2 else bot_game(players, seed)
        record = parse_record(write_record(record_of(players, seed, moves)))
        replay = Replay.of(record)
        played = turns(GameSettings(players), seed, moves)
        assert replay.log == tuple(LoggedTurn(s, t) for s, t in played)
        assert len(replay.positions) == replay.turns + 1
        assert replay.positions[0] == new_game(GameSettings(players), seed)
        assert replay.positions[-1] == replay_record(record)
        assert [replay.view(k).turn for k in (0, replay.turns)] == [1, replay.positions[-1].turn]


def test_once_the_game_is_over_every_reserve_is_named_and_before_it_is_not() -> None:
    seed, moves = blind_game()
    over = Replay.of(record_of(2, seed, moves))
    assert over.over
    for k in range(over.turns + 1):  # R9 hides blind reserves only while the game is played
        for p in over.view(k).players:
            assert all(r.card is not None for r in p.reserved)
    cut = next(i for i, m in enumerate(moves) if m.startswith("reserve deck")) + 1
    unfinished = Replay.of(record_of(2, seed, moves[:cut]))
    assert not unfinished.over
    hidden = [r for p in unfinished.view(unfinished.turns).players for r in p.reserved]
    assert any(r.card is None and r.blind for r in hidden)  # a spectator's view


def test_comments_stay_with_their_turn_and_seats_read_from_the_tags() -> None:
    moves = random_game(2, 3, limit=12)
    record = record_of(2, 3, moves, Seat1="ann", Seat2="hard bot")
    record = Record(record.tags, record.moves, {0: ("an opening",), 5: ("hm",)})
    replay = Replay.of(parse_record(write_record(record)))
    assert replay.notes[0] == "an opening" and replay.notes[5] == "hm"
    assert [s.name for s in replay.seats] == ["ann", "Hard bot 2"]
    assert replay.seats[1].bot == "hard"


async def test_the_viewer_goes_turn_by_turn_and_shows_every_card_at_the_end() -> None:
    seed, moves = blind_game()
    replay = Replay.of(record_of(2, seed, moves, Game="g9", Seat1="ann", Seat2="bob"))
    app = ReplayApp(replay)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        total = replay.turns
        assert f"After turn {total} of {total}:" in screen_text(app)
        assert "(replay of game g9)" in screen_text(app) and "Game over" in screen_text(app)
        await pilot.press("home")
        assert screen.at == 0 and f"The deal (0 of {total} turns)" in screen_text(app)
        await pilot.press("right", "right", "left")
        assert screen.at == 1 and f"After turn 1 of {total}: " in screen_text(app)
        await pilot.press("down", "down")  # along the move list: the table follows
        assert screen.at == 3
        await pilot.press("pagedown")
        assert screen.at > 3
        await pilot.press("end")
        assert screen.at == total
        final = replay.view(total)
        blind = [r.card for p in final.players for r in p.reserved if r.blind]
        assert blind and all(card in screen_text(app) for card in blind)  # no "L2?" hides one
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code in (0, None)


def test_splendor_replay_refuses_what_is_not_a_record(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. take W W W\n')
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.txt: line 5, turn 1:" in err
    assert main(["replay", str(tmp_path / "none.txt")]) == 2
    assert "No such file" in capsys.readouterr().err
    illegal = tmp_path / "illegal.txt"
    illegal.write_text('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. buy 3-01\n')
    assert main(["replay", str(illegal)]) == 2
    assert "turn 1 (move 1)" in capsys.readouterr().err


def test_splendor_replay_reads_no_further_than_a_record_may_be(tmp_path, capsys) -> None:
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as f:  # sparse: a gigabyte on no disk
        f.write(b'[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n')
        f.truncate(1 << 30)
    assert len(record_bytes(huge)) == LIMITS.size + 1  # not a byte more is read
    assert main(["replay", str(huge)]) == 2
    err = capsys.readouterr().err
    assert f"huge.txt: the record is over {LIMITS.size:,} bytes" in err and err.count("\n") == 1
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b'[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n[Seat1 "Jos\xe9"]\n')
    assert main(["replay", str(latin)]) == 2
    assert "latin.txt: line 4: byte 0xe9 (column 12) is not UTF-8 text" in capsys.readouterr().err
