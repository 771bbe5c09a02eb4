"""The table's tiles: a card (face up, reserved, looked up, a deck or an empty slot) and a
bank pile.

A tile is a small frozen value (`CardFace`, `PileFace`) drawn into lines by a
cached function; the board (`client.widgets.board`) lays the lines out. A card
reads the same everywhere, with or without colour:

     K 1-25   2★      its bonus colour (a chip), its id, its prestige
     3W 5K            its cost, pieces one space apart
     need 1W 3K       what you still need ("✓ buy" when you can buy it, "✓ buy 2*"
                      with 2 gold); a fourth line on tall cards: what buying it takes

Each tile keeps a blank cell on its left, so two cards' costs are always at least
three cells apart, and a cost never runs into its neighbour's.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.cards import COLOUR_NAMES, LETTERS, card
from shared.i18n import _, ngettext, per_language_cache, pgettext

from .lines import strip
from .palette import BAD, CHIP, DIM, GOLD_BG, GOOD, GREEN_BG, chip, cost_text, fit

CARD, DECK, EMPTY = "card", "deck", "empty"


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a card tile shows.

    ``kind`` is "card", "deck" or "empty". ``need`` is what the viewer still lacks per
    colour (W U G R K; empty for a spectator), ``gold`` the gold that buying would take
    and ``affordable`` whether they can buy it; ``pay`` what buying would cost them
    (the tall card's last line); ``fresh`` marks a card new since the last move;
    ``look`` a card looked up (not on the board).
    """

    kind: str = EMPTY
    card: str | None = None
    level: int = 0
    count: int = 0
    need: tuple[int, ...] = ()
    gold: int = 0
    affordable: bool = False
    fresh: bool = False
    blind: bool = False
    label: str = ""
    pay: str = ""
    look: bool = False


# Tile backgrounds and (tall, boxed cards) borders.
FLAT = {"card": "#262b36", DECK: "#1d2230", EMPTY: "#181b22", "affordable": GREEN_BG}
FLAT_CURSOR, FLAT_CURSOR_AFFORDABLE, FLAT_LOOK = "#3b4d70", "#2f6a45", "#1f2c45"
BOXED, BOXED_AFFORDABLE, BOXED_CURSOR = "#1a1f29", "#17301f", "#2c3b58"
BORDER = {"card": "#3a4256", DECK: "#2b3242", EMPTY: "#20252f"}
BORDER_AFFORDABLE, BORDER_FRESH, BORDER_CURSOR = "#4fd27a", "#e8b500", "#4ea1ff"
BORDER_LOOK = "#8a6cff"
ROUND, HEAVY = "╭─╮│╰╯", "┏━┓┃┗┛"
CURSOR_GLYPH = Style.parse("bold #ffffff")


@per_language_cache(maxsize=8192)
def card_strips(
    face: CardFace, width: int, height: int, cursor: bool, boxed: bool, base: Style
) -> tuple[Strip, ...]:
    """A card slot (or deck, or reserve slot) `width` cells wide: 3 lines flat, 5 or 6
    boxed. `base` is the text colour the rest of the table uses. Cached by value, so every
    session showing the same card in the same state shares its lines."""
    if not boxed:
        if cursor:
            colour = FLAT_CURSOR_AFFORDABLE if face.affordable else FLAT_CURSOR
        elif face.look:
            colour = FLAT_LOOK
        else:
            colour = FLAT["affordable"] if face.affordable else FLAT[_kind(face)]
        style = base + Style(bgcolor=colour)
        lines = card_lines(face, width, cursor, height)
        return tuple(
            strip(lines[y] if y < len(lines) else Text(""), width, style) for y in range(height)
        )
    colour = BOXED_CURSOR if cursor else BOXED_AFFORDABLE if face.affordable else BOXED
    if cursor:
        edge, corners = BORDER_CURSOR, HEAVY
    elif face.look:
        edge, corners = BORDER_LOOK, HEAVY
    elif face.fresh:
        edge, corners = BORDER_FRESH, ROUND
    elif face.affordable:
        edge, corners = BORDER_AFFORDABLE, ROUND
    else:
        edge, corners = BORDER[_kind(face)], ROUND
    style = base + Style(bgcolor=colour)
    line_style = style + Style(color=edge)
    top_left, across, top_right, side, bottom_left, bottom_right = tuple(corners)
    inner = width - 2
    lines = card_lines(face, inner, cursor, height - 2)
    out = [strip(Text(top_left + across * inner + top_right), width, line_style)]
    for y in range(height - 2):
        content = strip(lines[y] if y < len(lines) else Text(""), inner, style)
        edge_strip = strip(Text(side), 1, line_style)
        out.append(Strip.join([edge_strip, content, edge_strip]))
    out.append(strip(Text(bottom_left + across * inner + bottom_right), width, line_style))
    return tuple(out)


def _kind(face: CardFace) -> str:
    return face.kind if face.kind in (DECK, EMPTY) else "card"


