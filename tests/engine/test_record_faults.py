"""Game records (docs/records.md) against what went wrong before: a gold `*` wrapped onto
a line of its own, comments cut or lost, seeds that crashed the reader, a Result that
contradicts the moves, errors without a line; and every limit of a record, each refused
in one line that names it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from shared.deal import new_game
from shared.gamerecord import (
    LIMITS,
    Limits,
    Record,
    RecordError,
    parse_record,
    record_of,
    replay_record,
    write_record,
)
from shared.moves import ReserveDeck, Return, Take
from shared.settings import GameSettings
from shared.state import GameState

HEAD = '[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n'


def random_game(players: int, seed: int, limit: int = 400) -> tuple[GameState, list[str]]:
    rng, state, moves = random.Random(seed), new_game(GameSettings(players), seed), []
    while not state.is_over and len(moves) < limit:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    return state, moves


def refused(text: str | bytes, limits: Limits = LIMITS) -> str:
    """The one-line error `parse_record` gives."""
    with pytest.raises(RecordError) as raised:
        parse_record(text, limits)
    message = str(raised.value)
    assert "\n" not in message and len(message) < 300
    return message


def replay_refused(text: str) -> str:
    with pytest.raises(RecordError) as raised:
        replay_record(parse_record(text))
    return str(raised.value)


# -- the gold `*` and the end marker -----------------------------------------------


def gold_returns(players: int, seeds: range) -> list[tuple[int, int, list[str]]]:
    """Player counts, seeds and moves of games cut just after a return that gives back
    gold."""
    found = []
    for seed in seeds:
        _, moves = random_game(players, seed)
        found += [(players, seed, moves[: i + 1]) for i, m in enumerate(moves) if m.endswith(" *")]
    return found


def test_unfinished_records_ending_in_a_returned_gold_round_trip() -> None:
    """Abandoned games are exported so; the writer once wrapped the `*` onto a line of
    its own, which the reader took for the end marker."""
    cases = gold_returns(2, range(150)) + gold_returns(3, range(80)) + gold_returns(4, range(80))
    assert len(cases) > 350
    for players, seed, moves in cases:
        record = record_of(players, seed, moves, Termination="abandoned")
        text = write_record(record)
        assert not any(line.startswith("*") for line in text.splitlines()[:-1])
        assert parse_record(text) == record


def test_a_lone_gold_the_old_writer_wrapped_is_read_as_gold() -> None:
    [(_, seed, moves), *_] = gold_returns(2, range(60))
    cut = record_of(2, seed, moves)
    *body, marker = write_record(cut).rstrip("\n").split("\n")
    assert marker == "*" and body[-1].endswith(" *")
    old = "\n".join([*body[:-1], body[-1][:-2], "*", "*"]) + "\n"  # gold alone, then the end
    assert parse_record(old) == cut
    _, whole = random_game(2, seed)
    finished = record_of(2, seed, whole)
    text = write_record(finished)
    i = text.rindex(" *\n") if text.endswith(" *\n") else None
    if i is not None:  # a finished game whose last move returns gold: no end marker
        assert parse_record(text[:i] + "\n*\n") == finished


def test_the_end_marker_is_only_the_last_line() -> None:
    assert parse_record(HEAD + "1. take W U G\n*\n").moves == ("take W U G",)
    message = refused(HEAD + "1. take W U G\n*\n2. take R K W\n")
    assert message.startswith("line 5, turn 1: `take W U G *` is not a move")


# -- comments ----------------------------------------------------------------------


def test_every_comment_after_a_move_is_kept_in_order() -> None:
    record = parse_record(HEAD + "1. take W U G {one} {two}\n{three} 2. take R K W {}\n*\n")
    assert record.comments == {0: ("one", "two", "three"), 1: ("",)}
    assert parse_record(write_record(record)) == record


def test_braces_and_backslashes_in_a_comment_are_escaped() -> None:
    said = ("a {brace} and a } alone", "C:\\path\\", "\\}", "line\nbreak")
    record = Record({"Players": "2", "Seed": "1", "CardSet": "1"}, ("take W U G",), {0: said})
    text = write_record(record)
    assert "{a {brace\\} and a \\} alone} {C:\\\\path\\\\} {\\\\\\}}" in text
    assert parse_record(text) == record
    assert parse_record(HEAD + "1. pass {C:\\path}\n").comments == {0: ("C:\\path",)}


def test_an_unclosed_comment_is_refused_where_it_opens() -> None:
    assert refused(HEAD + "1. take W U G {cheap\n") == (
        "line 5: a comment opened here has no closing brace }"
    )
    assert refused(HEAD + "1. take W U G {a\nb}\n2. take W W W\n").startswith("line 7, turn 2")
    assert refused(HEAD + "1. take W U G {escaped \\}\n*\n").startswith("line 5: a comment")


# -- tags ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seed", ["²", "٣", "1" * 100_000, str(2**63), "-1", " 1", "1 ", "0x10", "", "1.0"]
)
def test_a_seed_is_digits_0_to_9_within_its_range(seed: str) -> None:
    text = f'[Players "2"]\n[Seed "{seed}"]\n[CardSet "1"]\n'
    assert refused(text, replace(LIMITS, tag_value=200_000)).startswith("line 2: the tag Seed")


def test_the_seeds_at_the_ends_of_the_range_are_read() -> None:
    for seed in ("0", "007", str(2**63 - 1)):
        assert parse_record(f'[Players "2"]\n[Seed "{seed}"]\n[CardSet "1"]\n').seed == int(seed)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ('[Players "2"]\n[Seed "1"]\n\n1. pass\n', "line 3: the tag CardSet is missing"),
        (b'[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n\n1. take W\xffU G\n', "line 5: byte 0xff"),
        (b'[Players "2"]\n[Seed "\xc3"]\n', "line 2: byte 0xc3 (column 8)"),
        (HEAD + "1. take W U G\n2.\n", "line 6: turn 2 has no move"),
        (HEAD + "1. take W U G 2. take R K W 3.", "line 5: turn 3 has no move"),
        ("", "line 1: a record starts with tag pairs"),
        ("\n\n  \n1. pass\n", "line 4: a record starts with tag pairs"),
        ('[Players "2"]\n[Result "2 1 1"]\n[Seed "1"]\n[CardSet "1"]\n', "line 2: the tag Result"),
        (HEAD.replace("\n\n", '\n[Scores "15"]\n\n'), "line 4: the tag Scores"),
        (HEAD + "1. take W U G " + "9" * 5000 + ".\n", "line 5: turn 2 was next, not '999999"),
    ],
)
def test_every_error_names_its_line(text: str | bytes, start: str) -> None:
    assert refused(text).startswith(start)


def test_an_optional_tag_reads_like_any_other() -> None:
    record = parse_record('[Players "2"]\n[Seed "1"]\n[CardSet "1"]\n[Target "21"]\n')
    assert record.tags["Target"] == "21" and record.tag_lines["Target"] == 4


# -- Result and Scores against the moves ----------------------------------------------


def finished_game() -> tuple[Record, str]:
    state, moves = random_game(2, 4)
    assert state.is_over
    record = record_of(2, 4, moves)
    return record, write_record(record)


def test_a_result_that_contradicts_the_moves_is_refused_with_its_line() -> None:
    record, text = finished_game()
    result, scores = record.tags["Result"], record.tags["Scores"]
    line = text.splitlines().index(f'[Result "{result}"]') + 1
    swapped = " ".join(reversed(result.split()))
    message = replay_refused(text.replace(f'[Result "{result}"]', f'[Result "{swapped}"]'))
    assert message.startswith(f"line {line}: Result says '{swapped}'")
    assert f"ranks '{result}'" in message
    wrong = " ".join(str(int(s) + 1) for s in scores.split())
    message = replay_refused(text.replace(f'[Scores "{scores}"]', f'[Scores "{wrong}"]'))
    assert message.startswith(f"line {line + 1}: Scores says '{wrong}'")
    finished_as_unfinished = text.replace(f'[Result "{result}"]', '[Result "*"]') + "*\n"
    assert "Result says '*'" in replay_refused(finished_as_unfinished)


def test_a_finished_result_on_a_record_cut_short_is_refused() -> None:
    record, _ = finished_game()
    cut = write_record(Record(record.tags, record.moves[:-3]))
    message = replay_refused(cut)
    assert "Result says" in message and "the game is not over" in message
    no_result = {t: v for t, v in record.tags.items() if t != "Result"}
    assert "Scores are a finished game's" in replay_refused(
        write_record(Record(no_result, record.moves[:-3]))
    )
    unfinished = {t: v for t, v in no_result.items() if t != "Scores"}
    replay_record(parse_record(write_record(Record(unfinished, record.moves[:-3]))))


def test_a_move_that_breaks_a_rule_names_its_line_and_turn() -> None:
    message = replay_refused(HEAD + "1. take W U G\n2. take R K W 3. pass\n")
    assert message.startswith("line 6, turn 3 (move 3): `pass`")


# -- limits -----------------------------------------------------------------------------

SMALL = Limits(size=2_000, moves=6, comments=3, comment=10, tags=4, tag_value=8)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        (HEAD + " " * 2_000, "the record is over 2,000 bytes"),
        ((HEAD + "é" * 990).encode(), "the record is over 2,000 bytes"),
        (HEAD + "é" * 990, "the record is over 2,000 bytes"),
        (
            HEAD + "1. take W U G 2. take R K W 3. take W U G\n4. take R K W 5. take W U G\n"
            "6. take R K W\n7. pass\n",
            "line 8: more moves than the 6",
        ),  # fmt: skip
        (HEAD + "1. pass {a} {b}\n{c} {d}\n", "line 6: more comments than the 3 a record may hold"),
        (HEAD + "1. pass {0123456789x}\n", "line 5: a comment over 10 characters"),
        (HEAD.replace("\n\n", '\n[A "1"]\n[B "2"]\n'), "line 5: more tags than the 4 a record"),
        ('[Event "123456789"]\n' + HEAD, "line 1: the tag Event's value is over 8 characters"),
    ],
)
def test_each_limit_is_refused_in_a_line_that_names_it(text: str | bytes, start: str) -> None:
    assert refused(text, SMALL).startswith(start)


def test_the_writer_refuses_what_its_reader_would_not_read_back() -> None:
    tags = {"Players": "2", "Seed": "1", "CardSet": "1"}
    for record, words in [
        (Record(tags, ("take wug",)), "is written 'take W U G'"),
        (Record(tags, ("return W",)), "a return ends a turn's action"),
        (Record(tags, ("take W U G",), {1: ("after nothing",)}), "after no move"),
        (Record(tags, ("take W U G",), {0: ()}), "a move with none has no entry"),
        (Record({**tags, "Site": "a\nb"}, ()), "holds a line break"),
        (Record({**tags, "bad name": "x"}, ()), "is not a tag name"),
        (Record({**tags, "Seed": "²"}, ()), "the tag Seed should be"),
        (Record(tags, ("pass",) * 7), "7 moves: a record holds 6 at most"),
        (Record(tags, ("pass",), {0: ("01234567890",)}), "a comment over 10"),
        (Record({**tags, "Site": "\ud800"}, ()), "a lone surrogate"),
    ]:
        with pytest.raises(RecordError, match=words):
            write_record(record, SMALL)


def long_game(moves: int) -> list[str]:
    """A legal game that does not end: reserve from the decks, then take and give back."""
    rng, state, played = random.Random(5), new_game(GameSettings(2), 5), []
    while len(played) < moves:
        legal = state.legal_moves()
        pick = [m for m in legal if isinstance(m, ReserveDeck)] or [
            m for m in legal if isinstance(m, Take | Return) and "*" not in str(m)
        ]
        move = rng.choice(pick or legal)
        assert not state.is_over
        played.append(str(move))
        state = state.apply(move)
    return played


def test_the_largest_record_a_server_writes_is_well_within_the_limits() -> None:
    """2,000 chat lines (`server.host.clubdesk.RECORD_CHAT`) of 200 characters
    (`shared.chat.MAX_CHAT`), each of four bytes, by names of 64 (`MAX_NAME`), after a
    game of 4,000 moves, every tag at its longest."""
    moves = long_game(4_000)
    tags = {"Event": "Casual game", "Site": "s" * 253, "Date": "2026.12.03", "Game": "g" * 32}
    tags |= {f"Seat{i}": "n" * 64 for i in range(1, 3)}
    tags |= {"Rated": "no", "Termination": "abandoned", "TimeControl": "15+10"}
    record = record_of(2, 5, moves, **tags)
    said = ["n" * 64 + ": " + "\U0001f600" * 200] * 2_000
    record = replace(record, comments={i * 2: (said[i],) for i in range(2_000)})
    text = write_record(record)
    size = len(text.encode())
    assert size < LIMITS.size / 4 and len(moves) < LIMITS.moves / 20
    assert parse_record(text.encode()) == record
