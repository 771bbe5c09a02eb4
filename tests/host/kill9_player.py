"""Run by test_store.py: a host in this process and one player in a 4-player quick game
against bots, moving as fast as it can. Every view the player receives is printed (hex of
its codec bytes) the moment it arrives, so the test knows exactly what was sent before it
kills this process with SIGKILL."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from hostkit import HostConnection, identity, make_host, play_to_end

from shared.codec import dumps
from shared.protocol import Quick, TableUpdate


class PrintingConnection(HostConnection):
    def _receive(self, data: bytes) -> None:
        super()._receive(data)
        msg = self.messages[-1]
        if isinstance(msg, TableUpdate):
            sys.stdout.write(dumps(msg.view).hex() + "\n")
            sys.stdout.flush()


async def main(data_dir: Path, database: str | None) -> None:
    # Its own process pool, like a server.
    host = make_host(data_dir, None, bot_workers=1, database=database)
    await host.start()
    alice = PrintingConnection(host, identity("alice"))
    alice.cmd(Quick(4, "easy"))
    await play_to_end(alice)
    sys.stdout.write("over\n")
    await host.stop()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None))
