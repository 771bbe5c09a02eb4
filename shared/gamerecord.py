"""Game records: a whole game as text, for people and programs (docs/records.md).

A record is tag pairs, then the game's turns in our notation, numbered, with
optional comments::

    [Event "Casual game"]
    [Site "play.example.org"]
    [Date "2026.12.01"]
    [Game "4fa2c1"]
    [Players "2"]
    [Seat1 "ann"]
    [Seat2 "hard bot"]
    [Seed "38329"]
    [CardSet "1"]
    [Result "1 2"]
    [Scores "15 11"]

    1. take W U G 2. reserve 2-14 {the 3-point card} 3. take R K W
    4. take W U G return K * 5. buy 1-07 ...

A turn is its action and, when it went over ten tokens, the return that ended
it (R13). `write_record` and `parse_record` (`shared.recordparse`) are inverses
(`parse_record(write_record(r)) == r`), and `replay_record` plays a record to its
final state with the engine, checking every move and then the Result and Scores
tags: a record needs no server. Anything that is not a record, or is over its
limits (`Limits`), raises `RecordError`, one line that names the line.
"""

from __future__ import annotations

from collections.abc import Iterator

from .cards import CARD_SET
from .deal import new_game
from .errors import SplendorError
from .moves import parse_move
from .recordform import (
    LIMITS,
    ORDER,
    UNFINISHED,
    Limits,
    Record,
    RecordError,
    at_line,
    check_tags,
    quote_comment,
    quote_tag,
    shown,
)
from .recordparse import parse_record, utf8_size
from .state import GameState

WIDTH = 79  # columns of move text a line holds, at most (a long comment has its own)


def record_of(players: int, seed: int, moves: list[str] | tuple[str, ...], **tags: str) -> Record:
    """The record of the game `moves` play from a new game of `players` and `seed`, with
    `tags` (Event, Site, Date, Game, Seat1..; `Target` for a game not to 15); the seats
    default to "seat N", and the result is filled in when the game is over (the moves
    are replayed to see)."""
    all_tags = {"Players": str(players), "Seed": str(seed), "CardSet": CARD_SET}
    for seat in range(players):
        all_tags[f"Seat{seat + 1}"] = f"seat {seat + 1}"
    all_tags.update(tags)
    record = Record(all_tags, tuple(moves))
    outcome = replay_record(record).outcome()
    if outcome is None:
        all_tags.setdefault("Result", UNFINISHED)
    else:
        all_tags["Result"] = " ".join(map(str, outcome.ranks))
        all_tags["Scores"] = " ".join(map(str, outcome.scores))
    return Record(all_tags, tuple(moves))


# -- writing ---------------------------------------------------------------------


def write_record(record: Record, limits: Limits = LIMITS) -> str:
    """The record as text: tags, a blank line, the numbered turns wrapped at `WIDTH`
    (never inside a move, so no line starts with a gold `*`), and `*` alone on the
    last line if the game is not over. `RecordError` for a record `parse_record`
    would not read back as it is: over a limit, a tag it refuses, a move not in
    canonical notation or out of its place, a comment after no move."""
    check_tags(record.tags, {}, limits)
    _check_body(record, limits)
    names = [t for t in ORDER if t in record.tags]
    names += sorted(t for t in record.tags if t not in ORDER)
    lines = [f'[{name} "{quote_tag(record.tags[name])}"]' for name in names]
    lines.append("")
    line, turn = "", 0
    for i, text in enumerate(record.moves):
        if not text.startswith("return "):
            turn += 1
            text = f"{turn}. {text}"
        for chunk in (text, *("{" + quote_comment(c) + "}" for c in record.comments.get(i, ()))):
            if line and len(line) + 1 + len(chunk) > WIDTH:
                lines.append(line)
                line = chunk
            else:
                line = f"{line} {chunk}" if line else chunk
    if line:
        lines.append(line)
    if record.tags.get("Result", UNFINISHED) == UNFINISHED:
        lines.append(UNFINISHED)  # on the last line, alone: a `*` in a move is gold
    text = "\n".join(lines) + "\n"
    if utf8_size(text) > limits.size:
        raise RecordError(f"the record would be over {limits.size:,} bytes, the most one may be")
    return text


