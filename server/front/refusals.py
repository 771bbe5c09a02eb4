"""What the SSH front says when it refuses a login or a session, and in which language.

At login and when a channel opens, the SSH client's environment (LANG) has not come yet:
it comes with the session's own requests. So a refusal is said in the language the
player chose before, when the key offered owns the name, else in the server's
`default_language` (docs/design.md, "Languages"); the server's log stays English.
OpenSSH prints a disconnect's or a refused channel's reason with every byte outside
ASCII escaped (`\\303\\251`), but a login banner as UTF-8: a refusal at login goes
as both (docs/design.md, P19).
"""

from __future__ import annotations

from typing import Protocol

import asyncssh

from shared.i18n import L_, Text
from shared.text import safe_text

from ..store import StoreUnavailable

MAX_REASON = 200  # characters of a ban's reason a refused player is told


class SavedLanguages(Protocol):
    """The language a name's player chose before (`server.store.Store.language`)."""

    async def language(self, name: str) -> tuple[str, str | None] | None: ...


async def language_for(names: SavedLanguages, name: str | None, default: str) -> str:
    """The language to refuse `name`'s owner in: their saved choice, else `default`.
    `name` is None when the key offered does not own the name (or there is no key)."""
    if name is None:
        return default
    try:
        chosen = await names.language(name)
    except StoreUnavailable:
        return default
    return chosen[0] if chosen else default


def denied(
    conn: asyncssh.SSHServerConnection | None, text: Text, language: str
) -> asyncssh.PermissionDenied:
    """A login refusal saying `text` in `language`: the reason the client prints and,
    when it is not plain ASCII, a banner before it (which OpenSSH shows unescaped)."""
    said = text.render(language)
    if conn is not None and not said.isascii():
        conn.send_auth_banner(said + "\r\n")
    return asyncssh.PermissionDenied(said)


def closed(text: Text, language: str) -> asyncssh.ChannelOpenError:
    """A refused channel (a cap, forwarding) saying `text` in `language`."""
    return asyncssh.ChannelOpenError(
        asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, text.render(language)
    )


def bad_name(username: str) -> Text:
    """The name rule, as `server.host.identity.check_name` says it."""
    return L_(
        "{name} can't be a player name here: use 2 to 16 letters, digits, '-' or '_', "
        "starting with a letter (not 'guest'), as in: ssh ann@host",
        name=repr(username[:40]),
    )


def banned(name: str, reason: str) -> Text:
    """What a banned player is told (a ban holds the name and the key that owns it); the
    reason is the admin's words, as typed (made safe for a terminal)."""
    reason = safe_text(reason, MAX_REASON)
    if reason:
        return L_(
            "the name '{name}', or the key you connect with, is banned here ({reason})",
            name=name,
            reason=reason,
        )
    return L_("the name '{name}', or the key you connect with, is banned here", name=name)


def owned(name: str) -> Text:
    """A name another key has claimed meanwhile (between the check and the claim)."""
    return L_("the name '{name}' belongs to another player's SSH key", name=name)


def owned_pick_another(name: str, ssh: str, host: str) -> Text:
    """A name owned by another key, and how to come in under another name."""
    return L_(
        "the name '{name}' belongs to another player's SSH key. Connect with that key, "
        "or pick another name: {ssh}NAME@{host}",
        name=name,
        ssh=ssh,
        host=host,
    )


TOO_MANY_ATTEMPTS = L_("too many authentication attempts")
KEYS_ONLY = L_(
    "this server admits players with an SSH key only: make one with "
    "'ssh-keygen -t ed25519', then connect again"
)
LOGIN_REFUSED = L_("login refused")
NO_SESSION = L_("no session was opened; goodbye")
NO_PORT_FORWARDING = L_("port forwarding is disabled")
NO_FORWARDING = L_("forwarding is disabled")
