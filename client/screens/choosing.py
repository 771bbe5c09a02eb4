"""Choosing a move with the keys: buy or reserve what the cursor is on, pick gems to take
(R7, R8), give tokens back (R13), confirm, and a move typed on the move line.

`Choosing` is one part of the table screen (`client.screens.table`): it keeps the move
being put together (gems picked, tokens given back, a move waiting for Enter) and sends
it once it is among the view's legal moves; otherwise it says why (`client.model`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from shared.cards import COLOUR_NAMES
from shared.errors import SplendorError
from shared.i18n import _, ngettext
from shared.moves import Buy, Move, Reserve, ReserveDeck, Return, parse_move
from shared.protocol import ClientMessage, PlayMove
from shared.view import PlayerInfo, PlayerView

from .. import faces, model
from ..table_state import TableState
from .looking import Looking


class ChoiceScreen(Protocol):
    """What the move being chosen asks of the table screen."""

    def say(self, text: str | None, kind: str = "") -> None:
        """The prompt line's message (None: none), drawn with what is drawn next."""

    def refuse(self, reason: str) -> None:
        """Say why not, on the prompt line, now."""

    def send(self, msg: ClientMessage) -> None: ...

    def draw_board(self) -> None:
        """The board (gems picked, the move waiting) and the prompt."""

    def draw_cards(self) -> None:
        """The cards' faces again (what the player needs), the board and the prompt."""


