"""Game records under Hypothesis (docs/records.md): every record the writer writes, of
random games at 2 to 4 players, finished, abandoned or cut short, with random chat
comments, reads back as it was and replays; and the reader, fed mutated records and
random bytes, answers with a record or a one-line `RecordError`, never anything else.
Derandomized, so every run tries the same inputs; small records, so it stays quick."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

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
from shared.settings import GameSettings
from shared.state import GameState

props = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow],
)


def random_game(players: int, seed: int, limit: int = 600) -> tuple[GameState, list[str]]:
    """A seeded game of random legal moves, to its end (or `limit` moves)."""
    rng, state, moves = random.Random(seed), new_game(GameSettings(players), seed), []
    while not state.is_over and len(moves) < limit:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    return state, moves


# Chat as players type it, and worse: braces, backslashes, quotes, the gold `*`,
# line breaks, any other character (control characters too), and nothing at all.
# (Not half a character: UTF-8 cannot hold a lone surrogate, and the writer refuses one.)
said = st.text(
    st.one_of(st.sampled_from(list('{}\\*" \n\t[]')), st.characters(exclude_categories=["Cs"])),
    max_size=24,
)
tag_text = said.filter(lambda t: "\n" not in t)


@st.composite
def records(draw: st.DrawFn) -> tuple[Record, GameState]:
    """A record of a random game, and the state its moves lead to."""
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**63 - 1))
    state, moves = random_game(players, seed)
    ending = draw(st.sampled_from(["finished", "abandoned", "cut short"]))
    tags: dict[str, str] = {}
    if ending != "finished":
        moves = moves[: draw(st.integers(0, len(moves)))]
        state = replay_record(Record({"Players": str(players), "Seed": str(seed)}, tuple(moves)))
    if ending == "abandoned":
        tags["Termination"] = "abandoned"
    for seat in range(players):
        if draw(st.booleans()):
            tags[f"Seat{seat + 1}"] = draw(tag_text)
    if draw(st.booleans()):
        tags[draw(st.sampled_from(["Event", "Site", "Annotator", "X_1"]))] = draw(tag_text)
    record = record_of(players, seed, moves, **tags)
    if moves:
        after = st.integers(0, len(moves) - 1)
        lines = st.lists(said, min_size=1, max_size=3).map(tuple)
        record = replace(record, comments=draw(st.dictionaries(after, lines, max_size=12)))
    return record, state


@props
@given(records())
def test_every_record_written_reads_back_as_it_was_and_replays(
    case: tuple[Record, GameState],
) -> None:
    record, state = case
    text = write_record(record)
    back = parse_record(text)
    assert back == record
    assert parse_record(text.encode()) == record  # as a file gives it
    assert write_record(back) == text
    assert replay_record(back) == state
    assert text.endswith("\n*\n") == (not state.is_over)  # the end marker, if not over
    plain = write_record(replace(record, comments={})).splitlines()
    assert not any(line.startswith("*") for line in plain[:-1])  # no gold alone on a line


# -- fuzzing the reader ------------------------------------------------------------------


def seed_texts() -> list[bytes]:
    """A few records to mutate: finished, abandoned with chat, cut short, at 2 to 4."""
    texts = []
    for players, seed, cut in [(2, 4, None), (3, 8, 40), (4, 2, 25)]:
        _, moves = random_game(players, seed)
        record = record_of(players, seed, moves[:cut], Seat1="ann")
        if cut:
            record = replace(record, comments={1: ("ann: {hi} \\o/",), cut - 1: ("", "é *")})
        texts.append(write_record(record).encode())
    return texts


SEEDS = seed_texts()
SMALL = Limits(size=3_000, moves=30, comments=2, comment=5, tags=12, tag_value=20)


WORDS = [
    w.encode()
    for w in 'W U G R K * take buy reserve return pass deck 1 2 3 1-07 2-14 3-20 \
    {x} { } 1. 7. 12. \\ [Result "1 "2 "*"]'.split()
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A record with bytes flipped or inserted, lines cut, dropped, duplicated or
    swapped, a word changed for another, or the file cut short."""
    data = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        lines, words = data.split(b"\n"), data.split(b" ")
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        match draw(
            st.sampled_from(["flip", "insert", "end", "word", "cut", "drop", "twice", "swap"])
        ):
            case "flip":
                data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
            case "insert":
                data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
            case "end":
                data = data[:at]
            case "word":  # another word of the notation, to make moves legal or not
                words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(WORDS))
                data = b" ".join(words)
            case "cut":
                lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
                data = b"\n".join(lines)
            case "drop":
                del lines[i]
                data = b"\n".join(lines)
            case "twice":
                lines.insert(i, lines[i])
                data = b"\n".join(lines)
            case "swap":
                lines[i], lines[j] = lines[j], lines[i]
                data = b"\n".join(lines)
    return data


def read(data: bytes, limits: Limits) -> None:
    """Parse and replay: a record, or one line of error."""
    try:
        record = parse_record(data, limits)
        event("read")
        replay_record(record)
        event("replayed")
    except RecordError as e:
        message = str(e)
        assert message and "\n" not in message and len(message) < 300, message
        event("refused: " + re.sub(r"\d[\d,]*", "N", message)[:36])


@settings(props, max_examples=600)
@given(st.one_of(mutated(), st.binary(max_size=600), st.text(max_size=300).map(str.encode)))
def test_the_reader_answers_a_record_or_one_line_of_error(data: bytes) -> None:
    read(data, LIMITS)
    read(data, SMALL)  # and meets every limit on the way
