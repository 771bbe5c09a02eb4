"""What the table screen derives from a `PlayerView`: names, needs, picks and reasons.

Pure functions, no Textual: the screen asks these what to offer and why a
choice is refused. Everything is decided from the view's own legal moves
(`PlayerView.legal_moves`), so the client offers exactly what the host allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shared.cards import COLOUR_NAMES, COLOURS, LETTERS, card
from shared.explain import why_not_now
from shared.i18n import _, ngettext
from shared.moves import Move, Reserve, ReserveDeck, Take
from shared.protocol import SeatSummary
from shared.view import PlayerInfo, PlayerView


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the table shows it: display name, bot level (None for a person), online."""

    name: str
    bot: str | None = None
    connected: bool = True
    standin: str | None = None  # the bot level playing for this player to the end


def short_name(seat: Seat, index: int) -> str:
    """A seat's name for a narrow panel: "Medium 3" for "Medium bot 3" (the level stays)."""
    if not seat.bot:
        return seat.name
    level = _(seat.bot).capitalize()
    full = _("{level} bot {seat}", level=level, seat=index + 1)
    return _("{level} {seat}", level=level, seat=index + 1) if seat.name == full else seat.name


def seats_from(summaries: Sequence[SeatSummary]) -> tuple[Seat, ...]:
    """A table update's seats as the table names them ("Easy bot 2" for a bot)."""
    return tuple(
        Seat(
            ("⚙ " + s.name if s.program else s.name)  # a program: the bots' mark
            if s.name
            else (
                _("{level} bot {seat}", level=_(s.bot).capitalize(), seat=i + 1)
                if s.bot
                else _("Seat {seat}", seat=i + 1)
            ),
            s.bot,
            s.connected,
            s.standin,
        )
        for i, s in enumerate(summaries)
    )


def letters(counts: Sequence[int], sep: str = " ") -> str:
    """Counts per colour as text: ``(2, 0, 1, 0, 0)`` → ``2W 1G``."""
    return sep.join(f"{n}{LETTERS[c]}" for c, n in enumerate(counts) if n)


# -- buying (R10) ---------------------------------------------------------------


def shortfall(card_id: str, me: PlayerInfo) -> tuple[int, ...]:
    """Per colour, the tokens `me` lacks for `card_id` after bonuses and gems (gold not used)."""
    cost = card(card_id).cost
    return tuple(max(0, cost[c] - me.bonuses[c] - me.tokens[c]) for c in range(5))


def price(card_id: str, me: PlayerInfo) -> tuple[int, ...]:
    """What buying `card_id` would take from `me`, W U G R K * (R10: gold only for the gap)."""
    cost = card(card_id).cost
    pay = [0] * 6
    for c in range(5):
        need = max(0, cost[c] - me.bonuses[c])
        pay[c] = min(need, me.tokens[c])
        pay[5] += need - pay[c]
    return tuple(pay)


def needs_text(card_id: str, me: PlayerInfo) -> str:
    """What the player still needs for a card, in its one form ("need 2U 1K"), or that they
    can buy it ("✓ buy", "✓ buy 2*" with 2 gold)."""
    short = shortfall(card_id, me)
    missing = sum(short)
    if missing == 0:
        return _("✓ buy")
    if missing <= me.tokens[5]:
        return _("✓ buy {missing}*", missing=missing)
    return _("need {letters}", letters=letters(short))


def noble_lacks(requires: Sequence[int], player: PlayerInfo) -> tuple[int, ...]:
    """Per colour, the bonuses `player` still lacks for a noble (R14: cards only)."""
    return tuple(max(0, requires[c] - player.bonuses[c]) for c in range(5))


def lacks_text(lacks: Sequence[int]) -> str:
    """ "2U 1K to go", or "✓ meets it" (the noble visits at the end of a turn, R14)."""
    return _("{letters} to go", letters=letters(lacks)) if any(lacks) else _("✓ meets it")


def kept(tokens: Sequence[int], given: Sequence[int]) -> tuple[int, ...]:
    """The tokens left once the colours in `given` go back to the bank (R13)."""
    return tuple(tokens[c] - list(given).count(c) for c in range(6))


# -- taking (R7, R8) --------------------------------------------------------------


