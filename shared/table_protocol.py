"""Reading the session's, the lobby's and the tables' messages (`shared.messages`) off the
wire, every field checked (the part of `shared.protocol`'s decoders for them)."""

from __future__ import annotations

from collections.abc import Callable

from . import said as said_wire
from . import social_protocol as social
from .codec import CodecError
from .constants import WINNING_PRESTIGE
from .decode import turn_from
from .errors import SplendorError
from .i18n import LANGUAGES, READINGS
from .messages import (
    BOT_LEVELS,
    MAX_ID,
    MAX_NAME,
    MAX_RATING,
    MAX_SEED,
    MAX_TEXT,
    MAX_VERSIONS,
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
from .moves import Return, parse_move
from .reading import MISSING, ProtocolError, Reader, as_map, line_item, text_item
from .settings import MAX_TARGET, MIN_TARGET, TARGETS
from .view import PlayerView


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
        r.flag("rematch", False),
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
    invite = social.invitations(r, bots)
    return Create(n, bots, seed, rated, clock, patience, _target(r, asked=True), invite)


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


HOST_READERS: dict[str, Callable[[Reader], HostMessage]] = {
    Welcome.TAG: _welcome,
    LobbyList.TAG: _lobby,
    TableUpdate.TAG: _table_update,
    Where.TAG: _where,
    Notice.TAG: _notice,
    Advice.TAG: _advice,
    Bye.TAG: lambda r: Bye(r.line("text", MAX_TEXT), said_wire.opt_read(r, "said")),
}
CLIENT_READERS: dict[str, Callable[[Reader], ClientMessage]] = {
    Hello.TAG: _hello,
    Create.TAG: _create,
    Quick.TAG: _quick,
    Join.TAG: lambda r: Join(r.text("table", MAX_ID)),
    Watch.TAG: lambda r: Watch(r.text("table", MAX_ID)),
    Leave.TAG: lambda r: Leave(r.opt_text("table", MAX_ID)),
    ToLobby.TAG: lambda r: ToLobby(),
    Start.TAG: lambda r: Start(),
    PlayMove.TAG: _move,
    Undo.TAG: lambda r: Undo(),
    Hint.TAG: lambda r: Hint(),
    Language.TAG: _language,
}
