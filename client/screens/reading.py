"""Which way of showing right-to-left text reads right in this terminal: asked the first
time a player picks Persian (issue 34; docs/design.md, "Right to left").

One sentence is shown twice: line 1 laid out by the app (letters joined, right to left),
line 2 as written, for the terminal to lay out. A terminal without bidi shows line 1
right and line 2 backwards with its letters apart; a bidi-aware terminal (its implicit
mode is set while asking) turns line 1 backwards and shows line 2 right. Each line says
which key to press, so the line that reads right tells the player what to do.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.filter import LineFilter
from textual.screen import Screen
from textual.widgets import Static

from shared.i18n import _

from ..bidi import Mode, visual
from ..rtl import reorders

# Our own sentence: "If you read this line right, press key 1" (Persian digits in prose,
# a ZWNJ inside «می‌خوانید»). No full stop: a bidi-aware terminal sets line 2 in a
# left-to-right row, where a stop at the sentence's end would stand at the wrong end.
SAMPLE = "اگر این سطر را درست می\u200cخوانید، کلید {key} را بزنید"
KEYS: dict[str, Mode] = {"1": "visual", "۱": "visual", "2": "logical", "۲": "logical"}
WIDTH = 60


def sample(key: str) -> str:
    """The sample sentence naming `key` in Persian digits."""
    return SAMPLE.format(key={"1": "۱", "2": "۲"}[key])


class AsIs(Static):
    """A line shown exactly as prepared: no layout of the app's (the terminal's own,
    if it has one, is what is being tested)."""

    def get_line_filters(self) -> list[LineFilter]:
        return [f for f in super().get_line_filters() if not reorders([f])]


class ReadingScreen(Screen[Mode]):
    """Asks which of two lines reads right; returns the mode: "visual" (1) or "logical" (2).
    A whole screen, not a dialog: a bidi-aware terminal lays out a screen row as one
    paragraph, so nothing else may share the sample lines' rows."""

    DEFAULT_CSS = """
    ReadingScreen { align: center middle; }
    ReadingScreen > Vertical { width: 64; height: auto; border: round $primary; padding: 0 1; }
    ReadingScreen AsIs { width: 100%; height: 1; }
    ReadingScreen .gap { height: 1; }
    ReadingScreen .note { height: auto; }
    """

    def compose(self) -> ComposeResult:
        one = visual(sample("1"))
        two = sample("2")
        with Vertical():
            yield AsIs(Text(_("Which line reads right? Press its number.")))
            yield AsIs("", classes="gap")
            yield AsIs(Text("1  " + " " * (WIDTH - 3 - cell_len(one)) + one), id="visual")
            yield AsIs("", classes="gap")
            yield AsIs(Text("2  " + two), id="logical")
            yield AsIs("", classes="gap")
            yield AsIs(
                Text(
                    _(
                        "1: this terminal shows lines as sent (xterm, tmux, kitty...); "
                        "2: it lays out right-to-left text itself (GNOME Terminal, Konsole)."
                    )
                ),
                classes="note",
            )

    def on_key(self, event: events.Key) -> None:
        mode = KEYS.get(event.character or "")
        if mode is not None:
            event.stop()
            self.dismiss(mode)
