"""The app's only link to a game host: bytes in, bytes out (docs/design.md).

The app never holds a `GameState`. It sends encoded client messages
(`shared.protocol`) with `send`, and the host calls the receiver the app
registered with every host message. An in-process host (local play, tests)
and the SSH server implement the same interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

Receiver = Callable[[bytes], None]


class Connection(ABC):
    """A link to a game host. Hosts call `deliver`; the app calls `send`."""

    def __init__(self) -> None:
        self._receiver: Receiver | None = None
        self._pending: list[bytes] = []

    def set_receiver(self, receiver: Receiver) -> None:
        """Called by the app once it can take messages; queued ones arrive first."""
        self._receiver = receiver
        pending, self._pending = self._pending, []
        for data in pending:
            receiver(data)

    def deliver(self, data: bytes) -> None:
        """Called by the host with one encoded host message."""
        if self._receiver is None:
            self._pending.append(data)
        else:
            self._receiver(data)

    @abstractmethod
    def send(self, data: bytes) -> None:
        """One encoded client message to the host."""

    def close(self) -> None:  # noqa: B027 (a no-op by default, not abstract)
        """The app is leaving; the host keeps the seat (a disconnect, not a resignation)."""
