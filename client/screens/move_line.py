"""The move line: ":" opens a line on the prompt where the player types a move in notation
(`take W U G`, `buy 1-07`) or a card id to look at; Enter hands it to the table. "c" opens
the same line for a line of chat to the table (or a `/` command: `client.talk`).

`MoveLine` is one part of the table screen (`client.screens.table`). While the line is
open every key edits it and the table's keys wait.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events

from shared.chat import MAX_CHAT

from ..editing import edited, pasted

COMMAND_LIMIT = 60  # characters on the move line: any move is far shorter


Shown = Callable[[tuple[str, int] | None, bool], None]  # the line (None: closed), chatting


class MoveLine:
    """The line being typed (`text`, None while closed), which `shown` draws on the prompt
    line; Enter gives it to `submit` (a move or a card id) or to `say` (chat)."""

    def __init__(
        self, shown: Shown, submit: Callable[[str], None], say: Callable[[str], None]
    ) -> None:
        self.shown, self.submit, self.say = shown, submit, say
        self.text: tuple[str, int] | None = None  # the line and its caret, while open
        self.chatting = False  # ...a line of chat, not a move

    @property
    def open(self) -> bool:
        return self.text is not None

    def start(self, chatting: bool) -> None:
        """Open the line: for a move (":") or for chat ("c")."""
        self.chatting = chatting
        self._edit(("", 0))

    def _edit(self, line: tuple[str, int] | None) -> None:
        self.text = line
        self.shown(line, self.chatting)

    @property
    def _limit(self) -> int:
        return MAX_CHAT if self.chatting else COMMAND_LIMIT

    def key(self, event: events.Key) -> bool:
        """A key while the line is open: it edits the line (True); closed: False."""
        if self.text is None:
            return False
        event.stop()
        event.prevent_default()
        text = self.text[0]
        if event.key == "enter":
            self._edit(None)
            (self.say if self.chatting else self.submit)(text.strip())
        elif event.key == "escape":
            self._edit(None)  # the prompt line shows again, with any notice that came meanwhile
        else:
            character = event.character if event.is_printable else None
            self._edit(edited(self.text, event.key, character, self._limit))
        return True

    def paste(self, text: str) -> None:
        """Pasted text goes on the line (opened if need be), as if typed; Enter plays it."""
        line = pasted(self.text or ("", 0), text, self._limit)
        if line[0]:
            self._edit(line)
