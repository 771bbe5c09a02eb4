"""`strip`: a line of text as exactly the cells asked for, drawn once per content."""

from __future__ import annotations

import pytest
from rich.style import Style
from rich.text import Text

from client.widgets.lines import strip

BASE = Style(bgcolor="#1e2a3e")


@pytest.mark.parametrize(
    ("width", "shown"),
    [(0, ""), (1, "a"), (3, "ab "), (4, "ab漢"), (5, "ab漢 "), (6, "ab漢字"), (9, "ab漢字   ")],
)
def test_a_line_is_exactly_its_width_even_cut_inside_a_wide_character(
    width: int, shown: str
) -> None:
    text = Text("ab", style="bold")
    text.append("漢字", style="#ffd23f")
    line = strip(text, width, BASE)
    assert line.text == shown  # half a wide character that does not fit: a space
    assert line.cell_length == width == sum(s.cell_length for s in line)


def test_styles_lie_over_the_base_and_the_padding_takes_the_texts_own() -> None:
    text = Text("3★", style="bold")
    text.append(" W", style="#ffd23f")
    segments = list(strip(text, 8, BASE))
    assert all(s.style is not None and s.style.bgcolor == BASE.bgcolor for s in segments)
    assert all(s.style is not None and s.style.bold for s in segments)
    gold = [s for s in segments if s.text == " W"]
    assert gold and gold[0].style is not None and gold[0].style.color is not None
    assert gold[0].style.color.name == "#ffd23f"


def test_the_same_content_is_drawn_once_and_another_content_anew() -> None:
    first = strip(Text("gem  2  1", style="dim"), 20, BASE)
    again = strip(Text("gem  2  1", style="dim"), 20, BASE)
    assert again is first  # shared by every session that shows it
    assert strip(Text("gem  2  1", style="bold"), 20, BASE) is not first
    assert strip(Text("gem  2  1", style="dim"), 21, BASE) is not first
    assert strip(Text("gem  2  2", style="dim"), 20, BASE).text.startswith("gem  2  2")


def test_an_indent_is_blank_in_the_base_style_alone_and_counts_in_the_width() -> None:
    line = strip(Text("ab", style="bold"), 5, BASE, indent=1)
    assert line.text == " ab  " and line.cell_length == 5
    margin, *rest = list(line)
    assert margin.text == " " and margin.style == BASE  # not the text's own bold
    assert all(s.style is not None and s.style.bold for s in rest)


def test_an_indent_wider_than_the_line_leaves_a_blank_line_of_that_width() -> None:
    line = strip(Text("ab"), 2, BASE, indent=3)
    assert line.text == "  " and line.cell_length == 2 == sum(s.cell_length for s in line)
