"""The table's tiles: a card (face up, reserved, a deck or an empty slot) and a bank pile.

A tile is a small frozen value (`CardFace`, `PileFace`) drawn into lines by a
cached function; the board (`client.widgets.board`) lays the lines out.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from shared.cards import COLOUR_NAMES, LETTERS, card

from .lines import strip
from .palette import BAD, CHIP, DIM, GOLD_BG, GOOD, GREEN_BG, INK, chip, cost_text, fit

CARD, DECK, EMPTY = "card", "deck", "empty"


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a card tile shows.

    ``kind`` is "card", "deck" or "empty"; ``needs`` is the card's last line
    (what the player still needs, or "✓ buy"); ``affordable`` makes it stand
    out; ``fresh`` marks a card new since the last move; ``hidden`` is a blind
    reserve of another player (level only).
    """

    kind: str = EMPTY
    card: str | None = None
    level: int = 0
    count: int = 0
    needs: str = ""
    affordable: bool = False
    fresh: bool = False
    blind: bool = False
    label: str = ""


# Tile backgrounds and (tall, boxed cards) borders, as the table's CSS used to give them.
FLAT = {"card": "#262b36", DECK: "#1d2230", EMPTY: "#181b22", "affordable": GREEN_BG}
FLAT_CURSOR, FLAT_CURSOR_AFFORDABLE = "#3b4d70", "#2f6a45"
BOXED, BOXED_AFFORDABLE, BOXED_CURSOR = "#1a1f29", "#17301f", "#2c3b58"
BORDER = {"card": "#3a4256", DECK: "#2b3242", EMPTY: "#20252f"}
BORDER_AFFORDABLE, BORDER_FRESH, BORDER_CURSOR = "#4fd27a", "#e8b500", "#4ea1ff"
ROUND, HEAVY = "╭─╮│╰╯", "┏━┓┃┗┛"
CURSOR_GLYPH = Style.parse("bold #ffffff")


@lru_cache(maxsize=8192)
def card_strips(
    face: CardFace, width: int, height: int, cursor: bool, boxed: bool, base: Style
) -> tuple[Strip, ...]:
    """A card slot (or deck, or reserve slot) `width` cells wide: 3 lines flat, 5 boxed.

    `base` is the text colour the rest of the table uses. Cached by value, so every
    session showing the same card in the same state shares its lines.
    """
    if not boxed:
        if cursor:
            colour = FLAT_CURSOR_AFFORDABLE if face.affordable else FLAT_CURSOR
        else:
            colour = FLAT["affordable"] if face.affordable else FLAT[_kind(face)]
        style = base + Style(bgcolor=colour)
        lines = card_text(face, width, cursor).split("\n")
        return tuple(
            strip(lines[y] if y < len(lines) else Text(""), width, style) for y in range(height)
        )
    colour = BOXED_CURSOR if cursor else BOXED_AFFORDABLE if face.affordable else BOXED
    if cursor:
        edge, corners = BORDER_CURSOR, HEAVY
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
    lines = card_text(face, inner, cursor).split("\n")
    out = [strip(Text(top_left + across * inner + top_right), width, line_style)]
    for y in range(height - 2):
        content = strip(lines[y] if y < len(lines) else Text(""), inner, style)
        edge_strip = strip(Text(side), 1, line_style)
        out.append(Strip.join([edge_strip, content, edge_strip]))
    out.append(strip(Text(bottom_left + across * inner + bottom_right), width, line_style))
    return tuple(out)


def _kind(face: CardFace) -> str:
    return face.kind if face.kind in (DECK, EMPTY) else "card"


