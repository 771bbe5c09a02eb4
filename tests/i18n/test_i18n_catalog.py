"""The catalogs (issue 34): each language has every message of the template, with the
English's placeholders, and the right plural forms; the template is up to date with the
code; the machinery translates per reader, counts plurals per language and crosses the
wire as key and fields."""

from __future__ import annotations

import asyncio
import string
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from catalogkit import catalogs_of

from server.commands import catalog as tool
from shared import i18n, protocol
from shared.i18n import (
    L_,
    LANGUAGES,
    Ln_,
    Reader,
    _,
    language_from_env,
    ngettext,
    per_language_cache,
    set_language,
    use_reader,
)

TRANSLATED = [code for code in LANGUAGES if code != i18n.ENGLISH]


def po(language: str) -> Catalog:
    with tool.po_path(language).open("rb") as f:
        return read_po(f, locale=language)


def template() -> Catalog:
    with tool.TEMPLATE.open("rb") as f:
        return read_po(f)


def fields(text: str) -> set[str]:
    """The names of a message's ``{fields}``."""
    return {name for _text, name, _spec, _conv in string.Formatter().parse(text) if name}


def test_the_template_is_up_to_date_with_the_code() -> None:
    """Extraction run now gives the committed template: a message marked in the code and
    not in the template (or the other way round) fails here. Rerun
    `python -m server.commands.catalog` after changing a marked text."""
    assert tool.po_text(tool.extract()) == tool.TEMPLATE.read_bytes()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_catalog_holds_every_message_of_the_template(language: str) -> None:
    catalog, keys = po(language), {m.id for m in template() if m.id}
    assert {m.id for m in catalog if m.id} == keys  # `python -m server.commands.catalog`


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_catalog_has_the_languages_plural_forms(language: str) -> None:
    """Czech three forms (1, 2-4, the rest), Persian and Hungarian as CLDR says."""
    catalog = po(language)
    assert catalog.num_plurals == get_plural(language).num_plurals
    assert catalog.plural_expr == get_plural(language).plural_expr
    assert catalog.num_plurals == {"cs": 3, "fa": 2, "hu": 2}[language]
    assert (
        Locale.parse(language).plural_form(3)
        == {"cs": "few", "fa": "other", "hu": "other"}[language]
    )


def problems(catalog: Catalog) -> list[str]:
    """What a translated catalog lacks: a message or a plural form untranslated or fuzzy,
    a translation whose placeholders are not the English's."""
    found = []
    for m in (m for m in catalog if m.id):
        english = set().union(*(fields(k) for k in m.id)) if m.pluralizable else fields(m.id)
        forms = list(m.string) if m.pluralizable else [m.string]
        if m.pluralizable and len(forms) != catalog.num_plurals or not all(forms):
            found.append(f"untranslated: {m.id!r}")
            continue
        if m.fuzzy:
            found.append(f"fuzzy: {m.id!r}")
        for form in forms:
            # A plural's count is {n}: a form may leave it out ("one token": "egy zseton").
            if fields(form) - {"n"} != english - {"n"} or not fields(form) <= english:
                found.append(f"placeholders differ: {m.id!r} -> {form!r}")
    return found


def untranslated(catalog: Catalog) -> bool:
    return not any(any(m.string) if m.pluralizable else m.string for m in catalog if m.id)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_is_complete_with_the_englishs_placeholders(language: str) -> None:
    """Skipped only while a language's catalog is entirely untranslated; once a translator
    starts, every message needs every form, each with the English's fields."""
    catalog = po(language)
    if untranslated(catalog):
        pytest.skip("translation pending")
    assert problems(catalog) == []


def test_the_completeness_check_finds_what_a_translation_lacks() -> None:
    catalog = Catalog(locale="cs")
    catalog.add("Table {table} is full", "Stůl {stul} je plný")
    catalog.add(("{n} token", "{n} tokens"), ("{n} žeton", "{n} žetony", ""))
    catalog.add("Tables", "")
    catalog.add("Chat", "Chat")
    assert not untranslated(catalog)
    assert problems(catalog) == [
        "placeholders differ: 'Table {table} is full' -> 'Stůl {stul} je plný'",
        "untranslated: ('{n} token', '{n} tokens')",
        "untranslated: 'Tables'",
    ]


def test_english_is_the_key_and_fields_are_filled() -> None:
    assert _("Table {table} has no open seat.", table="t4") == "Table t4 has no open seat."
    assert ngettext("{n} token", "{n} tokens", 1) == "1 token"
    assert ngettext("{n} token", "{n} tokens", 3) == "3 tokens"


def test_czech_counts_in_three_forms_and_persian_in_persian_digits(monkeypatch, tmp_path) -> None:
    token = ("{n} token", "{n} tokens")
    catalogs = {
        "cs": {token: ("{n} žeton", "{n} žetony", "{n} žetonů")},
        "fa": {token: ("{n} ژتون", "{n} ژتون"), "Table {table}": "میز {table}"},
    }
    with catalogs_of(monkeypatch, tmp_path, catalogs):
        use_reader(Reader("cs"))
        assert [ngettext(*token, n) for n in (1, 3, 5)] == ["1 žeton", "3 žetony", "5 žetonů"]
        use_reader(Reader("fa"))
        assert ngettext(*token, 12) == "۱۲ ژتون"
        assert _("Table {table}", table="t12") == "میز t12"  # ids stay as typed


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_empty_message_stays_empty_in_every_language(language: str) -> None:
    """gettext's empty key is the catalog's header ("Project-Id-Version: ..."): an empty
    text (a help row with no key) must not read as it."""
    use_reader(Reader(language))
    assert _("") == ""
    assert str(L_("")) == ""


