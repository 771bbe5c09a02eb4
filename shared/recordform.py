"""The form of a game record (docs/records.md): the `Record` value, its limits, and the
rules its tags follow, shared by the parser (`shared.recordparse`) and the writer
(`shared.gamerecord`), so that what one writes the other reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .cards import CARD_SET
from .constants import WINNING_PRESTIGE
from .errors import SplendorError
from .messages import MAX_SEED
from .settings import MAX_TARGET, MIN_TARGET, GameSettings

REQUIRED = ("Players", "Seed", "CardSet")
# The tags a record starts with, in this order; any others follow, in name order.
ORDER = (
    "Event", "Site", "Date", "Game", "Players", "Seat1", "Seat2", "Seat3", "Seat4",
    "Seed", "CardSet", "Target", "Rated", "Result", "Scores", "Termination",
)  # fmt: skip
UNFINISHED = "*"  # Result of a game not over; alone on the last line, the end marker
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")
SEED_DIGITS = len(str(MAX_SEED - 1))  # 19: a seed is 0 .. 2**63-1, like a server's


class RecordError(SplendorError):
    """Text that is not a game record, or a record whose moves break a rule: one line
    that names the line of the text (and the turn, for a move) and what is wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))  # one line, whatever it quotes


@dataclass(frozen=True)
class Limits:
    """What one record may hold at most: far above any game a server keeps (a game of
    a few hundred moves, 2,000 chat lines of 200 characters, names of 16), and small
    enough that reading one takes a bounded time and memory (docs/records.md)."""

    size: int = 16 * 1024 * 1024  # bytes of the whole text, in UTF-8
    moves: int = 100_000  # moves, a turn's return counting as one
    comments: int = 100_000  # comments in the whole record
    comment: int = 10_000  # characters in one comment
    tags: int = 64  # tag pairs
    tag_value: int = 1_000  # characters in one tag's value


LIMITS = Limits()


@dataclass(frozen=True)
class Record:
    """A game: its tags, its moves in canonical notation (a turn's return follows its
    action), and its comments by the index of the move they follow, in the order
    written (a move with none has no entry). `move_lines` and `tag_lines` say where in
    the text each move and tag was, for errors; they are not part of the value."""

    tags: dict[str, str]
    moves: tuple[str, ...]
    comments: dict[int, tuple[str, ...]] = field(default_factory=dict)
    move_lines: tuple[int, ...] = field(default=(), compare=False, repr=False)
    tag_lines: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def players(self) -> int:
        return int(self.tags["Players"])

    @property
    def seed(self) -> int:
        return int(self.tags["Seed"])

    @property
    def settings(self) -> GameSettings:
        """The game's settings: its players and R15's target (`Target`; 15 without it)."""
        return GameSettings(self.players, int(self.tags.get("Target", WINNING_PRESTIGE)))


def shown(text: str, most: int = 40) -> str:
    """`text` quoted for a message, cut to `most` characters."""
    return repr(text[:most]) + ("…" if len(text) > most else "")


def at_line(line: int | None) -> str:
    """The start of a message, `line 12: `, or nothing when the line is not known."""
    return "" if line is None else f"line {line}: "


# -- escapes ---------------------------------------------------------------------

_TAG_ESCAPE = re.compile(r"\\(.)")
_COMMENT_ESCAPE = re.compile(r"\\([\\}])")


def quote_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unquote_tag(raw: str) -> str:
    return _TAG_ESCAPE.sub(r"\1", raw)


def quote_comment(text: str) -> str:
    """A comment's text between its braces: `\\` and `}` escaped with a backslash."""
    return text.replace("\\", "\\\\").replace("}", "\\}")


def unquote_comment(raw: str) -> str:
    """The inverse of `quote_comment`; any other backslash stands for itself."""
    return _COMMENT_ESCAPE.sub(r"\1", raw)


# -- tags --------------------------------------------------------------------------


