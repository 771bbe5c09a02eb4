"""What happened: log lines from the players' last turns, and which turns a new view adds.

A view carries each player's *last* turn only (`shared.view.LastTurn`); the
client keeps the log by noticing which turns ended between two views.
"""

from __future__ import annotations

from shared.cards import LETTERS
from shared.i18n import _
from shared.moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from shared.view import LastTurn, PlayerView


def _letters(colours: tuple[int, ...]) -> str:
    return " ".join(LETTERS[c] for c in colours)


def action_text(move: Move, took_gold: bool = False) -> str:
    """The action as a past-tense phrase: "took W U G", "reserved 2-14 and took 1 gold"."""
    gold = _(" and took 1 gold") if took_gold else ""
    match move:
        case Take(colours=(first, second)) if first == second:  # R8
            return _("took 2 {gem}", gem=LETTERS[first])
        case Take(colours=colours):
            return _("took {gems}", gems=_letters(colours))
        case Reserve(card=cid):
            return _("reserved {card}{gold}", card=cid, gold=gold)
        case ReserveDeck(level=level):
            return _("reserved a level {level} card from the deck{gold}", level=level, gold=gold)
        case Buy(card=cid):
            return _("bought {card}", card=cid)
        case Pass():
            return _("passed")
    return str(move)


def turn_text(name: str, turn: LastTurn) -> str:
    """One log line: "Ann bought 1-07; the noble N3 visited"."""
    return f"{name} {whole_turn(turn)}"


def whole_turn(turn: LastTurn) -> str:
    """A turn without its player: "took W U G, returned W", "bought 1-07; the noble N3
    visited" (a player's panel says "last: " and this)."""
    text = action_text(turn.action, turn.took_gold)
    if isinstance(turn.returned, Return):  # R13
        text += _(", returned {letters}", letters=_letters(turn.returned.tokens))
    if turn.noble is not None:
        text += _("; the noble {noble} visited", noble=turn.noble)
    return text


def short_turn(turn: LastTurn) -> str:
    """The turn in a dozen cells, for a narrow player's panel, with the card it names
    whole and gold and returns as the bank counts them: "res 1-06 +1*", "res L2? +1*",
    "took W U G -K", "bought 1-07" (a noble's visit is left to the move log)."""
    gold = " +1*" if turn.took_gold else ""
    match turn.action:
        case Reserve(card=cid):
            return _("res {card}{gold}", card=cid, gold=gold)
        case ReserveDeck(level=level):  # as the panels show a blind reserve (R9)
            return _("res L{level}?{gold}", level=level, gold=gold)
    text = action_text(turn.action)
    if isinstance(turn.returned, Return):  # R13
        text += f" -{_letters(turn.returned.tokens)}"
    return text


def turn_cards(turn: LastTurn) -> tuple[str, ...]:
    """The cards a turn names (the one bought or reserved face up)."""
    card = getattr(turn.action, "card", None)
    return (card,) if isinstance(card, str) else ()


def ended_turns(previous: PlayerView | None, view: PlayerView) -> list[int]:
    """The seats whose turns ended between `previous` and `view`, in playing order.

    A turn ends when the turn counter moves on, or when the game ends (the last
    turn does not advance the counter). With no previous view (joining a game
    in progress) the last round is reported. A gap of more than a round (a
    reconnect) is reported as one turn per seat, since a view holds only each
    player's last turn.
    """
    n = view.num_players
    if previous is not None and previous.is_over:
        return []
    start = 1 if previous is None else previous.turn
    count = view.turn - start + (1 if view.is_over else 0)
    if count <= 0:
        return []
    count = min(count, n)
    first = (view.current_player - count + (1 if view.is_over else 0)) % n
    seats = [(first + i) % n for i in range(count)]
    return [s for s in seats if view.players[s].last_turn is not None]


def last_mover(view: PlayerView) -> int | None:
    """The seat whose turn ended most recently (None before the first turn ends)."""
    if view.is_over:
        return view.current_player
    if view.turn == 1:
        return None
    return (view.current_player - 1) % view.num_players
