"""The SSH transport alone, for `bench/load.py --app echo`: the real server stack
(`server.front.ssh`, `server.front.session`, `server.front.tui_driver`, GC tuning) with a small
app of a dozen widgets instead of the game, so the figures show what the
transport and Textual's basic rendering cost without the game's screens.

    python bench/echo_server.py DATA_DIR PORT_FILE CONFIG_TOML
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Grid
from textual.widgets import Footer, Header, Static

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.commands.cli import collect_garbage, tune_gc  # noqa: E402
from server.front.config import load_config  # noqa: E402
from server.front.ssh import SSHService, load_host_key  # noqa: E402
from server.store import default_url, open_store  # noqa: E402


class EchoApp(App[None]):
    """Counts keys; each key updates the counter and one of ten other cells."""

    TITLE = "Splendor lobby (echo)"
    CSS = "Grid { grid-size: 4 3; } Static { border: round $accent; height: 100%; }"
    BINDINGS = [("ctrl+q", "quit", "Quit")]

    def __init__(self, connection: Any, identity: Any) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Grid():
            for i in range(12):
                yield Static(f"cell {i}", id=f"c{i}")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#c0", Static).update("n=0")
        self.query_one("#c11", Static).update("Splendor lobby")

    def on_key(self, event: Any) -> None:
        self.count += 1
        cell = self.query_one(f"#c{1 + self.count % 10}", Static)
        cell.update(f"key {event.key} n={self.count}")
        self.query_one("#c0", Static).update(f"n={self.count}")


class EchoHost:
    def connect(self, identity: Any, deliver: Callable[[bytes], None]) -> Any:
        return self

    def send(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


async def serve(data_dir: Path, port_file: Path, config_file: str) -> None:
    config = load_config(config_file, host="127.0.0.1", port=0, data_dir=str(data_dir))
    store = open_store(default_url(data_dir))
    await store.open()
    service = SSHService(config, EchoHost(), store, EchoApp, load_host_key(data_dir))
    await service.start()
    port_file.write_text(f"{service.port}\n")
    tune_gc()
    janitor = asyncio.get_running_loop().create_task(collect_garbage(service.sessions, config))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await service.stop("bye")
    janitor.cancel()
    await store.close()


if __name__ == "__main__":
    logging.basicConfig(level=logging.DEBUG, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    asyncio.run(serve(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]))
