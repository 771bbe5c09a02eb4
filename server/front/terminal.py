"""One player's terminal as the SSH session sees it: bytes in, bytes out, a size.

`RemoteTerminal` is all the transport (`server.front.session`) knows of a running app: it
feeds it the player's keys and window changes, and the driver (`server.front.tui_driver`)
writes frames through it. Here too: the escape sequences that enter and leave the app's
screen, and the colours a session gets from its PTY request and environment (P8).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Protocol

PENDING_INPUT_LIMIT = 64 * 1024  # bytes typed before the app is ready, kept for it

START_SEQUENCE = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?25l"  # cursor off
    "\x1b[?1004h"  # focus in/out reports
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no autowrap: the last column never scrolls the screen
)
# Clicks only (press, release, wheel) in SGR coordinates; never 1002/1003 motion reports,
# which re-render on every hover (docs/design.md, P14). Kitty's keyboard protocol is never enabled.
MOUSE_CLICKS_ON = "\x1b[?1000h\x1b[?1006h"
SYNC_OUTPUT_QUERY = "\x1b[?2026$p"  # terminals that answer get flicker-free frames
RESTORE_SEQUENCE = (
    "\x1b[0m"  # SGR reset
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # every mouse mode off
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?1004l"  # focus reports off
    "\x1b[?7h"  # autowrap on
    "\x1b[?1049l"  # main screen
    "\x1b[?25h"  # cursor on
    "\x1b[8h\x1b[0 k"  # implicit bidi, default direction: a terminal's own (client/rtl.py)
    "\x1b[0m"
)


class Listener(Protocol):
    """What takes a terminal's input once an app runs on it (`tui_driver.SSHDriver`)."""

    def feed(self, data: bytes) -> None: ...
    def resize(self, width: int, height: int) -> None: ...


def choose_colors(term_type: str | None, env: Mapping[str, str]) -> tuple[str | None, bool]:
    """(Rich colour system, no_color) for a session, from its PTY request and its
    channel environment only: 256 colours by default, truecolor when the client
    sends COLORTERM=truecolor (or 24bit), none with NO_COLOR (or TERM=dumb)."""
    term = (term_type or "").lower()
    if env.get("NO_COLOR") or term == "dumb":
        return "standard", True
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor", False
    if term == "linux" or term.endswith("-16color"):
        return "standard", False
    return "256", False


class RemoteTerminal:
    """One player's terminal, as the transport hands it to the driver.

    The transport calls `feed` with the bytes the player typed, `resize` on a
    window change and `close` when the channel is gone; the driver calls the
    `write` callable given here once per frame.
    """

    def __init__(
        self,
        write: Callable[[bytes], None],
        size: tuple[int, int],
        *,
        color_system: str | None = "256",
        no_color: bool = False,
        mouse: bool = True,
    ) -> None:
        self._write = write
        self.size = size
        self.color_system = color_system
        self.no_color = no_color
        self.mouse = mouse
        self.first_frame = asyncio.Event()  # set when the app's first screen went out
        self.entered = False  # the app switched the terminal to its screen...
        self.restored = False  # ...and switched it back
        self.closed = False
        self.frames = 0
        self.bytes_out = 0
        self._driver: Listener | None = None
        self._pending: list[bytes] = []
        self._pending_len = 0

    def feed(self, data: bytes) -> None:
        """Bytes the player typed; kept (up to a limit) until the app can take them."""
        if self.closed:
            return
        if self._driver is not None:
            self._driver.feed(data)
        elif self._pending_len + len(data) <= PENDING_INPUT_LIMIT:
            self._pending.append(data)
            self._pending_len += len(data)

    def resize(self, width: int, height: int) -> None:
        """The player's window changed size (already clamped by the transport)."""
        self.size = (width, height)
        if self._driver is not None:
            self._driver.resize(width, height)

    def close(self) -> None:
        """The channel is gone: drop output and input from now on."""
        self.closed = True
        self._pending.clear()
        self._driver = None

    def send(self, data: bytes) -> None:
        if not self.closed and data:
            self.bytes_out += len(data)
            self._write(data)

    def restore(self) -> None:
        """Leave the app's screen if the app could not (it crashed inside Textual)."""
        if self.entered and not self.restored:
            self.send(RESTORE_SEQUENCE.encode())
            self.restored = True

    def attach(self, driver: Listener) -> None:
        """`driver` takes the input from now on, first what was typed before it came."""
        self._driver = driver
        pending, self._pending, self._pending_len = self._pending, [], 0
        for data in pending:
            driver.feed(data)

    def detach(self, driver: Listener | None = None) -> None:
        """No driver takes the input any more (only if it was `driver`, when given)."""
        if driver is None or self._driver is driver:
            self._driver = None
