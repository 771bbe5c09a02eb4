"""The driver's patch to Textual's `Strip` (docs/design.md, P6): a strip that `crop_extend`
or `divide` leaves unchanged is not kept in its own cache, so reference counting frees it
and it never waits in the old generation for a full collection."""

from __future__ import annotations

import gc

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from server.front import tui_driver

RED = Style(color="red")


def _strip() -> Strip:
    return Strip([Segment("hello ", RED), Segment("world")], 11)


def _in_own_cache(strip: Strip) -> bool:
    cached = [*strip._crop_extend_cache._cache.values(), *strip._divide_cache._cache.values()]
    return any(v is strip or (isinstance(v, list) and any(x is strip for x in v)) for v in cached)


def test_unchanged_strips_are_not_cached_in_themselves() -> None:
    strip = _strip()
    assert strip.crop_extend(0, 11, None) is strip
    assert strip.crop_extend(-2, 11, RED) is strip
    assert list(strip.divide([11])) == [strip]
    assert list(strip.divide([11, 20])) == [strip]  # cuts past the end are dropped
    assert not _in_own_cache(strip)


def test_an_unchanged_strip_is_freed_without_the_collector() -> None:
    gc.collect()
    gc.disable()
    try:
        before = sum(1 for o in gc.get_objects() if type(o) is Strip)
        for _ in range(50):
            strip = _strip()
            strip.crop_extend(0, 11, None)
            strip.divide([11])
            del strip
        after = sum(1 for o in gc.get_objects() if type(o) is Strip)
    finally:
        gc.enable()
    assert after == before


def test_other_crops_and_cuts_are_textuals_own() -> None:
    for start, end, style in [(0, 5, None), (2, 11, None), (3, 15, RED), (0, 14, None)]:
        ours, theirs = (
            _strip().crop_extend(start, end, style),
            tui_driver._crop_extend(_strip(), start, end, style),
        )
        assert (ours.text, ours.cell_length) == (theirs.text, theirs.cell_length)
    for cuts in ([5, 11], [3, 6, 11], [4]):
        ours_cut = [(s.text, s.cell_length) for s in _strip().divide(cuts)]
        theirs_cut = [(s.text, s.cell_length) for s in tui_driver._divide(_strip(), cuts)]
        assert ours_cut == theirs_cut
