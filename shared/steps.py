"""The steps of a move that change the fresh copy `GameState.apply_unchecked` makes: a
reserve (R9), a buy (R10) and the refill of its slot (R11), a noble's visit (R14), and the
small helpers they share with it. Written for speed, as `shared.state` is (docs/design.md,
"A fast engine behind one declaration"): tuples rebuilt through a list, turn summaries
made once per move."""

from __future__ import annotations

from . import tables
from .constants import Five, Six
from .moves import ALL_MOVES, RESERVES, Move, Reserve, ReserveDeck
from .position import Position
from .records import TurnSummary

_TOP_BIT = tables.TOP_BIT
_COST_PAIRS = tables.COST_PAIRS
_CARD_COLOUR = tables.COLOUR
_CARD_PRESTIGE = tables.PRESTIGE
_CARD_LEVEL = tables.LEVEL
_NOBLE_PAIRS = tables.NOBLE_PAIRS


def replace_at(tup: tuple, i: int, value: object) -> tuple:  # type: ignore[type-arg]
    """`tup` with item `i` replaced: through a list, twice as fast as slices."""
    items = list(tup)
    items[i] = value
    return tuple(items)


# A turn's summary as `apply` first records it, made once per move: (move, None, None,
# took gold). A move built without `parse_move` (not interned) gets a fresh one.
PLAIN: dict[int, TurnSummary] = {id(m): TurnSummary(m) for m in ALL_MOVES}
GOLD: dict[int, TurnSummary] = {
    id(m): TurnSummary(m, None, None, True)
    for m in ALL_MOVES
    if isinstance(m, Reserve | ReserveDeck)
}
_new_tuple = tuple.__new__


def summary_of(action: Move, returned: Move | None, noble: int | None, gold: bool) -> TurnSummary:
    """A TurnSummary from its four parts, without NamedTuple's keyword-handling `__new__`."""
    return _new_tuple(TurnSummary, (action, returned, noble, gold))


def reserve(s: Position, p: int, move: Move, idx: int, blind: bool) -> tuple[Six, TurnSummary]:
    """R9: card `idx` joins p's reserves, with a gold if any is left. Gives p's tokens
    and the turn's summary."""
    s.reserved = replace_at(s.reserved, p, (*s.reserved[p], (idx, blind)))
    s.passes = 0
    mine = s.tokens[p]
    b = s.bank
    if b[5] > 0:
        mine = (mine[0], mine[1], mine[2], mine[3], mine[4], mine[5] + 1)
        s.tokens = replace_at(s.tokens, p, mine)
        s.bank = (b[0], b[1], b[2], b[3], b[4], b[5] - 1)
        return mine, GOLD.get(id(move)) or TurnSummary(move, None, None, True)
    return mine, PLAIN.get(id(move)) or TurnSummary(move)


def take_from_board(s: Position, idx: int) -> None:
    """Remove a face-up card and refill its slot from the deck (R11)."""
    level = _CARD_LEVEL[idx] - 1
    row = s.board[level]
    slot = row.index(idx)
    deck = s.decks[level]
    new = deck[0] if deck else -1
    if deck:
        s.decks = replace_at(s.decks, level, deck[1:])
    s.board = replace_at(s.board, level, replace_at(row, slot, new))
    table = s._table
    if table is None:
        return
    if len(deck) <= 1:  # an empty slot, or the deck's reserve move goes: work it out anew
        s._table = None
        return
    face_up, reserves, on_table = table
    at = face_up.index(idx)
    s._table = (
        replace_at(face_up, at, new),
        replace_at(reserves, at, RESERVES[new]),
        on_table - _TOP_BIT[idx] + _TOP_BIT[new],
    )


def buy(s: Position, p: int, idx: int) -> Six:
    """R10: fixed payment, gold only for the shortfall; R11 refill. Gives p's tokens."""
    t = s.tokens[p]
    bonus = s.bonuses[p]
    pay = [0, 0, 0, 0, 0]
    gold = 0
    for c, n in _COST_PAIRS[idx]:
        n -= bonus[c]
        if n > 0:
            have = t[c]
            if n > have:
                pay[c] = have
                gold += n - have
            else:
                pay[c] = n
    w, u, g, r, k = pay
    mine = (t[0] - w, t[1] - u, t[2] - g, t[3] - r, t[4] - k, t[5] - gold)
    s.tokens = replace_at(s.tokens, p, mine)
    b = s.bank
    s.bank = (b[0] + w, b[1] + u, b[2] + g, b[3] + r, b[4] + k, b[5] + gold)
    own = s.reserved[p]
    for i, (held, _) in enumerate(own):
        if held == idx:
            s.reserved = replace_at(s.reserved, p, own[:i] + own[i + 1 :])
            break
    else:
        take_from_board(s, idx)
    colours = list(bonus)
    colours[_CARD_COLOUR[idx]] += 1
    s.bonuses = replace_at(s.bonuses, p, tuple(colours))
    prestige = list(s.card_prestige)
    prestige[p] += _CARD_PRESTIGE[idx]
    s.card_prestige = tuple(prestige)
    bought = list(s.bought)
    bought[p] += (idx,)
    s.bought = tuple(bought)
    return mine


def visit_noble(s: Position, p: int, bonus: Five) -> None:
    """R14: the first noble on the table whose demand p's bonuses meet visits p."""
    for i, noble in enumerate(s.nobles):  # table order
        for c, n in _NOBLE_PAIRS[noble]:
            if bonus[c] < n:
                break
        else:
            s.nobles = s.nobles[:i] + s.nobles[i + 1 :]
            s.player_nobles = replace_at(s.player_nobles, p, (*s.player_nobles[p], noble))
            last = s.last_turns[p]
            assert last is not None
            s.last_turns = replace_at(s.last_turns, p, summary_of(last[0], last[1], noble, last[3]))
            return
