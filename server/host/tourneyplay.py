"""A stored tournament's results and its next round: what `shared.tournament` decides,
read from and written to the store's records (`server.store.tournaments`). No sessions:
the desk (`server.host.tourneys`) makes the tables and tells the players.

A game counts as its ranks (R17), except that a player a bot stood in for (a time-out,
a vote: docs/design.md) or who left it ranks last: a player who does not come loses. A
game abandoned because every player left it or did not come, at a table with bots, ranks
its bots first and its players last; any other abandoned game counts as played with no
result.
"""

from __future__ import annotations

import random
from dataclasses import replace

from shared.tournament import (
    KNOCKOUT,
    ROUND_ROBIN,
    Game,
    Round,
    goes_on,
    knockout_round,
    round_robin,
    standings,
    swiss_round,
)
from shared.tournament.standings import Standing

from ..store import ABANDONED, FINISHED, GameRecord, Store
from ..store.tournaments import DONE, Entrant, StoredRound, TournamentRecord
from .identity import new_table_id

ENDED = ("finished", "abandoned", "closed")


def result(names: tuple[str, ...], record: GameRecord | None) -> Game | None:
    """A table's game as the tournament counts it; None while it is not over."""
    if record is None or record.status not in ENDED:
        return None
    outcome = record.outcome or {}
    absent = [s.name is not None and bool(s.standin or s.left) for s in record.seats]
    if record.status == ABANDONED and any(absent) and not all(absent):
        # every player left or did not come, at a table with bots: they lose to the bots
        return Game(names, tuple(len(names) if a else 1 for a in absent))
    if record.status != FINISHED or not outcome.get("ranks"):
        return Game(names)  # abandoned otherwise: played, no result
    ranks = [int(r) for r in outcome["ranks"]]
    last = len(names)
    for i, seat in enumerate(record.seats):
        if i < len(ranks) and seat.name is not None and (seat.standin or seat.left):
            ranks[i] = last  # did not come, or did not stay: last
    scores = tuple(int(s) for s in outcome.get("scores", ()))
    return Game(names, tuple(ranks), scores)


async def games_of(store: Store, t: TournamentRecord) -> list[list[Game | None]]:
    """Each round's games as far as they are over (None: still playing)."""
    out = []
    for r in t.rounds:
        games = []
        for gid, names in r.tables:
            games.append(result(names, await store.load_game(gid, moves=False)))
        out.append(games)
    return out


def seeded(t: TournamentRecord) -> list[str]:
    """The entrants, best seed first (rating at entry; then who entered first)."""
    order = sorted(enumerate(t.entrants), key=lambda ie: (-ie[1].rating, ie[0]))
    return [e.name for _, e in order]


def table_of(t: TournamentRecord, games: list[list[Game | None]]) -> list[Standing]:
    """The standings now (played games and byes)."""
    played = [g for rnd in games for g in rnd if g is not None]
    return standings(seeded(t), played, [b for r in t.rounds for b in r.byes])


def next_round(t: TournamentRecord, games: list[list[Game | None]]) -> TournamentRecord:
    """`t` with its next round (new table ids for its tables), or finished when it has
    none; knocked-out players marked out. The caller stores it (compare-and-set)."""
    played = [g for rnd in games for g in rnd if g is not None]
    entrants = list(t.entrants)
    order = seeded(t)
    if t.format == KNOCKOUT and t.rounds:
        winners = {goes_on(g, order) for g in games[-1] if g is not None and g.ranks}
        winners |= set(t.rounds[-1].byes)
        for rnd_game in games[-1]:  # abandoned: the best seed at it goes on
            if rnd_game is not None and not rnd_game.ranks:
                winners.add(min(rnd_game.players, key=order.index))
        entrants = [e if e.name in winners or e.out else replace(e, out=True) for e in entrants]
    playing = [n for n in order if not next(e for e in entrants if e.name == n).out]
    pairing = _pair(t, order, playing, played)
    if pairing is None or not pairing.tables:
        return replace(t, status=DONE, entrants=tuple(entrants))
    tables = tuple((g, _seated(tb, g)) for tb in pairing.tables if (g := new_table_id()))
    stored = StoredRound(tables, pairing.byes)
    return replace(t, entrants=tuple(entrants), rounds=(*t.rounds, stored))


def _seated(table: tuple[str, ...], game: str) -> tuple[str, ...]:
    """A table's players in seat order: drawn by its id, so the leader does not always
    play first (R6: seat order is turn order)."""
    order = list(table)
    random.Random(game).shuffle(order)
    return tuple(order)


def _pair(
    t: TournamentRecord, order: list[str], playing: list[str], played: list[Game]
) -> Round | None:
    seats, n = t.settings.seats, len(t.rounds)
    if t.format == KNOCKOUT:
        return knockout_round(playing, seats) if len(playing) > 1 else None
    if t.format == ROUND_ROBIN:
        schedule = round_robin(order, seats)
        if n >= len(schedule):
            return None
        here = set(playing)  # a withdrawn player's seat goes; a table left alone: a bye
        tables = [tuple(p for p in tb if p in here) for tb in schedule[n].tables]
        byes = [p for p in schedule[n].byes if p in here]
        byes += [tb[0] for tb in tables if len(tb) == 1]
        return Round(tuple(tb for tb in tables if len(tb) > 1), tuple(byes))
    if n >= t.settings.rounds or len(playing) < 2:
        return None
    byes = [b for r in t.rounds for b in r.byes]
    return swiss_round(order, played, byes, seats, playing=playing)


def entrant_seats(t: TournamentRecord, names: tuple[str, ...]) -> list[Entrant]:
    """The entrants at a table, in its seat order."""
    by_name = {e.name: e for e in t.entrants}
    return [by_name[n] for n in names]
