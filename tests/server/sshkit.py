"""Real SSH for the server tests: a server on port 0 with a fresh host key, and
asyncssh clients with a PTY whose output feeds a pyte screen, so a test reads
what a player would see."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte
from textual.app import App, ComposeResult
from textual.widgets import Static

from client.connection import Connection
from server.front.bridge import AppFactory
from server.front.config import Config
from server.front.ssh import SSHService
from server.host.identity import Identity
from server.store import SqliteStore, Store

WAIT = 10.0  # seconds any one expected screen may take, at most


# -- a small app and host, for transport tests ---------------------------------------


class EchoApp(App[None]):
    """Shows who it is, the keys it got, its size and what the host said."""

    CSS = "Static { height: 1; }"
    BINDINGS = [("q", "quit", "Quit"), ("x", "crash", "Crash"), ("s", "ping", "Ping")]

    def __init__(self, connection: Connection, identity: Identity) -> None:
        super().__init__()
        self.connection = connection
        self.identity = identity
        self.keys: list[str] = []
        self.heard: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(f"hello {self.identity.name} guest={self.identity.guest}", id="hello")
        yield Static("keys:", id="keys")
        yield Static("size:", id="size")
        yield Static("host:", id="host")

    def on_mount(self) -> None:
        self.connection.set_receiver(self._from_host)
        self.query_one("#size", Static).update(f"size: {self.size.width}x{self.size.height}")

    def on_key(self, event: Any) -> None:
        self.keys.append(event.key)
        self.query_one("#keys", Static).update("keys: " + " ".join(self.keys[-8:]))

    def on_resize(self, event: Any) -> None:
        self.query_one("#size", Static).update(f"size: {event.size.width}x{event.size.height}")

    def action_crash(self) -> None:
        raise RuntimeError("a bug in one session")

    def action_ping(self) -> None:
        self.connection.send(b"ping")

    def _from_host(self, data: bytes) -> None:
        self.heard.append(data.decode())
        self.query_one("#host", Static).update("host: " + " | ".join(self.heard[-3:]))


class FakeLink:
    def __init__(self, identity: Identity, deliver: Callable[[bytes], None]) -> None:
        self.identity = identity
        self.deliver = deliver
        self.sent: list[bytes] = []
        self.closed = False

    def send(self, data: bytes) -> None:
        self.sent.append(data)
        self.deliver(b"echo " + data)

    def close(self) -> None:
        self.closed = True


class FakeHost:
    """Says welcome on connect (before the app runs) and echoes what it is sent."""

    def __init__(self) -> None:
        self.links: list[FakeLink] = []

    def connect(self, identity: Identity, deliver: Callable[[bytes], None]) -> FakeLink:
        link = FakeLink(identity, deliver)
        self.links.append(link)
        deliver(f"welcome {identity.name}".encode())
        return link


# -- the server -----------------------------------------------------------------------

_HOST_KEY: asyncssh.SSHKey | None = None


def host_key() -> asyncssh.SSHKey:
    global _HOST_KEY
    if _HOST_KEY is None:
        _HOST_KEY = asyncssh.generate_private_key("ssh-ed25519")
    return _HOST_KEY


@dataclass
class Running:
    service: SSHService
    host: Any
    store: Store
    config: Config
    data_dir: Path

    @property
    def port(self) -> int:
        return self.service.port

    async def settle(self, predicate: Callable[[], bool], timeout: float = WAIT) -> None:
        """Wait until `predicate()` holds on the server side."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError("server never reached the expected state")
            await asyncio.sleep(0.02)


