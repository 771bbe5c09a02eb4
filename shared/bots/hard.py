"""The hard level: determinized Monte Carlo tree search guided by the heuristic.

Each iteration deals the cards this seat cannot see at random, consistently
with its view (`Determinizer`), and walks one shared tree (single-observer
information-set MCTS): at every node only the moves legal in this deal are
candidates, chosen by PUCT with priors. Near the root the priors are one-ply
values (the medium level's judgement, with the hard level's weights); deeper,
they favour what the fast greedy policy would play. From a new leaf a short
greedy playout runs, and the position it reaches is scored by the heuristic,
turned into win shares by a softmax over the players (a finished game scores
its real result, R16, R17). Each player maximises their own share (max^n), so
the search works for 2 to 4 players. At the root it leaves out the moves not worth
a search (`root_moves`), among them the reserves that neither deny a buy nor pay
for one next turn: idle reserving is what made its games long (docs/bots.md). At 2
players most of the root's prior goes to the first move of a solo race planner's
quickest line to the game's target (`race`): it plans further ahead than the search sees,
and the search still decides.

Its strength is a fixed iteration count per player count (`ITERATIONS`), about a
second of CPU on the reference machine (README, "Play offline"); a deadline only
cuts it short, and then the move is the best found so far. The move played is
the root's most visited; the same view, seed and iterations give the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import L_, N_, Text
from ..moves import Buy, Move, Reserve, ReserveDeck, Return, Take
from ..state import GameState
from ..tables import LANE, SHIFT, shortfalls
from ..view import PlayerView
from .base import Budget, Decision
from .determinize import Determinizer
from .heuristic import SEARCH, Weights, player_score
from .medium import score_moves
from .policy import fast_move, worth_a_look
from .race import RACE, RaceConfig, race_move
from .reasons import forced, said

# Iterations per move by player count: about 1 s of CPU each on the reference machine
# (2 cores, Python 3.11; bench/bots.py prints the think time). More players cost more
# per iteration (each leaf scores every player).
ITERATIONS: dict[int, int] = {2: 4000, 3: 3200, 4: 2600}
ONE_KEPT = N_("the only move it weighs: the others undo, stall or reserve idly")
_SAFETY = 0.01  # seconds kept back from a deadline for the final choice and the reply
# A deadline: the race planner (30 to 40 ms) runs only with this much time left, and
# then for at most a quarter of it, the rest kept for the search.
_RACE_TIME = 0.05


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's knobs."""

    c_puct: float = 1.5  # exploration against exploitation
    prior_temperature: float = 0.5  # one-ply priors: points of value per e-fold
    eval_prior_depth: int = 2  # nodes this deep (root = 0) get one-ply priors, deeper cheap ones
    policy_prior: float = 0.5  # deeper nodes: the greedy move's share of the prior
    playout_plies: int = 4  # greedy plies after a new leaf, before scoring
    sharpness: float = 1.0  # per point of heuristic lead, in the win-share softmax
    fpu: float = 0.1  # an untried move starts this far below its siblings' mean
    weights: Weights = SEARCH
    # The root's prior share given to the solo race planner's move (`race`), by player
    # count; the rest follows the one-ply values. Measured at 2 players only.
    race_prior: tuple[tuple[int, float], ...] = ((2, 0.8),)
    race: RaceConfig = RACE


CONFIG = SearchConfig()

# Cheap priors by the move's class; a pass (the only move when it is legal, R12) gets 1.
_KIND_PRIOR: dict[type[Move], float] = {
    Take: 1.0,
    Reserve: 0.4,
    ReserveDeck: 0.15,
    Buy: 3.0,
    Return: 1.0,
}


