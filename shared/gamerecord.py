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
it (R13). `write_record` and `parse_record` are inverses (`parse_record(
write_record(r)) == r`), and `replay_record` plays a record to its final state
with the engine, checking every move: a record needs no server. Anything that is
not a record raises `RecordError`, which names the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .cards import CARD_SET
from .deal import new_game
from .errors import SplendorError
from .moves import parse_move
from .state import GameState

REQUIRED = ("Players", "Seed", "CardSet")
# The tags a record starts with, in this order; any others follow, in name order.
ORDER = (
    "Event", "Site", "Date", "Game", "Players", "Seat1", "Seat2", "Seat3", "Seat4",
    "Seed", "CardSet", "Rated", "Result", "Scores", "Termination",
)  # fmt: skip
WIDTH = 79  # columns of move text a line holds, at most
UNFINISHED = "*"  # alone on the last line: the game had not ended (like PGN's "*")

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_VERBS = ("take", "reserve", "buy", "return", "pass")


class RecordError(SplendorError):
    """Text that is not a game record; the message names the line and what is wrong."""


@dataclass(frozen=True)
class Record:
    """A game: its tags, its turns' moves in notation (a turn's return follows its
    action), and comments by the index of the move they follow."""

    tags: dict[str, str]
    moves: tuple[str, ...]
    comments: dict[int, str] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return int(self.tags["Players"])

    @property
    def seed(self) -> int:
        return int(self.tags["Seed"])


def record_of(players: int, seed: int, moves: list[str] | tuple[str, ...], **tags: str) -> Record:
    """The record of the game `moves` play from a new game of `players` and `seed`, with
    `tags` (Event, Site, Date, Game, Seat1..); the seats default to "seat N", and the
    result is filled in when the game is over (the moves are replayed to see)."""
    all_tags = {"Players": str(players), "Seed": str(seed), "CardSet": CARD_SET}
    for seat in range(players):
        all_tags[f"Seat{seat + 1}"] = f"seat {seat + 1}"
    all_tags.update(tags)
    record = Record(all_tags, tuple(moves))
    outcome = replay_record(record).outcome()
    if outcome is None:
        all_tags.setdefault("Result", "*")
    else:
        all_tags["Result"] = " ".join(map(str, outcome.ranks))
        all_tags["Scores"] = " ".join(map(str, outcome.scores))
    return Record(all_tags, tuple(moves))


# -- writing ---------------------------------------------------------------------


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_record(record: Record) -> str:
    """The record as text: tags, a blank line, the numbered turns wrapped at `WIDTH`."""
    names = [t for t in ORDER if t in record.tags]
    names += sorted(t for t in record.tags if t not in ORDER)
    lines = [f'[{name} "{_quote(record.tags[name])}"]' for name in names]
    lines.append("")
    words: list[str] = []
    turn = 0
    for i, text in enumerate(record.moves):
        if not text.startswith("return "):
            turn += 1
            words.append(f"{turn}.")
        words.extend(text.split())
        if i in record.comments:
            words.append("{" + record.comments[i].replace("}", ")") + "}")
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > WIDTH and not _inside_comment(line):
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    if record.tags.get("Result", "*") == "*":
        lines.append(UNFINISHED)  # on a line of its own: a `*` in a move is gold
    return "\n".join(lines) + "\n"


def _inside_comment(line: str) -> bool:
    return line.count("{") > line.count("}")


# -- reading ---------------------------------------------------------------------


def parse_record(text: str) -> Record:
    """A record from its text; `RecordError` naming the line if it is not one."""
    lines = text.splitlines()
    tags: dict[str, str] = {}
    i = 0
    while i < len(lines) and (lines[i].strip().startswith("[") or not lines[i].strip()):
        line = lines[i].strip()
        i += 1
        if not line:
            if tags:
                break
            continue
        m = _TAG.match(line)
        if m is None:
            raise RecordError(f'line {i}: not a tag pair like [Seed "42"]: {line[:40]!r}')
        if m.group(1) in tags:
            raise RecordError(f"line {i}: the tag {m.group(1)} comes twice")
        tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
    if not tags:
        first = next((n for n, line in enumerate(lines, 1) if line.strip()), 0)
        found = repr(lines[first - 1].strip()[:40]) if first else "nothing"
        raise RecordError(
            f'line {first or 1}: a record starts with tag pairs like [Players "2"], not {found}'
        )
    _check_tags(tags)
    moves, comments = _moves(lines, i)
    return Record(tags, tuple(moves), comments)


