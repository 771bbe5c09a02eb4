"""A clone of this repository stands on its own: no tracked file points at a
document outside it. The rules, the design and the coding habits live in
docs/rules.md, docs/design.md and docs/contributing.md, and the rule numbers
(R1, R2, ...) and pitfall numbers (P1, P2, ...) cited in the code exist there."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Built from pieces, so that this file does not match its own patterns. The names of
# the outside documents are upper case; the repository's own docs are lower case, so
# the match is case-sensitive.
OUTSIDE = [
    ".." + "/shared",
    "RULES" + ".md",
    "DESIGN" + ".md",
    "STYLE" + ".md",
    "SSH_TEXTUAL" + "_NOTES",
]


def tracked_files() -> list[Path]:
    """Every file git tracks in this checkout; the test is skipped without git."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed: cannot list the tracked files")
    result = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False)
    if result.returncode != 0:
        reason = result.stderr.decode(errors="replace").strip()
        pytest.skip(f"not a git checkout, cannot list the tracked files: {reason}")
    names = [name for name in result.stdout.decode().split("\0") if name]
    return [ROOT / name for name in names if (ROOT / name).is_file()]


def read_text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def test_no_tracked_file_points_outside_the_repository() -> None:
    found: list[str] = []
    for path in tracked_files():
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            for pattern in OUTSIDE:
                if pattern in line:
                    where = path.relative_to(ROOT).as_posix()
                    found.append(f"{where}:{number}: {pattern!r} in {line.strip()[:100]!r}")
    assert not found, "references to documents outside the repository:\n" + "\n".join(found)


def sections(doc: str, prefix: str) -> set[int]:
    """The numbers of the `### R7 ...` (or `**P7. ...`) sections of a document in docs/."""
    text = (ROOT / "docs" / doc).read_text()
    heading = rf"^(?:#+ |\*\*){prefix}(\d+)\b"
    return {int(n) for n in re.findall(heading, text, flags=re.MULTILINE)}


def test_the_rules_are_numbered_r1_to_r18() -> None:
    assert sections("rules.md", "R") == set(range(1, 19))


def test_the_pitfalls_are_numbered_p1_to_p19() -> None:
    assert sections("design.md", "P") == set(range(1, 20))


def cited(pattern: str) -> dict[int, str]:
    """Each number the tracked Python and Markdown files cite, with one place citing it."""
    places: dict[int, str] = {}
    for path in tracked_files():
        if path.suffix not in (".py", ".md"):
            continue
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            for match in re.finditer(pattern, line):
                where = f"{path.relative_to(ROOT).as_posix()}:{number}"
                places.setdefault(int(match.group(1)), where)
    return places


def test_every_rule_number_cited_has_a_section_in_the_rules() -> None:
    rules = sections("rules.md", "R")
    missing = {n: where for n, where in cited(r"\bR(\d+)\b").items() if n not in rules}
    assert not missing, f"rule numbers cited but not in docs/rules.md: {missing}"


def test_every_pitfall_cited_has_a_section_in_the_design() -> None:
    pitfalls = sections("design.md", "P")
    cites = cited(r"docs/design\.md,? P(\d+)\b")
    missing = {n: where for n, where in cites.items() if n not in pitfalls}
    assert not missing, f"pitfall numbers cited but not in docs/design.md: {missing}"
