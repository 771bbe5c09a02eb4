"""From a `PlayerView` to what each widget of the table shows (pure, no Textual).

Rows of the board run top to bottom: level 3, level 2, level 1, each with its
deck first; then the bank; then the viewer's reserved cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from shared.view import PlayerView

from .describe import action_text, last_mover
from .model import Seat, needs_text, shortfall
from .widgets.panels import PlayerFace
from .widgets.tiles import CARD, DECK, EMPTY, CardFace, PileFace

LEVEL_ROWS = (3, 2, 1)  # the board's rows, top to bottom
BANK_ROW, MINE_ROW = 3, 4
ROW_LENGTHS = (5, 5, 5, 6, 3)


def card_face(view: PlayerView, card_id: str, fresh: bool = False) -> CardFace:
    me = view.me
    if me is None:
        return CardFace(CARD, card_id, fresh=fresh)
    return CardFace(
        CARD,
        card_id,
        needs=needs_text(card_id, me),
        affordable=sum(shortfall(card_id, me)) <= me.tokens[5],
        fresh=fresh,
    )


def board_faces(view: PlayerView, previous: PlayerView | None) -> tuple[tuple[CardFace, ...], ...]:
    """Per board row: the deck, then the four slots."""
    before = set() if previous is None else {c for row in previous.board for c in row}
    rows = []
    for level in LEVEL_ROWS:
        row = [CardFace(DECK, level=level, count=view.deck_sizes[level - 1])]
        for cid in view.board[level - 1]:
            if cid is None:
                row.append(CardFace(EMPTY, label="empty"))
            else:
                row.append(card_face(view, cid, fresh=previous is not None and cid not in before))
        rows.append(tuple(row))
    return tuple(rows)


def bank_faces(view: PlayerView, picked: Sequence[int]) -> tuple[PileFace, ...]:
    return tuple(PileFace(c, view.bank[c], picked.count(c)) for c in range(6))


def mine_faces(view: PlayerView) -> tuple[CardFace, ...]:
    """The viewer's three reserve slots."""
    me = view.me
    faces = []
    for i in range(3):
        if me is None or i >= len(me.reserved) or me.reserved[i].card is None:
            faces.append(CardFace(EMPTY, label="(empty)" if i == 0 else ""))
        else:
            r = me.reserved[i]
            assert r.card is not None
            faces.append(card_face(view, r.card))
    return tuple(faces)


def player_faces(view: PlayerView, seats: Sequence[Seat]) -> list[PlayerFace]:
    mover = last_mover(view)
    faces = []
    for p in view.players:
        seat = seats[p.seat] if p.seat < len(seats) else Seat(f"Seat {p.seat + 1}")
        last = p.last_turn
        faces.append(
            PlayerFace(
                info=p,
                name=seat.name,
                bot=seat.bot,
                connected=seat.connected,
                me=p.seat == view.seat,
                current=p.seat == view.current_player and not view.is_over,
                last_mover=p.seat == mover,
                last_text=""
                if last is None
                else "last: " + action_text(last.action, last.took_gold),
            )
        )
    return faces


def status_text(view: PlayerView, seats: Sequence[Seat], width: int = 80) -> Text:
    """The top line: round and turn, whose turn it is, the final round flag (R15)."""
    name = seats[view.current_player].name if view.current_player < len(seats) else "?"
    out = Text()
    out.append("◆ Splendor ", style="bold #ffd23f")
    out.append(f"round {view.round} · turn {view.turn} · ")
    if view.is_over:
        out.append("game over", style="bold")
    elif view.my_turn and view.phase == "return":
        out.append("your turn: return tokens", style="bold #5fdc7f")
    elif view.my_turn:
        out.append("your turn", style="bold #5fdc7f")
    else:
        out.append(f"{name} to play", style="bold")
    if view.final_round and not view.is_over:
        out.append("  FINAL ROUND", style="bold #ffffff on #a02020")
    if view.seat is None:
        out.append("  (watching)", style="italic")
    return out


def first_row_col(view: PlayerView) -> tuple[int, int]:
    """Where the cursor starts: on the first card the viewer can buy, else the top left card."""
    me = view.me
    if me is not None:
        for r, level in enumerate(LEVEL_ROWS):
            for col, cid in enumerate(view.board[level - 1]):
                if cid is not None and sum(shortfall(cid, me)) <= me.tokens[5]:
                    return r, col + 1
    return 2, 1
