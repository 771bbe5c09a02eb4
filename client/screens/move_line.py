"""The move line: ":" opens a line on the prompt where the player types a move in notation
(`take W U G`, `buy 1-07`) or a card id to look at; Enter hands it to `submit`.

While the line is open every key edits it and the table's keys wait.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events

from . import modes
from .table_view import TableView


class MoveLine(TableView):
    """The table with its move line (the keys are `client.screens.table.TableScreen`'s)."""

    def action_command(self) -> None:
        self._edit(("", 0))

    def _edit(self, line: tuple[str, int] | None) -> None:
        self.command = line
        self.prompt_line.edit(line)
        self._prompt()

    def on_key(self, event: events.Key) -> None:
        """While the move line is open every key edits it; the table's keys wait.

        ":" opens the line here too, not only through its binding: keys typed quickly
        (or pasted) reach this handler in order, before any binding runs, so the keys
        after ":" must already find the line open."""
        if self.command is None:
            if event.key == "colon" and self.mode != modes.SMALL:
                event.stop()
                event.prevent_default()
                self.action_command()
            return
        event.stop()
        event.prevent_default()
        text, caret = self.command
        key = event.key
        if key == "enter":
            self._edit(None)
            self._submit(text.strip())
        elif key == "escape":
            self._edit(None)  # the prompt line shows again, with any notice that came meanwhile
        elif key in EDITING:
            self._edit(EDITING[key](text, caret))
        elif event.is_printable and event.character and len(text) < COMMAND_LIMIT:
            self._edit((text[:caret] + event.character + text[caret:], caret + 1))

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text goes on the move line (opened if need be), as if typed; Enter plays it."""
        event.stop()
        text = "".join(ch for ch in " ".join(event.text.split()) if ch.isprintable())
        line, caret = self.command or ("", 0)
        text = text[: COMMAND_LIMIT - len(line)]
        if text:
            self._edit((line[:caret] + text + line[caret:], caret + len(text)))

    def _submit(self, text: str) -> None:
        """What Enter on the line does with its text (the table's keys decide)."""
        raise NotImplementedError


COMMAND_LIMIT = 60  # characters on the move line: any move is far shorter
# Editing keys on the move line: (text, caret) -> (text, caret).
EDITING: dict[str, Callable[[str, int], tuple[str, int]]] = {
    "backspace": lambda t, i: (t[: i - 1] + t[i:], i - 1) if i else (t, i),
    "delete": lambda t, i: (t[:i] + t[i + 1 :], i),
    "left": lambda t, i: (t, max(0, i - 1)),
    "right": lambda t, i: (t, min(len(t), i + 1)),
    "home": lambda t, i: (t, 0),
    "ctrl+a": lambda t, i: (t, 0),
    "end": lambda t, i: (t, len(t)),
    "ctrl+e": lambda t, i: (t, len(t)),
    "ctrl+u": lambda t, i: (t[i:], 0),
    "ctrl+k": lambda t, i: (t[:i], i),
}