def card_lines(face: CardFace, width: int, cursor: bool, lines: int = 3) -> tuple[Text, ...]:
    """What a card slot says, `width` cells wide, line by line (`lines` lines: 3, or 4 on
    tall cards). A card's lines are made and kept one by one: a move changes what the
    player needs of most cards (their third line), and nothing else of them."""
    width = max(1, width)
    if face.kind == DECK:
        rows = _deck(face, width)
    elif face.kind == EMPTY or face.card is None:
        rows = _blind(face, width) if face.blind else (Text(" " + face.label, style=DIM),)
    else:
        rows = _card(face, width, lines)
    if cursor:  # a glyph too, so the cursor shows without colour (NO_COLOR); all bold
        first = Text("▶", style=CURSOR_GLYPH) + rows[0][1:]
        first.truncate(width)
        rows = (first, *(Text(style=CURSOR_GLYPH) + row for row in rows[1:]))
    return rows


def _deck(face: CardFace, width: int) -> tuple[Text, ...]:
    roman = "I" * face.level
    pad = " " if width > 4 else ""
    top = Text(f"{pad}{roman}", style="bold")
    # TRANSLATORS: the board's deck column: at most 4 letters (an abbreviation ends in ".").
    short = pgettext("deck column", "deck")
    word = pad + short if width < 9 else " " + _("level {level}", level=face.level)
    middle = Text(word, style=DIM)
    n = face.count
    count = f"{pad}{n}" if width < 9 else " " + ngettext("{n} left", "{n} left", n)
    # TRANSLATORS: the board's deck column, no card left: at most 4 letters.
    empty = pad + (pgettext("deck column", "none") if width < 9 else _("none"))
    bottom = Text(count, style="bold") if n else Text(empty, style=DIM)
    return fit(top, width), fit(middle, width), fit(bottom, width)


def _blind(face: CardFace, width: int) -> tuple[Text, ...]:
    top = fit(Text(f" level {face.level}" if width >= 8 else f" L{face.level}", "bold"), width)
    return top, fit(Text(" blind", style=DIM), width), Text("")


def _card(face: CardFace, width: int, lines: int) -> tuple[Text, ...]:
    assert face.card is not None
    rows = (
        _top(face.card, face.fresh, width),
        _cost(face.card, width),
        need_text(face.card, face.affordable, face.gold, face.need, width),
    )
    if lines >= 4:
        return (*rows, _last(face.card, face.pay, width))
    return rows


# A card's lines, each cached by the few values it shows (the Text is shared: never
# changed in place).


@per_language_cache(maxsize=4096)
def _top(card_id: str, fresh: bool, width: int) -> Text:
    c = card(card_id)
    top = Text(" ")
    top.append_text(chip(c.colour, f" {LETTERS[c.colour]} "))
    top.append(" ")
    top.append(c.id, style="bold underline #ffd23f" if fresh else "bold")
    if c.prestige:
        points = f"{c.prestige}★"
        gap = width - top.cell_len - len(points) - (1 if width >= 15 else 0)
        if gap >= 1:
            top.append(" " * gap)
            top.append(points, style="bold #ffd23f")
    return fit(top, width)


@per_language_cache(maxsize=4096)
def _cost(card_id: str, width: int) -> Text:
    return fit(Text(" ") + cost_text(card(card_id).cost, width - 1), width)


@per_language_cache(maxsize=4096)
def _last(card_id: str, pay: str, width: int) -> Text:
    """A tall card's fourth line: what buying it takes, or its bonus."""
    if pay:
        return fit(Text(" " + _("pays {pay}", pay=pay), style=DIM), width)
    colour = _(COLOUR_NAMES[card(card_id).colour])
    return fit(Text(" " + _("{colour} bonus", colour=colour), style=DIM), width)


@per_language_cache(maxsize=8192)
def need_text(card_id: str, affordable: bool, gold: int, need: tuple[int, ...], width: int) -> Text:
    """The card's third line: "✓ buy", "✓ buy 2*", or "need 1W 3K" (its one form, the
    pieces run together only when the card is too narrow for spaces)."""
    if affordable:
        return fit(Text(_(" ✓ buy") + (f" {gold}*" if gold else ""), style=GOOD), width)
    if not any(need):
        return fit(Text(f" {_(COLOUR_NAMES[card(card_id).colour])}", style=DIM), width)
    word = _("need")
    room = width - cell_len(word) - 2
    counts = cost_text(need, room, chips=False)  # spaced if it fits
    short = counts.cell_len > room
    out = Text(f"{word} " if short else f" {word} ", style=BAD)
    out.append_text(counts)
    return fit(out, width)


@dataclass(frozen=True, slots=True)
class PileFace:
    """A bank pile: the colour, how many tokens it holds, and the change the player is
    choosing (+n taken, or -n given back, R13)."""

    colour: int
    count: int
    picked: int = 0


PICKED = GOLD_BG


@per_language_cache(maxsize=1024)
def pile_strip(face: PileFace, width: int, cursor: bool, base: Style) -> Strip:
    """One bank pile, `width` cells: cursor glyph, the gem chip, how many, the change."""
    out = Text("▶" if cursor else " ", style=CURSOR_GLYPH)
    out.append_text(chip(face.colour, f" {LETTERS[face.colour]} "))
    change = f"{face.picked:+d}" if face.picked else ""
    count = str(face.count)
    if out.cell_len + 2 + len(change) <= width:
        count = f"{count:>2}"  # counts line up when there is room
    out.append(count, style="bold" if face.count else DIM)
    out.append(change, style=CHIP[5])
    if cursor:
        base = base + Style(bgcolor=FLAT_CURSOR)
    elif face.picked:
        base = base + Style(bgcolor=PICKED)
    return strip(out, width, base)
