"""The hard level: determinized Monte Carlo tree search guided by the heuristic.

Each iteration deals the cards this seat cannot see at random, consistently
with its view (`Determinizer`), and walks one shared tree (single-observer
information-set MCTS): at every node only the moves legal in this deal are
candidates, chosen by PUCT with priors. In the first plies (the root, the
replies to it, and our next move) the priors are the medium level's one-ply
values, so the search starts from medium's judgement for both sides; deeper,
they favour what the fast greedy policy would play. From a new leaf a short
greedy playout runs, and the position it reaches is scored by the heuristic,
turned into win shares by a softmax over the players (a finished game scores
its real result, R16, R17). Each player maximises their own share (max^n), so
the search works for 2 to 4 players.

The move played is the root's most visited. With an iteration budget the
search is deterministic for a given view and seed; a time cap stops it early.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ..moves import Buy, Move, Reserve, ReserveDeck, Return, Take
from ..state import ACTION, GameState
from ..view import PlayerView
from .base import Budget
from .determinize import Determinizer
from .heuristic import DEFAULT, Weights, is_pointless, player_score
from .medium import score_moves
from .policy import fast_move, progress_moves, token_jam

DEFAULT_SECONDS = 1.0  # the time cap when a budget names neither iterations nor seconds
_SAFETY = 0.02  # seconds kept back from the cap for the final choice and the reply


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
    weights: Weights = DEFAULT


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
    """A node of the shared tree: statistics of the move that leads to it."""

    __slots__ = ("mover", "prior", "visits", "total", "children", "expanded")

    def __init__(self, mover: int, prior: float) -> None:
        self.mover = mover  # who chose the move into this node
        self.prior = prior
        self.visits = 0
        self.total = 0.0  # the mover's summed win share
        self.children: dict[Move, _Node] = {}
        self.expanded = False


def win_shares(state: GameState, cfg: SearchConfig) -> list[float]:
    """Each player's share of a win: the real result if the game is over (R17 ties split),
    else a softmax of the heuristic scores."""
    n = state.num_players
    if state.is_over:
        outcome = state.outcome()
        assert outcome is not None
        winners = outcome.winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    scores = [player_score(state, q, cfg.weights) for q in range(n)]
    top = max(scores)
    exps = [math.exp(cfg.sharpness * (x - top)) for x in scores]
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


def _eval_priors(state: GameState, moves: tuple[Move, ...], cfg: SearchConfig) -> list[float]:
    """A softmax of the one-ply values of `moves` (the medium level's) in `state`."""
    return _softmax(score_moves(state, state, moves, cfg.weights), cfg.prior_temperature)


def _root_priors(det: Determinizer, moves: tuple[Move, ...], rng: random.Random,
                 cfg: SearchConfig) -> list[float]:  # fmt: skip
    """The root's priors: as `_eval_priors`, on a deal without decks so that refills
    add no noise (see `medium.best_move`)."""
    flat = det.sample_without_decks(rng)
    deck_state = det.sample(rng) if any(isinstance(m, ReserveDeck) for m in moves) else flat
    return _softmax(score_moves(flat, deck_state, moves, cfg.weights), cfg.prior_temperature)


def root_moves(view: PlayerView, state: GameState) -> tuple[Move, ...]:
    """The moves worth searching: no return that undoes the take (R13), and only moves
    that change the position when everyone is stuck giving tokens back."""
    moves = view.legal_moves
    kept = tuple(m for m in moves if not is_pointless(state, m)) or moves
    if view.phase == ACTION and token_jam(view):
        kept = progress_moves(view) or kept
    return kept


def search(
    view: PlayerView, rng: random.Random, budget: Budget, cfg: SearchConfig = CONFIG
) -> tuple[Move, dict[Move, tuple[int, float]]]:
    """The move to play, and the root statistics (visits, mean win share) per move."""
    start = time.perf_counter()
    legal = view.legal_moves
    if not legal:
        raise ValueError("it is not this seat's decision")
    det = Determinizer(view)
    probe = det.sample(rng)
    moves = root_moves(view, probe)
    if len(moves) == 1:
        return moves[0], {moves[0]: (0, 0.0)}
    iterations = budget.iterations
    seconds = budget.seconds
    if iterations is None and seconds is None:
        seconds = DEFAULT_SECONDS
    deadline = None if seconds is None else start + seconds - _SAFETY
    me = view.current_player
    root = _Node(mover=-1, prior=1.0)
    root.expanded = True
    for m, p in zip(moves, _root_priors(det, moves, rng, cfg), strict=True):
        root.children[m] = _Node(mover=me, prior=p)
    done = 0
    while iterations is None or done < iterations:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        _iterate(root, moves, det.sample(rng), rng, cfg)
        done += 1
    stats = {
        m: (c.visits, c.total / c.visits if c.visits else 0.0) for m, c in root.children.items()
    }
    order = {m: i for i, m in enumerate(moves)}
    best = max(moves, key=lambda m: (stats[m][0], stats[m][1], -order[m]))
    return best, stats


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
    while True:
        if not node.expanded:
            node.expanded = True
            mover = state.current_player
            if len(path) - 1 <= cfg.eval_prior_depth and len(candidates) > 1:
                priors = _eval_priors(state, candidates, cfg)
            else:
                priors = _priors(state, candidates, rng, cfg)
            for m, p in zip(candidates, priors, strict=True):
                node.children[m] = _Node(mover=mover, prior=p)
        move = _select(node, candidates, state.current_player, cfg)
        state = state.apply_unchecked(move)
        node = node.children[move]
        path.append(node)
        if node.visits == 0 or state.is_over:
            break
        candidates = state.legal_moves()
    for _ in range(cfg.playout_plies):
        if state.is_over:
            break
        state = state.apply_unchecked(fast_move(state, rng))
    shares = win_shares(state, cfg)
    root.visits += 1
    for n in path[1:]:
        n.visits += 1
        n.total += shares[n.mover]


def _select(node: _Node, candidates: tuple[Move, ...], mover: int, cfg: SearchConfig) -> Move:
    children = node.children
    seen_visits = 0
    seen_total = 0.0
    for m in candidates:
        child = children.get(m)
        if child is None:
            # legal in this deal only (a refill, a blind card): a child with a small prior
            child = children[m] = _Node(mover=mover, prior=0.5 / (len(candidates) + 1))
        if child.visits:
            seen_visits += child.visits
            seen_total += child.total
    fpu = (seen_total / seen_visits if seen_visits else 0.5) - cfg.fpu
    scale = cfg.c_puct * math.sqrt(node.visits + 1)
    best = candidates[0]
    best_score = -1e9
    for m in candidates:
        child = children[m]
        v = child.visits
        q = child.total / v if v else fpu
        score = q + scale * child.prior / (1 + v)
        if score > best_score:
            best_score, best = score, m
    return best


class HardBot:
    """Determinized MCTS; `budget.iterations` for reproducible play, `budget.seconds` to cap."""

    level = "hard"

    def __init__(self, config: SearchConfig = CONFIG) -> None:
        self.config = config

    def choose(self, view: PlayerView, rng: random.Random, budget: Budget) -> Move:
        return search(view, rng, budget, self.config)[0]
