"""The club's pages in words: leaderboard rows, a profile's lines, a rating's sparkline.

Pure functions, no Textual (`client.screens.club` draws them). A rated bot is the
player ``bot:LEVEL`` on the host; here it reads "hard bot" and is marked as a bot.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from shared.i18n import N_, _, ngettext
from shared.players import bot_level, player_shown
from shared.protocol import GameLine, PlayerProfile, Ranked

SPARKS = "▁▂▃▄▅▆▇█"
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd"), 4: N_("4th")}


def is_bot(player: str) -> bool:
    return bot_level(player) is not None


def when(at: float, now: float | None = None) -> str:
    """A past moment, short: "just now", "5 min ago", "3 h ago", "2 d ago", "2026-11-02"."""
    ago = (time.time() if now is None else now) - at
    if ago < 60:
        return _("just now")
    if ago < 3600:
        return _("{count} min ago", count=int(ago // 60))
    if ago < 86400:
        return _("{count} h ago", count=int(ago // 3600))
    if ago < 30 * 86400:
        return _("{count} d ago", count=int(ago // 86400))
    return time.strftime("%Y-%m-%d", time.localtime(at))


def sparkline(values: Sequence[int], width: int = 50) -> str:
    """The latest `width` values as a line of blocks, lowest ▁ to highest █."""
    values = list(values)[-width:]
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1
    return "".join(SPARKS[(v - low) * (len(SPARKS) - 1) // span] for v in values)


def ranked_cells(r: Ranked, me: str, now: float | None = None) -> tuple[str, ...]:
    """One leaderboard row: rank, player (bots marked, "(you)"), rating, games, wins,
    last seen."""
    name = player_shown(r.player) + (_(" (you)") if r.player == me else "")
    if is_bot(r.player) or r.program:  # a bot level, or a program's name
        name = "⚙ " + name
    return (str(r.rank), name, str(r.rating), str(r.games), str(r.wins), when(r.last, now))


def standing_text(profile: PlayerProfile, now: float | None = None) -> str:
    """ "#3 of the club · rating 1512 · 14 games, 6 wins · last played 2 h ago"."""
    s = profile.standing
    if s is None:
        return _("Not rated yet: rated games count (guests are never rated).")
    rate = f"{100 * s.wins // s.games}%" if s.games else "—"
    return _(
        "#{rank} · rating {rating} · {games}, {wins} ({rate}) · last played {when}",
        rank=s.rank,
        rating=s.rating,
        games=ngettext("{n} rated game", "{n} rated games", s.games),
        wins=ngettext("{n} win", "{n} wins", s.wins),
        rate=rate,
        when=when(s.last, now),
    )


def history_text(history: Sequence[int], width: int) -> str:
    """The rating's course, from where it began, over the games that fit:
    "Rating over 4 games: 1000 ▁▃▂▅█ 1052" (`history`: the start, then after each game)."""
    if len(history) < 2:
        return ""
    shown = list(history)[-max(4, width - 40) :]
    games = len(shown) - 1
    over = (
        ngettext("{n} game", "{n} games", games)
        if len(shown) == len(history)
        else _("the last {games} games", games=games)
    )
    return _(
        "Rating over {over}: {shown} {sparkline} {shown2}",
        over=over,
        shown=shown[0],
        sparkline=sparkline(shown, len(shown)),
        shown2=shown[-1],
    )


def by_players_text(by_players: Sequence[tuple[int, int, int]]) -> str:
    """ "Rated games by player count: 2p 8 (4 won) · 3p 3 (1 won)" ("" for none)."""
    parts = [
        _("{players}p {games} ({wins} won)", players=n, games=games, wins=wins)
        for n, games, wins in by_players
    ]
    return _("Rated games by player count: ") + " · ".join(parts) if parts else ""


def game_cells(g: GameLine, now: float | None = None) -> tuple[str, ...]:
    """One of a profile's games: id, when, result for the profile's seat, everyone's
    scores, rated or casual."""
    if g.status == "abandoned" or not g.ranks:
        result = _("abandoned")
    else:
        rank = g.ranks[g.seat]
        result = _(ORDINALS[rank]) if rank in ORDINALS else str(rank)
        if sum(1 for r in g.ranks if r == g.ranks[g.seat]) > 1:
            result += _(" (shared)")
    if g.scores:
        scores = " · ".join(
            f"{player_shown(n)} {s}" for n, s in zip(g.names, g.scores, strict=False)
        )
    else:
        scores = ", ".join(player_shown(n) for n in g.names)
    return (g.game, when(g.finished, now), result, _("rated") if g.rated else _("casual"), scores)
