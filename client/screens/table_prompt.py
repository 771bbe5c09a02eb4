"""What the table's prompt line says of the moment: a message (a refusal, a notice), the
question before quitting, the move waiting for Enter, the gems being picked, the tokens
being given back (R13), and otherwise what is under the cursor (a card, a noble, a pile,
a player, a move).

Pure functions of the table's parts (no widgets): `TableScreen.draw_prompt` shows them.
"""

from __future__ import annotations

from shared.i18n import _
from shared.view import PlayerInfo

from .. import faces, model, prompts
from ..table_state import TableState
from ..widgets.tiles import DECK, CardFace
from . import modes
from .choosing import Choosing
from .looking import MOVES, PLAYERS, Looking, Squares
from .table_keys import GEMS

Said = tuple[str, str, str | None]  # what the prompt says, its kind, a shorter form


def said(
    mode: str,
    local: bool,
    message: tuple[str, str] | None,
    state: TableState,
    look: Looking,
    choice: Choosing,
    board: Squares,
    over: str | None,
) -> Said:
    """The prompt line in `mode` (`local`: offline), with the table's `message` if any and
    `over`: what to say once the game is over (a rematch offered)."""
    view = state.view
    assert view is not None
    if mode == modes.SMALL:
        return (*(message or ("", "")), None)
    if mode == modes.QUIT:
        return quit_question(local)
    if message is not None:
        return (*message, None)
    if mode == modes.CONFIRM:
        assert choice.pending is not None
        text = prompts.pending_text(view, choice.pending)  # the key line says Enter, Esc
        return text + _("  Enter: yes · Esc: no"), "ask", text
    if mode == modes.PICK:
        return pick_text(choice.picked), "ask", None
    if mode == modes.RETURN:
        return prompts.return_text(view, choice.giving), "ask", None
    if mode == modes.OVER and not look.elsewhere:
        over = over or faces.winning_move(view, state.seats)
        return over or _("The game is over."), "", None
    text, short = cursor_text(state, look, board, choice.me_now())
    return text, "", short


def quit_question(local: bool) -> Said:
    """q in a game: leave and quit? Offline the game ends; online the seat is kept."""
    ask, answers = _("Leave this game and quit?"), _("y: yes · n: no")
    if local:
        return (
            _("{ask} A local game ends when you quit.  {answers}", ask=ask, answers=answers),
            "ask",
            None,
        )
    detail = _("Your seat is kept: connect again to play on.")
    return (
        f"{ask} {detail}  {answers}",
        "ask",
        _("{ask} Your seat is kept.  {answers}", ask=ask, answers=answers),
    )


def pick_text(picked: list[int]) -> str:
    """While taking gems (R7, R8): those picked so far, and the keys."""
    shown = " ".join(GEMS[c] for c in sorted(picked)) or "—"
    return _(
        "Take {shown}   w u g r k: pick · Backspace: undo · Enter: take · Esc: cancel", shown=shown
    )


def cursor_text(
    state: TableState, look: Looking, board: Squares, me: PlayerInfo | None
) -> tuple[str, str | None]:
    """What the prompt says of what is under the cursor, and a shorter form for a prompt
    too narrow for it (None: nothing shorter to say)."""
    view = state.view
    assert view is not None
    if look.area == PLAYERS:
        seat = faces.order(view)[look.pcursor[0]]
        return prompts.player_text(view, state.names, seat, look.pcursor[1], me), None
    if look.area == MOVES:
        entries = state.entries
        if not entries:
            return _("no moves yet"), None
        turn = entries[look.log_at].text
        looked = look.looked_card()
        if looked is None:
            return turn, None
        text = f"{turn} · {prompts.card_text(view, state.names, looked, me)}"
        if me is None:
            return text, None
        return text, f"{turn} · {model.your_need(looked, me, True)}"  # the face is by the hand
    if look.looked is not None:
        return card_text(state, look.looked, me)
    r, c = look.cursor
    if r == faces.NOBLE_ROW:
        nid = view.nobles[c]
        return prompts.noble_text(view, state.names, nid), prompts.noble_short(view, nid)
    if r == faces.BANK_ROW:
        return prompts.pile_text(view, c), None
    face = board.square(r, c)
    assert isinstance(face, CardFace)
    if face.card is None or face.kind == DECK:
        return prompts.slot_text(face, mine=r == faces.MINE_ROW), None
    return card_text(state, face.card, me)


def card_text(state: TableState, card_id: str, me: PlayerInfo | None) -> tuple[str, str]:
    """A card as the prompt says it, and in short (without what the gold covers)."""
    view = state.view
    assert view is not None
    return (
        prompts.card_text(view, state.names, card_id, me),
        prompts.card_text(view, state.names, card_id, me, brief=True),
    )
