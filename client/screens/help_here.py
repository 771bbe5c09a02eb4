"""The help for where the player is: every screen's keys, in groups, after a first page
about what is shown now (the table's mode, a replay, the lobby)."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from textual.binding import BindingType
from textual.screen import Screen

from shared.i18n import _

from . import modes
from .club import LeaderboardScreen, ProfileScreen
from .help import HelpScreen
from .lobby import LobbyScreen
from .lobby_keys import lobby_help
from .replay import ReplayScreen
from .table import TableScreen
from .tourneys import TourneyScreen


def help_screen(
    shown: Screen[Any], main: Screen[Any] | None, local: bool, everywhere: list[BindingType]
) -> HelpScreen:
    """The help over `shown` (`main`: the lobby or table under it; `local`: offline, with
    no lobby, club or tournaments); `everywhere`: the app's own keys."""
    groups = [(_("At the table"), TableScreen.BINDINGS)]
    if not local:
        groups.append((_("In the lobby"), LobbyScreen.BINDINGS))
        groups.append((_("The leaderboard"), LeaderboardScreen.BINDINGS))
        groups.append((_("A profile"), ProfileScreen.BINDINGS))
        groups.append((_("A tournament"), TourneyScreen.BINDINGS))
    groups.append((_("A replay"), ReplayScreen.BINDINGS))
    groups.append((_("Everywhere"), everywhere))
    now: RenderableType | None = None
    legend = ""
    view = None  # the game shown, whose settings the rules page names (R15)
    if isinstance(shown, ReplayScreen):
        now, legend = modes.page(modes.REPLAY, local), modes.LEGEND
        view = shown.view
    elif isinstance(main, TableScreen):
        now, legend = modes.page(main.mode, local), modes.LEGEND
        view = main.view
    elif isinstance(main, LobbyScreen):
        now = lobby_help()
    settings = None if view is None else view.settings
    return HelpScreen(groups, now, legend, settings)