@asynccontextmanager
async def running_server(
    tmp: Path, host: Any = None, app_factory: AppFactory | None = None, **settings: Any
):  # type: ignore[no-untyped-def]
    """A real server on 127.0.0.1, port 0, with `settings` over the test defaults."""
    data_dir = tmp / "data"
    args: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "data_dir": str(data_dir),
        "keepalive_interval": 0.0,
    }
    args.update(settings)
    config = Config(**args)
    store: Store = SqliteStore(data_dir / "splendor.db")
    await store.open()
    host = host if host is not None else FakeHost()
    service = SSHService(config, host, store, app_factory or EchoApp, host_key())
    await service.start()
    try:
        yield Running(service, host, store, config, data_dir)
    finally:
        await service.stop("the test is over")
        await store.close()


# -- clients ----------------------------------------------------------------------------


class TerminalSession(asyncssh.SSHClientSession[bytes]):
    """The player's terminal: every byte goes to a pyte screen."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.stderr = bytearray()
        self.exit_status: int | None = None
        self.closed = asyncio.Event()
        self.changed = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
        self.raw += data
        self.stream.feed(data)
        self.changed.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.changed.set()


class KeylessClient(asyncssh.SSHClient):
    """Answers keyboard-interactive with nothing (the guest door); keeps banners, and why
    the server hung up (`lost`)."""

    def __init__(self) -> None:
        self.banners: list[str] = []
        self.lost: Exception | None = None

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(
        self, name: str, instructions: str, lang: str, prompts: Any
    ) -> list[str]:
        return []


async def connect(
    port: int,
    name: str,
    key: Any = None,
    *,
    guest: bool = True,
    client: KeylessClient | None = None,
    **options: Any,
) -> asyncssh.SSHClientConnection:
    """An SSH connection as `name`, with `key` (an SSHKey or key pair) and/or the guest door;
    `client`, if given, is the connection's client (it records why the server hung up)."""
    return await asyncssh.connect(
        "127.0.0.1",
        port,
        username=name,
        known_hosts=None,
        agent_path=None,
        client_keys=[key] if key is not None else [],
        client_factory=(lambda: client) if client else KeylessClient if guest else None,
        preferred_auth="publickey,keyboard-interactive" if guest else "publickey",
        **options,
    )


@dataclass
class Player:
    """One player: an SSH connection and a session channel with a PTY."""

    conn: asyncssh.SSHClientConnection
    chan: asyncssh.SSHClientChannel[bytes]
    term: TerminalSession
    width: int = 80
    height: int = 24
    marks: list[int] = field(default_factory=list)

    @classmethod
    async def open(
        cls,
        conn: asyncssh.SSHClientConnection,
        *,
        size: tuple[int, int] = (80, 24),
        term_type: str | None = "xterm-256color",
        env: dict[str, str] | None = None,
        command: str | None = None,
    ) -> Player:
        width, height = size
        chan, term = await conn.create_session(
            lambda: TerminalSession(width, height),
            command,
            term_type=term_type,
            term_size=(width, height) if term_type else None,
            env=env or {},
            encoding=None,
        )
        return cls(conn, chan, term, width, height)

    @classmethod
    async def login(cls, port: int, name: str, key: Any = None, **kw: Any) -> Player:
        return await cls.open(await connect(port, name, key), **kw)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.term.screen.display).rstrip()

    async def wait_for(self, what: str | Callable[[str], bool], timeout: float = WAIT) -> str:
        """The screen text once it shows `what` (a substring, or a test of the text)."""
        test = what if callable(what) else (lambda text: what in text)
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if test(text):
                return text
            left = deadline - time.monotonic()
            if left <= 0 or self.term.closed.is_set():
                raise AssertionError(f"never saw {what!r}; the screen:\n{text}")
            self.term.changed.clear()
            try:
                await asyncio.wait_for(self.term.changed.wait(), min(left, 0.5))
            except TimeoutError:
                pass

    def press(self, keys: str | bytes) -> None:
        self.chan.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.term.screen.resize(height, width)
        self.chan.change_terminal_size(width, height)

    async def closed(self, timeout: float = WAIT) -> None:
        await asyncio.wait_for(self.term.closed.wait(), timeout)

    async def close(self) -> None:
        self.conn.close()
        await self.conn.wait_closed()
