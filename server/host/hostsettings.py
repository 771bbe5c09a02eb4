"""The game host's settings: how its lobby deals, caps, paces and allows games.

One frozen value, written once here: `server.host.gamehost.GameHost` takes it and hands it to
its lobby (`server.host.lobby.Lobby`), which reads it where it is needed. The defaults are a
public server's; offline play (`server.commands.play.offline_host`) and tests change a few.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass


def random_seed() -> int:
    """A deal's seed nobody can guess (a server's: no player may know the decks)."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class HostSettings:
    """What a game host allows and how it paces its games; each field says what it is."""

    # Where each game's seed comes from (tests count them: 1000, 1001, ...).
    seeds: Callable[[], int] = random_seed
    # Seconds a bot waits after the previous move before it plays, so humans see it.
    bot_pause: float = 0.6
    # Live tables (no clock, or real time) one player may be seated at.
    max_tables_per_player: int = 3
    # Correspondence tables (a clock of days) one player may be seated at.
    max_correspondence_tables: int = 20
    # Open tables on the host, every player's together.
    max_tables: int = 500
    # Seconds a minor change of the lobby list (a turn, who is online) may wait to be sent.
    lobby_tick: float = 2.0
    # Seconds after which a game without a clock that no human came back to is abandoned;
    # None: never (offline play, where games last as long as the run).
    abandon_after: float | None = 3 * 24 * 3600.0
    # Whether a player's `seed` deals the game (offline play); on a server, a player who
    # chose the seed would know the decks.
    client_seeds: bool = False
    # Whether tables may be rated (not offline: nothing would keep the ratings).
    ratings: bool = True
    # Practice tools (offline play): taking moves back, and a bot's advice. On a server a
    # move anyone has seen stays, and nobody plays with a bot's help.
    undo: bool = False
    hints: bool = False
    # Seconds between two looks at the tournaments this process runs (a game's end looks
    # at once).
    tournament_tick: float = 2.0
    # Whether players (with a key) may announce tournaments from the lobby (else only the
    # admin command may).
    player_tournaments: bool = True
    # The time the clocks count in, seconds since the epoch (deadlines, absences): the
    # real one, or a test's.
    now: Callable[[], float] = time.time


DEFAULT_HOST_SETTINGS = HostSettings()  # a public server's
