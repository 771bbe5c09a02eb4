"""The replay viewer: a finished game's table as it was after every turn.

It is the table's drawing (`TableView`) fed from a game record played
out in the client (`client.replay.Replay`) instead of from the host: ← → go a turn
back and on, ↑ ↓ and PgUp PgDn walk the move list (the table follows), Home and
End go to the deal and the last turn. Once the game is over every card shows, the
blind reserves too. The same screen serves the app (a record the host sent) and
`splendor replay FILE` (`ReplayApp`, no host at all).
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.binding import Binding

from shared.gamerecord import LIMITS, RecordError, parse_record
from shared.i18n import N_, _

from ..replay import Replay
from ..table_state import TableState
from ..widgets.movelog import Notes
from . import modes
from .help import HelpScreen
from .results import results_notes
from .table_view import TableView

NOTE_STYLE = "italic #8fd3ff"


class ReplayScreen(TableView):
    """One game's replay; Esc closes it."""

    BINDINGS = [
        Binding("left,h", "step(-1)", N_("Back"), tooltip=N_("A turn back")),
        Binding("right,l,space", "step(1)", N_("On"), tooltip=N_("A turn on")),
        Binding(
            "up,k", "step(-1)", show=False, tooltip=N_("The move list: up (the table follows)")
        ),
        Binding("down,j", "step(1)", show=False, tooltip=N_("The move list: down")),
        Binding("pageup", "page(-1)", show=False, tooltip=N_("The move list: a page up")),
        Binding("pagedown", "page(1)", show=False, tooltip=N_("The move list: a page down")),
        Binding("home", "go(0)", N_("Deal"), tooltip=N_("The deal, before the first turn")),
        Binding("end", "go(-1)", N_("End"), tooltip=N_("After the last turn")),
        Binding("escape,q", "close", N_("Close"), tooltip=N_("Close the replay")),
    ]

    onlooker = "replay"

    def __init__(self, replay: Replay, at: int | None = None) -> None:
        state = TableState(replay.game or "replay", None, seats=replay.seats)
        if replay.over:
            state.seed = replay.record.seed
        state.history.replace(replay.log, None, state.names, replay.record.players)
        super().__init__(state)
        self.replay = replay
        self.onlooker = _("replay of {title}", title=replay.title)
        self.at = 0  # the turns shown played: the move list's selection is the last of them
        self.go_to(replay.turns if at is None else at)

    @property
    def mode(self) -> str:
        return modes.REPLAY if self.fits else modes.SMALL

    def go_to(self, k: int) -> None:
        """Show the table after `k` turns (clamped to the game)."""
        k = max(0, min(self.replay.turns, k))
        self.at = k
        self.state.view = self.replay.view(k)
        self.state.previous = self.replay.view(k - 1) if k else None
        if self.is_mounted:
            self.redraw()

    # -- keys -------------------------------------------------------------------------

    def action_step(self, turns: int) -> None:
        self.go_to(self.at + turns)

    def action_page(self, pages: int) -> None:
        room = max(1, self.move_log.content_size.height - 2)
        self.go_to(self.at + pages * room)

    def action_go(self, k: int) -> None:
        self.go_to(self.replay.turns if k < 0 else k)

    def action_close(self) -> None:
        self.dismiss(None)

    # -- drawing: the table, with the replay's move list and prompt -----------------------

    def redraw(self) -> None:
        view = self.view
        assert view is not None
        self.paint_status(mine=False)
        self.paint_players(None)
        self.paint_cards(view.me)
        self.paint_board(None, self.looked_card(), view.me)
        self._moves()
        self._prompt()

    def looked_card(self) -> str | None:
        """The card of the turn shown (bought, reserved), beside the hand."""
        if self.at == 0:
            return None
        cards = self.state.entries[self.at - 1].cards
        return cards[0] if cards else None

    def _moves(self) -> None:
        view = self.view
        assert view is not None
        notes: Notes = ()
        if self.at and self.replay.notes[self.at - 1]:
            notes = ((f"{{{self.replay.notes[self.at - 1]}}}", NOTE_STYLE),)
        if view.is_over:
            notes = (*notes, *results_notes(view, self.state.seats, self.state.seed))
        self.paint_moves(self.at - 1, notes, fresh=0)  # -1: the deal

    def _prompt(self) -> None:
        mode = self.mode
        self.key_line.show(modes.keys(mode, False))
        if mode == modes.SMALL:
            self.prompt_line.say("")
            return
        k, total = self.at, self.replay.turns
        if k == 0:
            self.prompt_line.say(
                _("The deal (0 of {total} turns): → plays the first turn", total=total)
            )
        else:
            text = self.state.entries[k - 1].text
            self.prompt_line.say(
                _("After turn {k} of {total}: {text}", k=k, total=total, text=text)
            )


class ReplayApp(App[None]):
    """`splendor replay FILE`: one record's replay, with no host."""

    CSS_PATH = "../splendor.tcss"
    TITLE = N_("Splendor replay")
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+c,ctrl+q", "quit", N_("Quit"), show=False, priority=True),
        Binding("question_mark", "help", N_("Help")),
    ]

    def __init__(self, replay: Replay, at: int | None = None) -> None:
        super().__init__()
        self.replay, self.at = replay, at

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.replay, self.at), lambda _: self.exit())

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            groups = [("Replay", ReplayScreen.BINDINGS), ("Everywhere", self.BINDINGS)]
            now, settings = modes.page(modes.REPLAY, False), self.replay.view(0).settings
            self.push_screen(HelpScreen(groups, now, modes.LEGEND, settings))


def record_bytes(path: str | Path) -> bytes:
    """The file's bytes, read a MiB at a time and no further than one byte past what a
    record may be (`LIMITS.size`: the parser then refuses it), so that a huge file costs
    neither time nor memory; `OSError` if it cannot be read."""
    chunks: list[bytes] = []
    size = 0
    with open(path, "rb") as f:
        while size <= LIMITS.size and (chunk := f.read(min(1 << 20, LIMITS.size + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    return b"".join(chunks)


def load_replay(path: str | Path) -> Replay:
    """The replay of the record in `path`; `RecordError` (naming the line or the turn,
    or the limit it is over) or `OSError` if it cannot be read."""
    return Replay.of(parse_record(record_bytes(path)))


__all__ = ["RecordError", "ReplayApp", "ReplayScreen", "load_replay", "record_bytes"]
