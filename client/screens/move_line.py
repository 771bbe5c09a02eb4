"""The move line: ":" opens a line on the prompt where the player types a move in notation
(`take W U G`, `buy 1-07`) or a card id to look at; Enter hands it to `submit`. "c" opens
the same line for a line of chat to the table (or a `/` command: `client.talk`).

While the line is open every key edits it and the table's keys wait.
"""

from __future__ import annotations

from textual import events

from shared.chat import MAX_CHAT
from shared.protocol import Say

from ..editing import edited, pasted
from ..widgets.panels import CHAT_PLACEHOLDER, PLACEHOLDER
from . import modes
from .table_company import TableCompany


class MoveLine(TableCompany):
    """The table with its move line (the keys are `client.screens.table.TableScreen`'s)."""

    def action_command(self) -> None:
        self.chatting = False
        self._edit(("", 0))

    def action_chat(self) -> None:
        self.chatting = True
        self._edit(("", 0))

    def _edit(self, line: tuple[str, int] | None) -> None:
        self.command = line
        self.prompt_line.edit(line, CHAT_PLACEHOLDER if self.chatting else PLACEHOLDER)
        self._prompt()

    @property
    def _limit(self) -> int:
        return MAX_CHAT if self.chatting else COMMAND_LIMIT

    def on_key(self, event: events.Key) -> None:
        """While the move line is open every key edits it; the table's keys wait.

        ":" opens the line here too, not only through its binding: keys typed quickly
        (or pasted) reach this handler in order, before any binding runs, so the keys
        after ":" must already find the line open."""
        if self.command is None:
            opens = {"colon": self.action_command, "c": self.action_chat}.get(event.key)
            chat_ok = event.key != "c" or not self.splendor.local
            if opens is not None and chat_ok and self.mode not in (modes.SMALL, modes.QUIT):
                event.stop()
                event.prevent_default()
                opens()
            return
        event.stop()
        event.prevent_default()
        text = self.command[0]
        if event.key == "enter":
            self._edit(None)
            if self.chatting:
                self._say(text.strip())
            else:
                self._submit(text.strip())
        elif event.key == "escape":
            self._edit(None)  # the prompt line shows again, with any notice that came meanwhile
        else:
            character = event.character if event.is_printable else None
            self._edit(edited(self.command, event.key, character, self._limit))

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text goes on the move line (opened if need be), as if typed; Enter plays it."""
        event.stop()
        line = pasted(self.command or ("", 0), event.text, self._limit)
        if line[0]:
            self._edit(line)

    def _submit(self, text: str) -> None:
        """What Enter on the line does with its text (the table's keys decide)."""
        raise NotImplementedError

    def _say(self, text: str) -> None:
        """Enter on the chat line: a `/` command is this player's own, else it is said."""
        if text.startswith("/"):
            self.message = (self.splendor.talk.command(text), "")
            self.show_chat(self.table_id)  # a name muted or unmuted
            self._prompt()
        elif text:
            self.splendor.send(Say(text))


COMMAND_LIMIT = 60  # characters on the move line: any move is far shorter
