"""Textual's compositor, rendering only what an update shows (docs/design.md, P17).

Written against textual==8.2.8, like `server/front/tui_driver.py`, which imports this module
for its effect: the two functions below replace `Compositor.render_partial_update` and
`Compositor._render_chops` in the server process.

Textual composes a partial update from every widget that overlaps the smallest region
holding all the changes, each rendered whole, on every line any change touches. On the
table, a cursor key changes a card or two near the top and the prompt line at the
bottom: Textual renders all nine widgets of the screen (the containers behind them
too) to show two. Here a widget is rendered only on the lines where it still owns a
piece of a change that no widget in front of it has covered, and only those lines of
it. The frame is the same; what changes is the work behind it.

The pieces ("chops") are the stretches of a screen line between two cuts (the
columns where a widget starts or ends), filled front to back as Textual does:
the first widget to cover a piece owns it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import pairwise

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

Line = dict[int, Strip | None]  # a line's pieces, by the column they start at
Chops = list[Line]

_textual_partial_update = Compositor.render_partial_update  # kept for the tests' comparison
_textual_render_chops = Compositor._render_chops


def chops_for(compositor: Compositor, wanted: Mapping[int, set[int]]) -> dict[int, Line]:
    """The chops of the lines `wanted`, with those wanted filled (line -> the cuts that
    start the pieces an update shows); the others stay None, as Textual leaves what it
    skips."""
    cuts = compositor.cuts
    ys = sorted(wanted)
    chops = {y: dict.fromkeys(cuts[y][:-1]) for y in ys}
    for widget, (region, clip) in compositor.visible_widgets.items():  # front to back
        shown = region.intersection(clip)
        x0, x1 = shown.column_span
        top, bottom = shown.y, shown.bottom
        lines = [y for y in ys if top <= y < bottom and _open(chops[y], wanted[y], x0, x1)]
        if not lines:
            continue  # what this widget would show here is covered, or unchanged
        first = lines[0]
        strips = widget.render_lines(
            Region(x0 - region.x, first - region.y, x1 - x0, lines[-1] + 1 - first)
        )
        for y in lines:
            if y - first >= len(strips):
                break  # a widget that gives fewer lines than asked: Textual skips the rest
            line, want = chops[y], wanted[y]
            starts = [cut for cut in cuts[y] if x0 <= cut <= x1]
            pieces = strips[y - first].divide([cut - x0 for cut in starts[1:]])
            for cut, piece in zip(starts, pieces, strict=False):  # a cut at x1 ends the last
                if cut in want and line[cut] is None:
                    line[cut] = piece
    return chops


def _open(line: Line, want: set[int], x0: int, x1: int) -> bool:
    """Whether a piece wanted on this line, between columns x0 and x1, is still empty."""
    return any(x0 <= cut < x1 and line[cut] is None for cut in want)


def render_partial_update(self: Compositor) -> ChopsUpdate | None:
    """The changed regions as spans of lines, from the pieces that overlap them."""
    regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not regions:
        return None
    spans = list(self._regions_to_spans(regions))
    cuts = self.cuts
    wanted: dict[int, set[int]] = {}
    for y, x1, x2 in spans:
        line = cuts[y]
        want = wanted.setdefault(y, set())
        want.update(start for start, end in pairwise(line) if start < x2 and end > x1)
    chops = chops_for(self, wanted)  # only the lines the spans index
    ends = {y: cuts[y][1:] for y in chops}
    return ChopsUpdate(chops, spans, ends)  # type: ignore[arg-type]  # indexed by line alone


def render_chops(self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool]) -> Chops:
    """Textual's signature (a full update calls it): every piece of the lines asked for,
    on the screen (an inline app may ask for more lines than it has)."""
    cuts = self.cuts
    lines = crop.intersection(self.size.region).line_range
    wanted = {y: set(cuts[y][:-1]) for y in lines if is_rendered_line(y)}
    chops = chops_for(self, wanted)
    return [chops[y] if y in chops else dict.fromkeys(line[:-1]) for y, line in enumerate(cuts)]


setattr(Compositor, "render_partial_update", render_partial_update)  # noqa: B010
setattr(Compositor, "_render_chops", render_chops)  # noqa: B010
