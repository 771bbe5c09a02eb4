"""Time controls: how long a player may take, chosen when a table is created (pure, no I/O).

Three kinds, each with a short notation used on the wire, in the store and on screen:

- casual, ``none``: no clock (absent players may be voted out instead: `server.host.votes`);
- real time, ``5+10``: a bank of 5 minutes per player, plus 10 seconds after each of
  their turns; running out of bank hands the seat to a bot for the rest of the game;
- correspondence, ``3d``: 3 days for each move; a bot plays a turn whose time ran out,
  and the third time-out in a game hands the seat to a bot for the rest of it.

The host keeps each running clock as a deadline (an absolute time), never as a
counter, so a clock survives a restart and a change of process; a view carries each
seat's time left as of its sending (`ClockView`), and the client counts down from it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

NONE, REALTIME, CORRESPONDENCE = "none", "realtime", "correspondence"
DAY = 86_400.0
MAX_TIMEOUTS = 3  # correspondence: the third time-out in a game hands the seat to a bot
PRESETS = ("none", "3+2", "5+10", "15+10", "1d", "3d", "7d")  # what the dialogs offer

_REALTIME = re.compile(r"(\d+(?:\.\d+)?)\+(\d+)")
_DAYS = re.compile(r"(\d+)d")


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's time control (see the module docstring); `str()` is its notation."""

    kind: str = NONE
    bank: float = 0.0  # real time: seconds each player starts with
    increment: float = 0.0  # real time: seconds added after each of a player's turns
    per_move: float = 0.0  # correspondence: seconds for each move

    @property
    def timed(self) -> bool:
        return self.kind != NONE

    @property
    def realtime(self) -> bool:
        return self.kind == REALTIME

    @property
    def correspondence(self) -> bool:
        return self.kind == CORRESPONDENCE

    def __str__(self) -> str:
        if self.kind == REALTIME:
            return f"{_number(self.bank / 60)}+{_number(self.increment)}"
        if self.kind == CORRESPONDENCE:
            return f"{_number(self.per_move / DAY)}d"
        return NONE

    def describe(self) -> str:
        """In words, for help and dialogs: "5 min + 10 s a move", "3 days a move"."""
        if self.kind == REALTIME:
            return f"{_number(self.bank / 60)} min + {_number(self.increment)} s a move"
        if self.kind == CORRESPONDENCE:
            days = self.per_move / DAY
            return f"{_number(days)} day{'' if days == 1 else 's'} a move"
        return "no clock"


CASUAL = TimeControl()


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def parse_time_control(text: str) -> TimeControl:
    """A time control from its notation: ``none`` (or empty), ``5+10`` (minutes of bank,
    seconds of increment; the bank may be a fraction, 0.1 is 6 s), ``3d`` (days a move);
    `ValueError` for anything else, or a clock out of bounds (a bank up to 3 hours, an
    increment up to a minute, 1 to 14 days a move)."""
    text = text.strip().lower()
    if text in ("", NONE):
        return CASUAL
    m = _REALTIME.fullmatch(text)
    if m is not None:
        minutes, increment = float(m.group(1)), int(m.group(2))
        if not 0 < minutes <= 180 or increment > 60 or not math.isfinite(minutes):
            raise ValueError(f"{text!r}: a bank of up to 180 minutes, an increment up to 60 s")
        return TimeControl(REALTIME, bank=round(minutes * 60, 3), increment=float(increment))
    m = _DAYS.fullmatch(text)
    if m is not None:
        days = int(m.group(1))
        if not 1 <= days <= 14:
            raise ValueError(f"{text!r}: 1 to 14 days a move")
        return TimeControl(CORRESPONDENCE, per_move=days * DAY)
    raise ValueError(f"{text!r} is not a time control: none, 5+10 (minutes + seconds) or 3d")


def format_left(seconds: float) -> str:
    """Time left as a clock shows it: ``4:32``, ``1:02:03``, ``13h 05m``, ``2d 13h``;
    never below ``0:00``. Under a day it counts seconds, rounded up (a clock that shows
    0:00 has run out)."""
    s = max(0, math.ceil(seconds - 1e-9))
    if s >= DAY:
        return f"{s // 86400}d {s % 86400 // 3600:02d}h"
    if s >= 10 * 3600:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def next_change(seconds: float) -> float:
    """Seconds until `format_left(seconds)` shows something else (a clock's next tick)."""
    if seconds <= 0:
        return math.inf
    s = math.ceil(seconds - 1e-9)
    unit = 3600 if s >= DAY else 60 if s >= 10 * 3600 else 1  # what the last figure counts
    return max(0.01, seconds - (unit * (s // unit) - 1))


@dataclass(frozen=True, slots=True)
class ClockView:
    """A table's clocks as a view carries them: the control, each seat's time left when
    the view was sent (None for a seat no clock counts: a bot, or a bot standing in), and
    the seat whose clock is running (None while a bot thinks, or once the game is over).
    The client counts the running one down from the moment it received the view."""

    control: TimeControl
    left: tuple[float | None, ...]
    running: int | None = None