def _check_tags(tags: dict[str, str]) -> None:
    for name in REQUIRED:
        if name not in tags:
            raise RecordError(f"the tag {name} is missing (a record needs {', '.join(REQUIRED)})")
    if tags["Players"] not in ("2", "3", "4"):
        raise RecordError(f"the tag Players should be 2, 3 or 4, not {tags['Players']!r}")
    if not tags["Seed"].isdigit() or int(tags["Seed"]) >= 1 << 64:
        raise RecordError(f"the tag Seed should be a whole number, not {tags['Seed']!r}")
    if tags["CardSet"] != CARD_SET:
        raise RecordError(
            f"the record is for card set {tags['CardSet']!r}; this program has set {CARD_SET}"
        )


_TOKEN = re.compile(r"\{[^}]*\}|\S+")


def _moves(lines: list[str], start: int) -> tuple[list[str], dict[int, str]]:
    """The turns from the move text (lines `start` on): moves and comments. A turn is
    its number, its action, and the return that may end it (R13)."""
    moves: list[str] = []
    comments: dict[int, str] = {}
    turn, in_turn = 0, 0  # the turn's number, and its moves so far
    words: list[str] = []
    word_line = 0
    ended = False

    def flush() -> None:
        nonlocal in_turn
        if not words:
            return
        text = _notation(words, word_line, turn)
        is_return = text.startswith("return ")
        if is_return and in_turn != 1:
            raise RecordError(f"line {word_line}, turn {turn}: a return ends a turn's action")
        if not is_return and in_turn != 0:
            raise RecordError(f"line {word_line}, turn {turn}: one action a turn; number the next")
        moves.append(text)
        in_turn += 1
        words.clear()

    text = "\n".join(lines[start:])
    for m in _TOKEN.finditer(text):
        token, line = m.group(), start + text.count("\n", 0, m.start()) + 1
        if ended:
            raise RecordError(f"line {line}: {token!r} after the end of the game (*)")
        if token.startswith("{"):
            flush()
            if not moves:
                raise RecordError(f"line {line}: a comment before the first move")
            comments[len(moves) - 1] = token[1:-1]
        elif re.fullmatch(r"\d+\.", token):
            flush()
            if int(token[:-1]) != turn + 1:
                raise RecordError(f"line {line}: turn {turn + 1} was next, not {token}")
            if turn and in_turn == 0:
                raise RecordError(f"line {line}: turn {turn} has no move")
            turn, in_turn = turn + 1, 0
        elif token == UNFINISHED and _alone_on_its_line(text, m.start()):
            flush()
            ended = True
        else:
            if token in _VERBS:
                flush()
            if not words:
                if turn == 0:
                    raise RecordError(f"line {line}: {token!r} before turn 1.")
                word_line = line
            words.append(token)
    flush()
    if turn and in_turn == 0:
        raise RecordError(f"turn {turn} has no move")
    return moves, comments


def _alone_on_its_line(text: str, at: int) -> bool:
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[start : len(text) if end < 0 else end].strip() == UNFINISHED


def _notation(words: list[str], line: int, turn: int) -> str:
    """One move's canonical notation (`parse_move` checks it)."""
    try:
        return str(parse_move(" ".join(words)))
    except SplendorError as e:
        raise RecordError(f"line {line}, turn {turn}: {e}") from None


def replay_steps(record: Record) -> Iterator[tuple[int, GameState, GameState]]:
    """Each move of the record played with the engine, checked: its index, the state
    before it and the state after; `RecordError` saying which turn is not legal."""
    state = new_game(record.players, record.seed)
    turn = 0
    for i, text in enumerate(record.moves):
        if not text.startswith("return "):
            turn += 1
        try:
            after = state.apply(parse_move(text))
        except SplendorError as e:
            raise RecordError(f"turn {turn} (move {i + 1}): {e}") from None
        yield i, state, after
        state = after


def replay_record(record: Record) -> GameState:
    """The state the record's moves lead to, from its seed, each move checked by the
    engine (`replay_steps`)."""
    final = new_game(record.players, record.seed)
    for _, _, after in replay_steps(record):
        final = after
    return final


__all__ = [
    "Record",
    "RecordError",
    "parse_record",
    "record_of",
    "replay_record",
    "replay_steps",
    "write_record",
]
