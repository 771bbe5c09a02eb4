"""Who a session is: the name it plays under and how it proved it.

Shared between the SSH transport (which builds an Identity at auth time) and
the game host (which seats, reconnects and lists players by it).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Identity:
    """A player identity.

    ``name`` is the displayed name (the SSH username; guests get a marked
    name chosen by the transport). ``guest`` is True for keyless logins,
    which play but never own a name. ``key`` is the public-key fingerprint
    that owns ``name``; for a guest, a token of the address it came from
    (`guest_key`), so that a seat held for a dropped guest goes back to that
    guest and not to anyone who logs in later under the same name.
    """

    name: str
    guest: bool
    key: str | None


def guest_key(address: str) -> str:
    """A guest's stand-in for a key: a digest of its address (the address itself is not
    stored with the game). Guests behind one address share it; a key is the safe way."""
    return "guest:" + hashlib.sha256(address.encode()).hexdigest()[:16]