class Choosing:
    """The move being put together (see the module docstring)."""

    def __init__(self, state: TableState, look: Looking, screen: ChoiceScreen) -> None:
        self.state, self.look, self.screen = state, look, screen
        self.taking = False
        self.picked: list[int] = []
        self.giving: list[int] = []  # tokens chosen to give back (R13)
        self.pending: Move | None = None
        self.waiting = False  # a move sent, the host's answer not come yet

    def reset(self) -> None:
        self.taking, self.picked, self.pending, self.giving = False, [], None, []

    @property
    def busy(self) -> bool:
        """A choice is under way (Esc clears it)."""
        return self.pending is not None or self.taking or bool(self.giving)

    def me_now(self) -> PlayerInfo | None:
        """The viewer as the cards should count them: with the tokens being given back
        already gone (R13), so the cards show what would be needed after the return."""
        view = self.state.view
        me = view.me if view is not None else None
        if me is None or not self.giving:
            return me
        return replace(me, tokens=model.kept(me.tokens, self.giving))

    # -- the keys ---------------------------------------------------------------------

    def buy(self) -> None:
        kind, target = self.look.target()
        if kind not in ("card", "look"):
            self.screen.refuse(_("put the cursor on a card to buy it"))
        else:
            self._offer(Buy(target))

    def reserve(self) -> None:
        kind, target = self.look.target()
        if kind == "deck":
            self._offer(ReserveDeck(target))
        elif kind == "card" and not self.look.on_my_hand:
            self._offer(Reserve(target))
        else:
            self.screen.refuse(_("put the cursor on a face-up card or a deck to reserve it"))

    def take(self) -> None:
        if self.taking and self.picked:
            self.confirm()
            return
        if self.ready() is None:
            return
        self.pending = None
        self.screen.say(None)
        self.taking = True
        kind, target = self.look.target()
        if kind == "gem" and target < 5 and not self.picked:
            self.pick(target)
            return
        self.screen.draw_board()

    def pick(self, colour: int) -> None:
        view = self.ready()
        if view is None:
            return
        self.pending = None
        self.screen.say(None)
        self.taking = True
        if colour == 5 or not model.can_extend(view, self.picked, colour):
            self.screen.refuse(model.why_not_pick(view, self.picked, colour))
            return
        self.picked.append(colour)
        self.screen.draw_board()

    def give(self, colour: int) -> None:
        """R13: choose a token to give back; the cards show what you would then need."""
        view = self.state.view
        if view is None or view.me is None:
            return
        self.screen.say(None)
        excess = view.me.token_count - 10
        if len(self.giving) >= excess:
            self.screen.say(
                _("That is {excess} already: Enter returns them.", excess=excess), "error"
            )
        elif self.giving.count(colour) >= view.me.tokens[colour]:
            self.screen.say(
                _(
                    "You hold no more {colour} to give back.",
                    colour=_(COLOUR_NAMES[colour]),
                ),
                "error",
            )
        else:
            self.giving.append(colour)
        self.screen.draw_cards()

    def unpick(self) -> None:
        if self.picked:
            self.picked.pop()
        elif self.giving:
            self.giving.pop()
        else:
            return
        self.screen.say(None)
        self.screen.draw_cards()

    def confirm(self) -> None:
        """Enter while choosing: send the move waiting, take the gems picked, or act on
        the cursor (buy, reserve a deck, pick a gem)."""
        view = self.state.view
        if view is None:
            return
        if self.pending is not None:
            self._send(self.pending)
        elif self.taking and self.picked:
            self._offer_take(model.take_of(self.picked))
        else:
            kind, target = self.look.target()
            if kind == "gem":
                self.pick(target)
            elif kind == "deck":
                self._offer(ReserveDeck(target))
            elif kind in ("card", "look"):
                on_board = kind == "card" and not self.look.on_my_hand
                legal = view.legal_moves
                if Buy(target) not in legal and on_board and Reserve(target) in legal:
                    why = model.why_not(view, Buy(target), self.state.names)
                    self.screen.refuse(why + _(" · r reserves it"))
                else:
                    self._offer(Buy(target))

    def give_back(self) -> None:
        """Enter while giving tokens back (R13): return them, if they are enough."""
        view = self.state.view
        assert view is not None and view.me is not None
        move = Return(tuple(sorted(self.giving)))
        if move in view.legal_moves:
            self._send(move)
            return
        excess = view.me.token_count - 10
        left = excess - len(self.giving)
        self.screen.refuse(
            ngettext(
                "Choose {left} more: exactly {n} token goes back (R13).",
                "Choose {left} more: exactly {n} tokens go back (R13).",
                excess,
                left=left,
            )
        )

    def cancel(self) -> bool:
        """Esc: drop the choice under way; False if there was none."""
        if not self.busy:
            return False
        self.reset()
        self.screen.say(None)
        self.screen.draw_cards()
        return True

    def pass_turn(self) -> None:
        self._offer(parse_move("pass"))

    def submit(self, text: str) -> None:
        """Enter on the move line: a card id shows that card; anything else is a move."""
        if not text:
            return
        looked = faces.card_id(text.removeprefix("show ").removeprefix("look "))
        if looked is not None:
            self.look.look_up(looked)
            self.screen.say(None)
            self.screen.draw_board()
            return
        try:
            move = parse_move(text)
        except SplendorError as e:
            self.screen.refuse(str(e))
            return
        view = self.ready()
        if view is None:
            return
        reason = model.check(view, move, self.state.names)
        if reason is not None:
            self.screen.refuse(f"`{move}`: {reason}")
        else:
            self._send(move)

    # -- checking and sending ------------------------------------------------------------

    def ready(self) -> PlayerView | None:
        """The view if the player may choose a move now; else say why and return None."""
        state = self.state
        view = state.view
        if view is None:
            return None
        if state.seat is not None and state.playing_seat is None:
            self.screen.refuse(_("a bot plays your seat for the rest of this game"))
            return None
        if self.waiting:
            self.screen.refuse(_("waiting for the host to answer your move…"))
            return None
        if not view.my_turn:
            self.screen.refuse(model.why_not(view, Buy("1-01"), state.names))
            return None
        return view

    def _offer(self, move: Move) -> None:
        """Ask for Enter if `move` is legal; explain if it is not. The same key twice confirms."""
        view = self.ready()
        if view is None:
            return
        reason = model.check(view, move, self.state.names)
        if reason is not None:
            self.screen.refuse(reason)
            return
        if self.pending == move:
            self._send(move)
            return
        self.taking, self.picked = False, []
        self.screen.say(None)
        self.pending = move
        self.screen.draw_board()

    def _offer_take(self, move: Move) -> None:
        view = self.ready()
        if view is None:
            return
        reason = model.check(view, move, self.state.names)
        if reason is None:
            self._send(move)
        else:
            self.screen.refuse(reason)

    def _send(self, move: Move) -> None:
        self.screen.send(PlayMove(move))
        self.waiting = True
        self.reset()
        self.screen.say(_("sent: {move}", move=str(move)))
        self.screen.draw_board()  # the host's answer redraws the rest
