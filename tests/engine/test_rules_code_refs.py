"""The rules' "Code:" and "Tests:" lines point at what exists (docs/rules*.md): every
cited file is in the repo and every name cited in brackets after a file is in that file.
A split or a rename that leaves a rule pointing nowhere fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("rules*.md"))
CITED = re.compile(r"`([\w./]+\.py)`(?:\s*\(([^)]*)\))?")
NAME = re.compile(r"`([A-Za-z_]\w*)`")


def citations(doc: Path) -> list[tuple[str, list[str]]]:
    """(file, names) for each file cited in a "Code:"/"Tests:" paragraph of the rules."""
    found = []
    for paragraph in doc.read_text(encoding="utf-8").split("\n\n"):
        if "`shared/" not in paragraph and "`tests/" not in paragraph:
            continue
        for m in CITED.finditer(paragraph):
            found.append((m.group(1), NAME.findall(m.group(2) or "")))
    return found


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_cited_file_and_name_exists(doc: Path) -> None:
    cited = citations(doc)
    assert len(cited) >= 20, "the rules cite their code and tests"
    missing = []
    for path, names in cited:
        source = ROOT / path
        if not source.is_file():
            missing.append(path)
            continue
        text = source.read_text(encoding="utf-8")
        missing += [f"{path}: {n}" for n in names if not re.search(rf"\b{n}\b", text)]
    assert not missing, f"{doc.name} points at what is not there: {missing}"
