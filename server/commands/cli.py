"""`splendor-server`: start the SSH game server (README.md, "Run a server: the details").

    splendor-server [--host H] [--port P] [--data-dir DIR] [--config FILE]
                    [--database URL] [--workers N|auto]
                    [--allow-guests | --no-guests] [--port-file FILE]
    splendor-server copy-db --from URL --to URL
    splendor-server export GAME | ratings | rename OLD NEW | ban NAME | unban NAME
    splendor-server chat [--game ID] | chat-remove ID

Settings come from the defaults, then the TOML file, then these options.
SIGTERM (or Ctrl+C) shuts down cleanly: no new connections, games saved,
every session told and its app exited, terminals restored. With more than one
worker, this process supervises the workers (`server.commands.workers`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from client.connection import Connection
from shared.i18n import L_
from shared.text import safe_text

from ..front.config import MAX_WORKERS, Config, ConfigError, load_config, workers_setting
from ..front.sessions import Sessions
from ..host.identity import Identity
from . import checks
from .checks import Parser, one_line

log = logging.getLogger("splendor")

LOG_LIMIT = 20_000  # characters of one log record, its traceback included


class SafeFormatter(logging.Formatter):
    """Log lines as a terminal may show them: a name, a move or a message a player or a
    file wrote (and a traceback quoting one) cannot send the admin's terminal an escape
    sequence or a bidirectional override (`shared.text.safe_text`, lines kept)."""

    def format(self, record: logging.LogRecord) -> str:
        return safe_text(super().format(record), LOG_LIMIT, lines=True)


def safe_log(level: int, fmt: str, handler: logging.Handler) -> None:
    """Log `level` and above through `handler`, each record formatted with `fmt` and
    made safe (`SafeFormatter`)."""
    handler.setFormatter(SafeFormatter(fmt))
    logging.basicConfig(level=level, handlers=[handler])


SHUTDOWN_MESSAGE = L_("The server is restarting; your game is saved. Reconnect in a minute.")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = Parser(
        prog="splendor-server",
        description="Splendor over SSH.",
        epilog="Club admin: splendor-server export GAME | ratings [--top N] | rename OLD NEW"
        " | ban NAME [--reason TEXT] | unban NAME | bot-account NAME [--remove]"
        " | chat [--game GAME | --all] [--last N]"
        " | chat-remove ID | tournament create|list|enter|start|cancel|export;"
        " splendor-server copy-db --from URL --to URL. Each has its own -h.",
    )
    p.add_argument("--host", help="address to listen on (default 0.0.0.0)")
    p.add_argument(
        "--port", type=checks.port, help="port to listen on, 0 to 65535 (default 2222; 0: any free)"
    )
    p.add_argument("--data-dir", help="host key and database directory (default ./data)")
    p.add_argument("--config", help="a TOML file of settings (see the README)")
    p.add_argument(
        "--database",
        type=checks.database_url,
        help="sqlite:///PATH (one process; default DATA_DIR/splendor.db) or "
        "postgresql://USER@HOST/DATABASE (any number of processes and machines)",
    )
    p.add_argument(
        "--workers",
        type=checks.workers,
        help=f"server processes sharing the port: 1 to {MAX_WORKERS}, or auto: one per core "
        "(default 1); more than one needs PostgreSQL",
    )
    p.add_argument("--worker", type=checks.worker_index, help=argparse.SUPPRESS)  # the supervisor's
    p.add_argument("--worker-of", type=checks.process_id, help=argparse.SUPPRESS)
    guests = p.add_mutually_exclusive_group()
    guests.add_argument(
        "--allow-guests",
        dest="allow_guests",
        action="store_const",
        const=True,
        help="let players without an SSH key in as guests (the default)",
    )
    guests.add_argument(
        "--no-guests",
        dest="allow_guests",
        action="store_const",
        const=False,
        help="admit players with an SSH key only",
    )
    p.add_argument(
        "--port-file",
        type=checks.port_file,
        help="write the listening port to this file once ready (its directory must exist)",
    )
    p.add_argument(
        "--log-level", type=checks.log_level, default="INFO", help="DEBUG, INFO, WARNING, ERROR"
    )
    return p.parse_args(argv)


def make_app(connection: Connection, identity: Identity) -> Any:
    """The client app for one session (imported late: the server starts without it)."""
    from client.app import SplendorApp

    return SplendorApp(connection)


def tune_gc() -> None:
    """docs/design.md, P6: a full collection stalls every session (0.4-2.4 s with 50-100 of them).
    Keep start-up objects out of every collection and make full collections rare;
    `collect_garbage` runs them when the server is quiet."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 1_000_000)


async def collect_garbage(sessions: Sessions, config: Config) -> None:
    """Full collections when no key arrived for a moment and there is garbage to expect
    (sessions ended, or `gc_interval` passed); at once when much waits (`gc_max_debt`
    sessions ended, or `gc_max_interval` passed)."""
    last = time.monotonic()
    while True:
        await asyncio.sleep(1.0)
        now = time.monotonic()
        quiet = now - sessions.last_input >= config.gc_idle_seconds
        due = sessions.gc_debt > 0 or now - last >= config.gc_interval
        overdue = now - last >= config.gc_max_interval
        if (quiet and due) or overdue or sessions.gc_debt >= config.gc_max_debt:
            started = time.perf_counter()
            found = gc.collect()
            ms = (time.perf_counter() - started) * 1000
            log.debug("gc: %d objects after %d sessions, %.0f ms", found, sessions.gc_debt, ms)
            sessions.gc_debt, last = 0, time.monotonic()