def takes(view: PlayerView) -> tuple[Take, ...]:
    return tuple(m for m in view.legal_moves if isinstance(m, Take))


def can_extend(view: PlayerView, picked: Sequence[int], colour: int) -> bool:
    """Whether some legal take contains the gems picked so far plus `colour`."""
    want = [0] * 6
    for c in (*picked, colour):
        want[c] += 1
    return any(all(m.counts[c] >= want[c] for c in range(6)) for m in takes(view))


def take_of(picked: Sequence[int]) -> Take:
    return Take(tuple(sorted(picked)))


def why_not_pick(view: PlayerView, picked: Sequence[int], colour: int) -> str:
    """Why `colour` can't be added to the gems picked so far."""
    if colour == 5:
        return _("gold is never taken: it comes with a reserve (R9)")
    name = _(COLOUR_NAMES[colour])
    bank = view.bank
    if bank[colour] == 0:
        return _("no {name} left in the bank", name=name)
    if colour in picked:
        if len(picked) > 1:
            return _("take 3 different colours, or 2 of one colour (R7, R8)")
        return _("only {bank} {name} left; taking two needs 4 (R8)", bank=bank[colour], name=name)
    if len(picked) >= 3:
        return _("3 gems at most (R7)")
    if len(picked) == 2 and picked[0] == picked[1]:
        return _("2 of one colour is a whole move (R8)")
    return _("not a legal take now")


# -- why a move is refused ------------------------------------------------------


def why_not(view: PlayerView, move: Move, names: Sequence[str] = ()) -> str:
    """A reason, in the player's words, that `move` is not among the view's legal moves."""
    if view.is_over:
        return _("the game is over")
    if view.seat is None:
        return _("you are watching this game")
    if not view.my_turn:
        who = (
            names[view.current_player]
            if view.current_player < len(names)
            else f"seat {view.current_player + 1}"
        )
        return _("it is {who}'s turn", who=who)
    return str(why_not_now(view, move))


def check(view: PlayerView, move: Move, names: Sequence[str] = ()) -> str | None:
    """None if `move` is legal in `view`, else the reason it is not."""
    if move in view.legal_moves:
        return None
    return why_not(view, move, names)


def buy_prompt(view: PlayerView, card_id: str) -> str:
    """What confirming a buy will cost, for the prompt line."""
    me = view.me
    assert me is not None
    pay = price(card_id, me)
    paid = letters(pay) or "nothing"
    return _("Buy {card_id} paying {paid}?", card_id=card_id, paid=paid)


def reserve_prompt(view: PlayerView, move: Reserve | ReserveDeck) -> str:
    gold = _(" and take 1 gold") if view.bank[5] > 0 else _(" (no gold left)")
    what = (
        move.card
        if isinstance(move, Reserve)
        else _("the top card of the level {level} deck", level=move.level)
    )
    return _("Reserve {what}{gold}?", what=what, gold=gold)


def card_summary(card_id: str, me: PlayerInfo | None, brief: bool = False) -> str:
    """One line about a card for the prompt: colour, prestige, cost and what is missing
    (`brief`: without what the gold covers)."""
    c = card(card_id)
    points = f", {c.prestige}★" if c.prestige else ""
    colour = f"{_(COLOUR_NAMES[c.colour])} ({COLOURS[c.colour]})"
    text = _(
        "{card_id}: {colour} bonus{points}, costs {cost_text}",
        card_id=card_id,
        colour=colour,
        points=points,
        cost_text=c.cost_text(),
    )
    if me is None:
        return text
    return text + " — " + your_need(card_id, me, brief)


def your_need(card_id: str, me: PlayerInfo, brief: bool = False) -> str:
    """What the player needs for a card: "you can buy it", "you can buy it with 2 gold",
    "you need 1W 2G more (your 1 gold covers 1)" (`brief`: without the gold's part)."""
    short = shortfall(card_id, me)
    missing = sum(short)
    if missing == 0:
        return _("you can buy it")
    if missing <= me.tokens[5]:
        return ngettext("you can buy it with {n} gold", "you can buy it with {n} gold", missing)
    gold = me.tokens[5]
    covers = _(" (your {gold} gold covers {gold})", gold=gold) if gold and not brief else ""
    return _("you need {letters} more{covers}", letters=letters(short), covers=covers)
