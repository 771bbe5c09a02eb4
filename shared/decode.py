"""Checking decoded data: from plain msgpack values back to states, views and moves.

`shared.codec` unpacks the bytes; this module turns what it unpacked into engine
values, checking every type, range and id on the way, so that anything but a
valid encoding ends as `CodecError` with a message saying what is wrong.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_BY_ID, CARDS, NOBLE_BY_ID
from .deal import assemble
from .errors import CodecError, SplendorError
from .moves import Move, parse_move
from .state import (
    ACTION,
    GEMS_BY_PLAYERS,
    GOLD_TOKENS,
    RETURN_PHASE,
    TOKEN_LIMIT,
    GameState,
    Outcome,
    TurnSummary,
)
from .view import LastTurn, PlayerInfo, PlayerView, ReservedCard


def malformed(what: str) -> CodecError:
    return CodecError(f"malformed data: {what}")


def _int(x: object, what: str, lo: int = 0, hi: int = 1 << 64) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise malformed(f"{what} should be an integer in {lo}..{hi}")
    return x


def _bool(x: object, what: str) -> bool:
    if not isinstance(x, bool):
        raise malformed(f"{what} should be true or false")
    return x


def as_seq(x: object, what: str, n: int | None = None) -> tuple[Any, ...]:
    if not isinstance(x, tuple) or (n is not None and len(x) != n):
        raise malformed(f"{what} should be a list" + (f" of {n}" if n is not None else ""))
    return x


def _ints(x: object, what: str, n: int | None = None) -> tuple[int, ...]:
    seq = as_seq(x, what, n)
    if not all(type(v) is int and 0 <= v <= 1000 for v in seq):  # bool is not an int here
        raise malformed(f"{what} should be integers in 0..1000")
    return seq


def as_dict(x: object, what: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise malformed(f"{what} should be a map")
    return x


def _card_index(x: object) -> int:
    if not isinstance(x, str) or x not in CARD_BY_ID:
        raise malformed(f"{x!r} is not a card id")
    return CARD_BY_ID[x].index


_INDEX_BY_ID = {c.id: c.index for c in CARDS}


def _card_indexes(x: object, what: str) -> tuple[int, ...]:
    """A list of card ids as indexes: one dict look-up each (decks are long)."""
    ids = as_seq(x, what)
    try:
        return tuple(map(_INDEX_BY_ID.__getitem__, ids))
    except (KeyError, TypeError):
        return tuple(_card_index(c) for c in ids)  # raises, naming the bad id


def _card_id(x: object) -> str:
    if not isinstance(x, str) or x not in CARD_BY_ID:
        raise malformed(f"{x!r} is not a card id")
    return x


def _noble_id(x: object) -> str:
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


def _opt_move(x: object) -> Move | None:
    return None if x is None else move_from(x)


def turn_from(x: object) -> LastTurn:
    """A turn from `shared.codec.turn_payload`'s list."""
    action, returned, noble, gold = as_seq(x, "turn", 4)
    return LastTurn(
        action=move_from(action),
        returned=_opt_move(returned),
        noble=None if noble is None else _noble_id(noble),
        took_gold=_bool(gold, "took_gold"),
    )


def _phase(x: object) -> str:
    if x not in (ACTION, RETURN_PHASE):
        raise malformed(f"unknown phase {x!r}")
    return str(x)


def outcome_from(x: object) -> Outcome:
    scores, ranks = as_seq(x, "outcome", 2)
    return Outcome(scores=_ints(scores, "scores"), ranks=_ints(ranks, "ranks"))