def _write_port_file(path: str, port: int) -> None:
    tmp = Path(path + ".tmp")
    tmp.write_text(f"{port}\n")
    os.replace(tmp, path)


async def serve(config: Config, port_file: str | None = None, reuse_port: bool = False) -> None:
    """Run until SIGTERM or SIGINT, then shut down cleanly."""
    from ..front.ssh import SSHService, load_host_key
    from ..host.gamehost import GameHost
    from ..host.hostsettings import DEFAULT_HOST_SETTINGS
    from ..store import SchemaTooNew, StoreError, redact

    stop = asyncio.Event()  # set by SIGTERM or SIGINT, from the start: even one that comes
    loop = asyncio.get_running_loop()  # while starting stops the server cleanly, once started
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    data_dir = config.data_path
    try:
        host_key = load_host_key(data_dir)
    except (OSError, ValueError) as e:  # ValueError: asyncssh's KeyImportError
        why = e.strerror if isinstance(e, OSError) and e.strerror else e
        raise SystemExit(
            f"splendor-server: the data directory {data_dir}: {one_line(why)}"
        ) from None
    url = config.database_url
    settings = replace(DEFAULT_HOST_SETTINGS, player_tournaments=config.player_tournaments)
    host = GameHost(data_dir, database=url, settings=settings)
    try:
        checks.check_database(url, existing=False)
        await host.start()
    except (StoreError, SchemaTooNew, OSError) as e:
        raise SystemExit(f"splendor-server: {redact(url)}: {one_line(e)}") from None
    service = SSHService(config, host, host.store, make_app, host_key, reuse_port=reuse_port)
    try:
        await service.start()
    except OSError as e:
        await host.stop()
        where = f"{config.host}:{config.port}"
        raise SystemExit(f"splendor-server: cannot listen on {where}: {one_line(e)}") from None
    if port_file:
        try:
            _write_port_file(port_file, service.port)
        except OSError as e:
            await host.stop()
            await service.stop("")
            raise SystemExit(f"splendor-server: cannot write {port_file}: {e.strerror}") from None
    tune_gc()
    janitor = loop.create_task(collect_garbage(service.sessions, config))
    await stop.wait()
    log.info("shutting down: %d sessions", len(service.sessions.live))
    service.stop_listening()
    await host.stop(SHUTDOWN_MESSAGE)  # games saved; every app told "bye"
    await service.stop(SHUTDOWN_MESSAGE)  # apps exited and awaited, terminals restored
    janitor.cancel()
    log.info("stopped")


async def _try_database(url: str) -> None:
    """Open and close the database at `url`; SystemExit saying why it cannot be opened."""
    try:
        store = await checks.open_database(url, existing=False)
    except checks.ERRORS as e:
        raise SystemExit(f"splendor-server: {one_line(e)}") from None
    await store.close()


ADMIN_COMMANDS = (  # server.commands.admin
    "export", "ratings", "rename", "ban", "unban", "bot-account", "chat", "chat-remove",
)  # fmt: skip
SUPERVISOR_OPTIONS = ("--workers", "--port", "--port-file")  # the supervisor sets these


def worker_argv(argv: list[str]) -> list[str]:
    """The command line without the options the supervisor sets for each worker."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in SUPERVISOR_OPTIONS:
            skip = True
        elif not arg.startswith(tuple(o + "=" for o in SUPERVISOR_OPTIONS)):
            out.append(arg)
    return out


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["copy-db"]:
        from .copydb import main as copy_db

        raise SystemExit(copy_db(argv[1:]))
    if argv[:1] == ["tournament"]:
        from .tourney import main as tournament

        raise SystemExit(tournament(argv[1:]))
    if argv[:1] and argv[0] in ADMIN_COMMANDS:
        from .admin import main as admin

        raise SystemExit(admin(argv))
    args = parse_args(argv)
    who = f"worker {args.worker} " if args.worker else ""
    safe_log(
        getattr(logging, args.log_level),
        f"%(asctime)s %(levelname)s {who}%(name)s: %(message)s",
        logging.StreamHandler(sys.stderr),
    )
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # one line per connection is ours
    try:
        config = load_config(
            args.config,
            host=args.host,
            port=args.port,
            data_dir=args.data_dir,
            database=args.database,
            workers=None if args.workers is None else workers_setting(args.workers),
            allow_guests=args.allow_guests,
        )
    except ConfigError as e:
        raise SystemExit(f"splendor-server: {one_line(e)}") from None
    if args.worker:  # one of the supervisor's workers
        from .workers import end_with_parent

        end_with_parent(args.worker_of)
        asyncio.run(serve(config, args.port_file, reuse_port=True))
    elif config.workers > 1:
        from .workers import Supervisor

        asyncio.run(_try_database(config.database_url))  # once, rather than in every worker
        raise SystemExit(Supervisor(config, worker_argv(argv), args.port_file).run())
    else:
        asyncio.run(serve(config, args.port_file))


if __name__ == "__main__":
    main()
