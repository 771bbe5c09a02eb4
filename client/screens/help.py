"""The help screen: the keys of the moment and how to read the table (the screen that
opens it hands that page over), the rules in short (docs/rules.md, R1–R18, with the
game's own target for R15) and every key of the screens the app shows (handed over too,
so this module imports no screen)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from shared.constants import WINNING_PRESTIGE
from shared.i18n import ENGLISH, N_, _, current_language
from shared.settings import GameSettings

GOAL = N_("""\
[b]Goal[/b]  Most prestige wins. Reaching [b]{target}[/b] at the end of your turn starts \
the final round: it ends when every player has had the same number of turns (R15).{longer}

""")
LONGER = N_(" In the rules it is {standard}: this table plays a longer game.")
RULES = N_("""\
[b]Tokens[/b]  Gems [b]W[/b] white, [b]U[/b] blue, [b]G[/b] green, [b]R[/b] red, \
[b]K[/b] black; [b]*[/b] gold is a joker (R1). The bank has 4, 5 or 7 of each gem for \
2, 3 or 4 players, and always 5 gold (R2).

[b]Your turn: exactly one action[/b]
 • [b]Take 3 different gems[/b] (R7). Only when fewer than 3 colours are left, take \
one of each colour left.
 • [b]Take 2 of one colour[/b], only if its pile holds 4 or more before you take (R8).
 • [b]Reserve[/b] a face-up card or the top card of a deck (blind: nobody else sees \
it) and take 1 gold if any is left. You may hold 3 reserved cards at most (R9).
 • [b]Buy[/b] a face-up card or one of your reserved cards (R10). Your cards' bonuses \
lower the cost of each colour; gold covers any shortfall, one gold per missing token. \
Spent tokens go back to the bank. An empty slot is refilled from its deck (R11).
 • [b]Pass[/b], only when none of these is possible (R12).

[b]End of your turn[/b]  Over 10 tokens? Return tokens of your choice down to 10 \
(R13). A noble whose demand your card bonuses meet visits you: 3 prestige, at most \
one per turn, the first in table order (R14).

[b]Scoring[/b]  Prestige = cards' prestige + 3 per noble (R16). On a tie, fewer cards \
bought ranks higher; still tied, the rank is shared (R17). If every player passes in a \
row, the game ends as it stands (R18).

""")


DOCS = Path(__file__).resolve().parents[2] / "docs"  # in a checkout: the rules' translations


def help_parts(language: str) -> dict[str, str] | None:
    """docs/help.<language>.md's parts (goal, longer, rules, notation: the rules in short
    in that language, R1-R18 as in docs/rules.md), when it is there (a checkout), else
    None: the rules in short come through the catalog then."""
    path = DOCS / f"help.{language}.md"
    if language == ENGLISH or not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    parts = re.split(r"^## +(\w+) *$", text, flags=re.M)
    found = {name: body.strip() for name, body in zip(parts[1::2], parts[2::2], strict=True)}
    return found if {"goal", "rules"} <= found.keys() else None


def markup(text: str) -> str:
    """A help file's text as the help shows it: **bold** and `code` bold, "- " a bullet,
    paragraphs apart; anything else as written (square brackets are not markup)."""
    text = escape(text)
    text = re.sub(r"\*\*(.+?)\*\*", r"[b]\1[/b]", text)
    text = re.sub(r"`([^`]+)`", r"[b]\1[/b]", text)
    text = re.sub(r"^- ", " • ", text, flags=re.M)
    return re.sub(r"\n{2,}", "\n\n", text) + "\n\n"


def rules_page(settings: GameSettings | None = None) -> RenderableType:
    """The help's rules page in the reader's language: docs/help.<language>.md when there
    is one, else the rules in short through the catalog; the game's target in R15."""
    target = WINNING_PRESTIGE if settings is None else settings.target
    parts = help_parts(current_language())
    if parts is None:
        return rules_text(settings)
    longer = ""
    if target != WINNING_PRESTIGE and parts.get("longer"):
        longer = " " + parts["longer"].replace("{standard}", str(WINNING_PRESTIGE))
    goal = parts["goal"].replace("{target}", str(target)).replace("{longer}", longer)
    return (
        "".join(
            markup(parts[name]) if name != "goal" else markup(goal)
            for name in ("goal", "rules", "notation")
            if name in parts
        ).rstrip()
        + "\n"
    )


