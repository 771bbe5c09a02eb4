"""client/bidi.py on Persian lines (our own sentences, in the seeds' words): joined letters,
ZWNJ, Persian digits, Latin and notation inside Persian, in both ways of showing, and
checked against python-bidi's own reordering of the logical line."""

from __future__ import annotations

import unicodedata

import pytest
from bidi import get_display as rust_display
from bidi.algorithm import get_display as uba_display
from rich.cells import cell_len

from client.bidi import (
    LRM,
    NOTATION,
    ZWNJ,
    has_right_to_left,
    is_right_to_left,
    lay_out,
    reorder_runs,
    shape,
    shown,
    visual,
    wrap,
)

GEM = "گوهر"
# Our own sentences, with the seeds' words for the game's things.
SENTENCES = [
    "با گوهر و طلا کارت معدن بخرید",
    "بزرگان به دیدار بازیکنی می\u200cآیند که اعتبار کافی دارد",
    "بازی برای ۲ تا ۴ نفر است و ۳۰ دقیقه طول می\u200cکشد",
    "کارت‌های کارگاه و کاروان گران‌تر از معدن هستند",
]


def by_the_algorithm(text: str) -> str:
    """python-bidi's reordering (its pure-Python algorithm, mirroring included) of the
    joined logical line, with the characters that are not drawn taken out afterwards."""
    marked = NOTATION.sub(lambda m: LRM + m.group(0), shape(text))
    return "".join(ch for ch in uba_display(marked, base_dir="R") if ch not in (ZWNJ, LRM))


def presentation_form(ch: str) -> bool:
    return 0xFB50 <= ord(ch) <= 0xFDFF or 0xFE70 <= ord(ch) <= 0xFEFF


def test_languages_written_right_to_left() -> None:
    assert is_right_to_left("fa") and is_right_to_left("fa_IR.UTF-8")
    assert is_right_to_left("fa-IR")
    assert (
        not is_right_to_left("cs_CZ.UTF-8")
        and not is_right_to_left("en")
        and not (is_right_to_left("hu"))
    )
    assert has_right_to_left(GEM) and not has_right_to_left("buy 1-07")


def test_letters_joined_and_right_to_left() -> None:
    drawn = visual(GEM)
    assert len(drawn) == len(GEM) and all(presentation_form(ch) for ch in drawn)
    # گ starts the word, و ends a join (it never joins on), ه starts one, ر ends it.
    assert [unicodedata.name(ch) for ch in reversed(drawn)] == [
        "ARABIC LETTER GAF INITIAL FORM",
        "ARABIC LETTER WAW FINAL FORM",
        "ARABIC LETTER HEH INITIAL FORM",
        "ARABIC LETTER REH FINAL FORM",
    ]


def test_zwnj_keeps_letters_apart_and_is_not_drawn() -> None:
    apart, joined = "می\u200cکنید", "میکنید"
    drawn = visual(apart)
    assert ZWNJ not in drawn and len(drawn) == len(apart) - 1
    # The ی before the ZWNJ ends its word (final form), the ک after it starts one.
    assert "FINAL" in unicodedata.name(drawn[-2]) and "YEH" in unicodedata.name(drawn[-2])
    assert "INITIAL" in unicodedata.name(drawn[-3]) and "KEHEH" in unicodedata.name(drawn[-3])
    assert "MEDIAL" in unicodedata.name(visual(joined)[-2])  # without it, they join


def test_persian_digits_read_left_to_right_inside_the_sentence() -> None:
    line = "بازی برای ۲ تا ۴ نفر است و ۳۰ دقیقه طول می\u200cکشد"
    drawn = visual(line)
    assert "۳۰" in drawn and "۰۳" not in drawn
    assert drawn.index("۳۰") < drawn.index("۴") < drawn.index("۲")  # the sentence from the right


def test_a_card_id_and_a_name_inside_a_persian_sentence() -> None:
    line = "alice کارت 1-07 را با ۳ گوهر خرید"
    drawn = visual(line)
    assert "1-07" in drawn and "07-1" not in drawn  # notation reads as typed
    assert drawn.endswith("alice")  # the sentence starts at the right
    assert drawn.index("1-07") < drawn.index("alice")
    # The algorithm alone puts the id's digits on the Arabic side: "07-1".
    assert "07-1" in rust_display(shape(line), base_dir="R")


@pytest.mark.parametrize("line", [*SENTENCES, "alice کارت 1-07 را خرید (R13)"])
def test_visual_is_the_algorithms_reordering(line: str) -> None:
    assert visual(line) == by_the_algorithm(line)


@pytest.mark.parametrize("line", SENTENCES)
def test_visual_agrees_with_the_rust_algorithm(line: str) -> None:
    expected = rust_display(shape(line), base_dir="R").replace(ZWNJ, "")
    assert visual(line) == expected


def test_logical_mode_sends_the_line_as_written() -> None:
    for line in SENTENCES:
        assert shown(line, "logical") == line
        assert shown(line, "visual") == visual(line)
    assert lay_out(SENTENCES[1], 20, "logical") == wrap(SENTENCES[1], 20)


def test_lines_are_wrapped_before_they_are_laid_out() -> None:
    text = " ".join(SENTENCES)
    width = 24
    logical = wrap(text, width)
    drawn = lay_out(text, width, "visual")
    assert len(logical) == len(drawn) > 3
    for before, after in zip(logical, drawn, strict=True):
        assert cell_len(before) <= width and cell_len(after) == width  # right-aligned
        assert after.lstrip() == visual(before)
    first = SENTENCES[0].split()[0]
    assert drawn[0].endswith(visual(first))  # the text's first word: top line, at the right


def test_combining_marks_stay_after_their_letter() -> None:
    drawn = visual("مَن")
    assert unicodedata.combining(drawn[-1])  # the fatha after the meem, the line's start
    assert "MEEM" in unicodedata.name(drawn[-2])


def test_runs_keep_their_styles_and_a_lists_columns_mirror() -> None:
    runs = [("│ ", "frame"), ("میز ۳", "name"), ("   ", "gap"), ("alice", "who"), (" │", "frame")]
    out = reorder_runs(runs, "R")
    assert out is not None
    text = "".join(part for part, _ in out)
    assert text.startswith("│ ") and text.endswith(" │")  # the frame stays
    assert text.index("alice") < text.index(visual("میز ۳"))  # first column at the right
    assert ("alice", "who") in out and (visual("میز ۳"), "name") in out
    assert cell_len(text) == cell_len("".join(part for part, _ in runs))


def test_left_to_right_parts_move_only_their_persian_words() -> None:
    assert reorder_runs([("buy 1-07  take W U G", None)], "L") is None
    out = reorder_runs([("1-07 ", "id"), (GEM, "gem"), (" W2", "id")], "L")
    assert out == [("1-07 ", "id"), (visual(GEM), "gem"), (" W2", "id")]
