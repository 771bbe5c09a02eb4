"""Reading a game record's text (docs/records.md): `parse_record`.

One pass over the text, in time and memory linear in its size: regular expressions
find the tokens (possessive, so none backtracks), and the line of each token is
counted from the one before. The work in Python is bounded by the limits too
(`Limits`: tags, moves, comments), since whatever exceeds one is refused where it
is met. Every error is one line that names the line of the text, and the turn for
a move.
"""

from __future__ import annotations

import re

from .errors import SplendorError
from .moves import parse_move
from .recordform import (
    LIMITS,
    UNFINISHED,
    Limits,
    Record,
    RecordError,
    check_tags,
    shown,
    unquote_comment,
    unquote_tag,
)

_BLANK_LINES = re.compile(r"(?:[^\S\n]*+\n)*+")
_TAG_START = re.compile(r"[^\S\n]*+\[")
_TAG_LINE = re.compile(
    r'[^\S\n]*+\[([A-Za-z][A-Za-z0-9_]{0,31})[^\S\n]++"((?:[^"\\\n]++|\\.)*+)"\][^\S\n]*+(?:\n|\Z)'
)
_TOKEN = re.compile(r"\{|[^\s{]++")
_COMMENT_REST = re.compile(r"(?:[^\\}]++|\\.)*+\}", re.DOTALL)  # after its `{`
VERBS = ("take", "reserve", "buy", "return", "pass")
MOVE_WORDS, MOVE_CHARS = 6, 32  # more is not a move (`return W U G` is 4 words)


def parse_record(source: str | bytes, limits: Limits = LIMITS) -> Record:
    """A record from its text, or from a file's bytes (UTF-8); `RecordError` naming the
    line if it is not one, or the limit (`limits`) it is over."""
    text = _decoded(source, limits) if isinstance(source, bytes) else source
    if len(text) > limits.size or (not text.isascii() and utf8_size(text) > limits.size):
        raise _over_size(limits)
    if text.startswith("\ufeff"):  # a byte order mark, as some editors write
        text = text[1:]
    return _Reader(text, limits).record()


def _blank_end(text: str, pos: int) -> int:
    """Where the blank lines from `pos` on end (`pos` if there is none)."""
    m = _BLANK_LINES.match(text, pos)
    assert m is not None  # it matches no line at all too
    return m.end()


def _over_size(limits: Limits) -> RecordError:
    return RecordError(
        f"the record is over {limits.size:,} bytes ({limits.size / 2**20:g} MiB), "
        "the most a record may be"
    )


def utf8_size(text: str) -> int:
    """Bytes of `text` in UTF-8; `RecordError` naming the line of a lone surrogate, a
    character UTF-8 cannot hold (a file never has one; a program's string may)."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        line = text.count("\n", 0, e.start) + 1
        raise RecordError(
            f"line {line}: {text[e.start]!r} is half a character (a lone surrogate), "
            "which UTF-8 cannot hold"
        ) from None


def _decoded(data: bytes, limits: Limits) -> str:
    if len(data) > limits.size:  # before decoding: a file's reader reads one byte more
        raise _over_size(limits)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise RecordError(
            f"line {line}: byte {data[e.start]:#04x} (column {column}) is not UTF-8 text"
        ) from None


class _Reader:
    """One record's text read once, front to back."""

    def __init__(self, text: str, limits: Limits) -> None:
        self.text, self.limits = text, limits
        self.pos, self.line = 0, 1  # where the reading is, and the line there

    def advance(self, to: int) -> None:
        """Move on to `to`, counting the lines passed."""
        self.line += self.text.count("\n", self.pos, to)
        self.pos = to

    def fail(self, what: str, line: int | None = None, turn: int = 0) -> RecordError:
        """An error at `line` (where the reading is, by default), in `turn` if any."""
        where = f"line {self.line if line is None else line}" + (f", turn {turn}" if turn else "")
        return RecordError(f"{where}: {what}")

    def record(self) -> Record:
        tags, tag_lines = self.tags()
        check_tags(tags, tag_lines, self.limits, max(tag_lines.values()) + 1)
        return _Moves(self, tags.get("Result", UNFINISHED) == UNFINISHED).record(tags, tag_lines)

    def tags(self) -> tuple[dict[str, str], dict[str, int]]:
        """The tag pairs at the top, after any blank lines; a blank line ends them."""
        text = self.text
        tags: dict[str, str] = {}
        lines: dict[str, int] = {}
        self.advance(_blank_end(text, 0))
        while _TAG_START.match(text, self.pos):
            if len(tags) == self.limits.tags:
                raise self.fail(f"more tags than the {self.limits.tags:,} a record may hold")
            m = _TAG_LINE.match(text, self.pos)
            if m is None:
                got = text[self.pos : self.pos + 200].split("\n", 1)[0].strip()
                raise self.fail(f'not a tag pair like [Seed "42"]: {shown(got)}')
            name, raw = m.group(1), m.group(2)
            value = unquote_tag(raw) if len(raw) <= 2 * self.limits.tag_value else raw
            if len(value) > self.limits.tag_value:
                raise self.fail(
                    f"the tag {name}'s value is over {self.limits.tag_value:,} characters, "
                    "the most a tag holds"
                )
            if name in tags:
                raise self.fail(f"the tag {name} comes twice")
            tags[name], lines[name] = value, self.line
            self.advance(m.end())
            blank = _blank_end(text, self.pos)
            if blank > self.pos:
                self.advance(blank)
                break
        if not tags:
            got = text[self.pos : self.pos + 200].split("\n", 1)[0].strip()
            found = shown(got) if got else "nothing"
            raise self.fail(f'a record starts with tag pairs like [Players "2"], not {found}')
        return tags, lines


