"""What a session knows of chat, and its own chat commands (pure, no Textual).

The host sends each place's lines (`shared.social.ChatLines`: the lobby's, or a
table's); `Talk` keeps them, with what this player chose for themselves: names they
muted (``/mute NAME``, for this session only) and whether the terminal bell rings when
it becomes their turn (``/bell``, on by default). A line typed that starts with ``/``
is one of these commands, never sent.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.i18n import N_, _
from shared.messages import MAX_NAME
from shared.social import LOBBY, ChatLine, ChatLines
from shared.text import safe_text

KEPT = 500  # lines kept for a place
COMMANDS = N_("/mute NAME, /unmute NAME, /mute (who is muted), /bell (on or off)")


class Talk:
    """Chat lines by place, muted names and the bell (see the module docstring)."""

    def __init__(self) -> None:
        self.places: dict[str, list[ChatLine]] = {}
        self.muted: set[str] = set()  # names, case-folded
        self.bell = True

    def heard(self, msg: ChatLines) -> None:
        """Lines from the host: the whole of a place's chat, or lines to add."""
        lines = list(msg.lines) if msg.whole else self.places.get(msg.where, []) + list(msg.lines)
        self.places[msg.where] = lines[-KEPT:]

    def lines(self, where: str = LOBBY) -> list[ChatLine]:
        """A place's lines, without the muted names'."""
        return [x for x in self.places.get(where, ()) if x.name.casefold() not in self.muted]

    def forget(self, keep: Sequence[str] = (LOBBY,)) -> None:
        """Forget the chat of places other than `keep` (tables left behind)."""
        self.places = {k: v for k, v in self.places.items() if k in keep}

    def command(self, text: str) -> str:
        """Run a ``/`` command typed on a chat line; what to tell the player."""
        word, _sep, rest = text.strip().partition(" ")
        name = safe_text(rest, MAX_NAME)  # as the host's names are: it is echoed, too
        if word == "/mute" and name:
            self.muted.add(name.casefold())
            return _("{name} is muted for you (this session); /unmute {name} undoes it", name=name)
        if word == "/mute":
            return _("muted: ") + (", ".join(sorted(self.muted)) or _("nobody"))
        if word == "/unmute" and name:
            found = name.casefold() in self.muted
            self.muted.discard(name.casefold())
            return (
                _("{name} is no longer muted", name=name)
                if found
                else _("{name} was not muted", name=name)
            )
        if word == "/bell":
            self.bell = {"on": True, "off": False}.get(name.lower(), not self.bell)
            return _(
                "the bell is {value}: it rings when it becomes your turn",
                value="on" if self.bell else "off",
            )
        return _("commands: {commands}", commands=_(COMMANDS))


def chat_text(line: ChatLine) -> str:
    """A line as the chat shows it: who, then what (a spectator's marked)."""
    who = _("{name} (watching)", name=line.name) if line.spectator else line.name
    return f"{who}: {line.text}"
