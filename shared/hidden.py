"""What a seat may know of a position: the one function that decides hidden information
(docs/design.md), which `GameState.view` calls. Decks are sizes; another seat's blind
reserve is its level alone (R9)."""

from __future__ import annotations

from .cards import CARDS, NOBLES
from .moves import Move
from .position import Position
from .view import PlayerInfo, PlayerView, ReservedCard, last_turn


def view_of(
    position: Position, seat: int | None, *, reveal: bool, legal: tuple[Move, ...]
) -> PlayerView:
    """`position` as `seat` sees it (None: a spectator), with `legal`, the moves the view
    lists (only the seat whose decision it is gets any). `reveal` names every blind
    reserve (the replay of a game that is over, whose record names every card)."""
    p = position
    if seat is not None and not 0 <= seat < p.num_players:
        raise ValueError(f"no seat {seat} in a {p.num_players}-player game")
    players = []
    for s in range(p.num_players):
        reserved = tuple(
            ReservedCard(
                level=CARDS[idx].level,
                card=None if blind and s != seat and not reveal else CARDS[idx].id,
                blind=blind,
            )
            for idx, blind in p.reserved[s]
        )
        players.append(
            PlayerInfo(
                seat=s,
                tokens=p.tokens[s],
                bonuses=p.bonuses[s],
                prestige=p.prestige(s),
                bought=tuple(CARDS[i].id for i in p.bought[s]),
                nobles=tuple(NOBLES[i].id for i in p.player_nobles[s]),
                reserved=reserved,
                last_turn=last_turn(p.last_turns[s]),
            )
        )
    return PlayerView(
        seat=seat,
        num_players=p.num_players,
        bank=p.bank,
        board=tuple(tuple(None if i < 0 else CARDS[i].id for i in row) for row in p.board),
        deck_sizes=tuple(len(d) for d in p.decks),
        nobles=tuple(NOBLES[i].id for i in p.nobles),
        players=tuple(players),
        current_player=p.current_player,
        starting_player=p.starting_player,
        phase=p.phase,
        turn=p.turn,
        final_round=p.final_round,
        is_over=p.is_over,
        outcome=p.outcome(),
        legal_moves=legal,
        target=p.target,
    )
