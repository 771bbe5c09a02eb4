"""From a `PlayerView` to what each widget of the table shows (pure, no Textual).

The cursor's rows on the board run top to bottom: the nobles, level 3, level 2,
level 1 (each with its deck first), the bank, the viewer's reserved cards.
Players are listed in playing order from the one who starts each round (R6), so a
round always starts at the top of their column.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from shared.cards import NOBLE_BY_ID, card
from shared.i18n import N_, _, ngettext
from shared.moves import Move, ReserveDeck
from shared.settings import target_text
from shared.view import PlayerInfo, PlayerView

from .describe import last_mover, short_turn, whole_turn
from .model import Seat, letters, noble_lacks, price, short_name, shortfall
from .widgets.board import BANK_ROW, MINE_ROW, NOBLE_ROW, NobleFace
from .widgets.movelog import decorated
from .widgets.players import PlayerFace
from .widgets.tiles import CARD, DECK, EMPTY, CardFace, PileFace

__all__ = ["BANK_ROW", "LEVEL_ROWS", "MINE_ROW", "NOBLE_ROW", "level_row", "row_lengths"]

LEVEL_ROWS = (3, 2, 1)  # the card rows, top to bottom (cursor rows 1 to 3)


def level_row(level: int) -> int:
    """The cursor row of a level's cards (and its deck)."""
    return 1 + LEVEL_ROWS.index(level)


def row_lengths(view: PlayerView) -> tuple[int, ...]:
    """How many squares each cursor row has: nobles, three card rows, bank, hand."""
    return (len(view.nobles), 5, 5, 5, 6, 3)


def card_face(
    view: PlayerView,
    card_id: str,
    fresh: bool = False,
    me: PlayerInfo | None = None,
    look: bool = False,
) -> CardFace:
    """A card as the viewer sees it: with what they still need (`me` overrides the tokens
    they hold, e.g. while choosing what to give back, R13)."""
    me = me or view.me
    if me is None:
        return CardFace(CARD, card_id, fresh=fresh, look=look)
    short = shortfall(card_id, me)
    affordable = sum(short) <= me.tokens[5]
    return CardFace(
        CARD,
        card_id,
        need=short,
        gold=sum(short) if affordable else 0,
        affordable=affordable,
        fresh=fresh,
        pay=(letters(price(card_id, me)) or "nothing") if affordable else "",
        look=look,
    )


def board_faces(
    view: PlayerView, previous: PlayerView | None, me: PlayerInfo | None = None
) -> tuple[tuple[CardFace, ...], ...]:
    """Per card row: the deck, then the four slots."""
    before = set() if previous is None else {c for row in previous.board for c in row}
    rows = []
    for level in LEVEL_ROWS:
        row = [CardFace(DECK, level=level, count=view.deck_sizes[level - 1])]
        for cid in view.board[level - 1]:
            if cid is None:
                row.append(CardFace(EMPTY, label=_("empty")))
            else:
                fresh = previous is not None and cid not in before
                row.append(card_face(view, cid, fresh, me))
        rows.append(tuple(row))
    return tuple(rows)


def noble_faces(view: PlayerView) -> tuple[NobleFace, ...]:
    """The nobles in table order, with what the viewer lacks for each."""
    me = view.me
    return tuple(
        NobleFace(
            nid,
            NOBLE_BY_ID[nid].requires,
            None if me is None else noble_lacks(NOBLE_BY_ID[nid].requires, me),
        )
        for nid in view.nobles
    )


def bank_faces(
    view: PlayerView, picked: Sequence[int], given: Sequence[int] = ()
) -> tuple[PileFace, ...]:
    """The bank's piles, with the gems being picked (+) or given back (-, R13)."""
    return tuple(
        PileFace(c, view.bank[c], list(picked).count(c) - list(given).count(c)) for c in range(6)
    )


