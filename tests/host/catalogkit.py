"""A small test catalog: .po files written to a temporary locale directory that
`shared.i18n` reads instead of the project's (so tests see translated text while the
project's catalogs wait for their translators)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from shared import i18n

# English key -> the test's "translation" (a plural: a tuple, one per form)
Entries = dict[str | tuple[str, str], str | tuple[str, ...]]


def write_catalog(root: Path, language: str, entries: Entries) -> None:
    catalog = Catalog(locale=language, fuzzy=False)
    for key, text in entries.items():
        catalog.add(key, text)
    path = root / language / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog)


@contextmanager
def catalogs_of(
    monkeypatch: pytest.MonkeyPatch, root: Path, catalogs: dict[str, Entries]
) -> Iterator[None]:
    """`shared.i18n` reads `catalogs` (language -> entries) for as long as this lasts."""
    for language, entries in catalogs.items():
        write_catalog(root, language, entries)
    monkeypatch.setattr(i18n, "LOCALE_DIR", root)
    i18n.translations.cache_clear()
    try:
        yield
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()


def pseudo(text: str) -> str:
    """`text` "translated" for a test: its letters accented, its fields and markup kept
    (`{table}`, `[b]…[/b]`), so a screen shows where its words come from the catalog."""
    accents = str.maketrans("aeiouyAEIOUY", "áéíóúýÁÉÍÓÚÝ")
    parts = re.split(r"(\{[^{}]*\}|\[[^\[\]]*\])", text)
    return "".join(p if p[:1] in "{[" else p.translate(accents) for p in parts)


def pseudo_catalog(template: Path, forms: int = 3) -> Entries:
    """Every message of `template` (a .pot file), pseudo-translated, plurals in `forms`."""
    with template.open("rb") as f:
        catalog = read_po(f)
    entries: Entries = {}
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            singular, plural = m.id
            entries[(singular, plural)] = (pseudo(singular), *[pseudo(plural)] * (forms - 1))
        else:
            entries[m.id] = pseudo(m.id)
    return entries
