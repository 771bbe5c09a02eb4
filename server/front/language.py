"""Which language a session's player reads (docs/design.md, "Languages"): the one they
chose before, kept with their key, then the one their SSH client's environment asks for
(LC_ALL, LC_MESSAGES, LANG), then the server's `default_language`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping

from shared.i18n import language_from_env

from ..host.identity import Identity

log = logging.getLogger("splendor.ssh")

# A name's choice from the store: its language and, if right to left, how it shows.
Chosen = tuple[str, str | None]
SavedLanguage = Callable[[str], Awaitable[Chosen | None]]


def from_env(env: Mapping[str, str], default: str) -> str:
    """The language the environment asks for, if it is one of ours, else `default`."""
    return language_from_env(env) or default


async def saved(lookup: SavedLanguage | None, identity: Identity) -> Chosen | None:
    """The language this player chose before; None for a guest (whose choice lasts a
    session), or when the store cannot say (the environment decides then)."""
    if lookup is None or identity.guest:
        return None
    try:
        return await lookup(identity.name)
    except Exception as e:  # the store unreachable: not worth refusing the session
        log.warning("%s: saved language unknown: %s", identity.name, e)
        return None
