"""What one process tells the others over PostgreSQL's NOTIFY (channel `CHANNEL`): each
change as one line of text, written here and read back here (`heard`), so both ends of
the format sit together. A payload is a kind letter, then fields separated by ``|``."""

from __future__ import annotations

from dataclasses import replace

from .base import (
    ChatPosted,
    ChatRemoved,
    Event,
    MovePlayed,
    PresenceChanged,
    TableChanged,
)
from .records import ChatRecord, Timing

CHANNEL = "splendor"
PRESENCE = "p"  # sessions came, went or moved, or a process died
NOTIFY = "SELECT pg_notify($1, $2)"  # with CHANNEL and a payload


def table_news(table: str, version: int | None = None) -> str:
    """A table's change: the version it made, when known, spares a copy already at it a
    read."""
    return f"t|{table}" if version is None else f"t|{table}|{version}"


def move_news(game: str, seq: int, turn: int, timing: Timing, notation: str) -> str:
    """Move `seq` of `game`, the turn after it and the clocks (empty: no clock)."""
    deadline = "" if timing.deadline is None else repr(timing.deadline)
    banks = ",".join(repr(b) for b in timing.banks)
    return f"m|{game}|{seq}|{turn}|{deadline}|{banks}|{notation}"


def chat_news(line: ChatRecord) -> str:
    """A line of chat stored; its text last: it may hold anything but a line break."""
    where, spectator = line.game or "", int(line.spectator)
    said = f"{line.seq}|{line.turn}|{line.at!r}|{spectator}|{line.name}|{line.text}"
    return f"c|{line.id}|{where}|{said}"


def removal_news(line: int, game: str | None) -> str:
    """An admin removed chat line `line`, said in `game` (None: the lobby)."""
    return f"x|{line}|{game or ''}"


def heard(payload: str) -> Event | None:
    """The event a payload tells of (None: a kind this build does not know)."""
    kind, _, rest = payload.partition("|")
    if kind == "m":
        game, seq, turn, deadline, banks, notation = rest.split("|", 5)
        return MovePlayed(game, int(seq), int(turn), notation, _timing(deadline, banks))
    if kind == "t":
        table, _, version = rest.partition("|")
        return TableChanged(table, int(version) if version else None)
    if kind == PRESENCE:
        return PresenceChanged()
    if kind == "c":
        line, game, seq, turn, at, spectator, name, text = rest.split("|", 7)
        where = game or None
        said = ChatRecord(int(line), where, int(seq), int(turn), float(at), name, text)
        return ChatPosted(replace(said, spectator=spectator == "1"))
    if kind == "x":
        line, _, game = rest.partition("|")
        return ChatRemoved(int(line), game or None)
    return None


def _timing(deadline: str, banks: str) -> Timing | None:
    """A move's clocks as its event carries them (empty: a game without a clock)."""
    if not deadline and not banks:
        return None
    return Timing(
        float(deadline) if deadline else None,
        tuple(float(b) for b in banks.split(",")) if banks else (),
    )