def mine_faces(view: PlayerView, me: PlayerInfo | None = None) -> tuple[CardFace, ...]:
    """The viewer's three reserve slots."""
    me = me or view.me
    faces = []
    for i in range(3):
        if me is None or i >= len(me.reserved) or me.reserved[i].card is None:
            faces.append(CardFace(EMPTY, label=_("(empty)") if i == 0 else ""))
        else:
            cid = me.reserved[i].card
            assert cid is not None
            faces.append(card_face(view, cid, me=me))
    return tuple(faces)


def order(view: PlayerView) -> list[int]:
    """The seats in playing order, from the one who starts each round (R6)."""
    n = view.num_players
    return [(view.starting_player + i) % n for i in range(n)]


def player_faces(view: PlayerView, seats: Sequence[Seat]) -> tuple[PlayerFace, ...]:
    """The players' panels, in playing order."""
    mover = last_mover(view)
    outcome = view.outcome
    faces = []
    for s in order(view):
        p = view.players[s]
        seat = seats[s] if s < len(seats) else Seat(_("Seat {seat}", seat=s + 1))
        me = s == view.seat
        nobles = sorted(
            ((nid, noble_lacks(NOBLE_BY_ID[nid].requires, p)) for nid in view.nobles),
            key=lambda item: (sum(item[1]), view.nobles.index(item[0])),
        )
        needs = tuple(None if r.card is None else shortfall(r.card, p) for r in p.reserved)
        last = p.last_turn
        faces.append(
            PlayerFace(
                info=p,
                name=seat.name,
                short=short_name(seat, s),
                bot=seat.bot,
                connected=seat.connected,
                me=me,
                current=s == view.current_player and not view.is_over,
                last_mover=s == mover,
                first=s == view.starting_player,
                last_text="" if last is None else _("last: ") + whole_turn(last),
                last_short="" if last is None else _("last: ") + short_turn(last),
                nobles=tuple(nobles),
                reserve_needs=needs,
                rank=0 if outcome is None else outcome.ranks[s],
                result="" if outcome is None else breakdown(p),
                standin=seat.standin is not None,
            )
        )
    return tuple(faces)


def breakdown(p: PlayerInfo) -> str:
    """Where a player's prestige comes from (R16): "15★ = 12 from 18 cards + 3 from N7"."""
    from_cards = p.prestige - 3 * len(p.nobles)
    text = _(
        "{prestige}★ = {from_cards} from {cards_bought} cards",
        prestige=p.prestige,
        from_cards=from_cards,
        cards_bought=p.cards_bought,
    )
    if p.nobles:
        text += _(" + {points} from {nobles}", points=3 * len(p.nobles), nobles=" ".join(p.nobles))
    return text


def status_text(
    view: PlayerView,
    seats: Sequence[Seat],
    width: int = 80,
    onlooker: str = N_("watching"),
    ended: str = "",
) -> Text:
    """The top line: a game's target when it is not the rules' 15 (R15), round and turn,
    whose turn it is, the final round flag (R15); for a view of no seat, what the viewer
    does (`onlooker`: watching, replay); `ended`: why a game that is not over ended all
    the same (abandoned)."""
    name = seats[view.current_player].name if view.current_player < len(seats) else "?"
    out = Text()
    out.append(_("◆ Splendor "), style="bold #ffd23f")
    if longer := target_text(view.target):
        out.append(longer, style="bold #ffd23f")
        out.append(" · ")
    out.append(_("round {round} · turn {turn} · ", round=view.round, turn=view.turn))
    if view.is_over:
        out.append(_("game over"), style="bold")
        out.append(f" · {winners_text(view, seats)}")
    elif ended:
        out.append(ended, style="bold")
    elif view.my_turn and view.seat is not None and seats[view.seat].standin:
        out.append(
            _("a {standin} bot plays for you", standin=seats[view.seat].standin), style="bold"
        )
    elif view.my_turn and view.phase == "return":
        excess = sum(view.players[view.current_player].tokens) - 10
        out.append(
            ngettext(
                "your turn: return {n} token (R13)", "your turn: return {n} tokens (R13)", excess
            ),
            "bold #5fdc7f",
        )
    elif view.my_turn:
        out.append(_("your turn"), style="bold #5fdc7f")
    elif view.phase == "return":
        out.append(_("{name} returns tokens (R13)", name=name), style="bold")
    else:
        out.append(_("{name} to play", name=name), style="bold")
    if view.final_round and not view.is_over and not ended:
        out.append(_("  FINAL ROUND"), style="bold #ffffff on #a02020")
    if view.seat is None:
        out.append(f"  ({_(onlooker)})", style="italic")
    return out