def test_a_broken_translation_reads_as_the_english(monkeypatch, tmp_path) -> None:
    with catalogs_of(monkeypatch, tmp_path, {"hu": {"seat {seat}": "hely {hely}"}}):
        use_reader(Reader("hu"))
        assert _("seat {seat}", seat=2) == "seat 2"


async def test_each_session_reads_its_own_language_in_one_process(monkeypatch, tmp_path) -> None:
    """Two apps' tasks, one process: each reader sees its own language, a change of
    language reaches the tasks its app started before, and the rest stays English."""
    entries = {"Tables": "Stoly"}
    with catalogs_of(monkeypatch, tmp_path, {"cs": entries, "hu": {"Tables": "Asztalok"}}):
        seen: dict[str, list[str]] = {"a": [], "b": []}
        go = asyncio.Event()

        async def child(who: str) -> None:
            seen[who].append(_("Tables"))
            await go.wait()
            seen[who].append(_("Tables"))

        async def session(who: str, language: str) -> None:
            use_reader(Reader(language))
            task = asyncio.create_task(child(who))
            await asyncio.sleep(0)
            if who == "b":
                set_language("hu")  # the lobby's key, mid-session
            await asyncio.sleep(0)
            go.set()
            await task

        await asyncio.gather(session("a", "cs"), session("b", "cs"))
        assert seen == {"a": ["Stoly", "Stoly"], "b": ["Stoly", "Asztalok"]}
        assert _("Tables") == "Tables"


def test_a_text_crosses_the_wire_as_key_and_fields(monkeypatch, tmp_path) -> None:
    """The host sends a notice as key and fields, with its English beside it; the client
    reads it in its reader's language (`said`, beside the English `text`)."""
    why = Ln_("return {n} token", "return {n} tokens", 2)
    said = L_("`{move}`: {why} ({where})", move="take W U G", why=why, where=L_("turn 3"))
    msg = protocol.decode_host(protocol.notice(said))
    assert isinstance(msg, protocol.Notice) and msg.said == said
    assert msg.text == "`take W U G`: return 2 tokens (turn 3)"
    cs = {
        "`{move}`: {why} ({where})": "`{move}`: {why} ({where})",
        ("return {n} token", "return {n} tokens"): ("vrať {n} žeton", "vrať {n} žetony", "x"),
        "turn 3": "tah 3",
    }
    with catalogs_of(monkeypatch, tmp_path, {"cs": cs}):
        use_reader(Reader("cs"))
        assert str(msg.said) == "`take W U G`: vrať 2 žetony (tah 3)"


def test_a_hostile_text_on_the_wire_is_refused_or_made_safe() -> None:
    bad = {"t": "notice", "text": "x", "said": {"k": "{a}", "f": {"a": {"k": {"x": 1}}}}}
    with pytest.raises(protocol.ProtocolError):
        protocol.decode_host(protocol.dumps(bad))  # type: ignore[attr-defined]
    shown = {"t": "notice", "text": "x", "said": {"k": "\x1b[2J{a}", "f": {"a": "\x1b]0;x\x07"}}}
    msg = protocol.decode_host(protocol.dumps(shown))  # type: ignore[attr-defined]
    assert isinstance(msg, protocol.Notice) and "\x1b" not in str(msg.said)


def test_drawing_caches_keep_one_copy_per_language(monkeypatch, tmp_path) -> None:
    @per_language_cache(maxsize=8)
    def label(width: int) -> str:
        return _("Bank")[:width]

    with catalogs_of(monkeypatch, tmp_path, {"hu": {"Bank": "Bankhely"}}):
        assert label(8) == "Bank"
        use_reader(Reader("hu"))
        assert label(8) == "Bankhely"


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({"LANG": "fa_IR.UTF-8"}, "fa"),
        ({"LANG": "cs_CZ.UTF-8"}, "cs"),
        ({"LC_ALL": "hu_HU.UTF-8", "LANG": "cs_CZ.UTF-8"}, "hu"),
        ({"LC_MESSAGES": "cs", "LANG": "fa_IR.UTF-8"}, "cs"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "cs_CZ.UTF-8"}, None),  # LC_ALL decides: not ours
        ({"LANG": "C.UTF-8"}, None),
        ({}, None),
        ({"LANG": "en_GB.UTF-8"}, "en"),
    ],
)
def test_the_language_of_an_environment(env: dict[str, str], language: str | None) -> None:
    assert language_from_env(env) == language


def test_catalog_files_are_package_data() -> None:
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"locale/*/LC_MESSAGES/*.po"' in text and '"locale/*.pot"' in text


def test_a_reason_kept_in_the_store_is_read_in_each_readers_language(monkeypatch, tmp_path) -> None:
    """A seat's `why` (a time-out, a vote) is kept as key and fields; one kept before, in
    plain English, reads as it was."""
    from shared import said

    kept = said.stored(L_("your time ran out at turn {turn}", turn=31))
    assert said.from_stored("your time ran out at turn 3") == "your time ran out at turn 3"
    with catalogs_of(
        monkeypatch,
        tmp_path,
        {"cs": {"your time ran out at turn {turn}": "došel ti čas v tahu {turn}"}},
    ):
        assert str(said.from_stored(kept)) == "your time ran out at turn 31"
        use_reader(Reader("cs"))
        assert str(said.from_stored(kept)) == "došel ti čas v tahu 31"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_panels_short_labels_stay_three_cells(language: str) -> None:
    """A player's panel lines its counts up after three-cell labels (gem, crd, res): a
    longer translation would push that line's counts out of their columns."""
    from rich.cells import cell_len

    catalog = po(language)
    for label in ("gem", "crd", "res"):
        message = catalog.get(label)
        assert message is not None and cell_len(str(message.string)) == 3, label
