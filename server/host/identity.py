"""Who a session is: the name it plays under (`check_name` says what a name may be)
and how it proved it; and what a table's id is (`new_table_id`, `check_table_id`), the
other name an admin types.

Shared between the SSH transport (which builds an Identity at auth time) and
the game host (which seats, reconnects and lists players by it).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

NAME_RE = re.compile(r"[a-z][a-z0-9_-]{1,15}")
GUEST_PREFIX = "guest-"  # guests' names start with it; no player name may
TABLE_ID_RE = re.compile(r"[0-9a-f]{6}")  # a table's id, its game's too: `new_table_id`


@dataclass(frozen=True)
class Identity:
    """A player identity.

    ``name`` is the displayed name (the SSH username; guests get a marked
    name chosen by the transport). ``guest`` is True for keyless logins,
    which play but never own a name. ``key`` is the public-key fingerprint
    that owns ``name``; for a guest, a token of the address it came from
    (`guest_key`), so that a seat held for a dropped guest goes back to that
    guest and not to anyone who logs in later under the same name. ``program``:
    the name is a program's (`splendor-server bot-account`), shown with the bots'
    mark; it plays as any player does.
    """

    name: str
    guest: bool
    key: str | None
    program: bool = False


def guest_key(address: str, secret: bytes) -> str:
    """A guest's stand-in for a key: a keyed digest of its address, so the address cannot
    be read back from stored games. Guests behind one address share it; a key is the
    safe way to keep a seat."""
    return "guest:" + hmac.new(secret, address.encode(), hashlib.sha256).hexdigest()[:24]


def guest_secret(host_private_key: bytes) -> bytes:
    """The server's secret for `guest_key`, derived from its host key (a secret it keeps
    anyway, in the data directory): guest seats survive restarts, and move with a backup.
    `host_private_key` must be the same bytes every time (PKCS#8 DER: OpenSSH's format
    holds random check bytes)."""
    return hashlib.sha256(b"splendor guest key\0" + host_private_key).digest()


def check_name(username: str) -> str:
    """The player name for an SSH username, or ValueError saying what a name may be."""
    name = username.lower()
    if not NAME_RE.fullmatch(name) or name.startswith(GUEST_PREFIX.rstrip("-")):
        raise ValueError(
            f"{username[:40]!r} can't be a player name here: use 2 to 16 letters, digits, "
            "'-' or '_', starting with a letter (not 'guest'), as in: ssh ann@host"
        )
    return name


def new_table_id() -> str:
    """A new table's id: 6 hex digits, random (the caller makes sure it is not in use)."""
    return secrets.token_hex(3)


def check_table_id(text: str) -> str:
    """The table (and game) id `text` names, or ValueError saying what an id looks like."""
    table = text.lower()
    if not TABLE_ID_RE.fullmatch(table):
        raise ValueError(
            f"{text[:40]!r} is not a table's id: an id is 6 characters, digits 0-9 and "
            "letters a-f, as the lobby shows it (4fa2c1)"
        )
    return table
