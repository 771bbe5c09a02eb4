"""The rules in Persian, Czech and Hungarian (docs/rules.<lang>.md, issue 34) keep the
shape of docs/rules.md: the same headings in the same order, the rule ids R1-R18 in
order, every code span of each section, and every table's data. The Persian documents
are written with Persian letters and digits and with U+200C (ZWNJ) where a word needs it.
The help pages (docs/help.<lang>.md) are checked the same way where they exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGUAGES = ("fa", "cs", "hu")

ZWNJ = "\u200c"
PERSIAN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")
# Arabic letters and digits a Persian text must not use: yeh and kaf (Persian has ی and
# ک), alef maksura, and the Arabic-Indic digits (Persian has ۰-۹).
ARABIC_FORMS = {
    "\u064a": "Arabic yeh ي (Persian: ی)",
    "\u0643": "Arabic kaf ك (Persian: ک)",
    "\u0649": "alef maksura ى (Persian: ی)",
    **{chr(0x0660 + d): f"Arabic-Indic digit {d} (Persian: {'۰۱۲۳۴۵۶۷۸۹'[d]})" for d in range(10)},
}
# Words that begin with the letters of the verb prefix می but are not a verb: they are
# written without a ZWNJ after می (میز, table; میان, between; ...).
NOT_A_VERB_PREFIX = frozenset(
    {"میز", "میزها", "میان", "میانه", "میانگین", "میزان", "میزبان", "میدان", "میل", "میلیون"}
)
PERSIAN_WORD = re.compile(rf"(?:[^\W\d_]|[\u064b-\u0655\u0670{ZWNJ}])+")  # letters, marks, ZWNJ
CODE_SPAN = re.compile(r"`([^`\n]+)`")
HEADING = re.compile(r"^(#{1,3}) (.*)$", re.MULTILINE)


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def headings(text: str) -> list[tuple[int, str]]:
    """Each heading's level and text, in order."""
    return [(len(m.group(1)), m.group(2).strip()) for m in HEADING.finditer(text)]


def sections(text: str) -> list[str]:
    """The text under each heading (up to the next heading of any level), in order."""
    starts = [m.end() for m in HEADING.finditer(text)]
    ends = [m.start() for m in HEADING.finditer(text)][1:] + [len(text)]
    return [text[s:e] for s, e in zip(starts, ends, strict=True)]


def rule_ids(text: str) -> list[str]:
    """The rule ids of the `### R7 ...` headings, in order."""
    return re.findall(r"^### (R\d+) ", text, flags=re.MULTILINE)


def tables(text: str) -> list[list[str]]:
    """Every Markdown table: its rows (header included, the --- line left out)."""
    found: list[list[str]] = []
    previous_was_row = False
    for line in text.splitlines():
        row = line.startswith("|")
        if row and not re.fullmatch(r"\|( *-+ *\|)+", line):
            if not previous_was_row:
                found.append([])
            found[-1].append(line)
        previous_was_row = row
    return found


def row_data(row: str) -> tuple[list[str], list[int]]:
    """A table row's data, whatever the language: its code spans, then the numbers outside
    them (Persian digits read as digits; rule ids such as R14 are not numbers)."""
    spans = CODE_SPAN.findall(row)
    rest = re.sub(r"\bR\d+\b", " ", CODE_SPAN.sub(" ", row)).translate(PERSIAN_DIGITS)
    return spans, [int(n) for n in re.findall(r"\d+", rest)]


ENGLISH = read("rules.md")


