"""Messages between the client app and a game host (DESIGN.md: every crossing is msgpack).

A message is a dict with a ``"t"`` (type) key, encoded with `shared.codec.dumps`.
These helpers build and check them, so both sides agree on one vocabulary.

Host → client
    ``welcome``  name, guest
    ``lobby``    tables (tuple of table summaries, see `table_summary`), online (names);
                 from the server's game host also mine (ids of the tables where this
                 player holds a seat: the one it waits at, and games it can rejoin)
    ``table``    table (id), seats (seat summaries), seat (int or None: spectator), view
                 (a `PlayerView`); sent after every move and on (re)joining; on
                 (re)joining also log: the game's turns so far, oldest first, each
                 [seat, action, returned or None, noble id or None, took gold]
                 (`log_entry`, `log_turns`), so a returning player sees the history
    ``notice``   level ("error" or "info"), text: e.g. an illegal move and its reason
    ``bye``      text: the host is closing this connection

Client → host
    ``create``   seats (2..4), bots (one level or None per seat; seat 0 is the creator);
                 optional seed (int): the deal's seed, used by the local host
                 (`client.local`, `splendor play --seed`); the server ignores it (a
                 player who chose the seed would know the decks)
    ``join``     table; ``leave``; ``start``; ``watch`` table
    ``quick``    players (2..4), level: sit at once against bots; optional seed as for create
    ``move``     move (notation text)

Without ``mine``, the client finds "its" waiting table in a ``lobby`` message by
its own name (from ``welcome``) among the table's seats.
"""

from __future__ import annotations

from typing import Any

from .cards import NOBLE_BY_ID
from .codec import CodecError, dumps, loads
from .errors import SplendorError
from .moves import RETURN, parse_move
from .view import LastTurn, PlayerView

BOT_LEVELS = ("easy", "medium", "hard")

# host -> client
WELCOME, LOBBY, TABLE, NOTICE, BYE = "welcome", "lobby", "table", "notice", "bye"
# client -> host
CREATE, JOIN, LEAVE, START, WATCH, QUICK, MOVE = (
    "create",
    "join",
    "leave",
    "start",
    "watch",
    "quick",
    "move",
)
CLIENT_TYPES = frozenset({CREATE, JOIN, LEAVE, START, WATCH, QUICK, MOVE})
HOST_TYPES = frozenset({WELCOME, LOBBY, TABLE, NOTICE, BYE})

Message = dict[str, Any]


class ProtocolError(CodecError):
    """Bytes that decode but are not a message of the expected kind."""


def encode(t: str, **fields: Any) -> bytes:
    """One message as bytes: ``encode("move", move="take W U G")``."""
    return dumps({"t": t, **fields})


def decode(data: bytes, allowed: frozenset[str]) -> Message:
    """The message in `data`, checked to be a dict whose type is in `allowed`."""
    msg = loads(data)
    if not isinstance(msg, dict) or msg.get("t") not in allowed:
        kind = msg.get("t") if isinstance(msg, dict) else type(msg).__name__
        raise ProtocolError(f"unexpected message {kind!r}")
    return msg


def notice(text: str, level: str = "error") -> bytes:
    return encode(NOTICE, level=level, text=text)


def table_message(
    table: str,
    seats: tuple[dict[str, Any], ...],
    seat: int | None,
    view: PlayerView,
    log: tuple[tuple[Any, ...], ...] = (),
) -> bytes:
    if log:
        return encode(TABLE, table=table, seats=seats, seat=seat, view=view, log=log)
    return encode(TABLE, table=table, seats=seats, seat=seat, view=view)


def log_entry(seat: int, turn: LastTurn) -> tuple[Any, ...]:
    """One turn of a table message's log."""
    returned = None if turn.returned is None else str(turn.returned)
    return (seat, str(turn.action), returned, turn.noble, turn.took_gold)


def log_turns(log: Any, num_players: int) -> list[tuple[int, LastTurn]]:
    """A table message's log as (seat, turn) pairs; `ProtocolError` if it is malformed."""
    if not isinstance(log, list | tuple):
        raise ProtocolError("a table log is a list")
    out = []
    for entry in log:
        try:
            seat, action, returned, noble, gold = entry
            if not isinstance(seat, int) or not 0 <= seat < num_players:
                raise ValueError(f"no seat {seat!r}")
            if noble is not None and noble not in NOBLE_BY_ID:
                raise ValueError(f"no noble {noble!r}")
            turn = LastTurn(
                parse_move(action),
                None if returned is None else parse_move(returned),
                noble,
                bool(gold),
            )
            if turn.action.kind == RETURN:
                raise ValueError("a turn's action is never a return (R13 follows a take)")
            if turn.returned is not None and turn.returned.kind != RETURN:
                raise ValueError("what a turn gave back must be a return")
        except (TypeError, ValueError, AttributeError, SplendorError) as e:
            raise ProtocolError(f"a bad entry in a table log: {entry!r} ({e})") from None
        out.append((seat, turn))
    return out


def seat_summary(
    name: str | None, bot: str | None = None, connected: bool = True
) -> dict[str, Any]:
    """One seat as the lobby and table show it: a player's name, or a bot's level."""
    return {"name": name, "bot": bot, "connected": connected}


def table_summary(
    table: str, host: str, status: str, seats: tuple[dict[str, Any], ...], turn: int = 0
) -> dict[str, Any]:
    """A table in the lobby list; status is "waiting", "playing" or "finished"."""
    return {"id": table, "host": host, "status": status, "seats": seats, "turn": turn}
