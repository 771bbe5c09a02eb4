"""A Textual driver that runs one app over one SSH channel, inside the server process.

This module and `server/front/compositing.py` and `server/front/frames.py` (which it imports) are
the only ones that touch Textual internals, and they are written against textual==8.2.8
(pinned in pyproject.toml). What they rely on, each for a pitfall in docs/design.md
(P1–P18):

- the `Driver` interface (write/flush/start/stop/disable_input/close and
  `_size`), `Driver.process_message` for mouse bookkeeping;
- `XTermParser` and its `_parse_extended_key`, whose process-wide
  `lru_cache` would keep every finished session's parser (and its app)
  alive: `_SessionParser` calls the uncached function instead (P4);
- `Parser._timeout_time` and `tick()`, to deliver a lone Escape (P2);
- `textual.app.redirect_stdout/redirect_stderr`, which swap the process-wide
  `sys.stdout` while an app runs: replaced by a null context (P5);
- `Strip.crop_extend` and `Strip.divide`, which cache an unchanged strip in itself
  (a cycle that only a full collection frees): answered without the cache (P6);
- the compositor's partial update, which renders every widget between the first and
  the last change: `server/front/compositing.py` renders only what the update shows (P17);
- `ChopsUpdate.render_segments` and `LayoutUpdate.render_segments`, which write each
  run of text with its whole style, and take a style's codes from the style itself,
  whichever terminal computed them: `server/front/frames.py` writes a frame for this
  terminal, changing only what differs (P18);
- `App.console`, `App._filters`, `App.no_color`, `App.error_console`,
  `App.use_command_palette` and `App._exception`, set per session so that
  colours come from the player's terminal, never the server's environment
  (P8), no command palette writes files (P10), and a crash is
  reported to the session instead of the server's stderr.

The transport side sees only `server.front.terminal.RemoteTerminal` (bytes in, bytes
out, a size) and `run_app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from codecs import getincrementaldecoder
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any, Literal

import textual.app as _textual_app
from rich.console import Console
from rich.style import Style
from textual import events
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.driver import Driver
from textual.filter import Monochrome, NoColor
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from . import (
    compositing,  # noqa: F401 (its effect: docs/design.md, P17)
    frames,  # noqa: F401 (its effect: docs/design.md, P18)
)
from .terminal import (
    MOUSE_CLICKS_ON,
    RESTORE_SEQUENCE,
    START_SEQUENCE,
    SYNC_OUTPUT_QUERY,
    RemoteTerminal,
)

log = logging.getLogger("splendor.ssh")

# Textual's own escape delay, plus a little so the parser's deadline has passed.
ESCAPE_MARGIN = 0.005


# docs/design.md, P5: never swap the process-wide sys.stdout/sys.stderr for one session's app.
def _no_redirect(_target: object) -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


setattr(_textual_app, "redirect_stdout", _no_redirect)  # noqa: B010 (not exported)
setattr(_textual_app, "redirect_stderr", _no_redirect)  # noqa: B010

_parse_extended_key_uncached = XTermParser._parse_extended_key.__wrapped__


# docs/design.md, P6: a Strip that crop_extend or divide leaves unchanged is cached in its own
# cache, a cycle only a full collection frees; answer those without the cache.
_crop_extend = Strip.crop_extend
_divide = Strip.divide


def _crop_extend_uncycled(self: Strip, start: int, end: int, style: Style | None) -> Strip:
    if start <= 0 and end == self.cell_length:
        return self  # what crop_extend returns here too, after caching it in self
    return _crop_extend(self, start, end, style)


def _divide_uncycled(self: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    cuts = list(cuts)
    if [cut for cut in cuts if cut <= self.cell_length] == [self.cell_length]:
        return [self]  # likewise
    return _divide(self, cuts)


setattr(Strip, "crop_extend", _crop_extend_uncycled)  # noqa: B010
setattr(Strip, "divide", _divide_uncycled)  # noqa: B010


class _NullFile:
    """A file-like that drops what it is given (for consoles that must not print)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


class _SessionParser(XTermParser):
    """Textual's xterm parser without the global cache that leaks apps (docs/design.md, P4)."""

    def __init__(self) -> None:
        super().__init__(debug=False)  # debug would open ./keys.log on the server

    def _parse_extended_key(self, sequence: str) -> list[events.Key] | None:  # type: ignore[override]
        result: list[events.Key] | None = _parse_extended_key_uncached(self, sequence)
        return result