def _players(value: str, tags: Mapping[str, str]) -> str | None:
    return None if value in ("2", "3", "4") else f"should be 2, 3 or 4, not {shown(value)}"


def _seed(value: str, tags: Mapping[str, str]) -> str | None:
    if value.isascii() and value.isdigit() and len(value) <= SEED_DIGITS:
        if int(value) < MAX_SEED:
            return None
    return f"should be a whole number from 0 to {MAX_SEED - 1} in digits 0-9, not {shown(value)}"


def _card_set(value: str, tags: Mapping[str, str]) -> str | None:
    if value == CARD_SET:
        return None
    return f"says card set {shown(value)}; this program has set {CARD_SET}"


def _target(value: str, tags: Mapping[str, str]) -> str | None:
    if value.isascii() and value.isdigit() and len(value) <= 2:
        if MIN_TARGET <= int(value) <= MAX_TARGET:
            return None
    return (
        f"should be the prestige that ends the game (R15), {MIN_TARGET} to {MAX_TARGET} "
        f"in digits 0-9, not {shown(value)}"
    )


def _numbers(value: str, players: int, most: int) -> list[int] | None:
    """`players` whole numbers of 0 .. `most` in digits 0-9, one space apart, or None."""
    parts = value.split(" ")
    if len(parts) != players or not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        return None
    numbers = [int(p) for p in parts]
    return numbers if max(numbers) <= most else None


def _result(value: str, tags: Mapping[str, str]) -> str | None:
    n = int(tags["Players"])
    if value == UNFINISHED:
        return None
    ranks = _numbers(value, n, n)
    if ranks is not None and min(ranks) == 1:
        return None
    return f"should be * or each seat's rank, 1 to {n} (R17), like '1 2', not {shown(value)}"


def _scores(value: str, tags: Mapping[str, str]) -> str | None:
    if _numbers(value, int(tags["Players"]), 999) is not None:
        return None
    return f"should be each seat's prestige (R16), like '15 11', not {shown(value)}"


# Each known tag's rule: what is wrong with a value, or None. Players comes first: the
# others read it. Another tag is a line here (and a place in ORDER).
TAG_RULES: dict[str, Callable[[str, Mapping[str, str]], str | None]] = {
    "Players": _players,
    "Seed": _seed,
    "CardSet": _card_set,
    "Target": _target,
    "Result": _result,
    "Scores": _scores,
}


def check_tags(
    tags: Mapping[str, str],
    lines: Mapping[str, int],
    limits: Limits,
    end: int | None = None,
) -> None:
    """`RecordError` naming the tag's line (from `lines`) for a tag a record cannot
    have; `end` is the line where the tags ended, for a tag that is missing."""
    if len(tags) > limits.tags:
        raise RecordError(f"{len(tags):,} tags: a record holds {limits.tags:,} at most")
    for name in REQUIRED:
        if name not in tags:
            raise RecordError(
                f"{at_line(end)}the tag {name} is missing (a record needs "
                f"{', '.join(REQUIRED[:-1])} and {REQUIRED[-1]})"
            )
    for name, value in tags.items():
        problem = None
        if not TAG_NAME.fullmatch(name):
            problem = "is not a tag name (a letter, then letters, digits or _, 32 at most)"
        elif len(value) > limits.tag_value:
            problem = f"holds {len(value):,} characters: a tag's value holds {limits.tag_value:,}"
        elif "\n" in value:
            problem = "holds a line break"
        if problem:
            raise RecordError(f"{at_line(lines.get(name))}the tag {shown(name)} {problem}")
    for name, rule in TAG_RULES.items():
        if name in tags and (problem := rule(tags[name], tags)) is not None:
            raise RecordError(f"{at_line(lines.get(name))}the tag {name} {problem}")


__all__ = [
    "LIMITS",
    "ORDER",
    "REQUIRED",
    "UNFINISHED",
    "Limits",
    "Record",
    "RecordError",
    "check_tags",
]
