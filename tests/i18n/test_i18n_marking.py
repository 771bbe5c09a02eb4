"""No player-visible literal left unmarked where it can be checked (issue 34): an AST scan
of the client for text given straight to what shows it (notify, Static, Label, the prompt
line's say and refuse, a Static's update, a Choice's label, placeholders, key bindings'
descriptions and tooltips, a card slot's label, key lines) without `_`, `N_` or
`ngettext` around it. Text that is not words (markup, symbols, key names) is not a
message."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOWN_BY = {"notify", "Static", "Label", "say", "refuse", "update", "Choice", "show_notice"}
SHOWN_AS = {"placeholder", "tooltip", "empty", "description", "label"}
MARKS = {"_", "N_", "ngettext", "L_", "Ln_"}
# Text that names keys or is markup only, shown as it is in every language.
ALLOWED = re.compile(r"^[\s\W\d]*$|^(esc|Tab|Enter|PgUp PgDn|Home End|↑ ↓ PgUp PgDn)$")


def words(node: ast.expr) -> str | None:
    """The literal text of a str constant or an f-string (its fixed parts), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (words(node.left) or "") + (words(node.right) or "") or None
    return None


def is_message(text: str) -> bool:
    plain = re.sub(r"\[/?[^\]]*\]", "", text)  # Rich markup
    return bool(re.search(r"[A-Za-z]{2,}", plain)) and not ALLOWED.match(plain.strip())


def unmarked(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        shown: list[ast.expr] = []
        if name in SHOWN_BY:
            shown += node.args[:1]
        if name == "Binding":
            shown += node.args[2:3]
        shown += [k.value for k in node.keywords if k.arg in SHOWN_AS]
        for arg in shown:
            text = words(arg)
            if text is not None and is_message(text):
                found.append(f"{path.relative_to(ROOT)}:{arg.lineno}: {text[:60]!r}")
    return found


def key_lines(path: Path) -> list[str]:
    """Key lines (key, shown, what it does): what it does is a message."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    unpacked = {  # `x in ("a", "b", "c")` tests a value: not a key line
        id(c) for n in ast.walk(tree) if isinstance(n, ast.Compare) for c in n.comparators
    }
    unpacked |= {  # `for part in ("a", "b", "c")` walks names: not a key line
        id(n.iter) for n in ast.walk(tree) if isinstance(n, ast.For | ast.comprehension)
    }
    unpacked |= {  # `for name, x in zip(("a", "b", "c"), xs)` walks names too
        id(arg)
        for n in ast.walk(tree)
        if isinstance(n, ast.For | ast.comprehension) and isinstance(n.iter, ast.Call)
        for arg in n.iter.args
    }
    unpacked |= {  # `A, B, C = "a", "b", "c"` names three things: not a key line
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Tuple)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and len(node.elts) == 3 and id(node) not in unpacked:
            key, shown, what = node.elts
            if all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in (key, shown)):
                text = words(what)
                if text is not None and is_message(text):
                    found.append(f"{path.relative_to(ROOT)}:{what.lineno}: {text!r}")
    return found


@pytest.mark.parametrize(
    "path", sorted((ROOT / "client").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_what_the_client_shows_is_marked_for_the_catalog(path: Path) -> None:
    assert unmarked(path) + key_lines(path) == []


def test_the_scan_finds_an_unmarked_message(tmp_path: Path) -> None:
    source = ROOT / "client" / "probe_for_the_test.py"
    sample = tmp_path / "sample.py"
    sample.write_text(
        'self.notify(f"Table {t} is full")\n'
        'self.notify(_("Table {t} is full", t=t))\n'
        'Binding("q", "quit", "Quit")\n'
        'Binding("b", "buy", N_("Buy"), tooltip="Buy a card")\n'
        'KEYS = (("q", "q", "Quit"), ("b", "b", N_("Buy")), ("", "↑ ↓", "↑"))\n'
        'yield Static("[b]↑↓[/b]: 2")\n'
        'for name, t in zip(("top", "side", "counts"), texts): pass\n'
    )
    assert not source.exists()
    found = [line.split(": ", 1)[1] for line in unmarked_at(sample) + key_lines_at(sample)]
    assert found == ["'Table  is full'", "'Quit'", "'Buy a card'", "'Quit'"]


def unmarked_at(path: Path) -> list[str]:
    return [f"x:{line}" for line in _relative(unmarked, path)]


def key_lines_at(path: Path) -> list[str]:
    return [f"x:{line}" for line in _relative(key_lines, path)]


def _relative(scan, path: Path) -> list[str]:  # type: ignore[no-untyped-def]
    global ROOT
    saved, ROOT = ROOT, path.parent
    try:
        return [line.split(":", 1)[1] for line in scan(path)]
    finally:
        ROOT = saved
