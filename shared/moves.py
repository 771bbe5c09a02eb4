"""Moves: small frozen values that print and parse themselves (docs/rules.md, "Notation").

``str(move)`` is the canonical notation and ``parse_move(str(move)) == move``.
Every move a game can contain exists once in `ALL_MOVES`; `parse_move` returns
those interned instances, so legality checks are identity look-ups.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement

from .cards import CARDS, LETTERS, card
from .errors import InvalidMoveError
from .i18n import L_, N_


def _counts(colours: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    c = [0] * 6
    for x in colours:
        c[x] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


@dataclass(frozen=True, slots=True)
class Move:
    """Base of all moves: `Take`, `Reserve`, `ReserveDeck`, `Buy`, `Return`, `Pass`.
    Code tells them apart by class (match, isinstance)."""

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Take(Move):
    """R7/R8: take gems; ``colours`` sorted, a colour twice for the take-two move."""

    colours: tuple[int, ...]
    counts: tuple[int, int, int, int, int, int] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", _counts(self.colours))

    def __str__(self) -> str:
        return "take " + " ".join(LETTERS[c] for c in self.colours)


@dataclass(frozen=True, slots=True, repr=False)
class Reserve(Move):
    """R9: reserve a face-up card."""

    card: str
    index: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", card(self.card).index)

    def __str__(self) -> str:
        return f"reserve {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class ReserveDeck(Move):
    """R9: reserve the top card of a level's deck, blind."""

    level: int

    def __str__(self) -> str:
        return f"reserve deck {self.level}"


@dataclass(frozen=True, slots=True, repr=False)
class Buy(Move):
    """R10: buy a face-up card or one of your own reserved cards."""

    card: str
    index: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", card(self.card).index)

    def __str__(self) -> str:
        return f"buy {self.card}"


@dataclass(frozen=True, slots=True, repr=False)
class Return(Move):
    """R13: give tokens back to the bank to end the turn with 10; ``tokens`` sorted."""

    tokens: tuple[int, ...]
    counts: tuple[int, int, int, int, int, int] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", _counts(self.tokens))

    def __str__(self) -> str:
        return "return " + " ".join(LETTERS[c] for c in self.tokens)


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Move):
    """R12: only when nothing else is possible."""

    def __str__(self) -> str:
        return "pass"


MAX_RETURN = 3  # a turn starts with at most 10 tokens and gains at most 3 (R7, R13)

PASS_MOVE = Pass()
TAKE_THREE = tuple(Take(c) for c in combinations(range(5), 3))
TAKE_TWO_SAME = tuple(Take((c, c)) for c in range(5))
TAKE_FEWER = tuple(Take(c) for n in (2, 1) for c in combinations(range(5), n))
RESERVES = tuple(Reserve(c.id) for c in CARDS)
RESERVE_DECKS = tuple(ReserveDeck(level) for level in (1, 2, 3))
BUYS = tuple(Buy(c.id) for c in CARDS)
RETURNS: tuple[tuple[Return, ...], ...] = tuple(
    tuple(Return(t) for t in combinations_with_replacement(range(6), k))
    for k in range(MAX_RETURN + 1)
)
# Take and return moves depend on a few numbers only; each answer is computed once:
# at most 8**5 banks and a few thousand token holdings above the limit.
_TAKES: dict[tuple[int, ...], tuple[Move, ...]] = {}
_RETURNS: dict[tuple[tuple[int, ...], int], tuple[Move, ...]] = {}


def takes_for(gems: tuple[int, ...]) -> tuple[Move, ...]:
    """R7 and R8 for the bank's five gem piles: the take moves, in a stable order."""
    moves = _TAKES.get(gems)
    if moves is None:
        available = [c for c in range(5) if gems[c] > 0]
        found: list[Move] = []
        if len(available) >= 3:
            found.extend(m for m in TAKE_THREE if all(gems[c] > 0 for c in m.colours))
        elif available:  # R7: fewer than 3 colours left, one move takes them all
            found.extend(m for m in TAKE_FEWER if m.colours == tuple(available))
        found.extend(m for m in TAKE_TWO_SAME if gems[m.colours[0]] >= 4)  # R8
        moves = _TAKES[gems] = tuple(found)
    return moves


