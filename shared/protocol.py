"""Messages between the client app and a game host (docs/design.md: every crossing is msgpack).

Every message is a frozen dataclass (`shared.messages`, all re-exported here, so
`from shared.protocol import TableUpdate` is the way to name one). `encode` turns one
into bytes (`shared.codec`);
`decode_host` and `decode_client` turn bytes back into one, checking every field
on the way, so that a screen or the lobby only ever sees typed, valid values.
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

from . import said as said_wire
from . import social_protocol as social
from . import tourney_protocol as tourney
from .clock import ClockView, TimeControl
from .codec import CodecError, dumps, loads, turn_payload
from .constants import WINNING_PRESTIGE
from .decode import turn_from
from .errors import SplendorError
from .i18n import LANGUAGES, READINGS, Text
from .messages import (
    BOT_LEVELS,
    LEADERBOARD_PAGE,
    MAX_ID,
    MAX_NAME,
    MAX_RATING,
    MAX_RECORD,
    MAX_SEED,
    MAX_TEXT,
    MAX_VERSIONS,
    PROFILE_GAMES,
    PROFILE_HISTORY,
    PROTOCOL_VERSION,
    SCREENS,
    Advice,
    AskLeaderboard,
    AskProfile,
    AskRecord,
    Bye,
    ClientMessage,
    Create,
    GameLine,
    GameRecordText,
    Hello,
    Hint,
    HostMessage,
    Join,
    Language,
    Leaderboard,
    Leave,
    LobbyList,
    LoggedTurn,
    Message,
    Notice,
    PlayerProfile,
    PlayMove,
    Quick,
    Ranked,
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
from .moves import Move, Return, parse_move
from .reading import MISSING, ProtocolError, Reader, T, as_map, line_item, shown, text_item
from .settings import MAX_TARGET, MIN_TARGET, TARGETS
from .social import Absent, ChatLine, ChatLines, NextGame, Rematch, Say, Vote
from .tourney_messages import (
    TOURNEY_PARTS,
    AskTourney,
    AskTourneys,
    EnterTourney,
    TourneyPage,
    Tourneys,
    WithdrawTourney,
)
from .view import PlayerView

# -- encoding --------------------------------------------------------------------


# Fields left off the wire while they hold their default (a reader takes the default):
# what clocks, chat, votes and rematches added costs nothing where they are not used.
_QUIET = frozenset(
    (
        "log", "seed", "standin", "timeouts", "invited", "clock", "absent", "rematch",
        "to_move", "target", "program", "said", "language", "reading",
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


# -- decoding --------------------------------------------------------------------


def _seat(x: object, what: str) -> SeatSummary:
    r = Reader(as_map(x, what), what)
    bot = None if r.d.get("bot") is None else r.level("bot")
    name, connected = r.opt_line("name", MAX_NAME), r.flag("connected", True)
    program = r.flag("program", False)
    return SeatSummary(name, bot, connected, **social.seat_extras(r), program=program)


def _table(x: object, what: str) -> TableSummary:
    r = Reader(as_map(x, what), what)
    status = r.get("status", MISSING)
    try:
        table_status = TableStatus(status)
    except ValueError:
        raise r.bad("status", "waiting, playing or finished") from None
    return TableSummary(
        r.text("id", MAX_ID),
        r.line("host", MAX_NAME),
        table_status,
        r.seq("seats", _seat),
        r.integer("turn", 0, 1 << 31, 0),
        r.flag("rated", False),
        social.time_control(r, "clock"),
        _target(r, asked=False),
    )


def _target(r: Reader, asked: bool) -> int:
    """R15's target (`shared.settings`): in a table the host lists, any the engine plays;
    `asked` in a request, one a table may be created with (`TARGETS`)."""
    target = r.integer("target", MIN_TARGET, MAX_TARGET, WINNING_PRESTIGE)
    if asked and target not in TARGETS:
        raise r.bad("target", f"one of {', '.join(map(str, TARGETS))}")
    return target


def _logged(x: object, what: str) -> LoggedTurn:
    """One turn of a table's log. A turn's action is never a return (R13 follows a
    take or a reserve), and what a turn gave back is always one."""
    if not isinstance(x, tuple) or len(x) != 2 or type(x[0]) is not int or not 0 <= x[0] < 4:
        raise ProtocolError(f"{what} should be [seat, turn]")
    try:
        turn = turn_from(x[1])
    except CodecError as e:
        raise ProtocolError(f"{what}: {e}") from None
    if isinstance(turn.action, Return):
        raise ProtocolError(f"{what}: a turn's action is never a return (R13)")
    if turn.returned is not None and not isinstance(turn.returned, Return):
        raise ProtocolError(f"{what}: what a turn gave back must be a return (R13)")
    return LoggedTurn(x[0], turn)


def _bot_or_open(x: object, what: str) -> str | None:
    if x is not None and x not in BOT_LEVELS:
        raise ProtocolError(f"{what} should be a bot level ({', '.join(BOT_LEVELS)}) or open")
    return None if x is None else str(x)


def _welcome(r: Reader) -> Welcome:
    # A host from before versions were sent speaks version 1.
    language, reading = r.get("language", None), r.get("reading", None)
    return Welcome(
        r.line("name", MAX_NAME),
        r.flag("guest", False),
        r.integer("protocol", 0, 1 << 16, 1),
        language if language in LANGUAGES else None,
        reading if reading in READINGS else None,
    )


def _lobby(r: Reader) -> LobbyList:
    return LobbyList(
        r.seq("tables", _table, ()),
        r.seq("online", line_item(MAX_NAME), ()),
        r.seq("mine", text_item(MAX_ID), ()),
        r.seq("to_move", text_item(MAX_ID), ()),
    )


def _table_update(r: Reader) -> TableUpdate:
    view = r.get("view", MISSING)
    if not isinstance(view, PlayerView):
        raise r.bad("view", "a player's view")
    seat = r.opt_integer("seat", 0, view.num_players - 1)
    if seat != view.seat:
        raise r.bad("seat", "the view's seat")
    seats = r.seq("seats", _seat)
    if len(seats) != view.num_players:
        raise r.bad("seats", f"{view.num_players} seats")
    log = None if r.d.get("log") is None else r.seq("log", _logged)
    if log is not None and any(t.seat >= view.num_players for t in log):
        raise r.bad("log", "turns of the table's seats")
    ratings = r.seq("ratings", _rating_change, ())
    if ratings and len(ratings) != view.num_players:
        raise r.bad("ratings", f"one change or none for each of the {view.num_players} seats")
    seed = r.opt_integer("seed", 0, MAX_SEED - 1)
    if seed is not None and not view.is_over:  # it would reveal the decks
        raise r.bad("seed", "absent until the game is over")
    clock = social.clock_view(r, view.num_players)
    absent = r.seq("absent", social.absent, ())
    if any(a.seat >= view.num_players for a in absent):
        raise r.bad("absent", "seats of the table")
    rematch = None
    if r.d.get("rematch") is not None:
        o = Reader(as_map(r.d["rematch"], "rematch"), "rematch")
        offered = social.seats_of(o.get("seats", MISSING), "rematch seats", _seat)
        rematch = RematchOffer(o.text("table", MAX_ID), offered)
    table = r.text("table", MAX_ID)
    return TableUpdate(table, seats, seat, view, log, ratings, seed, clock, absent, rematch)


def _rating_change(x: object, what: str) -> RatingChange | None:
    if x is None:
        return None
    ok = isinstance(x, tuple) and len(x) == 2 and all(type(v) is int for v in x)
    if not ok or not 0 <= x[0] < MAX_RATING or abs(x[1]) >= MAX_RATING:  # type: ignore[index]
        raise ProtocolError(f"{what} should be [rating, change]")
    return RatingChange(x[0], x[1])  # type: ignore[index]


def _where(r: Reader) -> Where:
    screen = r.get("screen", "lobby")
    if screen not in SCREENS:
        raise r.bad("screen", " or ".join(SCREENS))
    table = r.opt_text("table", MAX_ID)
    seat = r.get("seat", None)
    if seat is not None:
        seat = r.integer("seat", 0, 3)
    if screen == "table" and table is None:
        raise r.bad("table", "a table id on the table screen")
    return Where(screen, table, seat)


def _notice(r: Reader) -> Notice:
    level = r.get("level", "error")
    if level not in ("error", "info", "call"):  # call: news that rings the bell
        raise r.bad("level", "error, info or call")
    return Notice(r.line("text", MAX_TEXT), level, said_wire.opt_read(r, "said"))


def _language(r: Reader) -> Language:
    language, reading = r.get("language", None), r.get("reading", None)
    if language not in LANGUAGES:
        raise r.bad("language", f"one of {', '.join(LANGUAGES)}")
    if reading is not None and reading not in READINGS:
        raise r.bad("reading", f"one of {', '.join(READINGS)}, or none")
    return Language(language, reading)


def _create(r: Reader) -> Create:
    n = r.integer("seats", 2, 4)
    bots = r.seq("bots", _bot_or_open, (None,) * n)
    if len(bots) != n:
        raise r.bad("bots", f"one level or none for each of the {n} seats")
    if bots[0] is not None:
        raise ProtocolError("seat 1 is yours; it cannot be a bot")
    seed, rated = r.opt_integer("seed", 0, MAX_SEED - 1), r.flag("rated", False)
    clock = social.time_control(r, "clock")
    patience = r.integer("patience", 1, 24 * 60, 10)
    return Create(n, bots, seed, rated, clock, patience, _target(r, asked=True))


def _quick(r: Reader) -> Quick:
    seed = r.opt_integer("seed", 0, MAX_SEED - 1)
    players, level = r.integer("players", 2, 4, 2), r.level("level", "medium")
    clock = social.time_control(r, "clock")
    return Quick(players, level, seed, r.flag("rated", False), clock, _target(r, asked=True))


def _advice(r: Reader) -> Advice:
    text = r.get("move", MISSING)
    if not isinstance(text, str):
        raise r.bad("move", "notation text, like `take W U G`")
    try:
        move = parse_move(text)
    except SplendorError as e:
        raise ProtocolError(str(e)) from None
    return Advice(move, r.line("reason", MAX_TEXT), said_wire.opt_read(r, "said"))


def _hello(r: Reader) -> Hello:
    versions = r.ints("versions", most=MAX_VERSIONS)
    client = "" if r.d.get("client") in (None, "") else r.line("client", MAX_NAME)
    return Hello(versions, client)


def _move(r: Reader) -> PlayMove:
    text = r.get("move", MISSING)
    if not isinstance(text, str):
        raise r.bad("move", "notation text, like `take W U G`")
    try:
        return PlayMove(parse_move(text))
    except SplendorError as e:  # the notation's own message says what is wrong
        raise ProtocolError(str(e)) from None


def _ranked(x: object, what: str) -> Ranked:
    r = Reader(as_map(x, what), what)
    return Ranked(
        r.integer("rank", 1, 1 << 31),
        r.line("player", MAX_NAME),
        r.integer("rating", 0, MAX_RATING - 1),
        r.integer("games", 0, 1 << 31),
        r.integer("wins", 0, 1 << 31),
        r.real("last"),
        r.flag("program", False),
    )


def _opt_ranked(r: Reader, key: str) -> Ranked | None:
    return None if r.d.get(key) is None else _ranked(r.d[key], key)


def _game_line(x: object, what: str) -> GameLine:
    r = Reader(as_map(x, what), what)
    players = r.integer("players", 2, 4)
    line = GameLine(
        r.text("game", MAX_ID),
        players,
        r.text("status", 20),
        r.real("finished"),
        r.integer("seat", 0, players - 1),
        r.seq("names", line_item(MAX_NAME), most=players),
        r.ints("scores", most=players),
        r.ints("ranks", most=players),
        r.flag("rated"),
    )
    if len(line.names) != players:
        raise r.bad("names", f"one for each of the {players} seats")
    for key in ("scores", "ranks"):
        if len(getattr(line, key)) not in (0, players):
            raise r.bad(key, f"none, or one for each of the {players} seats")
    if not all(1 <= rank <= players for rank in line.ranks):
        raise r.bad("ranks", f"ranks from 1 to {players}")
    return line


def _by_players(x: object, what: str) -> tuple[int, int, int]:
    ok = isinstance(x, tuple) and len(x) == 3 and all(type(v) is int for v in x)
    if not ok or not 2 <= x[0] <= 4 or not 0 <= x[2] <= x[1]:  # type: ignore[index]
        raise ProtocolError(f"{what} should be [players 2-4, games, wins up to games]")
    return x  # type: ignore[return-value]


def _profile(r: Reader) -> PlayerProfile:
    return PlayerProfile(
        r.line("player", MAX_NAME),
        _opt_ranked(r, "standing"),
        r.ints("history", (), most=PROFILE_HISTORY),
        r.seq("by_players", _by_players, (), most=3),
        r.seq("recent", _game_line, (), most=PROFILE_GAMES),
        r.seq("tournaments", line_item(200), (), most=PROFILE_GAMES),
        r.seq("tournaments_said", said_wire.read, (), most=PROFILE_GAMES),
    )


_HOST: dict[str, Callable[[Reader], HostMessage]] = {
    Welcome.TAG: _welcome,
    LobbyList.TAG: _lobby,
    TableUpdate.TAG: _table_update,
    Where.TAG: _where,
    Notice.TAG: _notice,
    Advice.TAG: _advice,
    Bye.TAG: lambda r: Bye(r.line("text", MAX_TEXT), said_wire.opt_read(r, "said")),
    Leaderboard.TAG: lambda r: Leaderboard(
        r.seq("rows", _ranked, most=LEADERBOARD_PAGE),
        r.integer("offset", 0, 1 << 31, 0),
        _opt_ranked(r, "me"),
    ),
    PlayerProfile.TAG: _profile,
    GameRecordText.TAG: lambda r: GameRecordText(
        r.text("game", MAX_ID), r.text("text", MAX_RECORD)
    ),
    ChatLines.TAG: social.chat_lines,
    **tourney.HOST_READERS,
}
_CLIENT: dict[str, Callable[[Reader], ClientMessage]] = {
    Hello.TAG: _hello,
    Create.TAG: _create,
    Quick.TAG: _quick,
    Join.TAG: lambda r: Join(r.text("table", MAX_ID)),
    Watch.TAG: lambda r: Watch(r.text("table", MAX_ID)),
    Leave.TAG: lambda r: Leave(),
    ToLobby.TAG: lambda r: ToLobby(),
    Start.TAG: lambda r: Start(),
    PlayMove.TAG: _move,
    Undo.TAG: lambda r: Undo(),
    Hint.TAG: lambda r: Hint(),
    AskLeaderboard.TAG: lambda r: AskLeaderboard(r.integer("offset", 0, 1 << 31, 0)),
    AskProfile.TAG: lambda r: AskProfile(r.line("player", MAX_NAME)),
    AskRecord.TAG: lambda r: AskRecord(r.text("game", MAX_ID)),
    Say.TAG: social.say,
    Vote.TAG: social.vote,
    Rematch.TAG: lambda r: Rematch(),
    NextGame.TAG: lambda r: NextGame(),
    Language.TAG: _language,
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
