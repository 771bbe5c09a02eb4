"""The SSH front door's listener: `SSHService` starts asyncssh with what is allowed and
nothing else, the host key, the key exchanges and ciphers, and stops it (SIGTERM).

Everything is denied unless allowed: passwords and host-based logins, exec, every
subsystem but the game's own (`splendor`, `server.front.channel`), forwarding of any
kind, agent or X11. Each connection's login is `server.front.auth.PlayerAuth`'s; its
sessions are `server.front.sessions`'s.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

from shared.i18n import Text

from ..host.identity import guest_secret
from .auth import Names, PlayerAuth
from .bridge import AppFactory, Host
from .config import Config
from .gate import Gate
from .sessions import Sessions

log = logging.getLogger("splendor.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
# Dropbear's client is dropped during key exchange unless this comes first (docs/design.md, P9);
# OpenSSH still gets its own first choice. No SHA-1, no GSS.
KEX_ALGS = [
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "mlkem768x25519-sha256",
    "curve448-sha512",
    "ecdh-sha2-nistp521",
    "ecdh-sha2-nistp384",
    "ecdh-sha2-nistp256",
    "diffie-hellman-group-exchange-sha256",
    "diffie-hellman-group16-sha512",
    "diffie-hellman-group18-sha512",
    "diffie-hellman-group14-sha256",
]
# AES only, GCM or CTR (OpenSSH then takes aes128-ctr with an encrypt-then-MAC). asyncssh's
# ChaCha20-Poly1305, OpenSSH's first choice, keys both ciphers afresh for every packet in
# Python, and every frame of every session is a packet: the server's CPU a key fell by
# 6% and the load generator's by 16% without it (README, Capacity).
CIPHERS = [
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",
    "aes192-ctr",
    "aes128-ctr",
]


def load_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The server's Ed25519 host key from `data_dir`, made on first start (mode 600)."""
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = data_dir / HOST_KEY_FILE
    if path.exists():
        if path.stat().st_mode & 0o077:
            log.warning("%s is readable by other users; chmod 600 it", path)
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    path.with_name(HOST_KEY_FILE + ".pub").write_bytes(key.export_public_key())
    log.info("new host key %s in %s", key.get_fingerprint("sha256"), path)
    return key


class SSHService:
    """The listening server: `start`, `port`, `stop` (the SIGTERM path)."""

    def __init__(
        self,
        config: Config,
        host: Host,
        names: Names,
        app_factory: AppFactory,
        host_key: asyncssh.SSHKey,
        reuse_port: bool = False,
    ) -> None:
        self.config = config
        self.reuse_port = reuse_port  # other processes listen on the same port (workers)
        self.gate = Gate(config, guest_secret(host_key.export_private_key("pkcs8-der")))
        self.sessions = Sessions(config, host, app_factory)
        self.sessions.saved_language = self._saved_language  # a choice beats the env
        self.names = names
        self.host_key = host_key
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._port: int | None = None

    async def _saved_language(self, name: str) -> tuple[str, str | None] | None:
        return await self.names.language(name)

    def _make_auth(self) -> PlayerAuth:
        return PlayerAuth(self.gate, self.names, self.sessions)

    async def start(self) -> None:
        c = self.config
        self._acceptor = await asyncssh.listen(
            c.host,
            c.port,
            server_factory=self._make_auth,
            server_host_keys=[self.host_key],
            server_version="Splendor",
            encoding=None,  # bytes reach Textual's parser untouched (docs/design.md, P1)
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            gss_host=None,
            host_based_auth=False,
            password_auth=False,
            kbdint_auth=True,
            public_key_auth=True,
            kex_algs=KEX_ALGS,
            encryption_algs=CIPHERS,
            login_timeout=c.login_timeout,
            keepalive_interval=c.keepalive_interval,
            keepalive_count_max=c.keepalive_count_max,
            reuse_address=True,
            reuse_port=self.reuse_port,
        )
        self._port = int(self._acceptor.get_port())
        log.info(
            "listening on %s port %d, host key %s, guests %s",
            c.host,
            self.port,
            self.host_key.get_fingerprint("sha256"),
            "allowed" if c.allow_guests else "refused",
        )

    @property
    def port(self) -> int:
        """The port it listens on (also after `stop`)."""
        assert self._port is not None, "not started"
        return self._port

    def stop_listening(self) -> None:
        """No new connections from now on; the live ones go on."""
        if self._acceptor is not None:
            self._acceptor.close()
        self.sessions.closing = True

    async def stop(self, message: str | Text) -> None:
        """Stop listening, tell every session `message` and end it (each app exited and
        awaited, its terminal restored), then close every connection."""
        self.stop_listening()
        await self.sessions.shutdown(message)
        for auth in list(self.gate.connections):
            if auth._conn is not None:
                auth._conn.close()
        if self._acceptor is not None:
            await self._acceptor.wait_closed()
            self._acceptor = None
