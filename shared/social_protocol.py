"""Reading clocks, chat, votes and rematches off the wire, every field checked (the part of
`shared.protocol`'s decoders for `shared.clock` and `shared.social`).

On the wire a time control is its notation (``5+10``), a clock view a map, a chat line
a map whose text must already be clean (`shared.chat.is_clean`): a host that sent an
escape sequence or a bidirectional override would be refused here, not shown.
"""

from __future__ import annotations

from typing import Any

from .chat import MAX_CHAT, MAX_SAID, is_clean
from .clock import ClockView, TimeControl, parse_time_control
from .messages import MAX_ID, MAX_NAME, SeatSummary
from .reading import ProtocolError, Reader, as_map, shown
from .social import Absent, ChatLine, ChatLines, Invite, Say, Vote

MAX_TIME = 1e9  # seconds: a clock's time left, an absence (some 30 years)
MAX_LINES = 500  # chat lines in one message


def time_control(r: Reader, key: str) -> TimeControl:
    """A time control's notation (``none``, ``5+10``, ``3d``); absent: none."""
    value = r.get(key, "none")
    try:
        if not isinstance(value, str) or len(value) > 16:
            raise ValueError(value)
        return parse_time_control(value)
    except ValueError:
        raise r.bad(key, "a time control: none, 5+10 (minutes + seconds) or 3d") from None


def _seconds(x: object, what: str) -> float | None:
    if x is None:
        return None
    if type(x) not in (int, float) or not -MAX_TIME < x < MAX_TIME:  # type: ignore[operator]
        raise ProtocolError(f"{what} should be seconds or none")
    return float(x)  # type: ignore[arg-type]


def clock_view(r: Reader, players: int) -> ClockView | None:
    if r.d.get("clock") is None:
        return None
    c = Reader(as_map(r.d["clock"], "clock"), "clock")
    control = time_control(c, "control")
    if not control.timed:
        raise c.bad("control", "a time control with a clock")
    left = c.seq("left", _seconds)
    if len(left) != players:
        raise c.bad("left", f"{players} seats' time")
    return ClockView(control, left, c.opt_integer("running", 0, players - 1))


def absent(x: object, what: str) -> Absent:
    r = Reader(as_map(x, what), what)
    seconds = (r.real("away"), r.real("patience"))
    votes = r.seq("votes", _name, ())
    return Absent(r.integer("seat", 0, 3), *seconds, votes)


def _name(x: object, what: str) -> str:
    if not isinstance(x, str) or not 0 < len(x) <= MAX_NAME:
        raise ProtocolError(f"{what} should be a name")
    return shown(x, MAX_NAME)


def chat_line(x: object, what: str) -> ChatLine:
    r = Reader(as_map(x, what), what)
    text = r.text("text", MAX_CHAT)
    if not is_clean(text):
        raise r.bad("text", "one line of plain text (no control character or escape)")
    return ChatLine(
        r.integer("id", 0, 1 << 62),
        r.line("name", MAX_NAME),
        text,
        r.integer("turn", 0, 1 << 31, 0),
        r.flag("spectator", False),
    )


def chat_lines(r: Reader) -> ChatLines:
    where = r.get("where", "")
    if not isinstance(where, str) or len(where) > MAX_ID:
        raise r.bad("where", "a table id, or empty for the lobby")
    lines = r.seq("lines", chat_line)
    if len(lines) > MAX_LINES:
        raise r.bad("lines", f"at most {MAX_LINES} lines")
    return ChatLines(where, lines, r.flag("whole", False))


def say(r: Reader) -> Say:
    return Say(r.text("text", MAX_SAID))


def vote(r: Reader) -> Vote:
    return Vote(r.integer("seat", 0, 3))


def invite(r: Reader) -> Invite:
    return Invite(r.line("name", MAX_NAME), r.opt_integer("seat", 0, 3))


def invitations(r: Reader, bots: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """`create`'s `invite`: absent, or a name or none for each seat; not seat 1 (the
    creator's), nor a seat with a bot."""
    names = r.seq("invite", _name_or_none, ())
    if not names:
        return ()
    if len(names) != len(bots):
        raise r.bad("invite", f"a name or none for each of the {len(bots)} seats")
    both = any(n is not None and b is not None for n, b in zip(names, bots, strict=True))
    if names[0] is not None or both:
        raise r.bad("invite", "names for seats without a bot, seat 1 (yours) left out")
    return names


def _name_or_none(x: object, what: str) -> str | None:
    return None if x is None else _name(x, what)


def seat_extras(r: Reader) -> dict[str, Any]:
    """A seat summary's fields about clocks, votes and rematches (absent: none)."""
    standin = None if r.d.get("standin") is None else r.level("standin")
    return {
        "standin": standin,
        "timeouts": r.integer("timeouts", 0, 1 << 16, 0),
        "invited": r.flag("invited", False),
    }


def seats_of(x: object, what: str, seat: Any) -> tuple[SeatSummary, ...]:
    """A rematch offer's seats, read with `seat` (the protocol's seat reader)."""
    if not isinstance(x, tuple) or not 2 <= len(x) <= 4:
        raise ProtocolError(f"{what} should be 2 to 4 seats")
    return tuple(seat(s, f"{what}[{i}]") for i, s in enumerate(x))
