"""`splendor connect [USER@]HOST [-p PORT] [-i KEY]`: play on a server with the app run
here, over the `splendor` SSH subsystem (`client.remote`, docs/protocol.md).

The SSH side is `ssh`'s: the user's keys, agent and `~/.ssh/known_hosts` (asyncssh reads
them as OpenSSH does, `~/.ssh/config` too). A host key not known yet is shown and asked
about once, as `ssh` asks, then remembered. Anything that keeps the player out (a refused
login, another protocol version, an unreachable host) is one line and status 1.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import asyncssh

from shared.codec import CodecError
from shared.i18n import _
from shared.messages import MAX_TEXT
from shared.text import safe_text

DEFAULT_PORT = 2222  # the server's own default (`splendor-server`)


def split_target(target: str) -> tuple[str | None, str]:
    """`ann@host` → ("ann", "host"); `host` → (None, "host")."""
    user, _at, host = target.rpartition("@")
    return (user or None), host


def ssh_options(target: str, port: int, key: str | None, known_hosts: str | None) -> dict[str, Any]:
    """asyncssh.connect's arguments for `target`: what is not given is asyncssh's (and so
    OpenSSH's) default: the local user name, the keys in ~/.ssh and the agent."""
    user, host = split_target(target)
    options: dict[str, Any] = {"host": host, "port": port}
    if user:
        options["username"] = user
    if key:
        options["client_keys"] = [key]
    if known_hosts:
        options["known_hosts"] = known_hosts
    return options


def _known_hosts_file(options: dict[str, Any]) -> Path:
    return Path(options.get("known_hosts") or Path.home() / ".ssh" / "known_hosts")


async def trust_new_host(options: dict[str, Any], ask: Any = input) -> bool:
    """The server's host key is not known: show its fingerprint and ask, as `ssh` does;
    yes adds it to the known_hosts file. False: the player said no."""
    host, port = options["host"], options["port"]
    key = await asyncssh.get_server_host_key(host, port)
    if key is None:
        return False
    print(
        _(
            "The host key of {host} is not known yet. Its fingerprint is {fp}.",
            host=host,
            fp=key.get_fingerprint("sha256"),
        )
    )
    if ask(_("Trust it and connect (yes/no)? ")).strip().lower() not in ("y", "yes"):
        return False
    path = _known_hosts_file(options)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    name = host if port == 22 else f"[{host}]:{port}"
    with path.open("a") as f:
        f.write(f"{name} {key.export_public_key().decode().strip()}\n")
    return True


async def play_remote(options: dict[str, Any]) -> int:
    """Connect, run the app until the player quits, say why it ended (a `Bye`)."""
    from client.app import SplendorApp
    from client.remote import HostUnknown, Refused, RemoteConnection

    host = options["host"]
    if options.get("known_hosts"):  # a file named but not there yet: none known, as ssh has it
        path = _known_hosts_file(options)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.touch(mode=0o600)
    for attempt in range(2):
        conn = RemoteConnection(options)
        try:
            await conn.open()
            break
        except HostUnknown as e:
            if attempt == 0 and not _known(options) and await trust_new_host(options):
                continue
            print(safe_text(f"splendor: {host}: {e}", MAX_TEXT), file=sys.stderr)
            return 1
        except Refused as e:
            print(safe_text(f"splendor: {host}: {e}", MAX_TEXT), file=sys.stderr)
            return 1
        except (ConnectionError, CodecError) as e:
            said = _("splendor: cannot reach {host}: {error}", host=host, error=e)
            print(safe_text(said, MAX_TEXT), file=sys.stderr)
            return 1
    else:
        return 1
    app = SplendorApp(conn)
    try:
        await app.run_async()
    finally:
        conn.close()
    if app.bye_text:
        print(safe_text(app.bye_text, MAX_TEXT))
    return 0


def _known(options: dict[str, Any]) -> bool:
    """Whether the known_hosts file has any key for the host (then its key has changed,
    which is never accepted here, as `ssh` never does), rather than none (a new host)."""
    path = _known_hosts_file(options)
    try:
        known = asyncssh.read_known_hosts(str(path))
    except (OSError, ValueError):
        return False
    keys, cas = known.match(options["host"], "", options["port"])[:2]
    return bool(keys or cas)


def main(target: str, port: int, key: str | None, known_hosts: str | None = None) -> int:
    return asyncio.run(play_remote(ssh_options(target, port, key, known_hosts)))