class _Node:
    """A node of the shared tree: statistics of the move that leads to it. Children are
    keyed by the id of their move (moves are interned, shared.moves)."""

    __slots__ = ("mover", "prior", "visits", "total", "kid_total", "children", "expanded")

    def __init__(self, mover: int, prior: float) -> None:
        self.mover = mover  # who chose the move into this node
        self.prior = prior
        self.visits = 0
        self.total = 0.0  # the mover's summed win share
        self.kid_total = 0.0  # the children's, summed over the visits that went on to one
        self.children: dict[int, _Node] = {}
        self.expanded = False


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move, the root's (visits, mean win share) per move, the
    iterations run, the deal its one-ply priors were judged on, and the race planner's
    first move if it was asked and its plan starts with a move searched (`race`)."""

    move: Move
    stats: dict[Move, tuple[int, float]]
    iterations: int
    flat: GameState
    planned: Move | None = None


def win_shares(state: GameState, cfg: SearchConfig) -> list[float]:
    """Each player's share of a win: the real result if the game is over (R17 ties split),
    else a softmax of the heuristic scores."""
    n = state.num_players
    if state.is_over:
        outcome = state.outcome()
        assert outcome is not None
        winners = outcome.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    w = cfg.weights
    scores = [player_score(state, q, w) for q in range(n)]
    top = max(scores)
    sharp = cfg.sharpness
    exps = [math.exp(sharp * (x - top)) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _priors(
    state: GameState, moves: tuple[Move, ...], rng: random.Random, cfg: SearchConfig
) -> list[float]:
    """Cheap priors below the root: by move kind, with the greedy policy's move boosted."""
    raw = [_KIND_PRIOR.get(type(m), 1.0) for m in moves]
    total = sum(raw)
    favourite = fast_move(state, rng)
    share = cfg.policy_prior
    return [
        (1 - share) * r / total + (share if m is favourite else 0.0)
        for m, r in zip(moves, raw, strict=True)
    ]


