"""Points and standings, with their tie-breaks (docs/tournaments.md, "Standings").

A game gives each player the share of the others they finished ahead of, a shared rank
counting half (R17: ranks may be shared): at any table the first scores 1 and the last
0, so a table of 4 is worth what a table of 2 is. A bye scores `BYE`. Ties in points
are broken by, in order: Buchholz (for each game, the mean points of the others at the
table, summed: who you met), games ranked first, prestige scored, the seed (rating at
entry), and the name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .model import Game

BYE = Fraction(1)  # a bye is worth a win: the player was ready to play


def points(game: Game) -> dict[str, Fraction]:
    """Each player's points from one played game (1 first, 0 last, shared ranks half)."""
    out: dict[str, Fraction] = {}
    others = len(game.players) - 1
    for p, r in zip(game.players, game.ranks, strict=True):
        ahead = sum(1 for q in game.ranks if q > r)
        tied = sum(1 for q in game.ranks if q == r) - 1
        out[p] = Fraction(2 * ahead + tied, 2 * others)
    return out


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line: rank (shared when points and every tie-break but the seed are
    equal), and what the rank was decided by."""

    rank: int
    name: str
    points: Fraction
    buchholz: Fraction
    wins: int
    prestige: int
    games: int
    byes: int

    def key(self) -> tuple[Fraction, Fraction, int, int]:
        return (self.points, self.buchholz, self.wins, self.prestige)


def standings(
    entrants: Sequence[str], games: Iterable[Game], byes: Iterable[str] = ()
) -> list[Standing]:
    """The standings after `games` (played ones; a game without ranks counts nothing) and
    `byes` (one name per bye given), best first; `entrants` in seed order, which breaks
    the last ties."""
    played = [g for g in games if g.ranks]
    pts = {p: Fraction(0) for p in entrants}
    wins = dict.fromkeys(entrants, 0)
    prestige = dict.fromkeys(entrants, 0)
    count = dict.fromkeys(entrants, 0)
    bye_count = dict.fromkeys(entrants, 0)
    for g in played:
        for p, got in points(g).items():
            pts[p] = pts.get(p, Fraction(0)) + got
        for i, p in enumerate(g.players):
            count[p] = count.get(p, 0) + 1
            wins[p] = wins.get(p, 0) + (g.ranks[i] == 1)
            prestige[p] = prestige.get(p, 0) + (g.scores[i] if g.scores else 0)
    for p in byes:
        pts[p] = pts.get(p, Fraction(0)) + BYE
        bye_count[p] = bye_count.get(p, 0) + 1
    buch = dict.fromkeys(pts, Fraction(0))
    for g in played:
        for p in g.players:
            mates = [pts.get(q, Fraction(0)) for q in g.players if q != p]
            buch[p] += sum(mates, Fraction(0)) / len(mates)
    seed = {p: i for i, p in enumerate(entrants)}
    lines = [
        Standing(0, p, pts[p], buch[p], wins.get(p, 0), prestige.get(p, 0), count.get(p, 0),
                 bye_count.get(p, 0))
        for p in entrants
    ]  # fmt: skip
    lines.sort(key=lambda s: (-s.points, -s.buchholz, -s.wins, -s.prestige, seed[s.name]))
    out: list[Standing] = []
    for i, s in enumerate(lines):
        rank = out[-1].rank if out and out[-1].key() == s.key() else i + 1
        out.append(Standing(rank, s.name, s.points, s.buchholz, s.wins, s.prestige, s.games,
                            s.byes))  # fmt: skip
    return out


def met(games: Iterable[Game]) -> dict[frozenset[str], int]:
    """How often each pair of players has sat at one table."""
    out: dict[frozenset[str], int] = {}
    for g in games:
        for i, a in enumerate(g.players):
            for b in g.players[i + 1 :]:
                key = frozenset((a, b))
                out[key] = out.get(key, 0) + 1
    return out
