"""Who a session is: the name it plays under and how it proved it.

Shared between the SSH transport (which builds an Identity at auth time) and
the game host (which seats, reconnects and lists players by it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Identity:
    """A player identity.

    ``name`` is the displayed name (the SSH username; guests get a marked
    name chosen by the transport). ``guest`` is True for keyless logins,
    which play but never own a name. ``key`` is the public-key fingerprint
    that owns ``name`` (None for guests).
    """

    name: str
    guest: bool
    key: str | None
