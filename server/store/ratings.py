"""Ratings for 2–4 player games: a Plackett–Luce model (the `openskill` package).

Splendor is a free-for-all: a game ranks its players 1st to 4th (R17, shared ranks
included), and a two-player rating system (Elo) would have to cut that ranking into
pairs. Plackett–Luce rates a whole ranking at once, takes ties as ties, and keeps for
each player a skill (mu) and an uncertainty (sigma) that shrinks as games are played
(Weng and Lin's Bayesian approximation: closed-form updates, no simulation). It is
openskill's recommended model, and free of the patent that long covered TrueSkill.

What a person reads is one number, `display`: a conservative estimate (mu − 3·sigma:
the skill the player has at least, very likely), scaled to look like an Elo rating.
A new player shows 1000 and rises as games make their skill sure; an established
average player shows about 1700.

Who is rated: players with a key (by name), and each bot level as one player
(``bot:hard``), so a player can see where they stand against the bots. Guests are
never rated; a rated game with guests rates the others among themselves. A player who
abandons a rated game ranks last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from shared.messages import MAX_RATING
from shared.players import bot_player

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

START = (25.0, 25.0 / 3)  # the model's own start (mu, sigma), a test checks it
DISPLAY_BASE, DISPLAY_SCALE = 1000, 40


def display(mu: float, sigma: float) -> int:
    """The rating as shown: 1000 + 40 × (mu − 3·sigma), rounded, 1000 for a newcomer;
    kept within what a client accepts (0 to MAX_RATING)."""
    shown = round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))
    return max(0, min(MAX_RATING - 1, shown))


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return display(self.mu, self.sigma)


NEW = Rating(*START)


@cache
def _model() -> PlackettLuce:
    """The model, made at the first game rated: openskill is imported then, not by every
    process that opens a store (offline play rates nothing)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rate(before: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """Each player's rating after a game they finished at `ranks` (1 is first; equal
    ranks are ties)."""
    if len(before) < 2:
        return list(before)
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma) for team in after]


@dataclass(frozen=True, slots=True)
class Rated:
    """One rated participant of a finished game: who (a name or ``bot:LEVEL``), its seat,
    and the rank it is rated at."""

    player: str
    seat: int
    rank: int


def participants(
    seats: Sequence[tuple[str | None, bool, str | None]],
    ranks: Sequence[int],
    left: Mapping[int, float] = MappingProxyType({}),
) -> list[Rated]:
    """Who a finished game rates, from its seats (name, guest, bot level) and its ranks
    (R17): keyed players and bot levels, never guests. The seats in `left` (players who
    abandoned the game, and when) rank after everyone else: the first to walk out
    ranks last, players who left at the same moment tie. Two seats of one bot level are
    one player: only the better placed one is rated. Fewer than two rated players:
    nobody is rated."""
    worst = max(ranks) + 1 if ranks else 1
    out: dict[str, Rated] = {}
    for seat, ((name, guest, bot), rank) in enumerate(zip(seats, ranks, strict=True)):
        if guest or (name is None and bot is None):
            continue
        player = bot_player(bot) if bot is not None else str(name)
        if seat in left:
            rank = worst + sum(1 for t in left.values() if t > left[seat])
        rated = Rated(player, seat, rank)
        if player not in out or rated.rank < out[player].rank:
            out[player] = rated
    if len(out) < 2:  # a game is rated between two players at least
        return []
    return sorted(out.values(), key=lambda r: r.seat)
