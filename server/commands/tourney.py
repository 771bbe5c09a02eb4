"""`splendor-server tournament create|list|export|enter|start`: a club's tournaments from
the admin's shell, on the server's database (the server may be running: its processes
see a new tournament, an entry or a start within seconds and run the rounds).

    splendor-server tournament create "Club night" --format swiss --rounds 4 --seats 3 \\
        --clock 10+5 --start-players 9 --bots
    splendor-server tournament list
    splendor-server tournament enter 1a2b3c --bot medium     # a bot level as an entrant
    splendor-server tournament start 1a2b3c                  # start now, with who entered
    splendor-server tournament export 1a2b3c                 # docs/records.md, "Tournaments"
    splendor-server tournament cancel 1a2b3c                 # no more rounds (games go on)
"""

from __future__ import annotations

import argparse
import calendar
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from shared.clock import parse_time_control
from shared.messages import BOT_LEVELS
from shared.settings import MAX_TARGET, MIN_TARGET
from shared.tournament import FORMATS

from ..host.tourneys import enter
from ..host.tourneytext import export, listing
from ..store import Store, StoreError
from ..store.tournaments import CANCELLED, OPEN, RUNNING, TournamentSettings
from . import checks
from .checks import Parser

MAX_NAME_TEXT = 40  # characters of a tournament's name


def _name(text: str) -> str:
    if not text.strip() or len(text) > MAX_NAME_TEXT or not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"a tournament's name is 1 to {MAX_NAME_TEXT} printable characters"
        )
    return " ".join(text.split())


def _clock(text: str) -> str:
    try:
        return str(parse_time_control(text))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _when(text: str) -> float:
    try:
        return float(calendar.timegm(time.strptime(text, "%Y-%m-%d %H:%M")))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a time as 'YYYY-MM-DD HH:MM' (UTC), not {text[:40]!r}"
        ) from None


def _between(low: int, high: int) -> Callable[[str], int]:
    def whole(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"a whole number from {low} to {high}")
        return int(text)

    return whole


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    where = Parser(add_help=False)
    where.add_argument("--config", help="the server's TOML settings (for its database)")
    where.add_argument("--data-dir", help="the server's data directory (default ./data)")
    where.add_argument("--database", type=checks.database_url, help="the database URL")
    p = Parser(prog="splendor-server tournament", description="Club tournaments.")
    sub = p.add_subparsers(dest="action", required=True)
    create = sub.add_parser("create", help="announce a tournament", parents=[where])
    create.add_argument("name", type=_name, help="its name, as the lobby shows it")
    create.add_argument("--format", choices=FORMATS, default="swiss")
    create.add_argument("--rounds", type=_between(1, 20), default=4, help="a Swiss's rounds")
    create.add_argument("--seats", type=_between(2, 4), default=2, help="players a table")
    create.add_argument("--clock", type=_clock, default="none", help="none, 10+5, 3d...")
    create.add_argument("--patience", type=_between(1, 1440), default=10, help="minutes")
    create.add_argument("--rated", action="store_true", help="its games are rated")
    create.add_argument("--target", type=_between(MIN_TARGET, MAX_TARGET), default=15)
    create.add_argument("--start-at", type=_when, help="'YYYY-MM-DD HH:MM', UTC")
    create.add_argument("--start-players", type=_between(2, 256), help="start at N entrants")
    create.add_argument("--max-players", type=_between(2, 256), default=64)
    create.add_argument("--bots", action="store_true", help="bot levels may enter")
    sub.add_parser("list", help="every tournament", parents=[where])
    actions = (
        ("export", "print a tournament as text"), ("start", "start it now"),
        ("cancel", "no more rounds; games in progress go on"),
    )  # fmt: skip
    for action, text in actions:
        one = sub.add_parser(action, help=text, parents=[where])
        one.add_argument("id", type=checks.table_id, help="its id (tournament list)")
    enter = sub.add_parser("enter", help="enter a bot level", parents=[where])
    enter.add_argument("id", type=checks.table_id)
    enter.add_argument("--bot", choices=BOT_LEVELS, required=True)
    return p.parse_args(argv)


async def create(store: Store, a: argparse.Namespace) -> str:
    s = TournamentSettings(
        a.rounds, a.seats, a.clock, a.patience * 60.0, a.rated, a.target, a.start_at,
        a.start_players, a.max_players, a.bots,
    )  # fmt: skip
    t = await store.tournaments.new(a.name, a.format, s, "admin")
    return f"tournament {t.id} created: {a.name}\n"


async def enter_bot(store: Store, tid: str, level: str) -> str:
    """A bot level as an entrant, as the lobby's desk enters one."""
    name = await enter(store, tid, None, level)
    return f"{name} entered tournament {tid}\n"


async def start(store: Store, tid: str) -> str:
    """Start when the running server next looks: its start is now, at the entrants it has."""
    for _ in range(5):
        t = await store.tournaments.load(tid)
        if t is None or t.status != OPEN:
            raise StoreError(f"there is no open tournament {tid}")
        if len(t.entrants) < 2:
            raise StoreError(f"tournament {tid} has {len(t.entrants)} entrants: 2 at least")
        settings = replace(t.settings, start_at=time.time())
        if await store.tournaments.update(replace(t, settings=settings)):
            return f"tournament {tid} starts (the server pairs its first round)\n"
    raise StoreError("the tournament is busy; try again")


async def cancel(store: Store, tid: str) -> str:
    """Cancel an open or running tournament: no round is paired after this."""
    for _ in range(5):
        t = await store.tournaments.load(tid)
        if t is None or t.status not in (OPEN, RUNNING):
            raise StoreError(f"there is no open or running tournament {tid}")
        if await store.tournaments.update(replace(t, status=CANCELLED)):
            return f"tournament {tid} cancelled\n"
    raise StoreError("the tournament is busy; try again")


def main(argv: Sequence[str]) -> int:
    """Run the action; its exit status (2: an argument refused, 1: it failed)."""
    try:
        a = parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    work: checks.Work = {
        "create": lambda s: create(s, a),
        "list": listing,
        "export": lambda s: export(s, a.id),
        "enter": lambda s: enter_bot(s, a.id, a.bot),
        "start": lambda s: start(s, a.id),
        "cancel": lambda s: cancel(s, a.id),
    }[a.action]
    return checks.on_store(f"splendor-server tournament {a.action}", a, lambda _config: work)
