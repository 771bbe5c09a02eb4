"""Reading the tournament messages (`shared.tourney_messages`) off the wire, every field
checked (the part of `shared.protocol`'s decoders for them)."""

from __future__ import annotations

from collections.abc import Callable

from . import said as said_wire
from .clock import parse_time_control
from .messages import MAX_ID, MAX_NAME
from .reading import Reader, as_map, line_item
from .settings import MAX_TARGET, MIN_TARGET
from .tournament.model import FORMATS
from .tourney_messages import (
    MAX_ROWS,
    MAX_TABLES,
    MAX_TOURNEYS,
    MAX_WORDS,
    AskTourney,
    AskTourneys,
    CreateTourney,
    EnterTourney,
    TourneyLine,
    TourneyPage,
    TourneyQuestion,
    TourneyRow,
    Tourneys,
    TourneyTable,
    WithdrawTourney,
)

BIG = 1 << 20
MAX_TOURNEY_NAME = 40


def tourney_line(x: object, what: str) -> TourneyLine:
    r = Reader(as_map(x, what), what)
    return TourneyLine(
        r.text("id", MAX_ID), r.line("name", MAX_WORDS), r.line("format", MAX_WORDS),
        r.line("status", 20), r.integer("entrants", 0, BIG), r.integer("round", 0, BIG),
        r.flag("entered", False), r.line("starts", MAX_WORDS, "-"),
        said_wire.opt_read(r, "format_said"), said_wire.opt_read(r, "starts_said"),
    )  # fmt: skip


def _row(x: object, what: str) -> TourneyRow:
    r = Reader(as_map(x, what), what)
    return TourneyRow(
        r.integer("rank", 1, BIG), r.line("name", MAX_NAME), r.line("points", 20),
        r.line("buchholz", 20), r.integer("wins", 0, BIG), r.integer("games", 0, BIG),
        r.line("path", MAX_WORDS * 4, "-"), r.flag("out", False),
        r.seq("path_said", said_wire.read, (), most=40),
    )  # fmt: skip


def _table(x: object, what: str) -> TourneyTable:
    r = Reader(as_map(x, what), what)
    return TourneyTable(
        r.text("game", MAX_ID), r.integer("round", 1, BIG),
        r.seq("names", line_item(MAX_NAME), most=4), r.line("state", 20),
        r.line("result", MAX_WORDS, "-"),
    )  # fmt: skip


def _create(r: Reader) -> CreateTourney:
    fmt = r.get("format", "swiss")
    if fmt not in FORMATS:
        raise r.bad("format", ", ".join(FORMATS))
    clock = r.get("clock", "none")
    try:
        parse_time_control(clock if isinstance(clock, str) and len(clock) <= 16 else "?")
    except ValueError:
        raise r.bad("clock", "a time control: none, 5+10 or 3d") from None
    return CreateTourney(
        r.line("name", MAX_TOURNEY_NAME), fmt, r.integer("rounds", 1, 20, 4),
        r.integer("seats", 2, 4, 2), clock, r.flag("rated", False),
        r.integer("target", MIN_TARGET, MAX_TARGET, 15), r.integer("start_players", 2, 256, 8),
        r.flag("bots", False), r.integer("most", 2, 256, 64),
        r.integer("start_in", 0, 60 * 24 * 30, 0),
    )  # fmt: skip


def tourneys(r: Reader) -> Tourneys:
    return Tourneys(r.seq("items", tourney_line, (), most=MAX_TOURNEYS))


def tourney_page(r: Reader) -> TourneyPage:
    return TourneyPage(
        tourney_line(r.get("line", None), "line"), r.line("about", MAX_WORDS * 2),
        r.seq("rows", _row, (), most=MAX_ROWS), r.seq("tables", _table, (), most=MAX_TABLES),
        said_wire.opt_read(r, "about_said"),
    )  # fmt: skip


HostReader = Callable[[Reader], Tourneys | TourneyPage]
ClientReader = Callable[[Reader], TourneyQuestion]
HOST_READERS: dict[str, HostReader] = {Tourneys.TAG: tourneys, TourneyPage.TAG: tourney_page}
CLIENT_READERS: dict[str, ClientReader] = {
    AskTourneys.TAG: lambda r: AskTourneys(),
    AskTourney.TAG: lambda r: AskTourney(r.text("id", MAX_ID)),
    EnterTourney.TAG: lambda r: EnterTourney(r.text("id", MAX_ID)),
    WithdrawTourney.TAG: lambda r: WithdrawTourney(r.text("id", MAX_ID)),
    CreateTourney.TAG: _create,
}
