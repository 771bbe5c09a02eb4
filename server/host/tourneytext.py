"""A tournament as text: `splendor-server tournament export ID` and `list` (docs/records.md,
"Tournaments"). Everything in it comes from the store: settings, entrants, each round's
tables with their games' ids and results, byes, and the standings with tie-breaks."""

from __future__ import annotations

import time
from fractions import Fraction

from shared.messages import MAX_NAME
from shared.text import safe_text
from shared.tournament import KNOCKOUT, SWISS, Game

from ..store import Store, StoreError
from ..store.tournaments import TournamentRecord
from .tourneyplay import games_of, table_of


def number(x: Fraction) -> str:
    """Points as people read them: 2, 2.5, 1.67."""
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}".rstrip("0")


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))


def _name(text: str) -> str:
    return safe_text(text, MAX_NAME)  # a copied database may hold anything


def describe(t: TournamentRecord) -> str:
    """The format in a few words: "swiss, 4 rounds, tables of 3"."""
    s = t.settings
    rounds = f", {s.rounds} rounds" if t.format == SWISS else ""
    return f"{t.format}{rounds}, tables of {s.seats}"


def start_text(t: TournamentRecord) -> str:
    s, parts = t.settings, []
    if s.start_players is not None:
        parts.append(f"at {s.start_players} players")
    if s.start_at is not None:
        parts.append(f"at {_when(s.start_at)}")
    return " or ".join(parts) or "when an admin starts it"


def _result(names: tuple[str, ...], game: Game | None) -> str:
    if game is None:
        return "playing   " + ", ".join(_name(n) for n in names)
    if not game.ranks:
        return "abandoned " + ", ".join(_name(n) for n in names)
    seats = sorted(zip(game.ranks, range(len(names)), strict=True))
    shown = []
    for rank, i in seats:
        score = f" {game.scores[i]}" if game.scores else ""
        shown.append(f"{rank}. {_name(names[i])}{score}")
    return "over      " + ", ".join(shown)


async def export(store: Store, tid: str) -> str:
    """The whole tournament as text (docs/records.md, "Tournaments")."""
    t = await store.tournaments.load(tid)
    if t is None:
        raise StoreError(f"there is no tournament {tid}")
    s = t.settings
    lines = [
        f"# Splendor tournament {t.id}: {_name(t.name)}",
        f"format: {describe(t)}",
        f"tables: clock {s.clock}, patience {s.patience:g} s, "
        f"{'rated' if s.rated else 'casual'}, to {s.target}",
        f"entries: at most {s.max_players}, bots {'allowed' if s.bots else 'not allowed'}, "
        f"starts {start_text(t)}",
        f"created: {_when(t.created)} by {_name(t.creator)}",
        f"status: {t.status}",
        "",
        "## Entrants (seed order: rating at entry)",
    ]
    games = await games_of(store, t)
    by_seed = sorted(t.entrants, key=lambda e: -e.rating)
    for i, e in enumerate(by_seed, 1):
        what = f"bot {e.bot}" if e.bot else "player"
        out = (" knocked out" if t.format == KNOCKOUT else " withdrawn") if e.out else ""
        lines.append(f"{i:>3}. {_name(e.name):<18} {what:<11} {e.rating:>5}{out}")
    for n, (rnd, played) in enumerate(zip(t.rounds, games, strict=True), 1):
        lines += ["", f"## Round {n}"]
        for (gid, names), game in zip(rnd.tables, played, strict=True):
            lines.append(f"table {gid}  {_result(names, game)}")
        if rnd.byes:
            lines.append("bye: " + ", ".join(_name(b) for b in rnd.byes))
    lines += ["", "## Standings", standings_text(t, games)]
    return "\n".join(lines) + "\n"


def standings_text(t: TournamentRecord, games: list[list[Game | None]]) -> str:
    """The standings as a text table: rank, player, points, tie-breaks, games."""
    head = f"{'rank':>4}  {'player':<18} {'points':>6} {'buchholz':>8} {'wins':>4} {'prestige':>8}"
    lines = [head + f" {'games':>5} {'byes':>4}"]
    for s in table_of(t, games):
        lines.append(
            f"{s.rank:>4}  {_name(s.name):<18} {number(s.points):>6} {number(s.buchholz):>8}"
            f" {s.wins:>4} {s.prestige:>8} {s.games:>5} {s.byes:>4}"
        )
    return "\n".join(lines)


async def listing(store: Store) -> str:
    """Every tournament, newest first: id, status, name, format, entrants, rounds."""
    lines = []
    for t in await store.tournaments.all():
        lines.append(
            f"{t.id}  {t.status:<9} {_name(t.name):<24} {describe(t):<30}"
            f" {len(t.entrants):>3} entrants, round {len(t.rounds)}"
        )
    return "\n".join(lines or ["(no tournaments)"]) + "\n"