def test_the_english_rules_are_r1_to_r18_in_order() -> None:
    assert rule_ids(ENGLISH) == [f"R{n}" for n in range(1, 19)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_has_the_rule_ids_of_the_rules_in_order(lang: str) -> None:
    assert rule_ids(read(f"rules.{lang}.md")) == rule_ids(ENGLISH)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_has_the_headings_of_the_rules(lang: str) -> None:
    """The same levels of heading in the same order, a rule's heading with its rule id."""
    english, translated = headings(ENGLISH), headings(read(f"rules.{lang}.md"))
    assert [level for level, _ in translated] == [level for level, _ in english]
    for (_, ours), (_, theirs) in zip(english, translated, strict=True):
        rule = re.match(r"R\d+ ", ours)
        assert (rule is None) == (re.match(r"R\d+ ", theirs) is None), (ours, theirs)
        if rule:
            assert theirs.startswith(rule.group(0)), (ours, theirs)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_section_keeps_every_code_span(lang: str) -> None:
    """File names, function names, notation and card ids stay as they are, section by
    section (a translation may add some)."""
    translated = sections(read(f"rules.{lang}.md"))
    for number, (ours, theirs) in enumerate(zip(sections(ENGLISH), translated, strict=True)):
        missing = set(CODE_SPAN.findall(ours)) - set(CODE_SPAN.findall(theirs))
        assert not missing, f"section {number} of rules.{lang}.md lacks {sorted(missing)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_keeps_its_data(lang: str) -> None:
    """The card set, the bank, the notation and the other tables: row by row the same
    code spans and the same numbers (R2's 4/5/7, the card set's costs and ids...)."""
    english, translated = tables(ENGLISH), tables(read(f"rules.{lang}.md"))
    assert [len(t) for t in translated] == [len(t) for t in english]
    for ours, theirs in zip(english, translated, strict=True):
        for our_row, their_row in zip(ours, theirs, strict=True):
            assert row_data(their_row) == row_data(our_row), (our_row, their_row)


def persian_documents() -> list[str]:
    """Every Persian document: the rules, the help page when it exists, the glossary."""
    names = ["rules.fa.md", "help.fa.md", "glossary.md"]
    return [name for name in names if (DOCS / name).exists()]


@pytest.mark.parametrize("name", persian_documents())
def test_persian_uses_persian_letters_not_arabic_forms(name: str) -> None:
    found = [
        f"line {n}: {ARABIC_FORMS[c]}"
        for n, line in enumerate(read(name).splitlines(), start=1)
        for c in line
        if c in ARABIC_FORMS
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", persian_documents())
def test_persian_verb_prefixes_are_joined_with_zwnj(name: str) -> None:
    """«می‌کنید», «نمی‌شود»: the prefix is kept apart from the verb by a ZWNJ, never run
    into it (the seed texts lost theirs) and never split by a space."""
    text = read(name)
    words = PERSIAN_WORD.findall(text)
    unjoined = [
        w
        for w in words
        if re.match(r"ن?می[^\u200c]", w) and w.split(ZWNJ)[0] not in NOT_A_VERB_PREFIX
    ]
    assert not unjoined, f"می/نمی without a ZWNJ: {sorted(set(unjoined))}"
    assert not re.search(r"(?<![\u0600-\u06ff])ن?می (?=[\u0600-\u06ff])", text), "می split"
    joined = sum(1 for w in words if re.match(rf"ن?می{ZWNJ}", w))
    assert joined >= (1 if name == "glossary.md" else 10), "too few verb prefixes"


@pytest.mark.parametrize("name", persian_documents())
def test_persian_zwnj_stands_only_inside_a_word(name: str) -> None:
    """A ZWNJ between two Persian letters, never at a word's edge or doubled."""
    stray = re.findall(rf".?(?:(?<![\u0600-\u06ff]){ZWNJ}|{ZWNJ}(?![\u0600-\u06ff])).?", read(name))
    assert not stray, f"ZWNJ at a word's edge: {stray!r}"


def persian_prose(text: str) -> str:
    """The prose of a Persian document: no tables, no code spans, no rule or noble ids,
    no list numbers."""
    lines = ["" if line.startswith("|") else line for line in text.splitlines()]
    prose = CODE_SPAN.sub(" ", "\n".join(lines))
    prose = re.sub(r"\b[RN]\d+\b", " ", prose)
    return re.sub(r"^\s*\d+\. ", " ", prose, flags=re.MULTILINE)


@pytest.mark.parametrize("name", [n for n in persian_documents() if n != "glossary.md"])
def test_persian_prose_has_persian_digits(name: str) -> None:
    """Numbers in Persian prose are written ۰-۹; Latin digits stay in code, rule ids,
    list numbers and tables (which are data)."""
    found = [
        f"line {n}: {line.strip()[:60]}"
        for n, line in enumerate(persian_prose(read(name)).splitlines(), start=1)
        if re.search(r"[0-9]", line)
    ]
    assert not found, "\n".join(found)


# The help pages: the parts each must have, the fields each part fills in, and the rule ids
# the English help cites (client/screens/help.py: GOAL, then RULES), in that order.
HELP_FIELDS = {
    "goal": {"target", "longer"},
    "longer": {"standard"},
    "rules": set(),
    "notation": set(),
}
HELP_RULE_IDS = [f"R{n}" for n in (15, 1, 2, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18)]


def help_parts(lang: str) -> dict[str, str]:
    """A help page's parts by name (its `## ` headings)."""
    text = read(f"help.{lang}.md")
    names = [title for level, title in headings(text) if level == 2]
    return dict(zip(names, sections(text), strict=True))


@pytest.mark.parametrize(
    "lang", [lang for lang in LANGUAGES if (DOCS / f"help.{lang}.md").exists()]
)
def test_a_help_page_has_the_parts_fields_and_rule_ids_of_the_english(lang: str) -> None:
    parts = help_parts(lang)
    assert list(parts) == list(HELP_FIELDS)
    for name, fields in HELP_FIELDS.items():
        assert set(re.findall(r"\{(\w*)\}", parts[name])) == fields, name
    cited = re.findall(r"\b(R\d+)\b", parts["goal"] + parts["rules"])
    assert cited == HELP_RULE_IDS
    for notation in ("take W U G", "take R R", "reserve 1-07", "reserve deck 2", "buy 2-14"):
        assert f"`{notation}`" in parts["notation"]


# The things the glossary must name (issue 34): the English column holds each of them.
GLOSSARY_TERMS = (
    *("(`W`)", "(`U`)", "(`G`)", "(`R`)", "(`K`)", "gold (`*`)", "token", "development card"),
    *("level 1: mines", "level 2: workshops", "level 3: caravans", "noble", "prestige"),
    *("bonus", "reserve", "buy", "take", "return", "pass", "turn", "round", "easy bot"),
    *("medium bot", "hard bot", "table", "seat", "lobby", "rematch", "clock", "rated"),
)


def test_the_glossary_gives_every_thing_in_four_languages() -> None:
    rows = [row for table in tables(read("glossary.md")) for row in table[1:]]
    cells = [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows]
    assert all(len(row) == 5 and all(row[:4]) for row in cells), "a row lacks a language"
    english = [row[0] for row in cells]
    missing = [t for t in GLOSSARY_TERMS if not any(e.startswith(t) or t in e for e in english)]
    assert not missing, f"the glossary lacks {missing}"
