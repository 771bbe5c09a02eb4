"""One SSH session = one client app, run in this process through `server.front.tui_driver`.

`GameSession` is the asyncssh session handler: it takes the PTY request,
refuses sessions that are not interactive, runs the app and bridges it to
the game host through a `server.front.bridge.HostBridge`; on the `splendor`
subsystem it runs no app, and `server.front.channel` speaks the protocol itself.
`server.front.sessions.Sessions` holds every live session, and what they share.
A failure in one session ends that session alone, with a short apology to
its player and a log entry.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import asyncssh
from textual.app import App

from shared.i18n import L_, Reader, Text, use_reader
from shared.messages import MAX_TEXT, SUBSYSTEM
from shared.text import safe_text

from ..host.identity import Identity
from . import language
from .bridge import HostBridge, connect_app
from .channel import ProtocolChannel
from .terminal import RemoteTerminal, choose_colors
from .tui_driver import run_app

if TYPE_CHECKING:
    from .sessions import Sessions

log = logging.getLogger("splendor.ssh")

STARTUP_WAIT = 10.0  # seconds an app start-up may hold its slot before the next one goes


class GameSession(asyncssh.SSHServerSession[bytes]):
    """One interactive session: a PTY, a client app, a seat at the host."""

    def __init__(
        self,
        sessions: Sessions,
        identity: Identity,
        address: str,
        hint: str,
        on_end: Callable[[], None] | None = None,
    ) -> None:
        self.sessions = sessions
        self.identity = identity
        self.address = address
        self.hint = hint  # "ssh -p 2222 ann@host": what a player types to come back
        self._on_end = on_end
        self.started = time.monotonic()
        self.status: int | None = None  # exit status once ended
        config = sessions.config
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._pty = False
        self._command: str | None = None
        self._term_type: str | None = None
        self._size = config.clamp_size(80, 24)
        self._terminal: RemoteTerminal | None = None
        self._app: App[Any] | None = None
        self._bridge: HostBridge | None = None
        self._task: asyncio.Task[None] | None = None
        self._gone = False  # the channel is closed: nothing more can be written
        self._ending = False  # end() was called: no app may start any more
        self._refused = False  # refused (logged then): no app, no "session ended" line
        self._end_message: str | Text = ""
        self._closed = asyncio.Event()
        self._slow_timer: asyncio.TimerHandle | None = None
        self._rate = config.input_bytes_per_second
        self._burst = 4 * self._rate
        self._tokens = float(self._burst)
        self._refilled = time.monotonic()
        self._dropped = 0
        self._subsystem = False  # the `splendor` subsystem: the protocol, no app
        self._wire: ProtocolChannel | None = None

    # -- asyncssh callbacks --------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        """Called when the channel opens; sets the write-buffer limits (docs/design.md, P12)."""
        self._chan = chan
        c = self.sessions.config
        chan.set_write_buffer_limits(high=c.write_buffer_high, low=c.write_buffer_low)

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        """Called on a PTY request; True accepts it. The size is clamped to sane bounds."""
        self._pty = True
        self._term_type = term_type
        self._size = self.sessions.config.clamp_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        """Called when the client asks for a shell: that is the game. True accepts."""
        return True

    def exec_requested(self, command: str) -> bool:
        """Called for `ssh host cmd`. Accepted only to answer with one line and exit
        status 1: the command is never run."""
        self._command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """Called for a subsystem: the protocol's (server.front.channel) is accepted; False
        refuses every other (SFTP...)."""
        if subsystem == SUBSYSTEM:
            self._subsystem = True
            return True
        log.info("%s: subsystem %r refused", self.identity.name, subsystem)
        self._refused = True
        return False

    def break_received(self, msec: int) -> bool:
        """Called on a break request; False: breaks are not supported."""
        return False

    def signal_received(self, signal: str) -> None:
        """Called when the client sends a signal; ignored (Ctrl+C is a key, docs/design.md, P15)."""

    def session_started(self) -> None:
        """Called once the channel is set up: refuse non-interactive sessions, else
        start the app."""
        assert self._chan is not None
        if self._subsystem:
            config, host = self.sessions.config, self.sessions.host
            self._wire = ProtocolChannel(self._chan, config, host, self.identity, self._wire_end)
            return
        if not self._pty or self._command is not None:
            self._refuse_non_interactive()
            return
        chan = self._chan
        color_system, no_color = choose_colors(self._term_type, chan.get_environment())
        self._terminal = RemoteTerminal(
            self._write,
            self._size,
            color_system=color_system,
            no_color=no_color,
            mouse=self.sessions.config.mouse,
        )
        self._task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """Called with the player's keystrokes; over the input cap they are dropped, and a
        session that keeps flooding is ended."""
        now = time.monotonic()
        if self._wire is not None:
            self.sessions.last_input = now
            self._wire.feed(data)
        if self._terminal is None:
            return
        self.sessions.last_input = now
        self._tokens = min(self._burst, self._tokens + (now - self._refilled) * self._rate)
        self._refilled = now
        if len(data) <= self._tokens:
            self._tokens -= len(data)
            self._terminal.feed(data)
            return
        self._dropped += len(data)
        if self._dropped > self._burst:
            log.warning("%s: input flood from %s, session ended", self.identity.name, self.address)
            self.end(L_("too much input; this session was closed"), status=1)

    def eof_received(self) -> bool:
        """Called when the client closes its input: end the app. True keeps the
        channel open until the app has left and restored the terminal."""
        self.end()
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """Called on a window change: the app re-lays out at the clamped size."""
        self._size = self.sessions.config.clamp_size(width, height)
        if self._terminal is not None:
            self._terminal.resize(*self._size)

    def pause_writing(self) -> None:
        """Called when the write buffer passed the high mark: the player's terminal
        does not read. Cut off after `slow_reader_timeout` seconds of this."""
        if self._slow_timer is None:
            delay = self.sessions.config.slow_reader_timeout
            self._slow_timer = asyncio.get_running_loop().call_later(delay, self._cut_off)

    def resume_writing(self) -> None:
        """Called when the write buffer drained below the low mark."""
        if self._slow_timer is not None:
            self._slow_timer.cancel()
            self._slow_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        """Called when the channel closed (the player left or the connection dropped)."""
        self._gone = True
        if self._terminal is not None:
            self._terminal.close()
        self.end()
        if self._task is None:
            self._finished()

    # -- running the app -------------------------------------------------------

    async def _run(self) -> None:
        """Start the app (one start-up at a time per semaphore slot), run it, report."""
        sessions = self.sessions
        terminal = self._terminal
        assert terminal is not None
        error: BaseException | None = None
        try:
            async with sessions.startup:
                identity, factory = self.identity, sessions.app_factory
                chosen = await language.saved(sessions.saved_language, identity)
                if self._gone or self._ending:
                    return
                # This session's reader (`shared.i18n`): the app's tasks all inherit it.
                use_reader(Reader(*chosen) if chosen else Reader(self.language()))
                app, self._bridge, _ = connect_app(
                    sessions.host, identity, lambda bridge: factory(bridge, identity)
                )
                self._app = app
                app_task = asyncio.get_running_loop().create_task(run_app(app, terminal))
                first = asyncio.ensure_future(terminal.first_frame.wait())
                await asyncio.wait(
                    {app_task, first}, timeout=STARTUP_WAIT, return_when=asyncio.FIRST_COMPLETED
                )
                first.cancel()
            error = await app_task
        except Exception as e:
            error = e
        finally:
            self._after_app(error)

    def _after_app(self, error: BaseException | None) -> None:
        if self._bridge is not None:
            self._bridge.close()
        if self._terminal is not None:
            self._terminal.restore()
        status = self.status if self.status is not None else 0
        if error is not None:
            ref = secrets.token_hex(3)
            # Formatted here: a log record holding the traceback would hold the app alive.
            trace = "".join(traceback.format_exception(error)).rstrip()
            log.error("%s: session crashed (ref %s)\n%s", self.identity.name, ref, trace)
            error = None
            self._end_message = L_(
                "Sorry: something went wrong on the server and this session had to close "
                "(ref {ref}). Your game is kept; come back with: {hint}",
                ref=ref,
                hint=self.hint,
            )
            status = 1
        # An app may leave a parting line in `bye_text` (the client does on "bye").
        bye = getattr(self._app, "bye_text", None)
        if not self._end_message and isinstance(bye, str) and bye:
            self._end_message = bye
        if self._end_message:
            # The app's parting line, made safe, in the player's language (this task's).
            said = safe_text(str(self._end_message), MAX_TEXT)
            self._write(f"\r\n{said}\r\n".encode())
        self.status = status
        self._app = None
        self._terminal = None
        if self._chan is not None and not self._gone:
            try:
                self._chan.exit(status)
            except OSError:
                pass
        self._finished()

    def _finished(self) -> None:
        if self._slow_timer is not None:
            self._slow_timer.cancel()
            self._slow_timer = None
        if not self._closed.is_set():
            self.sessions.ended(self)
            self._closed.set()
            if not self._refused:  # a refusal had its own line
                seconds = time.monotonic() - self.started
                log.info("%s: session ended after %.0f s", self.identity.name, seconds)
            if self._on_end is not None:
                self._on_end()

    def end(self, message: str | Text = "", status: int | None = None) -> None:
        """Ask the app to exit; `message` is shown once the terminal is restored."""
        self._ending = True
        if message and not self._end_message:
            self._end_message = message
        if status is not None and self.status is None:
            self.status = status
        if self._wire is not None:
            self._wire.end(message, self.status or 0)
        app = self._app
        if app is not None:
            # In the app's own order, after what it was sent before: an exit asked for
            # from outside at once would drop the children of a screen it is mounting
            # (Textual mounts nothing once `exit` is called), whose handlers then fail.
            app.call_later(app.exit)
        elif self._task is None and self._chan is not None and not self._gone:
            self._chan.close()

    def _wire_end(self, status: int) -> None:
        """The protocol channel has ended."""
        self.status = status if self.status is None else self.status
        self._finished()

    async def wait_closed(self) -> None:
        await self._closed.wait()

    def _refuse_non_interactive(self) -> None:
        """One line on stderr saying how to play, exit status 1, and a line in the log."""
        assert self._chan is not None
        self._refused = True
        play = self.hint.replace("ssh", "ssh -t", 1)
        name = self.identity.name
        if self._command is None:
            log.info("%s: session without a terminal refused (ssh -T)", name)
        else:
            log.info("%s: command refused: %r", name, self._command[:80])
        if self._pty and self._command is not None:  # ssh -t host cmd
            text = L_("commands are not run here; to play: {play}", play=play)
        else:
            text = L_("this server needs an interactive terminal: {play}", play=play)
        line = text.render(self.language())
        newline = "\r\n" if self._pty else "\n"
        self._chan.write_stderr((line + newline).encode())
        self.status = 1
        self._chan.exit(1)

    def language(self) -> str:
        """The language the SSH client's environment asks for, else the server's."""
        env = self._chan.get_environment() if self._chan is not None else {}
        return language.from_env(env, self.sessions.config.default_language)

    def _write(self, data: bytes) -> None:
        chan = self._chan
        if chan is None or self._gone:
            return
        try:
            chan.write(data)
        except OSError:
            self._gone = True
            self.end()
            return
        if chan.get_write_buffer_size() > 4 * self.sessions.config.write_buffer_high:
            self._cut_off()

    def _cut_off(self) -> None:
        """The player's terminal stopped reading: drop the session (docs/design.md, P12)."""
        if self._gone:
            return
        log.warning("%s: slow reader at %s cut off", self.identity.name, self.address)
        self._gone = True
        if self._terminal is not None:
            self._terminal.close()
        self.end()
        if self._chan is not None:
            self._chan.abort()
