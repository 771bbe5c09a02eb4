"""How players are named across the club: a person by name, a bot level as one rated
player (``bot:hard``, read "hard bot"). Ratings, profiles, records and screens all name
them through here."""

from __future__ import annotations

from .i18n import N_, _
from .messages import BOT_LEVELS

BOT_PREFIX = "bot:"
LEVEL_WORDS = (N_("easy"), N_("medium"), N_("hard"))  # the levels, as a screen says them


def bot_player(level: str) -> str:
    """The rated player that every bot of a level is: ``bot:hard``."""
    return BOT_PREFIX + level


def bot_label(level: str) -> str:
    """A bot level as people read it: "hard bot"."""
    return f"{level} bot"


def bot_level(player: str) -> str | None:
    """The level of a bot player (``bot:hard`` → "hard"), None for a person."""
    level = player.removeprefix(BOT_PREFIX)
    return level if player.startswith(BOT_PREFIX) and level in BOT_LEVELS else None


def player_label(player: str) -> str:
    """A player as people read it: "hard bot" for ``bot:hard``, a name as it is."""
    level = bot_level(player)
    return player if level is None else bot_label(level)


def bot_shown(level: str) -> str:
    """A bot level in the reader's language, for a screen ("hard bot"); records and
    logs keep `bot_label`'s English."""
    return _("{level} bot", level=_(level))


def player_shown(player: str) -> str:
    """`player_label` in the reader's language: a bot level translated, a name as it is."""
    level = bot_level(player)
    return player if level is None else bot_shown(level)


def player_named(text: str) -> str:
    """The player a person typed: "hard bot" or "bot:hard" is the hard bot (a name
    has no space or colon); anything else is a name."""
    text = text.strip()
    lower = text.lower()
    for level in BOT_LEVELS:
        if lower in (bot_label(level), bot_player(level)):
            return bot_player(level)
    return text


__all__ = ["BOT_PREFIX", "bot_label", "bot_level", "bot_player", "player_label", "player_named"]
