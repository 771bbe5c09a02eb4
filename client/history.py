"""The move log's entries, kept from the host's table updates (pure, no Textual).

The first update for a table (and one after moves were taken back) brings the whole
log; later ones add the turns that ended since the previous view (`ended_turns`).
What happened since the viewer's own last turn is "fresh" (a spectator: what the
latest update brought).
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.protocol import LoggedTurn
from shared.view import LastTurn, PlayerView

from .describe import ended_turns, turn_cards, turn_text
from .widgets.movelog import LogEntry

LOG_LIMIT = 1000  # entries kept: a whole game


class History:
    """The log of one table, seen from `seat` (None: a spectator)."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self.fresh_from = 0  # entries from here on are fresh

    @property
    def fresh(self) -> int:
        return len(self.entries) - self.fresh_from

    def replace(
        self, log: Sequence[LoggedTurn], seat: int | None, names: Sequence[str], n: int
    ) -> None:
        """The whole log, as the host sent it."""
        self.entries = []
        for t in log:
            self._add(t.seat, t.turn, seat, names)
        if seat is None or not any(e.seat == seat for e in self.entries):
            self.fresh_from = len(self.entries) - min(len(self.entries), n)

    def follow(
        self,
        previous: PlayerView | None,
        view: PlayerView,
        seat: int | None,
        names: Sequence[str],
    ) -> None:
        """Add the turns that ended between `previous` and `view`."""
        ended = ended_turns(previous, view)
        if ended and seat is None:  # a spectator: what this update brought
            self.fresh_from = len(self.entries)
        for s in ended:
            last = view.players[s].last_turn
            assert last is not None
            self._add(s, last, seat, names)
        if len(self.entries) > LOG_LIMIT:
            cut = len(self.entries) - LOG_LIMIT
            del self.entries[:cut]
            self.fresh_from = max(0, self.fresh_from - cut)

    def _add(self, s: int, last: LastTurn, seat: int | None, names: Sequence[str]) -> None:
        name = names[s] if s < len(names) else f"Seat {s + 1}"
        self.entries.append(LogEntry(turn_text(name, last), turn_cards(last), s))
        if s == seat:  # what happened since the viewer's own move stands out
            self.fresh_from = len(self.entries)
