"""A program that plays Splendor on a server, over the `splendor` SSH subsystem.

It uses only asyncssh and msgpack (`pip install asyncssh msgpack`), none of the game's
own code: the protocol it speaks is docs/protocol.md. It logs in with an SSH key (its
name is the SSH user name, owned by that key, as for any player), then either accepts an
invitation to a table (a seat held for it: `"invited": true` with its name), else sits at
the first waiting table with an open seat, or with `--quick LEVEL` starts a game against
one of the server's bots, and plays until the game is over: each time its view lists
legal moves, it plays one of them (a purchase when it can, the most tokens otherwise).

    python examples/simple_bot.py robo@localhost -p 2222 -i robo_key --quick medium
    python examples/simple_bot.py robo@localhost -p 2222 -i robo_key   # joins a table

To invite it, create a table with seat 2 "a player: robo" (or press i at your waiting
table and name it): it accepts as soon as it sees the invitation.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from typing import Any

import asyncssh
import msgpack

PROTOCOL = 3  # the protocol version this program speaks
FORMAT = 2  # the envelope's format version: every object is [FORMAT, "msg", {...}]
VIEW = 1  # the msgpack extension type of a view


def encode(tag: str, **fields: Any) -> bytes:
    return msgpack.packb([FORMAT, "msg", {"t": tag, **fields}])


def _ext(code: int, data: bytes) -> Any:
    """A view (extension type 1) is a msgpack map in the extension's bytes."""
    if code == VIEW:
        return msgpack.unpackb(data, ext_hook=_ext)
    return msgpack.ExtType(code, data)


def choose(legal: list[str], rng: random.Random) -> str:
    """One of the legal moves (notation, docs/rules.md): a purchase if there is one, else
    the take of the most tokens, else any."""
    for prefix in ("buy", "take"):
        moves = [m for m in legal if m.startswith(prefix)]
        if moves:
            return max(moves, key=lambda m: (len(m.split()), rng.random()))
    return rng.choice(legal)


class Bot(asyncssh.SSHClientSession[bytes]):
    """The channel: host messages in, moves out."""

    def __init__(self, quick: str | None, seed: int, rated: bool = False) -> None:
        self.unpacker = msgpack.Unpacker(ext_hook=_ext, raw=False)
        self.quick, self.rated = quick, rated
        self.rng = random.Random(seed)
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.name = ""  # its player name, as the host says it
        self.table: str | None = None  # the table it sits at
        self.seated = False
        self.result: str | None = None
        self.done = asyncio.Event()

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:
        self.chan = chan
        self.send("hello", versions=[PROTOCOL], client="simple_bot 1.0")

    def send(self, tag: str, **fields: Any) -> None:
        assert self.chan is not None
        self.chan.write(encode(tag, **fields))

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.unpacker.feed(data)
        for _format, _kind, msg in self.unpacker:
            self.on_message(msg)

    def on_message(self, msg: dict[str, Any]) -> None:
        tag = msg.get("t")
        if tag == "welcome":
            self.name = msg["name"]
            print(f"logged in as {self.name}, protocol {msg['protocol']}")
            if self.quick:
                self.send("quick", players=2, level=self.quick, rated=self.rated)
                self.seated = True
        elif tag == "lobby" and not self.seated:
            table = self.invited(msg) or self.open_table(msg)
            if table is not None:
                self.send("join", table=table)  # takes an open seat, or accepts the invitation
                self.seated = True
        elif tag == "where":
            self.table = msg.get("table")
        elif tag == "table" and msg["table"] == self.table:
            self.on_view(msg["view"])
        elif tag == "notice":
            print(f"the host says: {msg['text']}")
        elif tag == "bye":
            self.result = self.result or msg["text"]
            self.done.set()

    def invited(self, lobby: dict[str, Any]) -> str | None:
        """A waiting table with a seat held for this program: it was invited there."""
        for table in lobby.get("tables", []):
            mine = any(s["name"] == self.name and s.get("invited") for s in table["seats"])
            if table["status"] == "waiting" and mine:
                return str(table["id"])
        return None

    def open_table(self, lobby: dict[str, Any]) -> str | None:
        """The first waiting table with an open seat."""
        for table in lobby.get("tables", []):
            open_seat = any(s["name"] is None and s["bot"] is None for s in table["seats"])
            if table["status"] == "waiting" and open_seat:
                return str(table["id"])
        return None

    def on_view(self, view: dict[str, Any]) -> None:
        if view["over"]:
            scores, ranks = view["outcome"]
            seat = view["seat"]
            self.result = f"game over: {scores[seat]} points, rank {ranks[seat]} of {len(ranks)}"
            self.done.set()
        elif view["legal"]:
            self.send("move", move=choose(list(view["legal"]), self.rng))

    def connection_lost(self, exc: Exception | None) -> None:
        self.result = self.result or f"the connection closed ({exc or 'by the server'})"
        self.done.set()


async def play(args: argparse.Namespace) -> int:
    user, _at, host = args.target.rpartition("@")
    options: dict[str, Any] = {"port": args.port}
    if user:
        options["username"] = user
    if args.key:
        options["client_keys"] = [args.key]
    if args.known_hosts:
        options["known_hosts"] = args.known_hosts
    async with asyncssh.connect(host, **options) as conn:
        _chan, bot = await conn.create_session(
            lambda: Bot(args.quick, args.seed, args.rated), subsystem="splendor", encoding=None
        )
        await bot.done.wait()
    print(bot.result)
    return 0 if bot.result and bot.result.startswith("game over") else 1


def main() -> int:
    """The command line; a server that cannot be reached or refuses is one line, status 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", metavar="[USER@]HOST")
    parser.add_argument("-p", "--port", type=int, default=2222)
    parser.add_argument("-i", dest="key", help="the private key to log in with")
    parser.add_argument("--known-hosts", help="a known_hosts file (default: ~/.ssh's)")
    parser.add_argument(
        "--quick", metavar="LEVEL", help="play the server's bot: easy, medium, hard"
    )
    parser.add_argument("--rated", action="store_true", help="with --quick: a rated game")
    parser.add_argument("--seed", type=int, default=1, help="its choices' seed")
    args = parser.parse_args()
    try:
        return asyncio.run(play(args))
    except asyncssh.HostKeyNotVerifiable:
        host = args.target.rpartition("@")[2]
        print(f"the host key of {host} is not known: connect once with ssh -p {args.port} {host}")
    except (OSError, asyncssh.Error) as e:
        print(f"cannot play on {args.target}: {e}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
