"""What a club's admin runs besides the server: `splendor-server export|ratings|rename|ban|
unban|chat|chat-remove`. Each reads the same settings as the server (--config,
--data-dir, --database) and works on its database directly, so the server may be
running (a rename or a ban takes effect at players' next login, a removed chat line
leaves every screen within seconds; a rename is best made with the server stopped, as
running servers keep the old name for games already loaded).

    splendor-server export 4fa2c1            # a finished game's record (docs/records.md)
    splendor-server ratings [--top 50]       # the leaderboard, as text
    splendor-server rename ann annie         # a player's name, with their key and rating
    splendor-server ban mallory --reason "cheating"   # refused at login from now on
    splendor-server unban mallory
    splendor-server bot-account robo [--remove]  # robo is a program: shown with the bots' mark
    splendor-server chat [--game 4fa2c1] [--last 50]  # chat lines with their ids (lobby's)
    splendor-server chat-remove 1234         # a line goes from every screen and record
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from shared.chat import MAX_CHAT, MAX_SAID
from shared.messages import MAX_NAME
from shared.players import player_label
from shared.text import safe_text

from ..front.config import Config
from ..host.clubdesk import ended_record
from ..store import Store, StoreError
from . import checks
from .checks import MAX_COUNT, Parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command and its arguments, each checked (`server.commands.checks`); a refusal
    exits with one line on stderr, status 2."""
    where = Parser(add_help=False)
    where.add_argument("--config", help="the server's TOML settings (for its database)")
    where.add_argument("--data-dir", help="the server's data directory (default ./data)")
    where.add_argument(
        "--database", type=checks.database_url, help="the database URL, if not the data directory's"
    )
    p = Parser(prog="splendor-server", description="Splendor club admin.")
    sub = p.add_subparsers(dest="command", required=True)

    commands: dict[str, argparse.ArgumentParser] = {}

    def command(name: str, text: str) -> argparse.ArgumentParser:
        commands[name] = sub.add_parser(name, help=text, parents=[where])
        return commands[name]

    game = "a table's id, as the lobby shows it: 6 characters 0-9 and a-f"
    name = "a player's name: 2 to 16 letters, digits, '-' or '_', from a letter"
    export = command("export", "print a finished game's record")
    export.add_argument("game", type=checks.table_id, help=game)
    ratings = command("ratings", "print the leaderboard")
    ratings.add_argument(
        "--top", type=checks.count, default=50, help=f"how many players: 1 to {MAX_COUNT} (50)"
    )
    rename = command("rename", "give a player another name")
    rename.add_argument("old", type=checks.player_name, help=name)
    rename.add_argument("new", type=checks.player_name, help="the new name, by the same rules")
    ban = command("ban", "refuse a name at login")
    ban.add_argument("name", type=checks.player_name, help=name)
    ban.add_argument(
        "--reason",
        type=checks.ban_reason,
        default="",
        help=f"said to them when they try: one line of plain text, {MAX_CHAT} characters at most",
    )
    unban = command("unban", "admit a banned name again")
    unban.add_argument("name", type=checks.player_name, help=name)
    program = command("bot-account", "mark a name as a program's: shown with the bots' mark")
    program.add_argument("name", type=checks.player_name, help=name)
    program.add_argument("--remove", action="store_true", help="a person's name again")
    chat = command("chat", "print the latest chat lines, with their ids")
    place = chat.add_mutually_exclusive_group()
    place.add_argument("--game", type=checks.table_id, help="a table's chat (default: the lobby's)")
    place.add_argument("--all", action="store_true", help="every place's (lobby and tables)")
    chat.add_argument(
        "--last", type=checks.count, default=50, help=f"how many lines: 1 to {MAX_COUNT} (50)"
    )
    remove = command("chat-remove", "remove a chat line from every screen and record")
    remove.add_argument(
        "id", type=checks.chat_line, help="the line's id (splendor-server chat shows it)"
    )
    args, extra = p.parse_known_args(argv)
    if extra:  # said by the command's parser, whose name and help fit
        commands[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


async def ratings(store: Store, top: int) -> str:
    lines = [f"{'rank':>4}  {'player':<18} {'rating':>6} {'games':>5} {'wins':>4}  last game"]
    for s in await store.leaderboard(top):
        when = time.strftime("%Y-%m-%d", time.localtime(s.last))
        who = safe_text(player_label(s.player), MAX_NAME)
        lines.append(f"{s.rank:>4}  {who:<18} {s.shown:>6} {s.games:>5} {s.wins:>4}  {when}")
    if len(lines) == 1:
        lines.append("(no rated games yet)")
    return "\n".join(lines) + "\n"


async def bot_account(store: Store, name: str, program: bool) -> str:
    """Mark `name` as a program's, or a person's again (from its next login)."""
    changed = await store.mark_program(name, program)
    if program:
        owned = "" if await store.name_owner(name) else " (no key owns it yet: the first does)"
        said = "is a program's name" + owned if changed else "was a program's name already"
    else:
        said = "is a person's name again" if changed else "was not a program's name"
    later = "; it counts from its next login" if changed else ""  # a session keeps its mark
    return f"{name} {said}{later}\n"


async def chat_lines(store: Store, game: str | None, everywhere: bool, last: int) -> str:
    """The latest chat lines as text: id, when, where, who, what."""
    lines = []
    for r in await store.chat(game, last, everywhere):
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r.at))
        where = "lobby" if r.game is None else r.game + (" (watching)" if r.spectator else "")
        lines.append(f"{r.id:>7}  {when}  {where:<18} {_said(r.name, r.text)}")
    return "\n".join(lines or ["(no chat lines)"]) + "\n"