def state_from(d: dict[str, Any]) -> GameState:
    n = _int(d["players"], "players", 2, 4)
    f: dict[str, Any] = {}
    f["num_players"] = n
    f["seed"] = _int(d["seed"], "seed")
    f["bank"] = _ints(d["bank"], "bank", 6)
    f["tokens"] = tuple(_ints(t, "tokens", 6) for t in as_seq(d["tokens"], "tokens", n))
    f["bonuses"] = tuple(_ints(b, "bonuses", 5) for b in as_seq(d["bonuses"], "bonuses", n))
    f["card_prestige"] = _ints(d["card_prestige"], "card_prestige", n)
    f["bought"] = tuple(_card_indexes(b, "bought") for b in as_seq(d["bought"], "bought", n))
    f["reserved"] = tuple(
        tuple(
            (_card_index(as_seq(r, "reserved", 2)[0]), _bool(r[1], "blind"))
            for r in as_seq(rs, "reserved")
        )
        for rs in as_seq(d["reserved"], "reserved", n)
    )
    f["player_nobles"] = tuple(
        tuple(NOBLE_BY_ID[_noble_id(x)].index for x in as_seq(ns, "nobles"))
        for ns in as_seq(d["player_nobles"], "player_nobles", n)
    )
    f["board"] = tuple(
        tuple(-1 if c is None else _card_index(c) for c in as_seq(row, "board row", 4))
        for row in as_seq(d["board"], "board", 3)
    )
    f["decks"] = tuple(_card_indexes(deck, "deck") for deck in as_seq(d["decks"], "decks", 3))
    f["nobles"] = tuple(NOBLE_BY_ID[_noble_id(x)].index for x in as_seq(d["nobles"], "nobles"))
    f["current_player"] = _int(d["current"], "current", 0, n - 1)
    f["starting_player"] = _int(d["start"], "start", 0, n - 1)
    f["phase"] = _phase(d["phase"])
    f["turn"] = _int(d["turn"], "turn", 1)
    f["final_round"] = _bool(d["final_round"], "final_round")
    f["passes"] = _int(d["passes"], "passes", 0, n)
    f["is_over"] = _bool(d["over"], "over")
    last: list[TurnSummary | None] = []
    for t in as_seq(d["last"], "last", n):
        if t is None:
            last.append(None)
            continue
        action, returned, noble, gold = as_seq(t, "last turn", 4)
        last.append(
            TurnSummary(
                move_from(action),
                _opt_move(returned),
                None if noble is None else NOBLE_BY_ID[_noble_id(noble)].index,
                _bool(gold, "took_gold"),
            )
        )
    f["last_turns"] = tuple(last)
    s = assemble(**f)
    _check_consistent(s)
    return s


def _check_consistent(s: GameState) -> None:
    """Refuse a state that no game can reach in ways that would break the engine later."""
    places = [i for row in s.board for i in row if i >= 0]
    places += [i for d in s.decks for i in d]
    places += [i for r in s.reserved for i, _ in r]
    places += [i for b in s.bought for i in b]
    if sorted(places) != list(range(len(CARDS))):
        raise malformed("every card must be in exactly one place")
    nobles = list(s.nobles) + [i for n in s.player_nobles for i in n]
    if len(set(nobles)) != len(nobles):
        raise malformed("a noble is in two places")
    gems = GEMS_BY_PLAYERS[s.num_players]
    for c in range(6):
        total = s.bank[c] + sum(t[c] for t in s.tokens)
        if total != (GOLD_TOKENS if c == 5 else gems):
            raise malformed("tokens are not conserved")
    if any(len(r) > 3 for r in s.reserved):
        raise malformed("more than 3 reserved cards")
    held = sum(s.tokens[s.current_player])
    if s.phase == RETURN_PHASE and not TOKEN_LIMIT < held <= TOKEN_LIMIT + 3:
        raise malformed("a return phase needs 11 to 13 tokens")


def view_from(d: dict[str, Any]) -> PlayerView:
    n = _int(d["players_n"], "players", 2, 4)
    seat = d["seat"]
    if seat is not None:
        _int(seat, "seat", 0, n - 1)
    players = []
    for p in as_seq(d["players"], "players", n):
        p = as_dict(p, "player")
        last = p["last"]
        players.append(
            PlayerInfo(
                seat=_int(p["seat"], "seat", 0, n - 1),
                tokens=_ints(p["tokens"], "tokens", 6),
                bonuses=_ints(p["bonuses"], "bonuses", 5),
                prestige=_int(p["prestige"], "prestige", 0, 1000),
                bought=tuple(_card_id(c) for c in as_seq(p["bought"], "bought")),
                nobles=tuple(_noble_id(x) for x in as_seq(p["nobles"], "nobles")),
                reserved=tuple(
                    ReservedCard(
                        level=_int(as_seq(r, "reserved", 3)[0], "level", 1, 3),
                        card=None if r[1] is None else _card_id(r[1]),
                        blind=_bool(r[2], "blind"),
                    )
                    for r in as_seq(p["reserved"], "reserved")
                ),
                last_turn=None if last is None else turn_from(last),
            )
        )
    return PlayerView(
        seat=seat,
        num_players=n,
        bank=_ints(d["bank"], "bank", 6),
        board=tuple(
            tuple(None if c is None else _card_id(c) for c in as_seq(row, "board row", 4))
            for row in as_seq(d["board"], "board", 3)
        ),
        deck_sizes=_ints(d["decks"], "decks", 3),
        nobles=tuple(_noble_id(x) for x in as_seq(d["nobles"], "nobles")),
        players=tuple(players),
        current_player=_int(d["current"], "current", 0, n - 1),
        starting_player=_int(d["start"], "start", 0, n - 1),
        phase=_phase(d["phase"]),
        turn=_int(d["turn"], "turn", 1),
        final_round=_bool(d["final_round"], "final_round"),
        is_over=_bool(d["over"], "over"),
        outcome=None if d["outcome"] is None else outcome_from(d["outcome"]),
        legal_moves=tuple(move_from(m) for m in as_seq(d["legal"], "legal moves")),
    )
