"""The help in the reader's language (issue 34): the rules page is docs/rules.<lang>.md
in full when it exists (R1-R18, the same numbers), else the rules in short through the
catalog; the key pages read their words through the catalog."""

from __future__ import annotations

from pathlib import Path

from catalogkit import catalogs_of
from rich.markdown import Markdown
from rich.style import Style

from client.screens import help as help_screen
from client.widgets.keybar import keys_line, translated
from shared.i18n import Reader, use_reader


def test_the_rules_page_is_the_languages_rules_file_when_there_is_one(monkeypatch, tmp_path):
    (tmp_path / "rules.cs.md").write_text("# Pravidla\n\nR1 …\n", encoding="utf-8")
    monkeypatch.setattr(help_screen, "DOCS", tmp_path)
    assert isinstance(help_screen.rules_page(), str)  # English: the rules in short
    use_reader(Reader("cs"))
    assert isinstance(help_screen.rules_page(), Markdown)
    use_reader(Reader("hu"))  # no docs/rules.hu.md: the short rules, through the catalog
    assert "(R15)" in str(help_screen.rules_page())


def test_the_key_line_speaks_the_readers_language(monkeypatch, tmp_path: Path) -> None:
    keys = (("b", "b", "Buy"), ("question_mark", "?", "Help"))
    with catalogs_of(monkeypatch, tmp_path, {"hu": {"Buy": "Vesz", "Help": "Súgó"}}):
        use_reader(Reader("hu"))
        assert translated(keys) == (("b", "b", "Vesz"), ("question_mark", "?", "Súgó"))
        strip, _spans = keys_line(keys, 40, Style())
        assert "Vesz" in strip.text and "Súgó" in strip.text
