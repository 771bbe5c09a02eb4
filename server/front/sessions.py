"""Every live session of one server (`Sessions`): the caps per identity and per address,
the start-up semaphore the apps share, what the garbage collector's schedule needs, and
the shutdown path. Each session itself is a `server.front.session.GameSession`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable

from shared.i18n import L_, Ln_, Text

from ..host.identity import Identity
from . import language
from .bridge import AppFactory, Host
from .config import Config
from .session import GameSession

log = logging.getLogger("splendor.ssh")


def release(counter: Counter[str], key: str) -> None:
    """One fewer of `key` in `counter`; the key goes when none is left (caps stay small)."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class Refusal(Exception):
    """A session refused by a cap: `text` says why, not yet in any language."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.english())
        self.text = text


class Sessions:
    """Every live session of one server, and what they share."""

    def __init__(self, config: Config, host: Host, app_factory: AppFactory) -> None:
        self.config = config
        self.host = host
        self.app_factory = app_factory
        self.live: set[GameSession] = set()
        self.closing = False
        self.startup = asyncio.Semaphore(config.startup_concurrency)
        self._per_identity: Counter[str] = Counter()
        self._per_address: Counter[str] = Counter()
        self.last_input = time.monotonic()
        self.gc_debt = 0  # sessions ended since the last full collection
        self.saved_language: language.SavedLanguage | None = None  # a choice, from the store

    def open(
        self,
        identity: Identity,
        address: str,
        command_hint: str,
        on_end: Callable[[], None] | None = None,
    ) -> GameSession:
        """A new session for `identity`, or `Refusal` with what the player is told (the
        caller says it in their language). `on_end` is called once the session has ended."""
        c = self.config
        if self.closing:
            raise Refusal(L_("the server is shutting down; try again in a minute"))
        if len(self.live) >= c.max_sessions:
            raise Refusal(L_("the server is full; try again later"))
        most = c.max_sessions_per_identity
        if self._per_identity[identity.name] >= most:
            raise Refusal(
                Ln_(
                    "{name} already has {n} session open",
                    "{name} already has {n} sessions open",
                    most,
                    name=identity.name,
                )
            )
        if self._per_address[address] >= c.max_sessions_per_address:
            raise Refusal(L_("too many sessions from {address}", address=address))
        session = GameSession(self, identity, address, command_hint, on_end)
        self.live.add(session)
        self._per_identity[identity.name] += 1
        self._per_address[address] += 1
        return session

    def ended(self, session: GameSession) -> None:
        """`session` has ended: it no longer counts against any cap."""
        if session not in self.live:
            return
        self.live.discard(session)
        release(self._per_identity, session.identity.name)
        release(self._per_address, session.address)
        self.gc_debt += 1

    async def shutdown(self, message: str | Text) -> None:
        """Tell every session `message`, exit every app and wait for them (SIGTERM)."""
        self.closing = True
        sessions = list(self.live)
        for session in sessions:
            session.end(message)
        waits = [asyncio.ensure_future(s.wait_closed()) for s in sessions]
        if waits:
            _, pending = await asyncio.wait(waits, timeout=self.config.shutdown_grace)
            if pending:
                log.warning("%d sessions did not end within the shutdown grace", len(pending))
