"""The message catalog's upkeep (docs/contributing.md, "Translating"): extract every
marked message of shared/, client/ and server/ into the template shared/locale/messages.pot,
and bring each language's .po file up to date with it (new messages empty, gone ones
dropped, translations kept). Babel does both; no dates and no line numbers are written,
so the files change only when the messages do.

    python -m server.commands.catalog          # write the template and update the .po files
    python -m server.commands.catalog --check  # exit 1 if the template is out of date
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from shared.i18n import DOMAIN, ENGLISH, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("shared", "client", "server")
KEYWORDS = {
    "_": None,
    "N_": None,
    "L_": None,
    "ngettext": (1, 2),
    "Ln_": (1, 2),
    "pgettext": ((1, "c"), 2),  # the context, then the message
}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
FIXED_DATE = datetime(2026, 12, 3)  # the header's dates: fixed, so a rerun changes nothing


def extract(root: Path = ROOT) -> Catalog:
    """Every marked message of the sources, with the files that use it."""
    catalog = Catalog(
        project="splendor-ssh",
        version="0.1",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        fuzzy=False,
    )
    for source in SOURCES:
        found = extract_from_dir(
            root / source,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            path = f"{source}/{filename}"
            catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return catalog


def po_text(catalog: Catalog) -> bytes:
    out = BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, sort_output=True)
    return out.getvalue()


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def update(template: Catalog) -> list[Path]:
    """Each language's .po brought up to date with the template (made if missing)."""
    written = []
    for language in LANGUAGES:
        if language == ENGLISH:
            continue
        path = po_path(language)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=language)
        else:
            catalog = Catalog(locale=language, project="splendor-ssh", version="0.1")
        catalog.creation_date = catalog.revision_date = FIXED_DATE
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(po_text(catalog))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.commands.catalog")
    parser.add_argument("--check", action="store_true", help="only check the template")
    args = parser.parse_args(argv)
    template = extract()
    text = po_text(template)
    if args.check:
        if not TEMPLATE.exists() or TEMPLATE.read_bytes() != text:
            print(f"{TEMPLATE.relative_to(ROOT)} is out of date: run {parser.prog}")
            return 1
        return 0
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_bytes(text)
    for path in update(template):
        print(f"wrote {path.relative_to(ROOT)}")
    print(f"{len(template)} messages in {TEMPLATE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
