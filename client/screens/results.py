"""The results: ranks, prestige, cards bought, and how ties were broken (R16, R17)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from shared.explain import plural
from shared.state import WINNING_PRESTIGE
from shared.view import PlayerView


class AfterGame(Enum):
    """What the player chose on the results screen."""

    AGAIN = "again"  # a new game (local) or back to the lobby (online)
    TABLE = "table"  # look at the final table
    QUIT = "quit"


def tie_notes(view: PlayerView, names: Sequence[str]) -> list[str]:
    """One sentence per group of players tied on prestige, saying how R17 ranked them."""
    assert view.outcome is not None
    scores = view.outcome.scores
    notes = []
    for score in sorted(set(scores), reverse=True):
        tied = [s for s in range(view.num_players) if scores[s] == score]
        if len(tied) < 2:
            continue
        tied.sort(key=lambda s: view.players[s].cards_bought)
        who = _join([names[s] for s in tied])
        cards = [view.players[s].cards_bought for s in tied]
        if len(set(cards)) == 1:
            notes.append(
                f"{who} tie on {score} prestige and {plural(cards[0], 'card')} bought: "
                f"they share rank {view.outcome.ranks[tied[0]]} (R17)."
            )
        else:
            counts = ", ".join(f"{names[s]} {view.players[s].cards_bought}" for s in tied)
            notes.append(
                f"{who} tie on {score} prestige: fewer cards bought ranks higher ({counts}) (R17)."
            )
    return notes


def end_note(view: PlayerView, names: Sequence[str]) -> str:
    """How the game ended: the final round (R15) or a round of passes (R18)."""
    assert view.outcome is not None
    reached = [
        names[s] for s in range(view.num_players) if view.outcome.scores[s] >= WINNING_PRESTIGE
    ]
    if reached:
        return (
            f"{_join(reached)} reached {WINNING_PRESTIGE} prestige; the round was played "
            f"out so everyone had {view.round} turns (R15)."
        )
    return "Nobody could act for a whole round, so the game ended as it stood (R18)."


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class ResultsScreen(ModalScreen[AfterGame]):
    """Shown when the game is over; returns what to do next."""

    BINDINGS = [
        Binding("enter,n", "choose('again')", "New game"),
        Binding("escape,t", "choose('table')", "See the table"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, view: PlayerView, names: Sequence[str], again: str = "New game") -> None:
        super().__init__()
        self.view = view
        self.names = tuple(names)
        self.again = again

    def compose(self) -> ComposeResult:
        view = self.view
        assert view.outcome is not None
        outcome = view.outcome
        table = Table(box=None, padding=(0, 1), header_style="bold")
        for title, justify in (("Rank", "right"), ("Player", "left"), ("Prestige", "right"),
                               ("Cards", "right"), ("Nobles", "left")):  # fmt: skip
            table.add_column(title, justify=justify)  # type: ignore[arg-type]
        order = sorted(range(view.num_players), key=lambda s: (outcome.ranks[s], s))
        for s in order:
            p = view.players[s]
            name = self.names[s] + (" (you)" if s == view.seat else "")
            style = "bold #ffd23f" if outcome.ranks[s] == 1 else ""
            table.add_row(
                f"{outcome.ranks[s]}.",
                name,
                str(outcome.scores[s]),
                str(p.cards_bought),
                " ".join(p.nobles) or "—",
                style=style,
            )
        winners = [self.names[s] for s in outcome.winners]
        if view.seat is not None and view.seat in outcome.winners:
            title = "You win!" if len(winners) == 1 else "You share the win!"
        else:
            title = f"{_join(winners)} {'wins' if len(winners) == 1 else 'share the win'}"
        with Vertical(classes="dialog", id="results"):
            yield Static(f"Game over — {title}", classes="dialog-title")
            yield Static(table, id="results-table")
            notes = [end_note(view, self.names), *tie_notes(view, self.names)]
            yield Static("\n".join(notes), classes="dialog-text")
            yield Static(
                f"[b]Enter[/b]: {self.again}   [b]Esc[/b]: see the table   [b]q[/b]: quit",
                classes="dialog-keys",
            )

    def action_choose(self, choice: str) -> None:
        self.dismiss(AfterGame(choice))