def winners_text(view: PlayerView, seats: Sequence[Seat]) -> str:
    """ "You win!", "Ann wins", "Ann and Bob share the win" (R17)."""
    assert view.outcome is not None
    winners = [seats[s].name for s in view.outcome.winners]
    if view.seat is not None and view.seat in view.outcome.winners:
        return _("You win!") if len(winners) == 1 else _("You share the win!")
    if len(winners) == 1:
        return _("{name} wins", name=winners[0])
    return _("{names} and {last} share the win", names=", ".join(winners[:-1]), last=winners[-1])


def winning_move(view: PlayerView, seats: Sequence[Seat]) -> str:
    """The winner's last turn, which brought them their final score."""
    assert view.outcome is not None
    s = view.outcome.winners[0]
    last = view.players[s].last_turn
    if last is None:
        return ""
    return _(
        "Winning move: {name} {decorated}",
        name=seats[s].name,
        decorated=decorated(whole_turn(last)),
    )


def board_step(view: PlayerView, at: tuple[int, int], dr: int, dc: int) -> tuple[int, int]:
    """The board square `dr` rows, `dc` columns from `at` (rows wrap, skipping empty ones
    and, for a spectator, the hand; columns wrap within a row)."""
    lengths = row_lengths(view)
    r, c = at
    if dr:
        for _ in range(len(lengths)):
            r = (r + dr) % len(lengths)
            if lengths[r] and not (r == MINE_ROW and view.seat is None):
                break
        return r, min(c, lengths[r] - 1)
    return r, (c + dc) % lengths[r]


def player_step(view: PlayerView, at: tuple[int, int], dr: int, dc: int) -> tuple[int, int]:
    """Among the players (in playing order): up and down a panel, left and right along
    its reserved cards."""
    i, j = at
    if dr:
        i = (i + dr) % view.num_players
    items = max(1, len(view.players[order(view)[i]].reserved))
    return i, (min(j, items - 1) if dr else (j + dc) % items)


def first_row_col(view: PlayerView) -> tuple[int, int]:
    """Where the cursor starts: on the first card the viewer can buy, else level 1's first
    card."""
    me = view.me
    if me is not None:
        for level in LEVEL_ROWS:
            for col, cid in enumerate(view.board[level - 1]):
                if cid is not None and sum(shortfall(cid, me)) <= me.tokens[5]:
                    return level_row(level), col + 1
    return level_row(1), 1


def square_of(view: PlayerView, move: Move) -> tuple[int, int] | None:
    """The board square a move acts on (a card, a deck, one of your reserves), if any."""
    if isinstance(move, ReserveDeck):
        return level_row(move.level), 0
    cid = getattr(move, "card", None)
    for level in LEVEL_ROWS:
        if cid in view.board[level - 1]:
            return level_row(level), view.board[level - 1].index(cid) + 1
    me = view.me
    if me is not None and cid is not None:
        for i, r in enumerate(me.reserved):
            if r.card == cid:
                return MINE_ROW, i
    return None


def holder(view: PlayerView, card_id: str) -> int | None:
    """The seat holding `card_id` in reserve, if anyone visibly does."""
    for p in view.players:
        if any(r.card == card_id for r in p.reserved):
            return p.seat
    return None


def card_id(text: str) -> str | None:
    """The card id `text` names, if it is one (``1-7`` is ``1-07``)."""
    try:
        return card(text.strip()).id
    except (KeyError, ValueError, IndexError):
        return None
