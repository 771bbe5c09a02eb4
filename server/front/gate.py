"""The door's counters: what every connection of one listener shares, and its caps.

A connection is counted from the moment it arrives (per address), as logging in
until authentication ends, then as an idle login whenever it has no session open:
right after logging in, and again once its sessions have all ended. An idle login
must open a session within `login_timeout` (`server.front.auth.PlayerAuth` closes it
otherwise), and at most `max_idle_logins` may be idle at once, so logged-in
connections that open nothing cost a bounded amount however many arrive.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..host.identity import GUEST_PREFIX
from .config import Config
from .sessions import release

if TYPE_CHECKING:
    from .auth import PlayerAuth


class Gate:
    """Connection counts shared by every connection of one listener."""

    def __init__(self, config: Config, guest_secret: bytes = b"") -> None:
        self.config = config
        self.guest_secret = guest_secret  # keys guests' address digests (identity.guest_key)
        self.connections: set[PlayerAuth] = set()
        self.unauthenticated = 0
        self.idle: set[PlayerAuth] = set()  # logged in, no session open
        self.per_address: Counter[str] = Counter()
        self.guests: Counter[str] = Counter()  # guest names in use right now

    def admit(self, conn: PlayerAuth) -> str:
        """'' if `conn`, just arrived, may log in, else why not."""
        c = self.config
        if self.unauthenticated >= c.max_unauthenticated:
            return "too many logins in progress"
        if self.per_address[conn.address] >= c.max_connections_per_address:
            return f"too many connections from {conn.address}"
        self.connections.add(conn)
        self.unauthenticated += 1
        self.per_address[conn.address] += 1
        return ""

    def logged_in(self, conn: PlayerAuth) -> str:
        """'' if `conn`, whose login just succeeded, may stay, else why not. When it may,
        the caller sets `conn.identity` and adds it to `idle` until it opens a session."""
        if len(self.idle) >= self.config.max_idle_logins:
            return f"{len(self.idle)} logged-in connections have no session open"
        self.unauthenticated -= 1
        return ""

    def guest_name(self, name: str) -> str:
        """A marked guest name, distinct from every guest online now."""
        base = GUEST_PREFIX + name
        candidate, n = base, 1
        while self.guests[candidate]:
            n += 1
            candidate = f"{base}{n}"
        self.guests[candidate] += 1
        return candidate

    def release(self, conn: PlayerAuth) -> None:
        """`conn` has closed: it counts nowhere any more."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        self.idle.discard(conn)
        if conn.identity is None:
            self.unauthenticated -= 1
        elif conn.identity.guest:
            release(self.guests, conn.identity.name)
        release(self.per_address, conn.address)