def _softmax(values: list[float], temperature: float) -> list[float]:
    top = max(values)
    exps = [math.exp((v - top) / temperature) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def root_moves(view: PlayerView, state: GameState) -> tuple[Move, ...]:
    """The moves worth searching (`policy.worth_a_look`), of the reserves only those that
    deny or pay (`reserve_pays`)."""
    return worth_a_look(view, state, lambda m: reserve_pays(state, m))


def reserve_pays(state: GameState, move: Move) -> bool:
    """True for any move but a reserve. A reserve (R9) pays if it takes a card another
    player could buy now, or one the mover could buy next turn with the gold it brings
    (R10); a blind one never does. Idle reserves made games long (docs/bots.md)."""
    if isinstance(move, ReserveDeck):
        return False
    if not isinstance(move, Reserve):
        return True
    me = state.current_player
    for q in range(state.num_players):
        gold = state.tokens[q][5]
        if q == me:
            gold += 1 if state.bank[5] else 0
        short = shortfalls(state.bonuses[q], state.tokens[q]) >> SHIFT[move.index] & LANE
        if short <= gold:
            return True
    return False


def search(
    view: PlayerView,
    rng: random.Random,
    budget: Budget,
    cfg: SearchConfig = CONFIG,
    clock: Callable[[], float] = time.perf_counter,
) -> SearchResult:
    """Search from `view` for `budget.iterations` (None: `ITERATIONS`), stopping early at
    `budget.seconds` after the call as `clock` counts them; the best move found so far."""
    start = clock()
    if not view.legal_moves:
        raise ValueError("it is not this seat's decision")
    deadline = math.inf if budget.seconds is None else start + budget.seconds - _SAFETY
    iterations = budget.iterations or ITERATIONS[view.num_players]
    det = Determinizer(view)
    flat = det.sample_without_decks(rng)
    moves = root_moves(view, flat)
    if len(moves) == 1:
        return SearchResult(moves[0], {moves[0]: (0, 0.0)}, 0, flat)
    # The root's priors: one-ply values on a deal without decks, so that refills add no
    # noise (see `medium.best_move`); a blind reserve needs a deal with decks.
    deck_state = det.sample(rng) if any(isinstance(m, ReserveDeck) for m in moves) else flat
    values = score_moves(flat, deck_state, moves, cfg.weights)
    priors = _softmax(values, cfg.prior_temperature)
    share = dict(cfg.race_prior).get(view.num_players, 0.0)
    planned = None
    now = clock()
    if share and deadline - now > _RACE_TIME:
        planned = race_move(flat, moves, cfg.race, now + (deadline - now) / 4, clock)
        if planned is not None:
            priors = [
                (1 - share) * p + (share if m is planned else 0.0)
                for m, p in zip(moves, priors, strict=True)
            ]
    me = view.current_player
    root = _Node(mover=-1, prior=1.0)
    root.expanded = True
    for m, p in zip(moves, priors, strict=True):
        root.children[id(m)] = _Node(mover=me, prior=p)
    done = 0
    while done < iterations and clock() < deadline:
        _iterate(root, moves, det.sample(rng), rng, cfg)
        done += 1
    stats = {}
    for m in moves:
        c = root.children[id(m)]
        stats[m] = (c.visits, c.total / c.visits if c.visits else 0.0)
    order = {id(m): -i for i, m in enumerate(moves)}
    if done:
        best = max(moves, key=lambda m: (stats[m][0], stats[m][1], order[id(m)]))
    else:  # no time to search: the best one-ply value
        best = moves[max(range(len(moves)), key=lambda i: (values[i], -i))]
    return SearchResult(best, stats, done, flat, planned)


def _iterate(
    root: _Node,
    moves: tuple[Move, ...],
    state: GameState,
    rng: random.Random,
    cfg: SearchConfig,
) -> None:
    path = [root]
    node = root
    candidates: tuple[Move, ...] = moves
    depth = 0
    while True:
        if not node.expanded:
            node.expanded = True
            mover = state.current_player
            if depth <= cfg.eval_prior_depth and len(candidates) > 1:
                priors = _softmax(
                    score_moves(state, state, candidates, cfg.weights), cfg.prior_temperature
                )
            else:
                priors = _priors(state, candidates, rng, cfg)
            children = node.children
            for m, p in zip(candidates, priors, strict=True):
                children[id(m)] = _Node(mover=mover, prior=p)
        move = _select(node, candidates, state.current_player, cfg)
        state = state.apply_unchecked(move)
        node = node.children[id(move)]
        path.append(node)
        depth += 1
        if node.visits == 0 or state.is_over:
            break
        candidates = state.legal_moves()
    for _ in range(cfg.playout_plies):
        if state.is_over:
            break
        state = state.apply_unchecked(fast_move(state, rng))
    shares = win_shares(state, cfg)
    parent = root
    root.visits += 1
    for n in path[1:]:
        share = shares[n.mover]
        n.visits += 1
        n.total += share
        parent.kid_total += share
        parent = n


def _select(node: _Node, candidates: tuple[Move, ...], mover: int, cfg: SearchConfig) -> Move:
    """PUCT over the moves legal in this deal; an untried one starts at the mean share
    of its tried siblings less `cfg.fpu`."""
    children = node.children
    fpu = (node.kid_total / node.visits if node.visits else 0.5) - cfg.fpu
    scale = cfg.c_puct * math.sqrt(node.visits + 1)
    best = candidates[0]
    best_score = -1e9
    for m in candidates:
        child = children.get(id(m))
        if child is None:
            # legal in this deal only (a refill, a blind card): a child with a small prior
            child = children[id(m)] = _Node(mover=mover, prior=0.5 / (len(candidates) + 1))
        v = child.visits
        if v:
            score = child.total / v + scale * child.prior / (1 + v)
        else:
            score = fpu + scale * child.prior
        if score > best_score:
            best_score, best = score, m
    return best


class HardBot:
    """Determinized MCTS for `budget.iterations` (None: `ITERATIONS`), cut short by
    `budget.seconds` if it binds."""

    level = "hard"

    def __init__(
        self, config: SearchConfig = CONFIG, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.config = config
        self.clock = clock

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Move:
        return search(view, rng, budget, self.config, self.clock).move

    def decide(self, view: PlayerView, rng: random.Random, budget: Budget) -> Decision:
        found = search(view, rng, budget, self.config, self.clock)
        move = found.move
        if len(view.legal_moves) == 1:
            return Decision(move, forced(view, move))
        if len(found.stats) == 1:  # the root kept one move (`root_moves`)
            return Decision(
                move, L_("{what} ({how})", what=said(found.flat, move), how=L_(ONE_KEPT))
            )
        visits, share = found.stats[move]
        how: Text = L_("no time to search: its best value one move ahead")
        if found.iterations:
            counts = {"share": round(share * 100), "visits": visits, "total": found.iterations}
            how = L_("search: wins {share}% of its {visits} lines, of {total}", **counts)
            if move is found.planned:
                how = L_(
                    "search: wins {share}% of its {visits} lines, of {total}; "
                    "its race plan's first move",
                    **counts,
                )
        return Decision(move, L_("{what} ({how})", what=said(found.flat, move), how=how))