async def remove_line(store: Store, line: int) -> str:
    removed = await store.remove_chat(line)
    if removed is None:
        raise StoreError(f"there is no chat line {line} (or it was removed already)")
    where = "the lobby" if removed.game is None else f"table {removed.game}"
    name, text = safe_text(removed.name, MAX_NAME), safe_text(removed.text, MAX_SAID)
    return f"removed line {line} ({name} in {where}: {text})\n"


def _said(name: str, text: str) -> str:
    """A stored chat line as the admin's terminal may show it (a database copied from
    elsewhere may hold lines no server of ours cleaned)."""
    return f"{safe_text(name, MAX_NAME)}: {safe_text(text, MAX_SAID)}"


def main(argv: Sequence[str]) -> int:
    """Run the command; its exit status (2: an argument refused, 1: it failed)."""
    try:
        args = parse_args(argv)
    except SystemExit as e:  # refused (said already), or -h
        return int(e.code or 0)

    def work_of(config: Config) -> checks.Work:
        """What the command does with the database."""
        work: checks.Work
        if args.command == "export":
            work = lambda s: ended_record(s, args.game, config.public_host)  # noqa: E731
        elif args.command == "ratings":
            work = lambda s: ratings(s, args.top)  # noqa: E731
        elif args.command == "rename":

            async def work(s: Store) -> str:
                await s.rename(args.old, args.new)
                return f"{args.old} is now {args.new}\n"

        elif args.command == "chat":
            work = lambda s: chat_lines(s, args.game, args.all, args.last)  # noqa: E731
        elif args.command == "chat-remove":
            work = lambda s: remove_line(s, args.id)  # noqa: E731
        elif args.command == "bot-account":
            work = lambda s: bot_account(s, args.name, not args.remove)  # noqa: E731
        elif args.command == "ban":

            async def work(s: Store) -> str:
                await s.ban(args.name, args.reason)
                return f"{args.name} is banned: refused at login from now on\n"

        else:

            async def work(s: Store) -> str:
                done = await s.unban(args.name)
                said = "may log in again" if done else "was not banned"
                return f"{args.name} {said}\n"

        return work

    return checks.on_store(f"splendor-server {args.command}", args, work_of)
