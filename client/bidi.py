"""How a logical line of right-to-left text becomes what a terminal is sent (issue 34).

Most terminals (xterm, tmux, Windows Terminal, Alacritty, kitty) neither join Arabic
letters nor order right-to-left text: for them the app lays each line out itself
("visual": the Unicode Bidirectional Algorithm on the line, python-bidi, and the joined
letter forms, arabic-reshaper). A few terminals (VTE's, Konsole, mlterm) do both
themselves: for them text goes as written ("logical"). Pure: no Textual, no I/O.

A line is wrapped in its logical order first, then laid out (`lay_out`): reordering
before wrapping would cut a sentence's end onto the first line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal, TypeVar

import arabic_reshaper
from bidi import algorithm as uba
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

Mode = Literal["visual", "logical"]
Base = Literal["L", "R"]  # the paragraph's direction: left to right, right to left
MODES: tuple[Mode, ...] = ("visual", "logical")


def mode_of(reading: str | None) -> Mode | None:
    """A kept way of showing (`shared.i18n.Reader.reading`) as a `Mode`, None if unknown."""
    return "visual" if reading == "visual" else "logical" if reading == "logical" else None


RIGHT_TO_LEFT_LANGUAGES = frozenset({"fa", "ar", "he", "ur", "ps", "ckb", "yi"})

ZWNJ = "\u200c"
LRM = "\u200e"
LRE, PDF = "\u202a", "\u202c"
# Zero-width characters that only steer joining or the algorithm: not drawn once it ran.
UNDRAWN = frozenset({ZWNJ, LRM, "\u200f", "\u061c"})
# Notation inside a sentence (a card id 1-07, a clock 5+10, a rule R13): read left to
# right as a whole, as if a left-to-right mark stood before it. The algorithm alone would
# show "1-07" after Persian words as "07-1" (its digits take the Arabic letters' side).
NOTATION = re.compile(r"[A-Za-z0-9]+(?:[-+:/.][A-Za-z0-9]+)+")
# Letters keep a cell each: a ligature (lam-alef) would make two letters one cell, and
# shift everything after it. Vowel marks stay where they were written.
_RESHAPER = arabic_reshaper.ArabicReshaper(
    configuration={
        "delete_harakat": False,
        "shift_harakat_position": False,
        "delete_tatweel": False,
        "support_ligatures": False,
        "support_zwj": True,
    }
)
_RTL_CLASSES = frozenset({"R", "AL", "AN"})
_FRAME = range(0x2500, 0x25A0)  # box drawing and blocks: a widget's frame and dividers
_WRAP_CONSOLE = Console(width=512, color_system=None, force_terminal=False, legacy_windows=False)

T = TypeVar("T")


def is_right_to_left(language: str) -> bool:
    """Whether `language` (``fa``, ``fa_IR``, ``fa-IR.UTF-8``) is written right to left."""
    return language.replace("-", "_").split("_")[0].split(".")[0].lower() in (
        RIGHT_TO_LEFT_LANGUAGES
    )


def has_right_to_left(text: str) -> bool:
    """Whether `text` holds a right-to-left letter or an Arabic digit (what a
    left-to-right line would otherwise show in the wrong order)."""
    return any(ord(ch) >= 0x590 and unicodedata.bidirectional(ch) in _RTL_CLASSES for ch in text)


def shape(text: str) -> str:
    """`text` with Arabic-script letters in their joined forms (initial, medial, final),
    one character for one: a ZWNJ (U+200C) keeps the letters on its two sides apart."""
    if not has_right_to_left(text):
        return text
    shaped: str = _RESHAPER.reshape(text)
    return shaped if len(shaped) == len(text) else text


def _separator(ch: str, at: int, text: str) -> bool:
    """Whether `ch` at `at` parts two columns: a frame character, or a space in a run of
    two or more (a list's columns, a footer's keys)."""
    if ord(ch) in _FRAME:
        return True
    return ch == " " and (text[at - 1 : at] == " " or text[at + 1 : at + 2] == " ")


def visual_order(text: str, base: Base = "R", columns: bool = False) -> list[tuple[int, str]]:
    """Each cell of `text` as shown, left to right: (the index of its character in `text`,
    the character drawn there, joined and mirrored). Characters of no width that only
    steer the algorithm (a ZWNJ, once letters are joined; the marks) are not drawn, and
    notation (`NOTATION`) reads left to right.

    `columns`: runs of two or more spaces and frame characters part columns (the
    algorithm's segment separators), so a right-to-left line mirrors a list's columns,
    and its leading and trailing frame characters stay where they are."""
    order, drawn = _visual_order(text, base, columns)
    return list(zip(order, drawn, strict=True))


@lru_cache(maxsize=4096)
def _visual_order(text: str, base: Base, columns: bool) -> tuple[tuple[int, ...], str]:
    """`visual_order` kept compact (indices, and the characters as one string): the same
    lines come back on every frame and for every session reading the language."""
    shaped = shape(text)
    lead = 0
    trail = len(text)
    if columns:
        while lead < trail and ord(text[lead]) in _FRAME:
            lead += 1
        while trail > lead and ord(text[trail - 1]) in _FRAME:
            trail -= 1
    pieces = _pieces(text, shaped, lead, trail, base, columns)
    storage = uba.get_empty_storage()
    storage["base_level"] = 1 if base == "R" else 0
    storage["base_dir"] = base
    uba.get_embedding_levels("".join(ch for _, ch, _ in pieces), storage)
    chars = storage["chars"]
    where: dict[int, dict[str, object]] = {}
    for (at, _, separates), char in zip(pieces, chars, strict=True):
        char["at"] = at
        if at >= 0:
            where[at] = char
        if separates:
            char["type"] = char["orig"] = "S"
    for token in NOTATION.finditer(text, lead, trail):
        for at in range(token.start(), token.end()):
            where[at]["type"] = where[at]["orig"] = "L"
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    _pair_brackets(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    uba.reorder_resolved_levels(storage, False)
    uba.apply_mirroring(storage, False)
    middle = [(c["at"], c["ch"]) for c in storage["chars"] if c["ch"] not in UNDRAWN]
    edges = (
        [(at, shaped[at]) for at in range(lead)],
        [(at, shaped[at]) for at in range(trail, len(text))],
    )
    cells = edges[0] + _marks_after_base(middle) + edges[1]
    return tuple(at for at, _ in cells), "".join(ch for _, ch in cells)


# Paired brackets (Bidi_Paired_Bracket of the characters a game's text uses).
BRACKETS = {"(": ")", "[": "]", "{": "}"}
_CLOSING = {v: k for k, v in BRACKETS.items()}


def _strong(kind: str) -> str | None:
    """A resolved type as rule N0 reads it: L, R (numbers count as R), or None."""
    return "L" if kind == "L" else "R" if kind in ("R", "AL", "EN", "AN") else None


def _pair_brackets(storage: dict[str, Any]) -> None:
    """Rule N0 (paired brackets, UAX #9 since Unicode 6.3), which python-bidi's pure-Python
    algorithm, the one that tells where each character goes, leaves out: without it a
    bracket takes its neighbours' side, so "Ann (شما)" shows as "Ann ((امش" and a card's
    "(R)" after a card id in a Persian sentence comes out mirrored. Run on each level run
    after the weak types (W1-W7), before N1-N2, as the algorithm orders it."""
    chars = storage["chars"]
    for run in storage["runs"]:
        start, end = run["start"], run["start"] + run["length"]
        embedding = "R" if chars[start]["level"] % 2 else "L"
        stack: list[tuple[str, int]] = []
        pairs: list[tuple[int, int]] = []
        for at in range(start, end):  # BD16: at most 63 open brackets deep
            ch, kind = chars[at]["ch"], chars[at]["type"]
            if kind != "ON":
                continue
            if ch in BRACKETS:
                if len(stack) == 63:
                    break
                stack.append((BRACKETS[ch], at))
            elif ch in _CLOSING:
                found = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][0] == ch), None)
                if found is not None:
                    pairs.append((stack[found][1], at))
                    del stack[found:]
        for opening, closing in sorted(pairs):
            inside = {_strong(chars[i]["type"]) for i in range(opening + 1, closing)}
            if embedding in inside:
                side = embedding
            elif inside - {None}:  # only the other direction inside: the context decides
                before = (_strong(chars[i]["type"]) for i in range(opening - 1, start - 1, -1))
                context = next((k for k in before if k), run["sor"])
                side = context  # the other direction before it too, else the embedding's
            else:
                continue
            chars[opening]["type"] = chars[closing]["type"] = side


def _pieces(
    text: str, shaped: str, lead: int, trail: int, base: Base, columns: bool
) -> list[tuple[int, str, bool]]:
    """The algorithm's input between the frame's edges: (index in `text`, character,
    whether it parts columns). In a right-to-left line laid out by columns, a column with
    no right-to-left letter is embedded left to right (LRE ... PDF, index -1): the columns
    mirror, while an English phrase, a name or a number keeps its own order, brackets and
    full stop included."""
    out: list[tuple[int, str, bool]] = []
    at = lead
    while at < trail:
        if columns and _separator(text[at], at, text):
            out.append((at, shaped[at], True))
            at += 1
            continue
        end = at + 1
        while end < trail and not (columns and _separator(text[end], end, text)):
            end += 1
        embed = columns and base == "R" and not has_right_to_left(text[at:end])
        out.extend([(-1, LRE, False)] if embed else [])
        out.extend((i, shaped[i], False) for i in range(at, end))
        out.extend([(-1, PDF, False)] if embed else [])
        at = end
    return out


def _marks_after_base(cells: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A reversed run puts a letter's combining marks before it; a terminal puts a mark on
    the cell before it, so each goes back after its letter (the algorithm's rule L3)."""
    out: list[tuple[int, str]] = []
    marks: list[tuple[int, str]] = []
    for cell in cells:
        if unicodedata.combining(cell[1]) and (marks or not out or out[-1][0] > cell[0]):
            marks.append(cell)  # before its letter: held until the letter is out
            continue
        out.append(cell)
        if marks:
            out.extend(sorted(marks))
            marks = []
    return out + marks


def visual(text: str, base: Base = "R") -> str:
    """One line as a terminal without bidi must be sent it to read right."""
    return "".join(ch for _, ch in visual_order(text, base))


def shown(text: str, mode: Mode, base: Base = "R") -> str:
    """One line as sent in `mode`: laid out (``visual``) or as written (``logical``)."""
    return visual(text, base) if mode == "visual" else text


def wrap(text: str, width: int) -> list[str]:
    """`text` cut into lines of at most `width` cells at spaces (a longer word is cut),
    in logical order, by Rich's wrapping (cell widths, not characters)."""
    if width <= 0:
        return [text]
    lines = Text(text).wrap(_WRAP_CONSOLE, width, no_wrap=False, overflow="fold")
    return [line.plain.rstrip() for line in lines] or [""]


def lay_out(text: str, width: int, mode: Mode, base: Base = "R") -> list[str]:
    """A paragraph as lines of `width` cells at most, each as sent in `mode`: wrapped in
    logical order, then each line laid out (in ``visual``), right-aligned for a
    right-to-left paragraph."""
    lines = wrap(text, width)
    if mode == "logical":
        return lines
    out = [visual(line, base) for line in lines]
    if base == "R":
        out = [" " * max(0, width - cell_len(line)) + line for line in out]
    return out


def reorder_runs(
    runs: Sequence[tuple[str, T]],
    base: Base,
    same: Callable[[T, T], bool] = lambda a, b: a is b,
) -> list[tuple[str, T]] | None:
    """Styled runs of one drawn line, laid out: each character keeps its run's payload (a
    style); neighbours of the same payload are joined again. Runs of two or more spaces
    and frame characters part columns (see `visual_order`). None when nothing moves (a
    left-to-right line with no right-to-left letter in it)."""
    text = "".join(part for part, _ in runs)
    if base == "L" and not has_right_to_left(text):
        return None
    owner: list[T] = []
    for part, payload in runs:
        owner.extend([payload] * len(part))
    order = visual_order(text, base, columns=True)
    out: list[tuple[str, T]] = []
    for at, ch in order:
        payload = owner[at]
        if out and same(out[-1][1], payload):
            out[-1] = (out[-1][0] + ch, payload)
        else:
            out.append((ch, payload))
    return out