class SSHDriver(Driver):
    """Textual's view of a `RemoteTerminal`: input parsed on the event loop (no
    threads), output buffered and sent as one channel write per frame."""

    def __init__(
        self,
        app: App[Any],
        *,
        terminal: RemoteTerminal,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=False, mouse=mouse and terminal.mouse, size=terminal.size)
        self._terminal = terminal
        self._buffer: list[str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._parser: _SessionParser | None = None
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._started = False

    @property
    def can_suspend(self) -> bool:
        return False  # Ctrl+Z is a key here, never a signal (docs/design.md, P15)

    # -- output ------------------------------------------------------------

    def write(self, data: str) -> None:
        """Buffer output; `flush` (once per frame) or the end of this loop turn sends it."""
        self._buffer.append(data)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send what was written since the last flush as one channel write (docs/design.md, P3)."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if not self._buffer:
            return
        text = "".join(self._buffer)
        self._buffer.clear()
        self._terminal.send(text.encode("utf-8", "replace"))
        if self._started:
            self._terminal.frames += 1
            self._terminal.first_frame.set()

    # -- application mode --------------------------------------------------

    def start_application_mode(self) -> None:
        terminal = self._terminal
        self._parser = _SessionParser()
        self.write(START_SEQUENCE)
        if self._mouse:
            self.write(MOUSE_CLICKS_ON)
        self.write(SYNC_OUTPUT_QUERY)
        self.flush()
        terminal.entered = True
        self._started = True
        width, height = terminal.size
        self._app.post_message(events.Resize(Size(width, height), Size(width, height)))
        terminal.attach(self)

    def disable_input(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        self._parser = None
        self._terminal.detach(self)

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(RESTORE_SEQUENCE)
        self.flush()
        self._terminal.restored = True

    def close(self) -> None:
        self.flush()
        self.disable_input()

    # -- input -------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the player, parsed into Textual events for this app."""
        parser = self._parser
        if parser is None:
            return
        text = self._decode(data)
        if text:  # an empty string would tell the parser the input has ended
            try:
                self._dispatch(parser.feed(text))
            except Exception:
                log.warning("unparseable terminal input dropped", exc_info=True)
                self._parser = _SessionParser()
        self._schedule_tick()

    def _dispatch(self, messages: Iterable[Message]) -> None:
        for message in messages:
            self.process_message(message)

    def _schedule_tick(self) -> None:
        """A lone Escape is only known once no byte follows it in time (docs/design.md, P2)."""
        parser = self._parser
        if parser is None or self._tick_handle is not None:
            return
        deadline = parser._timeout_time
        if deadline is not None:
            delay = max(0.0, deadline - get_time()) + ESCAPE_MARGIN
            self._tick_handle = self._loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        parser = self._parser
        if parser is not None:
            self._dispatch(parser.tick())
            self._schedule_tick()

    def send_message(self, message: Message) -> None:
        """Post straight to the app: we are on its event loop, not in a thread."""
        self._app.post_message(message)

    def resize(self, width: int, height: int) -> None:
        self._size = (width, height)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))

    # -- refused -----------------------------------------------------------

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Never open a browser on the server."""
        log.info("open_url refused for a remote session: %s", url)

    def deliver_binary(
        self,
        binary: IO[bytes] | IO[str],
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refused: no remote player may make the server write a file (docs/design.md, P10)."""
        with contextlib.suppress(Exception):
            binary.close()
        error = PermissionError("files are not delivered over SSH")
        self._app.post_message(events.DeliveryFailed(key=delivery_key, exception=error, name=name))


def _prepare(app: App[Any], terminal: RemoteTerminal) -> None:
    """Point `app` at `terminal`, with this session's colours and nothing that writes files."""
    app.driver_class = functools.partial(SSHDriver, terminal=terminal)  # type: ignore[assignment]
    app.use_command_palette = False
    app.console = Console(
        color_system=terminal.color_system,  # type: ignore[arg-type]
        file=_NullFile(),  # type: ignore[arg-type]
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        _environ={},
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
    )
    app.error_console = Console(file=_NullFile(), markup=False, highlight=False)  # type: ignore[arg-type]
    app.no_color = terminal.no_color
    filters = [f for f in app._filters if not isinstance(f, NoColor | Monochrome)]
    if terminal.no_color:
        filters.append(NoColor())
    app._filters = filters


async def run_app(app: App[Any], terminal: RemoteTerminal) -> BaseException | None:
    """Run `app` on `terminal` until it exits; the exception that ended it, if any.

    The app's own unhandled errors end only this app (Textual catches them); the
    caller reports them to its player and logs them.
    """
    _prepare(app, terminal)
    try:
        await app.run_async(mouse=terminal.mouse, size=terminal.size)
    except Exception as error:
        return error
    finally:
        terminal.restore()
        terminal.detach()
    crash: BaseException | None = app._exception
    return crash
