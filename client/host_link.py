"""The app's side of its `Connection` (docs/design.md): client messages out, encoded,
noting which questions to the club desk wait for their answer; the host's bytes in,
posted to the app as `HostData` (the host may call from any task) and decoded there once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from textual.message import Message

from shared.codec import CodecError
from shared.protocol import (
    AskLeaderboard,
    AskProfile,
    AskRecord,
    ClientMessage,
    HostMessage,
    decode_host,
    encode,
)
from shared.tourney_messages import TOURNEY_QUESTIONS, AskTourney, AskTourneys

from .connection import Connection

log = logging.getLogger(__name__)


class HostData(Message):
    """Bytes from the host, posted by the connection's receiver."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data


class HostLink:
    """One app's link to the host: `send` out, `decode` what came in, and the club desk's
    questions asked and not answered yet (`answered`)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.asked: set[type[ClientMessage]] = set()  # questions to the club desk, unanswered

    def open(self, post: Callable[[Message], object]) -> None:
        """Take the host's messages from now on, each handed to `post` (the app's
        `post_message`)."""

        def receive(data: bytes) -> None:  # may run in another app's task, so only post
            post(HostData(data))

        self.connection.set_receiver(receive)

    def send(self, msg: ClientMessage) -> None:
        """One command to the host, a question to the club desk noted as asked."""
        if isinstance(msg, AskLeaderboard | AskProfile | AskRecord | AskTourneys):
            self.asked.add(type(msg))
        elif isinstance(msg, TOURNEY_QUESTIONS):
            self.asked.add(AskTourney)  # each of the others is answered with a page
        self.connection.send(encode(msg))

    def answered(self, question: type[ClientMessage]) -> bool:
        """An answer of the club desk came: True if it was asked for (and is now answered);
        one that comes after its screen was closed is dropped."""
        if question in self.asked:
            self.asked.discard(question)
            return True
        return False

    def decode(self, data: bytes) -> HostMessage | None:
        """The host's message in `data`, or None (logged) if it is not one."""
        try:
            return decode_host(data)
        except CodecError as e:
            log.warning("bad message from the host: %s", e)
            return None

    def close(self) -> None:
        self.connection.close()