def _check_body(record: Record, limits: Limits) -> None:
    """The moves and comments as `write_record` can write them (see there)."""
    if len(record.moves) > limits.moves:
        raise RecordError(f"{len(record.moves):,} moves: a record holds {limits.moves:,} at most")
    after_action = False
    for i, text in enumerate(record.moves):
        try:
            canonical = str(parse_move(text))
        except SplendorError as e:
            raise RecordError(f"move {i + 1}: {e}") from None
        if canonical != text:
            raise RecordError(f"move {i + 1}: {shown(text)} is written {shown(canonical)}")
        is_return = text.startswith("return ")
        if is_return and not after_action:
            raise RecordError(f"move {i + 1}: a return ends a turn's action")
        after_action = not is_return
    if any(not 0 <= i < len(record.moves) for i in record.comments):
        raise RecordError("a comment is after no move of the record")
    if not all(record.comments.values()):
        raise RecordError("a move has an empty tuple of comments: a move with none has no entry")
    said = [c for cs in record.comments.values() for c in cs]
    if len(said) > limits.comments:
        raise RecordError(f"{len(said):,} comments: a record holds {limits.comments:,} at most")
    if any(len(c) > limits.comment for c in said):
        raise RecordError(f"a comment over {limits.comment:,} characters, the most one holds")


# -- replaying -------------------------------------------------------------------


def replay_steps(record: Record) -> Iterator[tuple[int, GameState, GameState]]:
    """Each move of the record played with the engine, checked: its index, the state
    before it and the state after; `RecordError` saying which line and turn is not
    legal, or, once the last move is played, which of the Result and Scores tags
    says otherwise than the moves (`check_result`)."""
    state = new_game(record.settings, record.seed)
    turn = 0
    for i, text in enumerate(record.moves):
        if not text.startswith("return "):
            turn += 1
        try:
            after = state.apply(parse_move(text))
        except SplendorError as e:
            where = f"line {record.move_lines[i]}, " if i < len(record.move_lines) else ""
            raise RecordError(f"{where}turn {turn} (move {i + 1}): {e}") from None
        yield i, state, after
        state = after
    check_result(record, state, turn)


def check_result(record: Record, final: GameState, turn: int) -> None:
    """`RecordError` naming the tag's line if Result or Scores says otherwise than the
    game's end, `final` after `turn` turns: a finished game's ranks (R17) and prestige
    (R16); `*`, or no Result, and no Scores, for a game not over."""
    outcome = final.outcome()
    result, scores = record.tags.get("Result"), record.tags.get("Scores")
    at_result, at_scores = (at_line(record.tag_lines.get(t)) for t in ("Result", "Scores"))
    if outcome is None:
        if result not in (None, UNFINISHED):
            raise RecordError(
                f"{at_result}Result says {shown(result or '')}, but the game is not over "
                f"after turn {turn}, where its moves stop"
            )
        if scores is not None:
            raise RecordError(
                f"{at_scores}Scores are a finished game's, and the game is not over after "
                f"turn {turn}, where its moves stop"
            )
        return
    ranks, prestige = (" ".join(map(str, x)) for x in (outcome.ranks, outcome.scores))
    if result is not None and _numbers(result) != outcome.ranks:
        raise RecordError(
            f"{at_result}Result says {shown(result)}, but the moves end the game at turn "
            f"{turn} with ranks {ranks!r}"
        )
    if scores is not None and _numbers(scores) != outcome.scores:
        raise RecordError(
            f"{at_scores}Scores says {shown(scores)}, but the moves end the game at turn "
            f"{turn} with scores {prestige!r}"
        )


def _numbers(text: str) -> tuple[int, ...] | None:
    parts = text.split(" ")
    if all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        return tuple(int(p) for p in parts)
    return None


def replay_record(record: Record) -> GameState:
    """The state the record's moves lead to, from its seed, each move checked by the
    engine and then the result (`replay_steps`)."""
    final = new_game(record.settings, record.seed)
    for _, _, after in replay_steps(record):
        final = after
    return final


__all__ = [
    "LIMITS",
    "WIDTH",
    "Limits",
    "Record",
    "RecordError",
    "check_result",
    "parse_record",
    "record_of",
    "replay_record",
    "replay_steps",
    "write_record",
]
