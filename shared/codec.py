"""The wire and storage format: msgpack, versioned. The only module that imports msgpack.

``dumps(obj)`` takes a `GameState`, `PlayerView`, `Move`, `Outcome` or a
message (a dict with str keys whose values are msgpack-able data, tuples for
sequences, and any of the former); ``loads(dumps(x)) == x``. Every encoding is
``[FORMAT_VERSION, tag, payload]``. Cards and nobles travel as their ids
(``"1-07"``, ``"N3"``) and moves as notation, so saved games stay readable.
Anything else ``loads`` is given raises `CodecError`, never another type; the
checks of decoded values live in `shared.decode`.
"""

from __future__ import annotations

from typing import Any

import msgpack

from .decode import outcome_from, state_from, view_from
from .errors import CodecError
from .moves import Move
from .state import WINNING_PRESTIGE, GameState, Outcome
from .view import LastTurn, PlayerView
from .wire import as_dict, as_seq, malformed, move_from, stored_fields, turn_list

# 2: a state's fields are stored under their names in GameState (they had short keys).
FORMAT_VERSION = 2
MAX_BYTES = 1 << 20  # nothing we send or save comes near 1 MiB

_EXT_VIEW, _EXT_MOVE, _EXT_STATE, _EXT_OUTCOME = 1, 2, 3, 4

__all__ = [
    "FORMAT_VERSION",
    "MAX_BYTES",
    "CodecError",
    "ObjectStream",
    "dumps",
    "loads",
    "turn_payload",
]


# -- encoding ----------------------------------------------------------------


def turn_payload(t: LastTurn) -> list[Any]:
    """A turn as everyone saw it, in the one encoding of a turn (`shared.wire.turn_list`;
    `shared.decode.turn_from` reads it)."""
    return turn_list(t.action, t.returned, t.noble, t.took_gold)


_STATE_FIELDS = stored_fields(GameState)


def _state_payload(s: GameState) -> dict[str, Any]:
    """Every stored field of `GameState`'s declaration, under its name, in its shape."""
    return {name: shape.encode(getattr(s, name)) for name, shape in _STATE_FIELDS}


def _view_payload(v: PlayerView) -> dict[str, Any]:
    payload = {
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
                "last": None if p.last_turn is None else turn_payload(p.last_turn),
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
    if v.target != WINNING_PRESTIGE:  # R15's usual 15 is left out: a view reads it so
        payload["target"] = v.target
    return payload


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
        return view_from(as_dict(_unpackb(data), "view"))
    if code == _EXT_MOVE:
        return move_from(data.decode())
    if code == _EXT_STATE:
        return state_from(as_dict(_unpackb(data), "state"))
    if code == _EXT_OUTCOME:
        return outcome_from(_unpackb(data))
    raise malformed(f"unknown extension type {code}")


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
        version, tag, payload = as_seq(top, "top level", 3)
        if type(version) is not int or version != FORMAT_VERSION:
            raise CodecError(f"format version {version!r}; this build reads {FORMAT_VERSION}")
        if tag == "state":
            return state_from(as_dict(payload, "state"))
        if tag == "view":
            return view_from(as_dict(payload, "view"))
        if tag == "move":
            return move_from(payload)
        if tag == "outcome":
            return outcome_from(payload)
        if tag == "msg":
            return as_dict(payload, "message")
        raise malformed(f"unknown tag {tag!r}")
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


# -- a stream of messages (the `splendor` SSH subsystem, docs/protocol.md) -----------


class ObjectStream:
    """Cuts a byte stream of msgpack objects into each object's bytes, as they complete.
    An object over `max_bytes`, nested deeper than `max_depth` or not msgpack at all is a
    `CodecError`: the stream is then unusable (the peer is told and cut off). No I/O here:
    the caller feeds what it read."""

    def __init__(self, max_bytes: int = MAX_BYTES, max_depth: int = 32) -> None:
        self.max_bytes, self.max_depth = max_bytes, max_depth
        self._unpacker = msgpack.Unpacker(
            max_buffer_size=max_bytes, use_list=False, raw=False, strict_map_key=True
        )
        self._buffer = bytearray()  # what was fed and not yet cut off as an object
        self._start = 0  # the stream offset of the buffer's first byte

    def feed(self, data: bytes) -> list[bytes]:
        """The objects that `data` completes, each as its bytes (what `loads` reads)."""
        out: list[bytes] = []
        step = max(1, self.max_bytes // 2)  # many small objects at once are no big one
        for i in range(0, len(data), step):
            chunk = data[i : i + step]
            try:
                self._unpacker.feed(chunk)
            except msgpack.BufferFull:
                raise CodecError(f"an object of more than {self.max_bytes} bytes") from None
            self._buffer += chunk
            self._cut(out)
        return out

    def _cut(self, out: list[bytes]) -> None:
        while True:
            try:
                obj = self._unpacker.unpack()
            except msgpack.OutOfData:
                return
            except (ValueError, msgpack.UnpackException) as e:  # StackError, bad bytes
                raise CodecError(f"not valid msgpack: {e or type(e).__name__}") from None
            end = self._unpacker.tell()
            size = end - self._start
            out.append(bytes(self._buffer[:size]))
            del self._buffer[:size]
            self._start = end
            if _depth(obj, self.max_depth) > self.max_depth:
                raise CodecError(f"an object nested more than {self.max_depth} deep")


def _depth(obj: object, limit: int) -> int:
    """How deep lists and maps nest in `obj` (0 for a scalar), counted up to `limit` + 1:
    a loop, not recursion, whatever the input."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        x, depth = stack.pop()
        items = x.values() if isinstance(x, dict) else x if isinstance(x, tuple) else None
        if items is None:
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((v, depth + 1) for v in items)
    return deepest
