"""What the prompt line says about a card, a noble, a player, a move waiting for Enter or
the R13 return (pure, no Textual): the table screen picks one by where the cursor is."""

from __future__ import annotations

from collections.abc import Sequence

from shared.cards import COLOUR_NAMES, LETTERS, NOBLE_BY_ID
from shared.i18n import _, ngettext
from shared.moves import Buy, Move, Reserve, ReserveDeck
from shared.view import PlayerInfo, PlayerView

from . import model
from .faces import holder, order
from .widgets.tiles import DECK, CardFace


def card_text(
    view: PlayerView,
    names: Sequence[str],
    card_id: str,
    me: PlayerInfo | None,
    brief: bool = False,
) -> str:
    """A card; one another player reserved says first what they still need for it (its
    face shows beside your hand). `brief`: without what your gold covers."""
    seat = holder(view, card_id)
    if seat is None or seat == view.seat:
        return model.card_summary(card_id, me, brief)
    owner = view.players[seat]
    short = model.shortfall(card_id, owner)
    lacks = (
        _("can buy it")
        if sum(short) <= owner.tokens[5]
        else _("needs {letters}", letters=model.letters(short))
    )
    text = _(
        "{card_id}, reserved by {names}, who {lacks}",
        card_id=card_id,
        names=names[seat],
        lacks=lacks,
    )
    return text if me is None else f"{text} · {model.your_need(card_id, me, brief=True)}"


def noble_text(view: PlayerView, names: Sequence[str], nid: str) -> str:
    """A noble: what it asks, and what each player, in playing order, still lacks (R14)."""
    need = NOBLE_BY_ID[nid].requires
    parts = []
    for s in order(view):
        who = _("you") if s == view.seat else names[s]
        lacks = model.noble_lacks(need, view.players[s])
        parts.append(f"{who} {model.letters(lacks) or '✓'}")
    return _("{noble_asks} · to go: ", noble_asks=_noble_asks(nid)) + ", ".join(parts)


def noble_short(view: PlayerView, nid: str) -> str:
    """A noble in fewer cells: what it asks and what you lack for it (each player's panel
    says what they lack, R14)."""
    need = NOBLE_BY_ID[nid].requires
    head = _noble_asks(nid)
    if view.me is None:
        return head
    lacks = model.letters(model.noble_lacks(need, view.me))
    return (
        _("{head} · you lack {lacks}", head=head, lacks=lacks)
        if lacks
        else _("{head} · you have them", head=head)
    )


def _noble_asks(nid: str) -> str:
    return _(
        "{nid} asks {letters} in bonuses (3★, R14)",
        nid=nid,
        letters=model.letters(NOBLE_BY_ID[nid].requires),
    )


def player_text(
    view: PlayerView, names: Sequence[str], seat: int, item: int, me: PlayerInfo | None
) -> str:
    """A player's reserved card `item`, or the player when they hold none."""
    p = view.players[seat]
    name = _("you") if seat == view.seat else names[seat]
    if item < len(p.reserved):
        r = p.reserved[item]
        if r.card is not None:
            return card_text(view, names, r.card, me)
        return _(
            "{name}: a blind level {level} reserve (only its owner knows it, R9)",
            name=name,
            level=r.level,
        )
    tokens = model.letters(p.tokens) or _("no tokens")
    return _(
        "{name}: {prestige}★, {tokens} ({token_count} tokens), {cards_bought} "
        "cards, no reserved card",
        name=name,
        prestige=p.prestige,
        tokens=tokens,
        token_count=p.token_count,
        cards_bought=p.cards_bought,
    )


def return_text(view: PlayerView, giving: Sequence[int]) -> str:
    """The R13 choice so far: how many go back, those chosen, what the player keeps."""
    assert view.me is not None
    excess = view.me.token_count - 10
    left = excess - len(giving)
    chosen = " ".join(LETTERS[c] for c in sorted(giving)) or _("nothing yet")
    keep = model.letters(model.kept(view.me.tokens, giving))
    more = ngettext("{n} more", "{n} more", left) if left else _("Enter returns them")
    return _(
        "Give back {excess} (R13): {chosen} · {more} · you keep {keep}",
        excess=excess,
        chosen=chosen,
        more=more,
        keep=keep,
    )


def pending_text(view: PlayerView, move: Move) -> str:
    """A move waiting for Enter, as a question."""
    if isinstance(move, Buy):
        return model.buy_prompt(view, move.card)
    if isinstance(move, Reserve | ReserveDeck):
        return model.reserve_prompt(view, move)
    return f"{str(move).capitalize()}?"


def pile_text(view: PlayerView, colour: int) -> str:
    """A bank pile: how many are left, how many you hold."""
    held = "" if view.me is None else _("; you hold {tokens}", tokens=view.me.tokens[colour])
    name = f"{_(COLOUR_NAMES[colour])} ({LETTERS[colour]})"
    return _("{name}: {bank} in the bank{held}", name=name, bank=view.bank[colour], held=held)


def slot_text(face: CardFace, mine: bool) -> str:
    """A deck, an empty slot, or an empty place for your reserved cards."""
    if face.kind == DECK:
        return _(
            "level {level} deck: {count} cards · r reserves its top card blind",
            level=face.level,
            count=face.count,
        )
    return _("your reserved cards show here (3 at most)") if mine else _("an empty slot")
