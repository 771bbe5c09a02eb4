"""The help in the reader's language (issue 34): the rules page is docs/rules.<lang>.md
in full when it exists (R1-R18, the same numbers), else the rules in short through the
catalog; the key pages read their words through the catalog."""

from __future__ import annotations

from pathlib import Path

from catalogkit import catalogs_of
from rich.style import Style

from client.screens import help as help_screen
from client.widgets.keybar import keys_line, translated
from shared.i18n import Reader, use_reader
from shared.settings import GameSettings


def test_the_rules_page_is_the_languages_help_file_when_there_is_one(monkeypatch, tmp_path):
    (tmp_path / "help.cs.md").write_text(
        "<!-- a note -->\n## goal\n\n**Cíl**  Do {target} (R15).{longer}\n\n## longer\n\n"
        "Podle pravidel {standard}.\n\n## rules\n\n- **Vezměte** `W` [x] (R7).\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(help_screen, "DOCS", tmp_path)
    english = help_screen.rules_page()
    assert isinstance(english, str) and "Most prestige wins" in english
    use_reader(Reader("cs"))
    page = help_screen.rules_page(GameSettings(2, target=21))
    assert page.startswith("[b]Cíl[/b]  Do 21 (R15). Podle pravidel 15.")
    assert " • [b]Vezměte[/b] [b]W[/b] \\[x] (R7)." in page  # brackets are text, not markup
    assert "Podle" not in str(help_screen.rules_page())  # the rules' own target: no note
    use_reader(Reader("hu"))  # no docs/help.hu.md here: the rules in short, from the catalog
    page = help_screen.rules_page()  # the catalog's (now translated) rules in short
    assert page == help_screen.rules_text() and "(R15)" in str(page)


def test_the_checkouts_help_files_all_read(monkeypatch) -> None:
    """docs/help.<lang>.md, as the rules' translators wrote them, read as a rules page."""
    for language in ("fa", "cs", "hu"):
        use_reader(Reader(language))
        if help_screen.help_parts(language) is None:
            continue
        page = help_screen.rules_page(GameSettings(3, target=21))
        assert "21" in page and all(f"(R{n}" in page or f"R{n}" in page for n in (7, 13, 15))


def test_the_key_line_speaks_the_readers_language(monkeypatch, tmp_path: Path) -> None:
    keys = (("b", "b", "Buy"), ("question_mark", "?", "Help"))
    with catalogs_of(monkeypatch, tmp_path, {"hu": {"Buy": "Vesz", "Help": "Súgó"}}):
        use_reader(Reader("hu"))
        assert translated(keys) == (("b", "b", "Vesz"), ("question_mark", "?", "Súgó"))
        strip, _spans = keys_line(keys, 40, Style())
        assert "Vesz" in strip.text and "Súgó" in strip.text
