"""`splendor play`: an offline game against bots, on this same game host in this process.

    splendor play                                  # the setup screen
    splendor play --players 3 --bots easy,hard --seed 7 --name Ann --log play.log
    splendor play --target 21                      # a longer game: to 21 points (R15)

Offline play is not a second host: it starts the server's own `GameHost` (lobby,
tables, bots in their worker processes, a store in a temporary directory that
goes when the game does) and joins one app to it through the same bridge an SSH
session uses (`server.front.bridge.HostBridge`). Only two settings differ: the player
may choose the deal's seed, may take moves back and ask for hints, and nobody else
can connect.

The app, the host and the engine are imported where they are first needed, not at the
top: the bot workers' forkserver imports this module (it is the program's `__main__`)
and needs none of them, and `splendor replay` needs no host.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import getpass
import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shared.i18n import LANGUAGES, Reader, _, language_from_env, use_reader

from ..host.hostsettings import DEFAULT_HOST_SETTINGS, HostSettings
from ..host.identity import Identity

if TYPE_CHECKING:
    from client.screens.setup import GameSetup

    from ..host.gamehost import GameHost

NAME_LIMIT = 20  # characters of a player's name at the table


def _name() -> str:
    try:
        return getpass.getuser() or "You"
    except (KeyError, OSError):
        return "You"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    from shared.protocol import BOT_LEVELS
    from shared.settings import TARGETS

    parser = argparse.ArgumentParser(prog="splendor", description="Splendor in the terminal.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play an offline game against bots")
    play.add_argument("--players", type=int, choices=(2, 3, 4), help="players, you included")
    play.add_argument(
        "--bots",
        help=f"bot levels for the other seats, comma-separated ({', '.join(BOT_LEVELS)}); "
        "the last one repeats",
    )
    play.add_argument("--seed", type=int, help="the deal's seed: the same seed deals the same game")
    play.add_argument(
        "--target",
        type=int,
        choices=TARGETS,
        help="the points that start the final round (R15; default 15, 21: a longer game)",
    )
    play.add_argument("--name", default=None, help="your name at the table")
    play.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds between bot moves (default 0.6)"
    )
    play.add_argument("--log", metavar="FILE", help="write the game host's log to FILE")
    for command in (
        play,
        replay := sub.add_parser(
            "replay",
            help="replay a game record (docs/records.md; splendor-server export writes one)",
        ),
    ):
        command.add_argument(
            "--lang",
            choices=tuple(LANGUAGES),
            help="the language to play in (default: from LC_ALL, LC_MESSAGES or LANG, else en)",
        )
    replay.add_argument("file", help="the record, a text file")
    replay.add_argument(
        "--turn", type=int, help="open at this turn (0: the deal; default: the last)"
    )
    remote = sub.add_parser(
        "connect", help="play on a server with the app run here (docs/protocol.md)"
    )
    remote.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        help="the language to play in (default: from LC_ALL, LC_MESSAGES or LANG, else en)",
    )
    remote.add_argument("target", metavar="[USER@]HOST", help="the server, and your name on it")
    remote.add_argument("-p", "--port", type=int, default=2222, help="its port (default 2222)")
    remote.add_argument("-i", dest="key", metavar="KEY", help="the private key to log in with")
    remote.add_argument("--known-hosts", help="the known_hosts file (default ~/.ssh's)")
    return parser.parse_args(argv)


def setup_from(args: argparse.Namespace) -> GameSetup | None:
    """The game the options ask for, or None when they ask for none (show the setup screen)."""
    from client.screens.setup import GameSetup

    if args.players is None and args.bots is None and args.seed is None and args.target is None:
        return None
    bots = [b.strip().lower() for b in (args.bots or "medium").split(",") if b.strip()]
    players = args.players if args.players is not None else 1 + len(bots)
    if not bots:
        bots = ["medium"]
    if len(bots) > players - 1:
        raise ValueError(
            _(
                "{players} players leave {seats} seats for bots, not {bots}",
                players=players,
                seats=players - 1,
                bots=len(bots),
            )
        )
    bots += [bots[-1]] * (players - 1 - len(bots))
    setup = GameSetup(players=players, bots=tuple(bots), seed=args.seed)
    return setup if args.target is None else replace(setup, target=args.target)


def player_name(asked: str | None) -> str:
    """The name at the table: the one asked for, else the login name; `ValueError` if it
    cannot be shown."""
    name = " ".join((asked if asked is not None else _name()).split())
    if not name or len(name) > NAME_LIMIT or not name.isprintable():
        raise ValueError(
            _("a name is 1 to {NAME_LIMIT} printable characters", NAME_LIMIT=NAME_LIMIT)
        )
    return name


def offline_identity(name: str) -> Identity:
    """The one player of an offline host (no key: nobody else can connect to it)."""
    return Identity(name, False, "offline")


def offline_host(
    data_dir: str | Path, settings: HostSettings = DEFAULT_HOST_SETTINGS, **options: Any
) -> GameHost:
    """The game host of offline play: `settings` (its pace), where the player may choose
    the deal's seed, take moves back (`u`) and ask for hints, and games last only as long
    as this run (no fsync per move, nobody's game to abandon, no ratings). `options` go to
    `GameHost` (the bots' workers)."""
    from ..host.gamehost import GameHost

    offline = replace(
        settings, abandon_after=None, client_seeds=True, ratings=False, undo=True, hints=True
    )
    options.setdefault("synchronous", "NORMAL")
    return GameHost(data_dir, settings=offline, **options)


async def play(setup: GameSetup | None, name: str, bot_delay: float) -> None:
    """Run the host and one app on it until the player quits; then stop the host."""
    from client.app import SplendorApp

    from ..front.bridge import connect_app

    with tempfile.TemporaryDirectory(prefix="splendor-play-") as data_dir:
        host = offline_host(data_dir, HostSettings(bot_pause=bot_delay))
        # The bot workers start in the background (a bot's first move waits for them,
        # the first screen does not); their helper processes start before the app does.
        await asyncio.create_task(host.start(), context=contextvars.Context())
        try:
            app, _, _ = connect_app(
                host, offline_identity(name), lambda c: SplendorApp(c, local=True, setup=setup)
            )
            await app.run_async(mouse=False)
        finally:
            await host.stop()


def replay_file(path: str, turn: int | None) -> int:
    """`splendor replay FILE`: the record's replay in the terminal, with no host."""
    from client.screens.replay import RecordError, ReplayApp, load_replay
    from shared.messages import MAX_TEXT
    from shared.text import safe_text

    try:
        replay = load_replay(path)
    except (OSError, UnicodeDecodeError, RecordError) as e:
        # The message may quote the file: only what a terminal may be sent (shared.text).
        print(safe_text(f"splendor: {path}: {e}", MAX_TEXT), file=sys.stderr)
        return 2
    ReplayApp(replay, at=turn).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    # The player's language, for this process: the host runs outside it (`front.bridge`).
    use_reader(Reader(args.lang or language_from_env(os.environ) or "en"))
    if args.command == "replay":
        return replay_file(args.file, args.turn)
    if args.command == "connect":
        from .connect import main as connect

        return connect(args.target, args.port, args.key, args.known_hosts)
    try:
        setup = setup_from(args)
        name = player_name(args.name)
    except ValueError as e:
        print(f"splendor: {e}", file=sys.stderr)
        return 2
    if args.log:  # never to the terminal: no log lines over the screen
        from .cli import safe_log

        fmt = "%(asctime)s %(levelname)s %(message)s"
        safe_log(logging.INFO, fmt, logging.FileHandler(args.log))
    else:
        logging.getLogger().addHandler(logging.NullHandler())
    asyncio.run(play(setup, name, max(0.0, args.bot_delay)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
