"""What the lobby's tournament screens show, made from the store: the list and one
tournament's page (`shared.tourney_messages`), with the standings, every round's tables
(watchable while playing, replayable once over) and each player's path."""

from __future__ import annotations

import time

from shared.i18n import _, ngettext
from shared.tournament import SWISS, Game
from shared.tourney_messages import (
    MAX_ROWS,
    MAX_TABLES,
    MAX_TOURNEYS,
    TourneyLine,
    TourneyPage,
    TourneyRow,
    Tourneys,
    TourneyTable,
)

from ..store import Store
from ..store.tournaments import DONE, OPEN, RUNNING, TournamentRecord
from .tourneyplay import games_of, table_of
from .tourneytext import number


def describe(t: TournamentRecord) -> str:
    """The format in words, as a player reads it: "swiss, 4 rounds, tables of 3"."""
    s = t.settings
    names = {SWISS: _("swiss"), "round-robin": _("round robin"), "knockout": _("knockout")}
    rounds = ", " + ngettext("{n} round", "{n} rounds", s.rounds) if t.format == SWISS else ""
    return names.get(t.format, t.format) + rounds + ", " + _("tables of {n}", n=s.seats)


def start_text(t: TournamentRecord) -> str:
    """When an open tournament starts, in words."""
    s, parts = t.settings, []
    if s.start_players is not None:
        parts.append(ngettext("at {n} player", "at {n} players", s.start_players))
    if s.start_at is not None:
        parts.append(
            _("at {time}", time=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(s.start_at)))
        )
    return _(" or ").join(parts) or _("when an admin starts it")


def line_of(t: TournamentRecord, me: str) -> TourneyLine:
    entered = any(e.name.lower() == me.lower() and not e.out for e in t.entrants)
    starts = start_text(t) if t.status == OPEN else ""
    return TourneyLine(t.id, t.name, describe(t), t.status, len(t.entrants), len(t.rounds),
                       entered, starts or "-")  # fmt: skip


async def tourney_list(store: Store, me: str) -> Tourneys:
    """Open and running tournaments first (newest first), then the latest finished."""
    live = await store.tournaments.all((OPEN, RUNNING))
    ended = await store.tournaments.all((DONE,))
    items = [line_of(t, me) for t in [*live, *ended][:MAX_TOURNEYS]]
    return Tourneys(tuple(items))


def _result(game: Game | None) -> tuple[str, str]:
    """A table's state and result in words."""
    if game is None:
        return "playing", "-"  # states are the protocol's words: the screen names them
    if not game.ranks:
        return "abandoned", "-"
    order = sorted(range(len(game.players)), key=lambda i: game.ranks[i])
    shown = [f"{game.ranks[i]}. {game.players[i]}" + (f" {game.scores[i]}" if game.scores else "")
             for i in order]  # fmt: skip
    return "over", ", ".join(shown)


def _paths(t: TournamentRecord, games: list[list[Game | None]]) -> dict[str, str]:
    paths: dict[str, list[str]] = {e.name: [] for e in t.entrants}
    for n, (rnd, played) in enumerate(zip(t.rounds, games, strict=True), 1):
        for b in rnd.byes:
            paths.setdefault(b, []).append(_("R{round} bye", round=n))
        for (_gid, names), game in zip(rnd.tables, played, strict=True):
            for i, name in enumerate(names):
                if game is None:
                    step = _("R{round} playing", round=n)
                elif not game.ranks:
                    step = _("R{round} abandoned", round=n)
                else:
                    step = _("R{round} {rank}/{of}", round=n, rank=game.ranks[i], of=len(names))
                paths.setdefault(name, []).append(step)
    return {name: " · ".join(steps) or "-" for name, steps in paths.items()}


async def tourney_page(store: Store, t: TournamentRecord, me: str) -> TourneyPage:
    s = t.settings
    about = " · ".join((
        _("clock {clock}", clock=s.clock), _("rated") if s.rated else _("casual"),
        _("to {target}", target=s.target), _("at most {n}", n=s.max_players),
        _("bots welcome") if s.bots else _("no bots"),
    ))  # fmt: skip
    games = await games_of(store, t)
    paths = _paths(t, games)
    out = {e.name for e in t.entrants if e.out}
    rows = tuple(
        TourneyRow(
            st.rank,
            st.name,
            number(st.points),
            number(st.buchholz),
            st.wins,
            st.games,
            paths.get(st.name, "-"),
            st.name in out,
        )  # fmt: skip
        for st in table_of(t, games)[:MAX_ROWS]
    )
    tables = []
    for n, (rnd, played) in enumerate(zip(t.rounds, games, strict=True), 1):
        for (gid, names), game in zip(rnd.tables, played, strict=True):
            state, result = _result(game)
            tables.append(TourneyTable(gid, n, names, state, result))
    tables.reverse()  # the latest round first
    return TourneyPage(line_of(t, me), about, rows, tuple(tables[:MAX_TABLES]))


async def tourney_places(store: Store, player: str, most: int = 5) -> tuple[str, ...]:
    """A profile's tournaments, latest first: "Club night: 2 of 9", or its status."""
    out: list[str] = []
    for t in await store.tournaments.all((RUNNING, DONE, OPEN)):
        if len(out) >= most:
            break
        if t.entrant(player) is None:
            continue
        if t.status == OPEN:
            out.append(_("{name}: entered", name=t.name))
            continue
        table = table_of(t, await games_of(store, t))
        rank = next((s.rank for s in table if s.name.lower() == player.lower()), 0)
        where = _("{rank} of {n}", rank=rank, n=len(table))  # a number: every language reads it
        out.append(f"{t.name}: {where}" + (_(" so far") if t.status == RUNNING else ""))
    return tuple(out)
