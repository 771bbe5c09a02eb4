"""The wire and storage format: msgpack, versioned. The only module that imports msgpack.

``dumps(obj)`` takes a `GameState`, `PlayerView`, `Move`, `Outcome` or a
message (a dict with str keys whose values are msgpack-able data, tuples for
sequences, and any of the former); ``loads(dumps(x)) == x``. Every encoding is
``[FORMAT_VERSION, tag, payload]``. Cards and nobles travel as their ids
(``"1-07"``, ``"N3"``) and moves as notation, so saved games stay readable.
Anything else ``loads`` is given raises `CodecError`, never another type.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .cards import CARD_BY_ID, CARDS, NOBLE_BY_ID, NOBLES
from .errors import SplendorError
from .moves import Move, parse_move
from .state import ACTION, RETURN_PHASE, GameState, Outcome, TurnSummary, assemble
from .view import LastTurn, PlayerInfo, PlayerView, ReservedCard

FORMAT_VERSION = 1
MAX_BYTES = 1 << 20  # nothing we send or save comes near 1 MiB

_EXT_VIEW, _EXT_MOVE, _EXT_STATE, _EXT_OUTCOME = 1, 2, 3, 4


class CodecError(SplendorError):
    """Bytes that are not a valid encoding of ours; the message says what is wrong."""


# -- encoding ----------------------------------------------------------------


def _move(m: Move | None) -> str | None:
    return None if m is None else str(m)


def _state_payload(s: GameState) -> dict[str, Any]:
    ids = [c.id for c in CARDS]
    nids = [n.id for n in NOBLES]
    return {
        "players": s.num_players,
        "seed": s.seed,
        "bank": s.bank,
        "tokens": s.tokens,
        "bonuses": s.bonuses,
        "card_prestige": s.card_prestige,
        "bought": [[ids[i] for i in b] for b in s.bought],
        "reserved": [[[ids[i], blind] for i, blind in r] for r in s.reserved],
        "player_nobles": [[nids[i] for i in n] for n in s.player_nobles],
        "board": [[ids[i] if i >= 0 else None for i in row] for row in s.board],
        "decks": [[ids[i] for i in d] for d in s.decks],
        "nobles": [nids[i] for i in s.nobles],
        "current": s.current_player,
        "start": s.starting_player,
        "phase": s.phase,
        "turn": s.turn,
        "final_round": s.final_round,
        "passes": s.passes,
        "over": s.is_over,
        "last": [
            None
            if t is None
            else [str(t.action), _move(t.returned), None if t.noble is None else nids[t.noble],
                  t.took_gold]  # fmt: skip
            for t in s.last_turns
        ],
    }


def _view_payload(v: PlayerView) -> dict[str, Any]:
    return {
        "seat": v.seat,
        "players_n": v.num_players,
        "bank": v.bank,
        "board": v.board,
        "decks": v.deck_sizes,
        "nobles": v.nobles,
        "players": [
            {
                "seat": p.seat,
                "tokens": p.tokens,
                "bonuses": p.bonuses,
                "prestige": p.prestige,
                "bought": p.bought,
                "nobles": p.nobles,
                "reserved": [[r.level, r.card, r.blind] for r in p.reserved],
                "last": None
                if p.last_turn is None
                else [
                    str(p.last_turn.action),
                    _move(p.last_turn.returned),
                    p.last_turn.noble,
                    p.last_turn.took_gold,
                ],
            }
            for p in v.players
        ],
        "current": v.current_player,
        "start": v.starting_player,
        "phase": v.phase,
        "turn": v.turn,
        "final_round": v.final_round,
        "over": v.is_over,
        "outcome": None if v.outcome is None else [v.outcome.scores, v.outcome.ranks],
        "legal": [str(m) for m in v.legal_moves],
    }


def _default(obj: object) -> Any:
    if isinstance(obj, PlayerView):
        return msgpack.ExtType(_EXT_VIEW, _packb(_view_payload(obj)))
    if isinstance(obj, Move):
        return msgpack.ExtType(_EXT_MOVE, str(obj).encode())
    if isinstance(obj, GameState):
        return msgpack.ExtType(_EXT_STATE, _packb(_state_payload(obj)))
    if isinstance(obj, Outcome):
        return msgpack.ExtType(_EXT_OUTCOME, _packb([obj.scores, obj.ranks]))
    raise TypeError(f"cannot encode {type(obj).__name__}")


def _packb(obj: object) -> bytes:
    return msgpack.packb(obj, default=_default, use_bin_type=True)


def dumps(obj: GameState | PlayerView | Move | Outcome | dict[str, Any]) -> bytes:
    """Encode a state, view, move, outcome or message as versioned msgpack bytes."""
    if isinstance(obj, GameState):
        return _packb([FORMAT_VERSION, "state", _state_payload(obj)])
    if isinstance(obj, PlayerView):
        return _packb([FORMAT_VERSION, "view", _view_payload(obj)])
    if isinstance(obj, Move):
        return _packb([FORMAT_VERSION, "move", str(obj)])
    if isinstance(obj, Outcome):
        return _packb([FORMAT_VERSION, "outcome", [obj.scores, obj.ranks]])
    if isinstance(obj, dict):
        try:
            return _packb([FORMAT_VERSION, "msg", obj])
        except (TypeError, ValueError, OverflowError) as e:
            raise CodecError(f"cannot encode message: {e}") from e
    raise CodecError(f"cannot encode {type(obj).__name__}")


# -- decoding ----------------------------------------------------------------


def _fail(what: str) -> CodecError:
    return CodecError(f"malformed data: {what}")


def _int(x: object, what: str, lo: int = 0, hi: int = 1 << 64) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
        raise _fail(f"{what} should be an integer in {lo}..{hi}")
    return x


def _bool(x: object, what: str) -> bool:
    if not isinstance(x, bool):
        raise _fail(f"{what} should be true or false")
    return x


def _seq(x: object, what: str, n: int | None = None) -> tuple[Any, ...]:
    if not isinstance(x, tuple) or (n is not None and len(x) != n):
        raise _fail(f"{what} should be a list" + (f" of {n}" if n is not None else ""))
    return x


def _ints(x: object, what: str, n: int | None = None) -> tuple[int, ...]:
    seq = _seq(x, what, n)
    if not all(type(v) is int and 0 <= v <= 1000 for v in seq):  # bool is not an int here
        raise _fail(f"{what} should be integers in 0..1000")
    return seq


def _dict(x: object, what: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise _fail(f"{what} should be a map")
    return x


def _card_index(x: object) -> int:
    if not isinstance(x, str) or x not in CARD_BY_ID:
        raise _fail(f"{x!r} is not a card id")
    return CARD_BY_ID[x].index


_INDEX_BY_ID = {c.id: c.index for c in CARDS}


def _card_indexes(x: object, what: str) -> tuple[int, ...]:
    """A list of card ids as indexes: one dict look-up each (decks are long)."""
    ids = _seq(x, what)
    try:
        return tuple(map(_INDEX_BY_ID.__getitem__, ids))
    except (KeyError, TypeError):
        return tuple(_card_index(c) for c in ids)  # raises, naming the bad id


def _card_id(x: object) -> str:
    if not isinstance(x, str) or x not in CARD_BY_ID:
        raise _fail(f"{x!r} is not a card id")
    return x


def _noble_id(x: object) -> str:
    if not isinstance(x, str) or x not in NOBLE_BY_ID:
        raise _fail(f"{x!r} is not a noble id")
    return x


def _move_of(x: object) -> Move:
    if not isinstance(x, str):
        raise _fail("a move should be notation text")
    try:
        return parse_move(x)
    except SplendorError as e:
        raise _fail(str(e)) from e


def _opt_move(x: object) -> Move | None:
    return None if x is None else _move_of(x)


def _phase(x: object) -> str:
    if x not in (ACTION, RETURN_PHASE):
        raise _fail(f"unknown phase {x!r}")
    return str(x)


def _outcome(x: object) -> Outcome:
    scores, ranks = _seq(x, "outcome", 2)
    return Outcome(scores=_ints(scores, "scores"), ranks=_ints(ranks, "ranks"))


def _state(d: dict[str, Any]) -> GameState:
    n = _int(d["players"], "players", 2, 4)
    f: dict[str, Any] = {}
    f["num_players"] = n
    f["seed"] = _int(d["seed"], "seed")
    f["bank"] = _ints(d["bank"], "bank", 6)
    f["tokens"] = tuple(_ints(t, "tokens", 6) for t in _seq(d["tokens"], "tokens", n))
    f["bonuses"] = tuple(_ints(b, "bonuses", 5) for b in _seq(d["bonuses"], "bonuses", n))
    f["card_prestige"] = _ints(d["card_prestige"], "card_prestige", n)
    f["bought"] = tuple(_card_indexes(b, "bought") for b in _seq(d["bought"], "bought", n))
    f["reserved"] = tuple(
        tuple(
            (_card_index(_seq(r, "reserved", 2)[0]), _bool(r[1], "blind"))
            for r in _seq(rs, "reserved")
        )
        for rs in _seq(d["reserved"], "reserved", n)
    )
    f["player_nobles"] = tuple(
        tuple(NOBLE_BY_ID[_noble_id(x)].index for x in _seq(ns, "nobles"))
        for ns in _seq(d["player_nobles"], "player_nobles", n)
    )
    f["board"] = tuple(
        tuple(-1 if c is None else _card_index(c) for c in _seq(row, "board row", 4))
        for row in _seq(d["board"], "board", 3)
    )
    f["decks"] = tuple(_card_indexes(deck, "deck") for deck in _seq(d["decks"], "decks", 3))
    f["nobles"] = tuple(NOBLE_BY_ID[_noble_id(x)].index for x in _seq(d["nobles"], "nobles"))
    f["current_player"] = _int(d["current"], "current", 0, n - 1)
    f["starting_player"] = _int(d["start"], "start", 0, n - 1)
    f["phase"] = _phase(d["phase"])
    f["turn"] = _int(d["turn"], "turn", 1)
    f["final_round"] = _bool(d["final_round"], "final_round")
    f["passes"] = _int(d["passes"], "passes", 0, n)
    f["is_over"] = _bool(d["over"], "over")
    last: list[TurnSummary | None] = []
    for t in _seq(d["last"], "last", n):
        if t is None:
            last.append(None)
            continue
        action, returned, noble, gold = _seq(t, "last turn", 4)
        last.append(
            TurnSummary(
                _move_of(action),
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
    from .state import GEMS_BY_PLAYERS, GOLD_TOKENS, TOKEN_LIMIT

    places = [i for row in s.board for i in row if i >= 0]
    places += [i for d in s.decks for i in d]
    places += [i for r in s.reserved for i, _ in r]
    places += [i for b in s.bought for i in b]
    if sorted(places) != list(range(len(CARDS))):
        raise _fail("every card must be in exactly one place")
    nobles = list(s.nobles) + [i for n in s.player_nobles for i in n]
    if len(set(nobles)) != len(nobles):
        raise _fail("a noble is in two places")
    gems = GEMS_BY_PLAYERS[s.num_players]
    for c in range(6):
        total = s.bank[c] + sum(t[c] for t in s.tokens)
        if total != (GOLD_TOKENS if c == 5 else gems):
            raise _fail("tokens are not conserved")
    if any(len(r) > 3 for r in s.reserved):
        raise _fail("more than 3 reserved cards")
    held = sum(s.tokens[s.current_player])
    if s.phase == RETURN_PHASE and not TOKEN_LIMIT < held <= TOKEN_LIMIT + 3:
        raise _fail("a return phase needs 11 to 13 tokens")


def _view(d: dict[str, Any]) -> PlayerView:
    n = _int(d["players_n"], "players", 2, 4)
    seat = d["seat"]
    if seat is not None:
        _int(seat, "seat", 0, n - 1)
    players = []
    for p in _seq(d["players"], "players", n):
        p = _dict(p, "player")
        last = p["last"]
        players.append(
            PlayerInfo(
                seat=_int(p["seat"], "seat", 0, n - 1),
                tokens=_ints(p["tokens"], "tokens", 6),
                bonuses=_ints(p["bonuses"], "bonuses", 5),
                prestige=_int(p["prestige"], "prestige", 0, 1000),
                bought=tuple(_card_id(c) for c in _seq(p["bought"], "bought")),
                nobles=tuple(_noble_id(x) for x in _seq(p["nobles"], "nobles")),
                reserved=tuple(
                    ReservedCard(
                        level=_int(_seq(r, "reserved", 3)[0], "level", 1, 3),
                        card=None if r[1] is None else _card_id(r[1]),
                        blind=_bool(r[2], "blind"),
                    )
                    for r in _seq(p["reserved"], "reserved")
                ),
                last_turn=None
                if last is None
                else LastTurn(
                    action=_move_of(_seq(last, "last turn", 4)[0]),
                    returned=_opt_move(last[1]),
                    noble=None if last[2] is None else _noble_id(last[2]),
                    took_gold=_bool(last[3], "took_gold"),
                ),
            )
        )
    return PlayerView(
        seat=seat,
        num_players=n,
        bank=_ints(d["bank"], "bank", 6),
        board=tuple(
            tuple(None if c is None else _card_id(c) for c in _seq(row, "board row", 4))
            for row in _seq(d["board"], "board", 3)
        ),
        deck_sizes=_ints(d["decks"], "decks", 3),
        nobles=tuple(_noble_id(x) for x in _seq(d["nobles"], "nobles")),
        players=tuple(players),
        current_player=_int(d["current"], "current", 0, n - 1),
        starting_player=_int(d["start"], "start", 0, n - 1),
        phase=_phase(d["phase"]),
        turn=_int(d["turn"], "turn", 1),
        final_round=_bool(d["final_round"], "final_round"),
        is_over=_bool(d["over"], "over"),
        outcome=None if d["outcome"] is None else _outcome(d["outcome"]),
        legal_moves=tuple(_move_of(m) for m in _seq(d["legal"], "legal moves")),
    )


def _unpackb(data: bytes) -> Any:
    return msgpack.unpackb(
        data,
        use_list=False,
        raw=False,
        strict_map_key=True,
        ext_hook=_ext_hook,
    )


def _ext_hook(code: int, data: bytes) -> object:
    if code == _EXT_VIEW:
        return _view(_dict(_unpackb(data), "view"))
    if code == _EXT_MOVE:
        return _move_of(data.decode())
    if code == _EXT_STATE:
        return _state(_dict(_unpackb(data), "state"))
    if code == _EXT_OUTCOME:
        return _outcome(_unpackb(data))
    raise _fail(f"unknown extension type {code}")


def loads(data: bytes) -> Any:
    """Decode what `dumps` made; `CodecError` for anything else."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CodecError(f"expected bytes, got {type(data).__name__}")
    if len(data) > MAX_BYTES:
        raise CodecError(f"{len(data)} bytes is more than the {MAX_BYTES} allowed")
    if not data:
        raise CodecError("no data")
    try:
        top = _unpackb(bytes(data))
        version, tag, payload = _seq(top, "top level", 3)
        if type(version) is not int or version != FORMAT_VERSION:
            raise CodecError(f"format version {version!r}; this build reads {FORMAT_VERSION}")
        if tag == "state":
            return _state(_dict(payload, "state"))
        if tag == "view":
            return _view(_dict(payload, "view"))
        if tag == "move":
            return _move_of(payload)
        if tag == "outcome":
            return _outcome(payload)
        if tag == "msg":
            return _dict(payload, "message")
        raise _fail(f"unknown tag {tag!r}")
    except CodecError:
        raise
    except msgpack.ExtraData as e:
        raise CodecError("trailing bytes after the message") from e
    except (ValueError, msgpack.UnpackException) as e:
        raise CodecError(f"not valid msgpack: {e}") from e
    except (KeyError, TypeError, IndexError, AttributeError, UnicodeDecodeError) as e:
        raise CodecError(f"malformed data: {type(e).__name__}: {e}") from e
    except RecursionError as e:
        raise CodecError("data nested too deeply") from e
