"""What the lobby's tournament screens show, made from the store: the list and one
tournament's page (`shared.tourney_messages`), with the standings, every round's tables
(watchable while playing, replayable once over) and each player's path."""

from __future__ import annotations

import time

from shared.clock import parse_time_control
from shared.i18n import L_, Ln_, Text
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
    return format_said(t).english()


def format_said(t: TournamentRecord) -> Text:
    """`describe` as a marked message, for the client to word in its reader's language."""
    s = t.settings
    tables = L_("tables of {n}", n=s.seats)
    if t.format == SWISS:
        rounds = Ln_("{n} round", "{n} rounds", s.rounds)
        return L_("swiss, {rounds}, {tables}", rounds=rounds, tables=tables)
    if t.format == "round-robin":
        return L_("round robin, {tables}", tables=tables)
    if t.format == "knockout":
        return L_("knockout, {tables}", tables=tables)
    return L_("{format}, {tables}", format=t.format, tables=tables)


def start_text(t: TournamentRecord) -> str:
    """When an open tournament starts, in words."""
    return start_said(t).english()


def start_said(t: TournamentRecord) -> Text:
    """`start_text` as a marked message."""
    s = t.settings
    when = None
    if s.start_at is not None:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(s.start_at))
    if s.start_players is not None and when is not None:
        return Ln_(
            "at {n} player or at {time}", "at {n} players or at {time}", s.start_players, time=when
        )
    if s.start_players is not None:
        return Ln_("at {n} player", "at {n} players", s.start_players)
    if when is not None:
        return L_("at {time}", time=when)
    return L_("when an admin starts it")


def line_of(t: TournamentRecord, me: str) -> TourneyLine:
    entered = any(e.name.lower() == me.lower() and not e.out for e in t.entrants)
    starts = start_said(t) if t.status == OPEN else None
    shown = starts.english() if starts is not None else "-"
    return TourneyLine(t.id, t.name, describe(t), t.status, len(t.entrants), len(t.rounds),
                       entered, shown, format_said(t), starts)  # fmt: skip


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


def _paths(t: TournamentRecord, games: list[list[Game | None]]) -> dict[str, list[Text]]:
    """Each player's path, a marked step a round: "R1 2/3", "R2 bye" (issue 34)."""
    paths: dict[str, list[Text]] = {e.name: [] for e in t.entrants}
    for n, (rnd, played) in enumerate(zip(t.rounds, games, strict=True), 1):
        for b in rnd.byes:
            paths.setdefault(b, []).append(L_("R{round} bye", round=n))
        for (_gid, names), game in zip(rnd.tables, played, strict=True):
            for i, name in enumerate(names):
                if game is None:
                    step = L_("R{round} playing", round=n)
                elif not game.ranks:
                    step = L_("R{round} abandoned", round=n)
                else:
                    step = L_("R{round} {rank}/{of}", round=n, rank=game.ranks[i], of=len(names))
                paths.setdefault(name, []).append(step)
    return paths


def _path_text(steps: list[Text]) -> str:
    return " · ".join(s.english() for s in steps) or "-"


async def tourney_page(store: Store, t: TournamentRecord, me: str) -> TourneyPage:
    s = t.settings
    about = L_(
        "clock {clock} · {rating} · to {target} · at most {n} · {bots}",
        clock=s.clock if parse_time_control(s.clock).timed else L_("none"),
        rating=L_("rated") if s.rated else L_("casual"),
        target=s.target,
        n=s.max_players,
        bots=L_("bots welcome") if s.bots else L_("no bots"),
    )
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
            _path_text(paths.get(st.name, [])),
            st.name in out,
            tuple(paths.get(st.name, [])),
        )  # fmt: skip
        for st in table_of(t, games)[:MAX_ROWS]
    )
    tables = []
    for n, (rnd, played) in enumerate(zip(t.rounds, games, strict=True), 1):
        for (gid, names), game in zip(rnd.tables, played, strict=True):
            state, result = _result(game)
            tables.append(TourneyTable(gid, n, names, state, result))
    tables.reverse()  # the latest round first
    return TourneyPage(line_of(t, me), about.english(), rows, tuple(tables[:MAX_TABLES]), about)


async def tourney_places(store: Store, player: str, most: int = 5) -> tuple[Text, ...]:
    """A profile's tournaments, latest first: "Club night: 2 of 9", or its status; marked
    messages, which each reader's client words (issue 34)."""
    out: list[Text] = []
    for t in await store.tournaments.all((RUNNING, DONE, OPEN)):
        if len(out) >= most:
            break
        if t.entrant(player) is None:
            continue
        if t.status == OPEN:
            out.append(L_("{name}: entered", name=t.name))
            continue
        table = table_of(t, await games_of(store, t))
        rank = next((s.rank for s in table if s.name.lower() == player.lower()), 0)
        fields = {"name": t.name, "rank": rank, "n": len(table)}
        if t.status == RUNNING:
            out.append(L_("{name}: {rank} of {n} so far", **fields))
        else:
            out.append(L_("{name}: {rank} of {n}", **fields))
    return tuple(out)
