"""Text from outside made safe to show (pure, no I/O): `safe_text` is the one function that
every string another player, a file or a command line wrote goes through before it reaches
a screen or a log line (docs/design.md, "Text from outside").

What goes, and why:

- Escape sequences, whole: CSI (``ESC [`` or 8-bit ``0x9B``) with its parameters and
  final byte; OSC, DCS, SOS, PM and APC strings (7- or 8-bit) up to BEL or ST, or to
  the end; any other ESC with its intermediate and final bytes. Dropping only the ESC
  would leave ``]0;PWNED`` on the screen.
- Control characters: C0, DEL and C1 (NEL, VT and FF among them). A tab becomes a space;
  a line feed, a carriage return and the line and paragraph separators (U+2028, U+2029)
  become one space in a line, where a break would tear the layout or overwrite the
  line (with ``lines=True``, a break becomes ``\\n``, and a CR LF one break).
- Format characters (Unicode category Cf): the bidirectional embeddings, overrides and
  isolates (U+202A-202E, U+2066-2069), and the marks too (U+200E, U+200F, U+061C).
  A mark reorders nothing itself, but it is a strong letter of no width: it can move the
  neutral characters of the UI beside it (a colon, a bracket, a score) in a terminal
  that lays out right-to-left text, and a name or a line needs none, its letters carry
  their own direction. Also zero-width spaces, word joiners, soft hyphens, invisible
  operators and tag characters (a subdivision flag's tags go: it shows as a black
  flag). Right-to-left letters themselves stay, in the order they were written.
- ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER (U+200C, U+200D) stay where a language or
  an emoji needs them: between two letters, marks or symbols, not both ASCII (Persian
  ``می‌خواهم``, Indic conjuncts, ``👩‍💻``). Elsewhere (at an end, beside a space, inside
  an ASCII word, where it could hide in a name) it goes, and a run keeps its last.
- Surrogates, private-use characters (terminals draw icons and images with them),
  noncharacters and code points unassigned in this Python's Unicode.
- Combining marks past `MAX_MARKS` on one base (a "zalgo" flood), and marks with no
  base in the text (at its start, after a space or a break): they would be drawn over
  whatever the screen shows before the field.

What is done to the rest: NFC normalisation, so a decomposed ``ř`` (``r`` and a caron)
becomes the precomposed letter terminals draw best, and one text has one spelling; it
reorders nothing visible (at most marks on one base, into their canonical order).
Variation selectors, skin tones and flags stay. Every kind of space becomes ``' '``;
in a line, runs of spaces become one and the ends are trimmed.

Lengths: at most `limit` characters (code points). A longer text is cut where a
character ends (never between a letter and its marks, nor inside a joined sequence
or a flag) and ends with ``…``, which counts. Only the first ``8 * limit + 64``
characters are read, so a 50 MB comment costs no more than a short one. The result
is idempotent: ``safe_text(safe_text(t, n), n) == safe_text(t, n)``.

Written here rather than taken from a library: `shared/` imports only the standard
library, and no package on PyPI does escapes, bidirectional controls, joiners and mark
floods together.
"""

from __future__ import annotations

import re
import unicodedata

MAX_MARKS = 5  # combining marks on one base: pointed Biblical Hebrew needs five
ELLIPSIS = "…"

# Escape sequences, 7-bit and 8-bit: CSI with its parameter, intermediate and final
# bytes; the string commands (OSC, DCS, SOS, PM, APC) up to BEL or ST, or the end; any
# other ESC with its intermediate bytes and final byte (nF, Fp, Fe, Fs forms).
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?",
)
_CRLF = re.compile(r"\r\n")
_BREAKS = frozenset("\n\r\u2028\u2029")
JOINERS = frozenset("\u200c\u200d")  # ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER
# Controls, formats, surrogates, private use, unassigned (noncharacters are unassigned).
_DROP = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
_JOINABLE = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "So", "Sk"))
_MARKS = frozenset(("Mn", "Mc", "Me"))


def safe_text(text: str, limit: int, *, lines: bool = False) -> str:
    """`text` as it may be shown: one line of at most `limit` characters, or with `lines`
    several (see the module docstring for what goes and why)."""
    if limit < 1:
        raise ValueError(f"a limit of {limit} characters")
    text = _ESCAPES.sub("", text[: 8 * limit + 64])
    if lines:
        text = _CRLF.sub("\n", text)
    kept = unicodedata.normalize("NFC", _visible(text, "\n" if lines else " "))
    shown = _joined(_marked(kept))
    if not lines:
        shown = " ".join(word for word in shown.split(" ") if word)
    return shown if len(shown) <= limit else _cut(shown, limit, lines)


def is_safe(text: str, limit: int, *, lines: bool = False) -> bool:
    """Whether `text` is as `safe_text` leaves it."""
    return safe_text(text, limit, lines=lines) == text


def _visible(text: str, brk: str) -> str:
    """Breaks as `brk`, spaces as ' ', the joiners kept for now, other controls and
    formats, surrogates, private use and unassigned code points gone."""
    out = []
    for ch in text:
        if ch in _BREAKS:
            out.append(brk)
        elif ch == "\t":
            out.append(" ")
        elif ch in JOINERS:
            out.append(ch)
        else:
            kind = unicodedata.category(ch)
            if kind[0] == "Z":
                out.append(brk if kind in ("Zl", "Zp") else " ")
            elif kind not in _DROP:
                out.append(ch)
    return "".join(out)


def _marked(text: str) -> str:
    """Combining marks kept only on a base, and `MAX_MARKS` at most on one."""
    out = []
    marks, based = 0, False
    for ch in text:
        if unicodedata.category(ch) in _MARKS:
            if based and marks < MAX_MARKS:
                out.append(ch)
                marks += 1
            continue
        marks, based = 0, ch not in " \n" and ch not in JOINERS
        out.append(ch)
    return "".join(out)


def _joinable(ch: str) -> bool:
    return unicodedata.category(ch) in _JOINABLE if ch else False


def _joined(text: str) -> str:
    """Joiners kept only between two letters, marks or symbols, not both ASCII."""
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch in JOINERS:
            before = out[-1] if out else ""
            after = text[i + 1] if i + 1 < len(text) else ""
            if not (_joinable(before) and _joinable(after)) or (before + after).isascii():
                continue
        out.append(ch)
    return "".join(out)


def _boundary(text: str, i: int) -> bool:
    """Whether `text` may be cut before index `i`: not inside a letter with its marks, a
    joined sequence, a flag (a pair of regional indicators) or a skin-toned emoji."""
    ch = text[i]
    if unicodedata.category(ch) in _MARKS or ch in JOINERS or text[i - 1] in JOINERS:
        return False
    if "\U0001f3fb" <= ch <= "\U0001f3ff":
        return False
    if "\U0001f1e6" <= ch <= "\U0001f1ff":
        run = i
        while run > 0 and "\U0001f1e6" <= text[run - 1] <= "\U0001f1ff":
            run -= 1
        return (i - run) % 2 == 0
    return True


def _cut(text: str, limit: int, lines: bool) -> str:
    """`text` cut to `limit` characters, the last an ellipsis."""
    end = limit - 1
    while end > 0 and not _boundary(text, end):
        end -= 1
    head = text[:end] if lines else text[:end].rstrip(" ")
    return head + ELLIPSIS
