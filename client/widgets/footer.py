"""Footers: one that rebuilds its keys only when the keys it shows change, one that shows
them in the reader's language.

Textual's `Footer` removes and re-mounts every key whenever the screen's bindings may
have changed (any focus change, e.g. opening the move line), which costs a layout of
the footer each time even though it usually shows the same keys.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from shared.i18n import _


class QuietFooter(Footer):
    """`Footer`, recomposed only when what it would show differs from what it shows."""

    _shown: Any = None

    def _signature(self) -> Any:
        active = self.screen.active_bindings
        shown = tuple(
            (
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                binding.group,
                enabled,
                tooltip,
            )
            for (_, binding, enabled, tooltip) in active.values()
            if binding.show
        )
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            entry = active.get(self.app.COMMAND_PALETTE_BINDING)
            if entry is not None:
                _node, binding, enabled, tooltip = entry
                palette = (binding.key, binding.description, binding.action, enabled, tooltip)
        return shown, palette, self.compact

    def compose(self):  # type: ignore[no-untyped-def]
        if self._bindings_ready:
            self._shown = self._signature()
        yield from super().compose()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if (
            self._bindings_ready
            and self._shown is not None
            and screen.app.app_focus
            and self.is_attached
            and screen is self.screen
            and self._signature() == self._shown
        ):
            return  # the same keys: nothing to rebuild
        super().bindings_changed(screen)


class ReadersFooter(Footer):
    """`Footer` with each key's description in the reader's language (bindings hold the
    English, marked with `N_`)."""

    def compose(self):  # type: ignore[no-untyped-def]
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description)
            yield widget
