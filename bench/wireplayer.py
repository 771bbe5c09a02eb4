"""A player of `bench/load.py` on the `splendor` SSH subsystem (docs/protocol.md): no
terminal, no app on the server, only the protocol's messages.

It logs in as a guest, says hello, starts a quick game against an easy bot on the job's
clock and plays until stopped: on each view that lists its legal moves it waits its
pace, then sends one (a purchase if it can, else the most tokens, else the first), and
records the time from the move's bytes written to the view after it received (its kind:
`MOVE`). A terminal player at `rate` keys a second plays a move about every
`KEYS_PER_MOVE` keys (":", the notation's letters, Enter, and looks while the bot
thinks), so a subsystem player moves once per that many periods: both play at one pace
of moves, and the figures compare what a move costs each way.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import asyncssh
from loadkit import Latencies, guest_login

from shared import protocol
from shared.clock import parse_time_control
from shared.codec import ObjectStream
from shared.protocol import Hello, PlayMove, Quick, TableUpdate, Welcome

MOVE = "move (subsystem)"
KEYS_PER_MOVE = 12  # about a terminal player's keys for one move (`bench/loadclient.py`)
TIMEOUT = 10.0  # seconds a view may take before the move counts as lost


class WireChannel(asyncssh.SSHClientSession[bytes]):
    """The channel's host messages, decoded as they come (a client's real cost)."""

    def __init__(self) -> None:
        self.stream = ObjectStream()
        self.views: asyncio.Queue[Any] = asyncio.Queue()
        self.welcome = asyncio.Event()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        now = time.perf_counter()
        for raw in self.stream.feed(data):
            msg = protocol.decode_host(raw)
            if isinstance(msg, TableUpdate):
                self.views.put_nowait((now, msg.view))
            elif isinstance(msg, Welcome):
                self.welcome.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.views.put_nowait((time.perf_counter(), None))


def choose(legal: tuple[Any, ...]) -> Any:
    for prefix in ("buy", "take"):
        moves = [m for m in legal if str(m).startswith(prefix)]
        if moves:
            return max(moves, key=lambda m: len(str(m)))
    return legal[0]


async def wire_player(
    port: int,
    name: str,
    arrive: float,
    period: float,
    latencies: Latencies,
    seated: list[str],
    stop: asyncio.Event,
    clock: str = "none",
) -> int:
    """One subsystem player (see the module docstring); the moves it sent."""
    await asyncio.sleep(arrive)
    conn = await guest_login(port, name)
    chan, made = await conn.create_session(WireChannel, subsystem="splendor", encoding=None)
    assert isinstance(made, WireChannel)
    wire = made
    chan.write(protocol.encode(Hello()))
    await asyncio.wait_for(wire.welcome.wait(), 60)
    quick = protocol.encode(Quick(2, "easy", clock=parse_time_control(clock)))
    chan.write(quick)
    sent, due = 0, time.monotonic() + random.uniform(0, period * KEYS_PER_MOVE)
    pending: float | None = None  # when the move awaiting its view was written
    try:
        while not stop.is_set():
            try:
                arrived, view = await asyncio.wait_for(wire.views.get(), TIMEOUT)
            except TimeoutError:
                if pending is not None:
                    latencies.append((MOVE, TIMEOUT))
                    pending = None
                continue
            if view is None:
                break
            if name not in seated:
                seated.append(name)
            if pending is not None:
                latencies.append((MOVE, arrived - pending))
                pending = None
            if view.is_over:
                chan.write(quick)  # the next game
                continue
            if not view.legal_moves or not wire.views.empty():
                continue  # not ours, or an older view than the latest
            now = time.monotonic()
            await asyncio.sleep(max(0.0, due - now))
            due = max(due, now) + period * KEYS_PER_MOVE * random.uniform(0.5, 1.5)
            pending = time.perf_counter()
            chan.write(protocol.encode(PlayMove(choose(view.legal_moves))))
            sent += 1
    finally:
        conn.close()
    return sent
