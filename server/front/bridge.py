"""The app's link to the game host inside this process.

The client app knows only a `client.connection.Connection`; the host knows
only a `deliver` callable and gives back a link (`server.host.link.HostLink`).
`HostBridge` joins the two for one SSH session, and for offline play
(`server.commands.play`), which runs the same host: `connect_app` does the joining.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from textual.app import App

from client.connection import Connection

from ..host.identity import Identity

log = logging.getLogger("splendor.ssh")


class Link(Protocol):
    """The host's end for one session (`server.host.gamehost.HostLink`)."""

    def send(self, data: bytes) -> None: ...
    def close(self) -> None: ...


class Host(Protocol):
    """What the transport needs of the game host (`server.host.gamehost.GameHost`)."""

    def connect(self, identity: Identity, deliver: Callable[[bytes], None]) -> Link: ...


AppFactory = Callable[[Connection, Identity], App[Any]]
A = TypeVar("A", bound=App[Any])


R = TypeVar("R")


def outside(call: Callable[..., R], *args: Any) -> R:
    """`call(*args)` in a fresh context: the host, and the tasks it starts, never run in
    a session's context, so they read no session's language (`shared.i18n`) and the
    log stays English; what they send a player is translated by that player's app."""
    return contextvars.Context().run(call, *args)


class HostBridge(Connection):
    """The app's `Connection` in the server: app → host through the host link;
    host → app always through `app.call_later`, so the app's receiver runs in
    the app's own task and context, never in the host's (docs/design.md, P7)."""

    def __init__(self) -> None:
        super().__init__()
        self._app: App[Any] | None = None
        self._link: Link | None = None
        self.closed = False

    def attach_app(self, app: App[Any]) -> None:
        """Before connecting: the host may deliver during `connect` itself."""
        self._app = app

    def attach_link(self, link: Link) -> None:
        if self.closed:
            link.close()
        else:
            self._link = link

    def send(self, data: bytes) -> None:
        """One client message from the app to the host."""
        if self._link is not None and not self.closed:
            outside(self._link.send, data)

    def deliver(self, data: bytes) -> None:
        """Called by the host (in the host's task) with one host message."""
        app = self._app
        if app is not None and not self.closed:
            app.call_later(self._receive, data)

    def _receive(self, data: bytes) -> None:
        Connection.deliver(self, data)

    def close(self) -> None:
        """The app left or the session ended: the host holds the seat."""
        if self.closed:
            return
        self.closed = True
        # The host may keep its end (and our `deliver`) for a while: hold nothing of the app.
        self._receiver, self._pending = None, []
        link, self._link, self._app = self._link, None, None
        if link is not None:
            try:
                outside(link.close)
            except Exception:
                log.exception("closing a host link failed")


def connect_app(
    host: Host, identity: Identity, make_app: Callable[[Connection], A]
) -> tuple[A, HostBridge, Link]:
    """An app for `identity`, made by `make_app` on a new bridge and connected to `host`
    (which may deliver during `connect` itself: the bridge passes it on to the app)."""
    bridge = HostBridge()
    app = make_app(bridge)
    bridge.attach_app(app)
    link = outside(host.connect, identity, bridge.deliver)
    bridge.attach_link(link)
    return app, bridge, link
