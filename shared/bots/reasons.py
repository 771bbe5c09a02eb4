"""Why a move, in one line: for the hint key and for logs (`shared.bots.explain`).

`said` says what a move does for the player deciding, from a deal consistent
with that player's view (`Determinizer.sample_without_decks`: nothing hidden is
read): "buys 2-14: 3 points, a blue bonus, and N4 is 1 card away", "takes W U G toward
2-07 (2 points): then 1 gem short", "reserves 3-04 (4 points) with a gold, which seat 2
could buy". Each line is a marked message (`L_`, issue 34) that the client shows in its
reader's language; `describe` is its English, for logs. Each level adds how it chose
(`Decision.why`).
"""

from __future__ import annotations

from ..cards import CARDS, COLOUR_NAMES, NOBLES
from ..i18n import L_, N_, Ln_, Text
from ..moves import Buy, Move, Pass, Reserve, ReserveDeck, Return, Take
from ..state import GameState
from ..tables import PRESTIGE, shortfall_of
from ..view import PlayerView
from .policy import ranked_targets


def points(n: int) -> Text:
    return Ln_("{n} point", "{n} points", n)


def forced(view: PlayerView, move: Move) -> Text:
    """The line for a move that was the only one worth playing."""
    if isinstance(move, Pass):
        return L_("passes: no other move is possible (R12)")
    if len(view.legal_moves) == 1:
        return L_("{move}: the only legal move", move=str(move))
    return L_(
        "{move}: the only move that changes anything (the others undo or stall)", move=str(move)
    )


def why_forced(view: PlayerView, move: Move) -> str:
    """`forced` in English (logs)."""
    return forced(view, move).english()


def describe(state: GameState, move: Move) -> str:
    """`said` in English (logs)."""
    return said(state, move).english()


def said(state: GameState, move: Move) -> Text:
    """What `move` does for the player to move in `state` (a deal without decks)."""
    p = state.current_player
    if isinstance(move, Pass):
        return L_("passes: no other move is possible (R12)")
    if isinstance(move, ReserveDeck):
        if state.bank[5]:
            return L_("reserves the top of deck {level} blind with a gold (R9)", level=move.level)
        return L_("reserves the top of deck {level} blind (no gold left) (R9)", level=move.level)
    after = state.apply_unchecked(move)
    if isinstance(move, Buy):
        return _buy(state, after, move)
    if isinstance(move, Reserve):
        return _reserve(state, move)
    target = _target(after, p)
    if isinstance(move, Return):
        tokens = str(move)[len("return ") :]
        if target >= 0:
            return L_(
                "gives back {tokens} to hold 10 (R13): keeps what {card} needs",
                tokens=tokens,
                card=CARDS[target].id,
            )
        return L_("gives back {tokens} to hold 10 (R13)", tokens=tokens)
    assert isinstance(move, Take)
    tokens = str(move)[len("take ") :]
    if target < 0:
        return L_("takes {tokens}", tokens=tokens)
    short = shortfall_of(target, after.bonuses[p], after.tokens[p])
    card, worth = CARDS[target].id, points(PRESTIGE[target])
    if short == 0:
        return L_(
            "takes {tokens} toward {card} ({points}): then it can buy it",
            tokens=tokens,
            card=card,
            points=worth,
        )
    return L_(
        "takes {tokens} toward {card} ({points}): then {gems} short",
        tokens=tokens,
        card=card,
        points=worth,
        gems=Ln_("{n} gem", "{n} gems", short),
    )


def _target(state: GameState, p: int) -> int:
    """The card p is most likely gathering for (`policy.ranked_targets`), or -1."""
    ranked = ranked_targets(state, p)
    return ranked[0][2] if ranked else -1


# A buy's line: [noble part][ending]; whole sentences, so that each language words each.
_BUYS = {
    ("", ""): N_("buys {card}: {points}, a {colour} bonus"),
    ("visit", ""): N_(
        "buys {card}: {points}, a {colour} bonus, and {noble} visits (3 points, R14)"
    ),
    ("near", ""): N_("buys {card}: {points}, a {colour} bonus, and {near}"),
    ("", "win"): N_("buys {card}: {points}, a {colour} bonus; it wins the game"),
    ("visit", "win"): N_(
        "buys {card}: {points}, a {colour} bonus, and {noble} visits (3 points, R14); "
        "it wins the game"
    ),
    ("near", "win"): N_("buys {card}: {points}, a {colour} bonus, and {near}; it wins the game"),
    ("", "final"): N_(
        "buys {card}: {points}, a {colour} bonus; {total} points start the final round (R15)"
    ),
    ("visit", "final"): N_(
        "buys {card}: {points}, a {colour} bonus, and {noble} visits (3 points, R14); "
        "{total} points start the final round (R15)"
    ),
    ("near", "final"): N_(
        "buys {card}: {points}, a {colour} bonus, and {near}; "
        "{total} points start the final round (R15)"
    ),
}


def _buy(before: GameState, after: GameState, move: Buy) -> Text:
    p = before.current_player
    card = CARDS[move.index]
    fields: dict[str, object] = {
        "card": card.id,
        "points": points(card.prestige) if card.prestige else L_("no points"),
        "colour": L_(COLOUR_NAMES[card.colour]),
    }
    noble = ""
    new_nobles = after.player_nobles[p][len(before.player_nobles[p]) :]
    if new_nobles:
        noble, fields["noble"] = "visit", NOBLES[new_nobles[0]].id
    else:
        near = _nearest_noble(after, p, card.colour)
        if near is not None:
            noble, fields["near"] = "near", near
    ending = ""
    outcome = after.outcome() if after.is_over else None
    if outcome is not None and p in outcome.winners:
        ending = "win"
    elif after.final_round and not before.final_round:
        ending, fields["total"] = "final", after.prestige(p)
    return L_(_BUYS[noble, ending], **fields)


def _nearest_noble(state: GameState, p: int, colour: int) -> Text | None:
    """How close the nobles that `colour` helps toward are, for p (R14): the closest one."""
    bonus = state.bonuses[p]
    best: tuple[int, str] | None = None
    for n in state.nobles:
        need = NOBLES[n].requires
        if need[colour] == 0:
            continue
        missing = sum(max(0, need[c] - bonus[c]) for c in range(5))
        if best is None or missing < best[0]:
            best = (missing, NOBLES[n].id)
    if best is None or best[0] > 3:
        return None
    missing, noble = best
    if missing == 0:
        return L_("{noble} needs no more cards", noble=noble)
    return Ln_("{noble} is {n} card away", "{noble} is {n} cards away", missing, noble=noble)


def _reserve(state: GameState, move: Reserve) -> Text:
    p = state.current_player
    worth = points(PRESTIGE[move.index])
    rivals = [
        q
        for q in range(state.num_players)
        if q != p and shortfall_of(move.index, state.bonuses[q], state.tokens[q]) == 0
    ]
    # seats numbered from 1, as the table names them ("Medium bot 2")
    if state.bank[5]:
        if rivals:
            return L_(
                "reserves {card} ({points}) with a gold, which seat {seat} could buy",
                card=str(move.card),
                points=worth,
                seat=rivals[0] + 1,
            )
        return L_("reserves {card} ({points}) with a gold", card=str(move.card), points=worth)
    if rivals:
        return L_(
            "reserves {card} ({points}) (no gold left), which seat {seat} could buy",
            card=str(move.card),
            points=worth,
            seat=rivals[0] + 1,
        )
    return L_("reserves {card} ({points}) (no gold left)", card=str(move.card), points=worth)