class _Moves:
    """The move text after the tags: numbered turns, each an action and the return
    that may end it (R13), and comments after any move."""

    def __init__(self, reader: _Reader, unfinished: bool) -> None:
        self.r = reader
        self.moves: list[str] = []
        self.lines: list[int] = []
        self.comments: dict[int, list[str]] = {}
        self.count = 0  # comments so far
        self.turn, self.in_turn = 0, 0  # the turn's number, and its moves so far
        self.turn_line = 0  # where the turn's number is
        self.words: list[str] = []  # the move being read
        self.word_line = 0
        self.chars = 0
        self.known: dict[str, str] = {}  # text read -> its canonical notation
        self.stop = len(reader.text)
        if unfinished:  # a `*` alone on the last line marks a game not over
            text = reader.text
            end = len(text.rstrip())
            last = text.rfind("\n", 0, end) + 1
            if last >= reader.pos and text[last:end].strip() == UNFINISHED:
                self.stop = last

    def record(self, tags: dict[str, str], tag_lines: dict[str, int]) -> Record:
        r, text = self.r, self.r.text
        while (m := _TOKEN.search(text, r.pos, self.stop)) is not None:
            r.advance(m.start())
            token = m.group()
            if token == "{":
                self.comment(m.end())
                continue
            r.pos = m.end()
            if token[-1] == "." and token[:-1].isascii() and token[:-1].isdigit():
                self.number(token)
            else:
                self.word(token)
        self.flush()
        r.advance(self.stop)
        if self.turn and self.in_turn == 0:
            raise r.fail(f"turn {self.turn} has no move", self.turn_line)
        comments = {i: tuple(said) for i, said in self.comments.items()}
        return Record(tags, tuple(self.moves), comments, tuple(self.lines), tag_lines)

    def number(self, token: str) -> None:
        self.flush()
        r = self.r
        if token != f"{self.turn + 1}.":
            raise r.fail(f"turn {self.turn + 1} was next, not {shown(token, 12)}")
        if self.turn and self.in_turn == 0:
            raise r.fail(f"turn {self.turn} has no move", self.turn_line)
        self.turn, self.in_turn, self.turn_line = self.turn + 1, 0, r.line

    def word(self, token: str) -> None:
        r = self.r
        if token.lower() in VERBS:
            self.flush()
        if not self.words:
            if self.turn == 0:
                raise r.fail(f"{shown(token, 12)} before turn 1.")
            self.word_line, self.chars = r.line, 0
        self.words.append(token)
        self.chars += len(token) + 1
        if len(self.words) > MOVE_WORDS or self.chars > MOVE_CHARS:
            said = " ".join(self.words)
            raise r.fail(f"{shown(said, 24)} is not a move", self.word_line, self.turn)

    def flush(self) -> None:
        """The move read so far, checked and kept."""
        if not self.words:
            return
        r, said = self.r, " ".join(self.words)
        self.words.clear()
        text = self.known.get(said)
        if text is None:
            try:
                text = str(parse_move(said))
            except SplendorError as e:
                raise r.fail(str(e), self.word_line, self.turn) from None
            self.known[said] = text
        is_return = text.startswith("return ")
        if is_return and self.in_turn != 1:
            raise r.fail("a return ends a turn's action", self.word_line, self.turn)
        if not is_return and self.in_turn != 0:
            raise r.fail("one action a turn; number the next", self.word_line, self.turn)
        if len(self.moves) == r.limits.moves:
            raise r.fail(
                f"more moves than the {r.limits.moves:,} a record may hold", self.word_line
            )
        self.moves.append(text)
        self.lines.append(self.word_line)
        self.in_turn += 1

    def comment(self, start: int) -> None:
        """The comment whose `{` ends at `start`: kept after the move before it."""
        self.flush()
        r, limits = self.r, self.r.limits
        if not self.moves:
            raise r.fail("a comment before the first move")
        m = _COMMENT_REST.match(r.text, start, self.stop)
        if m is None:
            raise r.fail("a comment opened here has no closing brace }")
        raw = r.text[start : m.end() - 1]
        said = unquote_comment(raw) if len(raw) <= 2 * limits.comment else raw
        if len(said) > limits.comment:
            raise r.fail(f"a comment over {limits.comment:,} characters, the most one holds")
        if self.count == limits.comments:
            raise r.fail(f"more comments than the {limits.comments:,} a record may hold")
        self.count += 1
        self.comments.setdefault(len(self.moves) - 1, []).append(said)
        r.advance(m.end())


__all__ = ["parse_record", "utf8_size"]