def rules_text(settings: GameSettings | None = None) -> str:
    """The rules in short, with the game's target in R15 (None: the rules' game)."""
    target = WINNING_PRESTIGE if settings is None else settings.target
    longer = "" if target == WINNING_PRESTIGE else _(LONGER, standard=WINNING_PRESTIGE)
    return _(GOAL, target=target, longer=longer) + _(RULES)


KeyGroups = Sequence[tuple[str, Sequence[BindingType]]]
KeyRows = Sequence[tuple[str, str]]


def key_page(title: str, rows: KeyRows, key_width: int = 14) -> Group:
    """A title, then a row for each key (bold) and what it does: a description too long
    for the line goes on indented under itself, never under the keys."""
    grid = Table.grid(padding=(0, 0, 0, 1), pad_edge=True)
    grid.add_column(no_wrap=True, min_width=key_width + 1)
    grid.add_column()
    for keys, what in rows:
        grid.add_row(Text(_(keys), style="bold"), Text(_(what)))
    return Group(Text(_(title), style="bold"), grid)


def keys_page(groups: KeyGroups) -> Group:
    """Every key of each group of bindings, for the help screen's last page."""
    parts: list[RenderableType] = [Text(_("Keys"), style="bold")]
    for title, bindings in groups:
        rows = [
            (" ".join(_key_name(k) for k in b.key.split(",")), _(b.tooltip or b.description))
            for b in bindings
            if isinstance(b, Binding) and (b.tooltip or b.description)
        ]
        parts += [Text(""), key_page(title, rows, key_width=18)]
    return Group(*parts)


def _key_name(key: str) -> str:
    names = {
        "question_mark": "?",
        "colon": ":",
        "asterisk": "*",
        "enter": "Enter",
        "escape": "Esc",
        "space": "Space",
        "backspace": "Backspace",
        "ctrl+c": "Ctrl+C",
        "ctrl+q": "Ctrl+Q",
    }
    return names.get(key, key)


class HelpScreen(ModalScreen[None]):
    """Help in pages: what the keys do now (and how to read the table), the rules in short,
    every key. Tab or ← → turns the page; Esc, q or ? closes it. Each page fits 80×24."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", N_("Close")),
        Binding("tab,right,l", "turn(1)", show=False),
        Binding("shift+tab,left,h", "turn(-1)", show=False),
        Binding("j,down", "scroll(1)", show=False),
        Binding("k,up", "scroll(-1)", show=False),
        Binding("pagedown,space", "scroll(10)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
    ]

    def __init__(
        self,
        groups: KeyGroups,
        now: RenderableType | None = None,
        legend: str = "",
        settings: GameSettings | None = None,
    ) -> None:
        super().__init__()
        self.groups = groups  # (title, bindings) of each screen the keys of which it lists
        self.pages: list[tuple[str, RenderableType]] = []
        self.pages += [(_("Now"), now)] if now is not None else []  # the keys of the moment
        self.pages += [(_("The table"), _(legend))] if legend else []  # how to read it
        self.pages += [(_("Rules"), rules_page(settings)), (_("Every key"), keys_page(groups))]
        self.at = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body", classes="dialog wide-dialog"):
            yield Static(id="help-tabs", classes="dialog-title")
            for i, (_title, text) in enumerate(self.pages):
                yield Static(text, classes="dialog-text help-page", id=f"help-page-{i}")
            yield Static(
                _("Tab ← →: next page   ↑↓ j k: scroll   Esc, q or ?: close"), classes="dialog-keys"
            )

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        tabs = "  ".join(
            f"[reverse] {title} [/reverse]" if i == self.at else f" {title} "
            for i, (title, _text) in enumerate(self.pages)
        )
        self.query_one("#help-tabs", Static).update(_("Splendor help   {tabs}", tabs=tabs))
        for i in range(len(self.pages)):
            self.query_one(f"#help-page-{i}").display = i == self.at
        self.query_one("#help-body", VerticalScroll).scroll_home(animate=False)

    def action_turn(self, step: int) -> None:
        self.at = (self.at + step) % len(self.pages)
        self._show()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, lines: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_relative(y=lines, animate=False)
