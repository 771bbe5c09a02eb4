"""`splendor play`: a local game against bots, no server needed.

splendor play                                  # the setup screen
splendor play --players 3 --bots easy,hard --seed 7 --name Ann
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
from collections.abc import Sequence

from shared.protocol import BOT_LEVELS

from .screens.setup import GameSetup


def _name() -> str:
    try:
        return getpass.getuser() or "You"
    except (KeyError, OSError):
        return "You"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="splendor", description="Splendor in the terminal.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a local game against bots")
    play.add_argument("--players", type=int, choices=(2, 3, 4), help="players, you included")
    play.add_argument(
        "--bots",
        help=f"bot levels for the other seats, comma-separated ({', '.join(BOT_LEVELS)}); "
        "the last one repeats",
    )
    play.add_argument("--seed", type=int, help="the deal's seed: the same seed deals the same game")
    play.add_argument("--name", default=None, help="your name at the table")
    play.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds between bot moves (default 0.6)"
    )
    return parser.parse_args(argv)


def setup_from(args: argparse.Namespace) -> GameSetup | None:
    """The game the options ask for, or None when they ask for none (show the setup screen)."""
    if args.players is None and args.bots is None and args.seed is None:
        return None
    bots = [b.strip().lower() for b in (args.bots or "medium").split(",") if b.strip()]
    players = args.players if args.players is not None else 1 + len(bots)
    if not bots:
        bots = ["medium"]
    if len(bots) > players - 1:
        raise ValueError(f"{players} players leave {players - 1} seats for bots, not {len(bots)}")
    bots += [bots[-1]] * (players - 1 - len(bots))
    return GameSetup(players=players, bots=tuple(bots), seed=args.seed)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        setup = setup_from(args)
    except ValueError as e:
        print(f"splendor: {e}", file=sys.stderr)
        return 2
    logging.getLogger().addHandler(logging.NullHandler())  # no log lines over the screen

    from .app import SplendorApp
    from .local import LocalHost

    host = LocalHost(args.name or _name(), bot_delay=max(0.0, args.bot_delay))
    app = SplendorApp(host.connect(), local=True, setup=setup)
    app.run(mouse=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
