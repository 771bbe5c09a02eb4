"""Reading the club's messages (`shared.club_messages`: the leaderboard, profiles, game
records) off the wire, every field checked (the part of `shared.protocol`'s decoders for
them)."""

from __future__ import annotations

from collections.abc import Callable

from . import said as said_wire
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
from .messages import MAX_ID, MAX_NAME, MAX_RATING, MAX_RECORD, ClientMessage, HostMessage
from .reading import ProtocolError, Reader, as_map, line_item


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


HOST_READERS: dict[str, Callable[[Reader], HostMessage]] = {
    Leaderboard.TAG: lambda r: Leaderboard(
        r.seq("rows", _ranked, most=LEADERBOARD_PAGE),
        r.integer("offset", 0, 1 << 31, 0),
        _opt_ranked(r, "me"),
    ),
    PlayerProfile.TAG: _profile,
    GameRecordText.TAG: lambda r: GameRecordText(
        r.text("game", MAX_ID), r.text("text", MAX_RECORD)
    ),
}
CLIENT_READERS: dict[str, Callable[[Reader], ClientMessage]] = {
    AskLeaderboard.TAG: lambda r: AskLeaderboard(r.integer("offset", 0, 1 << 31, 0)),
    AskProfile.TAG: lambda r: AskProfile(r.line("player", MAX_NAME)),
    AskRecord.TAG: lambda r: AskRecord(r.text("game", MAX_ID)),
}
