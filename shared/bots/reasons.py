"""Why a move is sensible, in a sentence, from the mover's view alone (for hints).

A stand-in that every level shares: it reads the move against the view (what a
purchase brings, which card a take works toward, what a reserve secures). Each
level may later explain its own choice; `shared.bots.explain` keeps its signature.
"""

from __future__ import annotations

from ..cards import COLOUR_NAMES, LETTERS, NOBLE_BY_ID, card
from ..moves import Buy, Move, Reserve, ReserveDeck, Return, Take
from ..view import PlayerInfo, PlayerView


def _text(counts: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"{n}{LETTERS[c]}" for c, n in enumerate(counts) if n)


def lacks(card_id: str, me: PlayerInfo, tokens: tuple[int, ...] | None = None) -> list[int]:
    """Per colour, the tokens `me` lacks for `card_id` after bonuses (with `tokens` held)."""
    held = me.tokens if tokens is None else tokens
    cost = card(card_id).cost
    return [max(0, cost[c] - me.bonuses[c] - held[c]) for c in range(5)]


def _targets(view: PlayerView, me: PlayerInfo) -> list[str]:
    cards = [c for row in view.board for c in row if c is not None]
    return cards + [r.card for r in me.reserved if r.card is not None]


def _nearest(view: PlayerView, me: PlayerInfo, tokens: tuple[int, ...]) -> str | None:
    """The card closest to affordable with `tokens` held (gold counted), the best first."""
    cards = _targets(view, me)
    if not cards:
        return None

    def key(cid: str) -> tuple[int, int, str]:
        return (max(0, sum(lacks(cid, me, tokens)) - tokens[5]), -card(cid).prestige, cid)

    return min(cards, key=key)


def _noble_step(view: PlayerView, me: PlayerInfo, colour: int) -> str:
    """ ", and a step toward the noble N3" when a bonus of `colour` brings a noble closer."""
    for nid in view.nobles:
        need = NOBLE_BY_ID[nid].requires
        if need[colour] > me.bonuses[colour]:
            return f", a step toward the noble {nid}"
    return ""


def reason(view: PlayerView, move: Move) -> str:
    """Why `move` is worth playing for the player deciding in `view`."""
    me = view.players[view.current_player]
    if isinstance(move, Buy):
        c = card(move.card)
        gains = [f"{c.prestige} prestige"] if c.prestige else []
        gains.append(f"a {COLOUR_NAMES[c.colour]} bonus that makes later cards cheaper")
        return f"buying {c.id} brings {' and '.join(gains)}{_noble_step(view, me, c.colour)}"
    if isinstance(move, Take):
        after = tuple(me.tokens[c] + move.counts[c] for c in range(6))
        target = _nearest(view, me, after)
        if target is None:
            return "gems now keep every card within reach later"
        left = max(0, sum(lacks(target, me, after)) - after[5])
        still = _text(lacks(target, me, after))
        points = card(target).prestige
        goal = f"{target} ({points}★)" if points else target
        if left == 0:
            return f"with these gems, {goal} can be bought next turn"
        return f"these gems work toward {goal}, which would then lack {still}"
    if isinstance(move, Reserve):
        c = card(move.card)
        gold = " and a gold" if view.bank[5] else ""
        return (
            f"reserving {c.id} secures a {c.prestige}-prestige card{gold}; "
            f"nobody else can buy it now"
        )
    if isinstance(move, ReserveDeck):
        gold = "a gold and " if view.bank[5] else ""
        return f"a blind reserve takes {gold}a level {move.level} card nobody else will see"
    if isinstance(move, Return):
        kept = tuple(me.tokens[c] - move.counts[c] for c in range(6))
        target = _nearest(view, me, kept)
        kept_for = f"the tokens {target} needs" if target is not None else "the most useful tokens"
        return f"giving back {_text(move.counts)} keeps {kept_for}"
    return "no other move is possible now (R12)"