def returns_for(tokens: tuple[int, ...], limit: int) -> tuple[Move, ...]:
    """R13 for a player's six token counts: every way back down to `limit`, in a stable order."""
    moves = _RETURNS.get((tokens, limit))
    if moves is None:
        excess = sum(tokens) - limit
        if 1 <= excess <= MAX_RETURN and max(tokens) < 16:
            # Lane c of `have` holds 16 + tokens[c]: it keeps its 16 after taking a
            # return's count away exactly when the player holds that many (R13).
            have = sum((16 + t) << (5 * c) for c, t in enumerate(tokens))
            found = [
                m for need, m in _RETURN_LANES[excess] if (have - need) & _SIXTEENS == _SIXTEENS
            ]
        else:
            found = [
                r
                for r in RETURNS[excess]
                if all(n <= t for n, t in zip(r.counts, tokens, strict=True))
            ]
        moves = _RETURNS[tokens, limit] = tuple(found)
    return moves


_SIXTEENS = sum(16 << (5 * c) for c in range(6))
_RETURN_LANES: tuple[tuple[tuple[int, Return], ...], ...] = tuple(
    tuple((sum(n << (5 * c) for c, n in enumerate(r.counts)), r) for r in rs) for rs in RETURNS
)


ALL_MOVES: tuple[Move, ...] = (
    *TAKE_THREE,
    *TAKE_TWO_SAME,
    *TAKE_FEWER,
    *RESERVES,
    *RESERVE_DECKS,
    *BUYS,
    *(r for k in RETURNS[1:] for r in k),
    PASS_MOVE,
)
_INTERNED: dict[Move, Move] = {m: m for m in ALL_MOVES}
_BY_NOTATION: dict[str, Move] = {str(m): m for m in ALL_MOVES}  # the fast path of parse_move

_CARD_ID = re.compile(r"^(\d)-(\d{1,2})$")


def _letters(text: str, allowed: str, what: str, original: str) -> tuple[int, ...]:
    letters = "".join(text.split()).upper()
    bad = [ch for ch in letters if ch not in allowed]
    if bad:
        said = (
            N_("`{original}` is not a move: {bad!r} is not a gem letter")
            if what == "gem"
            else N_("`{original}` is not a move: {bad!r} is not a token letter")
        )
        raise InvalidMoveError(L_(said, original=original, bad=bad[0]))
    return tuple(sorted(allowed.index(ch) for ch in letters))


def _card_id(text: str, original: str) -> str:
    m = _CARD_ID.match(text.strip())
    if not m:
        raise InvalidMoveError(
            L_(
                "`{original}` is not a move: {text!r} is not a card id",
                original=original,
                text=text.strip(),
            )
        )
    try:
        return card(text.strip()).id
    except KeyError:
        raise InvalidMoveError(
            L_(
                "`{original}` is not a move: there is no card {text}",
                original=original,
                text=text.strip(),
            )
        ) from None


def parse_move(text: str) -> Move:
    """The move a notation text names; `InvalidMoveError` if it can never be a move.

    Accepts any letter order and case, letters run together, extra spaces, and
    card ids without the leading zero.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(L_("a move is text, not {name}", name=type(text).__name__))
    canonical = _BY_NOTATION.get(text)
    if canonical is not None:
        return canonical
    original = " ".join(text.split())
    verb, _, rest = original.partition(" ")
    verb = verb.lower()
    move: Move
    if verb == "take":
        colours = _letters(rest, "WUGRK", "gem", original)
        distinct = len(set(colours))
        if not colours:
            raise InvalidMoveError(
                L_("`{original}` is not a move: take which gems?", original=original)
            )
        if not (distinct == len(colours) <= 3 or (len(colours) == 2 and distinct == 1)):
            raise InvalidMoveError(
                L_(
                    "`{original}` is not a move: take up to 3 different gems, or 2 of one colour",
                    original=original,
                )
            )
        move = Take(colours)
    elif verb == "reserve":
        words = rest.split()
        if words and words[0].lower() == "deck":
            if len(words) != 2 or words[1] not in ("1", "2", "3"):
                raise InvalidMoveError(
                    L_("`{original}` is not a move: decks are 1, 2 and 3", original=original)
                )
            move = ReserveDeck(int(words[1]))
        else:
            move = Reserve(_card_id(rest, original))
    elif verb == "buy":
        move = Buy(_card_id(rest, original))
    elif verb == "return":
        tokens = _letters(rest, LETTERS, "token", original)
        if not 1 <= len(tokens) <= MAX_RETURN:
            raise InvalidMoveError(
                L_(
                    "`{original}` is not a move: return 1 to {MAX_RETURN} tokens",
                    original=original,
                    MAX_RETURN=MAX_RETURN,
                )
            )
        move = Return(tokens)
    elif verb == "pass":
        if rest:
            raise InvalidMoveError(
                L_("`{original}` is not a move: pass takes nothing", original=original)
            )
        move = PASS_MOVE
    else:
        raise InvalidMoveError(
            L_(
                "`{original}` is not a move: start with take, reserve, buy, return or pass",
                original=original,
            )
        )
    return _INTERNED.get(move, move)
