"""How engine values travel as plain data, and the checks that bring them back.

A `Shape` is a pair of functions: `encode` turns a value into msgpack-able data
(cards and nobles as their ids, moves as notation, so saved games stay readable)
and `decode` turns such data back, raising `CodecError` for anything that is not
a valid encoding. `GameState` declares each of its fields with its shape
(`stored`); the codec and the decoder walk that declaration (`stored_fields`),
so a new field is written out once. No msgpack here: that is `shared.codec`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Generic, TypeVar, cast

from .cards import CARD_BY_ID, CARDS, NOBLE_BY_ID, NOBLES
from .constants import ACTION, RETURN_PHASE, Five, Six
from .errors import CodecError, SplendorError
from .moves import Move, parse_move
from .records import TurnSummary
from .settings import MAX_TARGET, MIN_TARGET

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Shape(Generic[T]):
    """How one kind of value travels: `encode(value)` gives plain data, and
    `decode(data, what, players)` checks it all and gives the value back; `what` names
    the value in errors, `players` is the game's player count (seats and per-seat lists
    depend on it)."""

    encode: Callable[[T], Any]
    decode: Callable[[Any, str, int], T]


_SHAPE = "shape"  # the key of a field's shape in its dataclass metadata
_ABSENT = "absent"  # ...and of what data written before the field existed reads as


def stored(shape: Shape[T], *, absent: T | None = None) -> T:
    """A dataclass field stored in `shape`'s form: a field specifier like `dataclasses.field`,
    whose type checkers check the field's declared type against the shape's. A field added
    later names in `absent` what data stored without it means (the decoder uses it)."""
    metadata: dict[str, Any] = {_SHAPE: shape}
    if absent is not None:
        metadata[_ABSENT] = absent
    return cast(T, field(metadata=metadata))


def stored_fields(cls: type) -> tuple[tuple[str, Shape[Any]], ...]:
    """The `stored` fields of a dataclass, in declaration order: (name, shape)."""
    return tuple((f.name, f.metadata[_SHAPE]) for f in fields(cls) if _SHAPE in f.metadata)


def absent_values(cls: type) -> dict[str, Any]:
    """What each `stored` field added later reads as in data stored before it: name → value."""
    return {f.name: f.metadata[_ABSENT] for f in fields(cls) if _ABSENT in f.metadata}


# -- checks of decoded data ------------------------------------------------------


def malformed(what: str) -> CodecError:
    return CodecError(f"malformed data: {what}")


def as_int(x: object, what: str, lo: int = 0, hi: int = 1 << 64) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise malformed(f"{what} should be an integer in {lo}..{hi}")
    return x


def as_bool(x: object, what: str) -> bool:
    if not isinstance(x, bool):
        raise malformed(f"{what} should be true or false")
    return x


def as_seq(x: object, what: str, n: int | None = None) -> tuple[Any, ...]:
    if not isinstance(x, tuple) or (n is not None and len(x) != n):
        raise malformed(f"{what} should be a list" + (f" of {n}" if n is not None else ""))
    return x


def as_ints(x: object, what: str, n: int | None = None) -> tuple[int, ...]:
    seq = as_seq(x, what, n)
    if not all(type(v) is int and 0 <= v <= 1000 for v in seq):  # bool is not an int here
        raise malformed(f"{what} should be integers in 0..1000")
    return seq


def as_dict(x: object, what: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise malformed(f"{what} should be a map")
    return x


def card_id(x: object) -> str:
    if not isinstance(x, str) or x not in CARD_BY_ID:
        raise malformed(f"{x!r} is not a card id")
    return x


def noble_id(x: object) -> str:
    if not isinstance(x, str) or x not in NOBLE_BY_ID:
        raise malformed(f"{x!r} is not a noble id")
    return x


def move_from(x: object) -> Move:
    if not isinstance(x, str):
        raise malformed("a move should be notation text")
    try:
        return parse_move(x)
    except SplendorError as e:
        raise malformed(str(e)) from e


def opt_move(x: object) -> Move | None:
    return None if x is None else move_from(x)


def as_phase(x: object) -> str:
    if x not in (ACTION, RETURN_PHASE):
        raise malformed(f"unknown phase {x!r}")
    return str(x)


_CARD_IDS = tuple(c.id for c in CARDS)
_NOBLE_IDS = tuple(n.id for n in NOBLES)
_CARD_INDEX = {c.id: c.index for c in CARDS}


def _card_index(x: object) -> int:
    return CARD_BY_ID[card_id(x)].index


def _noble_index(x: object) -> int:
    return NOBLE_BY_ID[noble_id(x)].index


def _card_indexes(x: object, what: str) -> tuple[int, ...]:
    """A list of card ids as indexes: one dict look-up each (decks are long)."""
    ids = as_seq(x, what)
    try:
        return tuple(map(_CARD_INDEX.__getitem__, ids))
    except (KeyError, TypeError):
        return tuple(_card_index(c) for c in ids)  # raises, naming the bad id


# -- the shapes of GameState's fields --------------------------------------------


def _same(value: T) -> T:
    return value


def number(lo: int = 0, hi: int = 1 << 64) -> Shape[int]:
    """An integer in lo..hi."""
    return Shape(_same, lambda x, what, n: as_int(x, what, lo, hi))


def per_seat(shape: Shape[T]) -> Shape[tuple[T, ...]]:
    """One value of `shape` for each seat, in seat order."""

    def encode(values: tuple[T, ...]) -> list[Any]:
        return [shape.encode(v) for v in values]

    def decode(x: object, what: str, n: int) -> tuple[T, ...]:
        return tuple(shape.decode(v, what, n) for v in as_seq(x, what, n))

    return Shape(encode, decode)


def _six(x: object, what: str, n: int) -> Six:
    t = as_ints(x, what, 6)
    return (t[0], t[1], t[2], t[3], t[4], t[5])


def _five(x: object, what: str, n: int) -> Five:
    t = as_ints(x, what, 5)
    return (t[0], t[1], t[2], t[3], t[4])


def _encode_reserved(reserved: tuple[tuple[int, bool], ...]) -> list[Any]:
    return [[_CARD_IDS[i], blind] for i, blind in reserved]


def _decode_reserved(x: object, what: str, n: int) -> tuple[tuple[int, bool], ...]:
    return tuple(
        (_card_index(as_seq(r, what, 2)[0]), as_bool(r[1], "blind")) for r in as_seq(x, what)
    )


def _encode_board(board: tuple[tuple[int, ...], ...]) -> list[Any]:
    return [[_CARD_IDS[i] if i >= 0 else None for i in row] for row in board]


def _decode_board(x: object, what: str, n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(-1 if c is None else _card_index(c) for c in as_seq(row, "board row", 4))
        for row in as_seq(x, what, 3)
    )


def turn_list(action: Move, returned: Move | None, noble: str | None, gold: bool) -> list[Any]:
    """The one encoding of a turn, in a state, a view and a table's log alike: ``[action,
    returned or None, noble id or None, took gold]`` (`turn_parts` reads it back)."""
    return [str(action), None if returned is None else str(returned), noble, gold]


def turn_parts(x: object) -> tuple[Move, Move | None, str | None, bool]:
    """A turn's parts from `turn_list`'s list, each checked."""
    action, returned, noble, gold = as_seq(x, "turn", 4)
    return (
        move_from(action),
        opt_move(returned),
        None if noble is None else noble_id(noble),
        as_bool(gold, "took_gold"),
    )


def _encode_turn(t: TurnSummary | None) -> list[Any] | None:
    if t is None:
        return None
    noble = None if t.noble is None else _NOBLE_IDS[t.noble]
    return turn_list(t.action, t.returned, noble, t.took_gold)


def _decode_turn(x: object, what: str, n: int) -> TurnSummary | None:
    if x is None:
        return None
    action, returned, noble, gold = turn_parts(x)
    return TurnSummary(action, returned, None if noble is None else NOBLE_BY_ID[noble].index, gold)


PLAYER_COUNT = number(2, 4)
SEED = number()
TARGET = number(MIN_TARGET, MAX_TARGET)  # R15's prestige (`shared.settings`)
SEAT = Shape(_same, lambda x, what, n: as_int(x, what, 0, n - 1))
PASSES = Shape(_same, lambda x, what, n: as_int(x, what, 0, n))  # R18: at most n in a row
TURN = number(1)
FLAG = Shape(_same, lambda x, what, n: as_bool(x, what))
PHASE = Shape(_same, lambda x, what, n: as_phase(x))
PRESTIGE = number(0, 1000)
TOKENS: Shape[Six] = Shape(_same, _six)  # W U G R K *
BONUSES: Shape[Five] = Shape(_same, _five)  # W U G R K
CARD_LIST: Shape[tuple[int, ...]] = Shape(
    lambda cards: [_CARD_IDS[i] for i in cards], lambda x, what, n: _card_indexes(x, what)
)
NOBLE_LIST: Shape[tuple[int, ...]] = Shape(
    lambda nobles: [_NOBLE_IDS[i] for i in nobles],
    lambda x, what, n: tuple(_noble_index(v) for v in as_seq(x, what)),
)
RESERVED: Shape[tuple[tuple[int, bool], ...]] = Shape(_encode_reserved, _decode_reserved)
BOARD: Shape[tuple[tuple[int, ...], ...]] = Shape(_encode_board, _decode_board)
DECKS: Shape[tuple[tuple[int, ...], ...]] = Shape(
    lambda decks: [CARD_LIST.encode(d) for d in decks],
    lambda x, what, n: tuple(_card_indexes(d, "deck") for d in as_seq(x, what, 3)),
)
LAST_TURN: Shape[TurnSummary | None] = Shape(_encode_turn, _decode_turn)
