"""Messages between the client app and a game host (docs/design.md: every crossing is msgpack).

Every message is a frozen dataclass (`shared.messages`, `shared.club_messages`, all
re-exported here, so `from shared.protocol import TableUpdate` is the way to name one).
`encode` turns one into bytes (`shared.codec`); `decode_host` and `decode_client` turn
bytes back into one, checking every field on the way (the readers are by area:
`shared.table_protocol`, `shared.club_protocol`, `shared.social_protocol`,
`shared.tourney_protocol`), so that a screen or the lobby only ever sees typed, valid values.
Bytes that are not a message of the expected side raise `ProtocolError` (a
`CodecError`) with a message that says what is wrong; nothing else escapes.

Host → client: `Welcome` (first, with the protocol version), `LobbyList`,
`TableUpdate` (after every move and on coming to a table; the first one a
session gets for a table also carries the turns so far; once the game is over,
the seed; in a timed game, the clocks), `Notice`, `Advice` (the answer to a
hint), `ChatLines`, `Bye`.

Client → host: `Create`, `Quick`, `Join`, `Watch`, `Leave`, `Start`, `PlayMove`,
`Say`, `Vote`, `Rematch`, `NextGame`, and for offline play `Undo` and `Hint`. The
readers of clocks, chat, votes and rematches are `shared.social_protocol`'s.

On the wire a message is a map: ``{"t": TAG, field: value, ...}``; nested summaries
are maps too, a move is its notation, a view is the codec's view, and a turn is
`shared.codec.turn_payload`'s list (the one encoding of a turn). Unknown fields
are ignored, so a newer peer may add some; a change that an older peer would
misread raises `PROTOCOL_VERSION`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum
from typing import Any

from . import club_protocol as club
from . import said as said_wire
from . import social_protocol as social
from . import table_protocol as table
from . import tourney_protocol as tourney
from .clock import ClockView, TimeControl
from .club_messages import (
    LEADERBOARD_PAGE,
    PROFILE_GAMES,
    PROFILE_HISTORY,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    GameLine,
    GameRecordText,
    Leaderboard,
    PlayerProfile,
    Ranked,
)
from .codec import dumps, loads, turn_payload
from .i18n import Text
from .messages import (
    BOT_LEVELS,
    MAX_RATING,
    MAX_SEED,
    MAX_TEXT,
    PROTOCOL_VERSION,
    SCREENS,
    Advice,
    Bye,
    ClientMessage,
    Create,
    Hello,
    Hint,
    HostMessage,
    Join,
    Language,
    Leave,
    LobbyList,
    LoggedTurn,
    Message,
    Notice,
    PlayMove,
    Quick,
    RatingChange,
    RematchOffer,
    SeatSummary,
    Start,
    TableStatus,
    TableSummary,
    TableUpdate,
    ToLobby,
    Undo,
    Watch,
    Welcome,
    Where,
)
from .moves import Move
from .reading import ProtocolError, Reader, T, shown
from .social import Absent, ChatLine, ChatLines, Invite, NextGame, Rematch, Say, Vote
from .tourney_messages import (
    TOURNEY_PARTS,
    AskTourney,
    AskTourneys,
    EnterTourney,
    TourneyPage,
    Tourneys,
    WithdrawTourney,
)

# -- encoding --------------------------------------------------------------------


# Fields left off the wire while they hold their default (a reader takes the default):
# what clocks, chat, votes and rematches added costs nothing where they are not used.
_QUIET = frozenset(
    (
        "log", "seed", "standin", "timeouts", "invited", "clock", "absent", "rematch",
        "to_move", "target", "program", "said", "language", "reading", "invite",
        "format_said", "starts_said", "about_said", "path_said", "tournaments_said",
    )
)  # fmt: skip
_PARTS = (
    SeatSummary, TableSummary, Ranked, GameLine, ClockView, Absent, ChatLine, RematchOffer,
    *TOURNEY_PARTS,
)  # fmt: skip


def _fields(x: Any) -> dict[str, Any]:
    out = {}
    for f in dataclasses.fields(x):
        value = getattr(x, f.name)
        if f.name in _QUIET and value == f.default:
            continue
        out[f.name] = _wire(value)
    return out


def _wire(x: Any) -> Any:
    if isinstance(x, Enum):
        return x.value
    if isinstance(x, Move | TimeControl):
        return str(x)
    if isinstance(x, LoggedTurn):
        return (x.seat, turn_payload(x.turn))
    if isinstance(x, RatingChange):
        return (x.shown, x.change)
    if isinstance(x, _PARTS):
        return _fields(x)
    if isinstance(x, tuple):
        return tuple(_wire(v) for v in x)
    if isinstance(x, Text):
        return said_wire.wire(x)
    return x  # str, int, float, bool, None, and a PlayerView (the codec's own)


def encode(msg: Message) -> bytes:
    """One message as bytes: ``encode(PlayMove(parse_move("take W U G")))``."""
    return dumps({"t": msg.TAG, **_fields(msg)})


def notice(text: str | Text, level: str = "error") -> bytes:
    """A `Notice` as bytes, made safe to show (it may echo what a player typed) and cut
    to what a client accepts (`shared.text.safe_text`); a `Text` goes as key and fields
    too, for the client to translate, with its English beside it."""
    said = text if isinstance(text, Text) else None
    english = text.english() if isinstance(text, Text) else text
    return encode(Notice(shown(english, MAX_TEXT), level, said))


def bye(text: str | Text) -> bytes:
    """A `Bye` as bytes: a `Text` goes as key and fields too, with its English beside it."""
    if isinstance(text, Text):
        return encode(Bye(shown(text.english(), MAX_TEXT), text))
    return encode(Bye(shown(text, MAX_TEXT)))


def notice_of(error: Exception, level: str = "error") -> bytes:
    """A `Notice` of an error whose message is a `Text` (or a plain str)."""
    first = error.args[0] if len(error.args) == 1 else None
    return notice(first if isinstance(first, Text) else str(error), level)


# -- decoding: the readers are by area (shared.table_protocol, shared.club_protocol,
# shared.social_protocol, shared.tourney_protocol) -------------------------------------


_HOST: dict[str, Callable[[Reader], HostMessage]] = {
    **table.HOST_READERS,
    **club.HOST_READERS,
    ChatLines.TAG: social.chat_lines,
    **tourney.HOST_READERS,
}
_CLIENT: dict[str, Callable[[Reader], ClientMessage]] = {
    **table.CLIENT_READERS,
    **club.CLIENT_READERS,
    Say.TAG: social.say,
    Vote.TAG: social.vote,
    Rematch.TAG: lambda r: Rematch(),
    Invite.TAG: social.invite,
    NextGame.TAG: lambda r: NextGame(),
    **tourney.CLIENT_READERS,
}


def _decode(data: bytes, readers: dict[str, Callable[[Reader], T]], side: str) -> T:
    msg = loads(data)
    if not isinstance(msg, dict):
        raise ProtocolError(f"expected a message, got {type(msg).__name__}")
    kind = msg.get("t")
    reader = readers.get(kind) if isinstance(kind, str) else None
    if reader is None or not isinstance(kind, str):
        raise ProtocolError(f"{kind!r} is not a message a {side} sends")
    return reader(Reader(msg, kind))


def decode_host(data: bytes) -> HostMessage:
    """A message from a host; `ProtocolError` (or `CodecError`) if `data` is not one."""
    return _decode(data, _HOST, "host")


def decode_client(data: bytes) -> ClientMessage:
    """A message from a client; `ProtocolError` (or `CodecError`) if `data` is not one."""
    return _decode(data, _CLIENT, "client")


__all__ = [
    "BOT_LEVELS",
    "AskTourney",
    "AskTourneys",
    "EnterTourney",
    "TourneyPage",
    "Tourneys",
    "WithdrawTourney",
    "AskLeaderboard",
    "AskProfile",
    "AskRecord",
    "GameLine",
    "GameRecordText",
    "Leaderboard",
    "PlayerProfile",
    "Ranked",
    "LEADERBOARD_PAGE",
    "MAX_RATING",
    "PROFILE_GAMES",
    "PROFILE_HISTORY",
    "MAX_SEED",
    "PROTOCOL_VERSION",
    "Absent",
    "Advice",
    "Bye",
    "ChatLine",
    "ChatLines",
    "ClockView",
    "ClientMessage",
    "Create",
    "Hello",
    "Hint",
    "HostMessage",
    "Join",
    "Language",
    "Leave",
    "LobbyList",
    "NextGame",
    "LoggedTurn",
    "Message",
    "Notice",
    "PlayMove",
    "ProtocolError",
    "Quick",
    "RatingChange",
    "Rematch",
    "Invite",
    "RematchOffer",
    "Say",
    "SeatSummary",
    "Start",
    "TableStatus",
    "TableSummary",
    "TableUpdate",
    "TimeControl",
    "Undo",
    "Vote",
    "Watch",
    "Welcome",
    "Where",
    "ToLobby",
    "SCREENS",
    "decode_client",
    "decode_host",
    "encode",
    "bye",
    "notice",
    "notice_of",
]