def card_text(face: CardFace, width: int, cursor: bool) -> Text:
    """What a card slot says, `width` cells wide (three lines)."""
    width = max(1, width)
    if face.kind == DECK:
        text = _deck(face, width)
    elif face.kind == EMPTY or face.card is None:
        text = Text(face.label, style=DIM) if not face.blind else _blind(face, width)
    else:
        text = _card(face, width)
    if cursor:  # a glyph too, so the cursor shows without colour (NO_COLOR)
        text = (
            Text("▶", style=CURSOR_GLYPH) + text[1:]
            if text.plain[:1] == " "
            else (Text("▶", style=CURSOR_GLYPH) + text)
        )
        lines = text.split("\n")
        lines[0].truncate(width)
        text = Text("\n").join(lines)
    return text


def _deck(face: CardFace, width: int) -> Text:
    roman = "I" * face.level
    top = Text(f" {roman:<{width - 1}}", style="bold")
    middle = Text(f" {'deck' if width < 8 else 'level ' + str(face.level)}", style=DIM)
    n = face.count
    count = f"{n}" if width < 8 else f"{n} left"
    bottom = Text(f" {count if n else 'empty'}", style="bold" if n else DIM)
    return Text("\n").join([top, middle, bottom])


def _blind(face: CardFace, width: int) -> Text:
    top = fit(Text(f"level {face.level}" if width >= 7 else f"L{face.level}", style="bold"), width)
    return Text("\n").join([top, fit(Text("blind", style=DIM), width), Text("")])


def _card(face: CardFace, width: int) -> Text:
    assert face.card is not None
    c = card(face.card)
    top = Text()
    top.append_text(chip(c.colour, f" {'WUGRK'[c.colour]} "))
    top.append(" ")
    top.append(c.id, style="bold underline #ffd23f" if face.fresh else "bold")
    if c.prestige:
        points = f"{c.prestige}★" if width >= 11 else str(c.prestige)
        gap = width - top.cell_len - len(points)
        if gap >= 1:
            top.append(" " * gap)
            top.append(points, style="bold #ffd23f")
    cost = cost_text(c.cost, width)
    if face.affordable:
        needs = Text(face.needs, style=GOOD)
    elif face.needs:
        pieces = _pieces(face.needs)
        spaced = len(" ".join(pieces))
        if spaced + 5 <= width:
            needs, sep = Text("need ", style=BAD), " "
        elif spaced + 1 <= width:
            needs, sep = Text("-", style=BAD), " "
        else:
            needs, sep = Text("-", style=BAD), ""
        for i, piece in enumerate(pieces):
            colour = LETTERS.find(piece[-1])
            needs.append(sep if i else "")
            needs.append(piece, style=INK[colour] if colour >= 0 else BAD)
    else:
        needs = Text(COLOUR_NAMES[c.colour], style=DIM)
    return Text("\n").join([fit(top, width), fit(cost, width), fit(needs, width)])


def _pieces(text: str) -> list[str]:
    """``2U1K`` → ``["2U", "1K"]``."""
    pieces, current = [], ""
    for ch in text:
        current += ch
        if not ch.isdigit():
            pieces.append(current)
            current = ""
    return pieces


@dataclass(frozen=True, slots=True)
class PileFace:
    """A bank pile: the colour, how many tokens it holds, how many the player has picked."""

    colour: int
    count: int
    picked: int = 0
    held: int | None = None


PICKED = GOLD_BG


@lru_cache(maxsize=1024)
def pile_strip(face: PileFace, width: int, cursor: bool, base: Style) -> Strip:
    """One bank pile, `width` cells: cursor glyph, the gem chip, how many, how many picked."""
    out = Text("▶" if cursor else " ", style=CURSOR_GLYPH)
    out.append_text(chip(face.colour, f" {'WUGRK*'[face.colour]} "))
    count, picked = str(face.count), f"+{face.picked}" if face.picked else ""
    if out.cell_len + 2 + len(picked) <= width:
        count = f"{count:>2}"  # counts line up when there is room
    out.append(count, style="bold" if face.count else DIM)
    out.append(picked, style=CHIP[5])
    if cursor:
        base = base + Style(bgcolor=FLAT_CURSOR)
    elif face.picked:
        base = base + Style(bgcolor=PICKED)
    return strip(out, width, base)
