"""The results in words: how the game ended (R15, R18) and how ties were broken (R17).

The table shows them at the end of the game above its move log, next to each
player's rank and points (`client.faces.breakdown`).
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.i18n import _, ngettext
from shared.protocol import RatingChange
from shared.view import PlayerView

from ..faces import winners_text
from ..model import Seat


def tie_notes(view: PlayerView, names: Sequence[str]) -> list[str]:
    """One sentence per group of players tied on prestige, saying how R17 ranked them."""
    assert view.outcome is not None
    scores = view.outcome.scores
    notes = []
    for score in sorted(set(scores), reverse=True):
        tied = [s for s in range(view.num_players) if scores[s] == score]
        if len(tied) < 2:
            continue
        tied.sort(key=lambda s: view.players[s].cards_bought)
        who = _join([names[s] for s in tied])
        cards = [view.players[s].cards_bought for s in tied]
        if len(set(cards)) == 1:
            notes.append(
                _(
                    "{who} tie on {score} prestige and {cards} bought: they share rank "
                    "{ranks} (R17).",
                    who=who,
                    score=score,
                    cards=ngettext("{n} card", "{n} cards", cards[0]),
                    ranks=view.outcome.ranks[tied[0]],
                )
            )
        else:
            counts = ", ".join(f"{names[s]} {view.players[s].cards_bought}" for s in tied)
            notes.append(
                _(
                    "{who} tie on {score} prestige: fewer cards bought ranks higher "
                    "({counts}) (R17).",
                    who=who,
                    score=score,
                    counts=counts,
                )
            )
    return notes


def end_note(view: PlayerView, names: Sequence[str]) -> str:
    """How the game ended: the final round (R15) or a round of passes (R18)."""
    assert view.outcome is not None
    target = view.target  # the game's (`shared.settings`)
    reached = [names[s] for s in range(view.num_players) if view.outcome.scores[s] >= target]
    if reached:
        return _(
            "{names} reached {target} prestige; the round was played out so "
            "everyone had {round} turns (R15).",
            names=_join(reached),
            target=target,
            round=view.round,
        )
    return _("Nobody could act for a whole round, so the game ended as it stood (R18).")


def _join(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def ratings_note(seats: Sequence[Seat], ratings: Sequence[RatingChange | None]) -> str:
    """ "Ratings: Ann 1512 (+14) · Hard bot 2 1620 (−3)": the rated seats after the game."""
    parts = [
        f"{seat.name} {r.shown} ({'+' if r.change >= 0 else '−'}{abs(r.change)})"
        for seat, r in zip(seats, ratings, strict=False)
        if r is not None
    ]
    return _("Ratings: ") + " · ".join(parts) if parts else ""


def results_notes(
    view: PlayerView,
    seats: Sequence[Seat],
    seed: int | None,
    ratings: Sequence[RatingChange | None] = (),
) -> tuple[tuple[str, str], ...]:
    """The lines above the move log at the end of a game: who won, the seed (a replay is
    seed and moves), the ratings after a rated game, how it ended (R15, R18), how ties
    were broken (R17)."""
    names = [s.name for s in seats]
    shown = _(" · seed {seed}", seed=seed) if seed is not None else ""
    title = _(
        "Game over — {winners_text}{shown}", winners_text=winners_text(view, seats), shown=shown
    )
    rated = ratings_note(seats, ratings)
    notes = [*([rated] if rated else []), end_note(view, names), *tie_notes(view, names)]
    return ((title, "bold #ffd23f"), *((n, "") for n in notes))
