"""Text a player reads, in the player's language, from gettext catalogs (issue 34).

`_("Table {table} has no open seat.", table=tid)` marks the English text (the catalog's
key) and fills its fields after translation; `ngettext` does the same for a count (also
field ``{n}``), `pgettext` for a message in a context. `L_` and `Ln_` make the same
text as a `Text` value, translated only when it is shown: the host raises and sends
those, so each player reads them in their own language (the host's log, which reads them
outside any session, stays English).

The reader's language is a `Reader` held in a context variable: each SSH session's app
task sets its own, so many sessions in one process each read their language, and a
change of language (the lobby's key) reaches every task of that app (docs/design.md,
"Languages"). Catalogs are the .po files under `shared/locale/`, read with Babel at the
first use of a language: nothing to compile after `pip install`.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass
from functools import cache, lru_cache, wraps
from gettext import NullTranslations
from io import BytesIO
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
ENGLISH = "en"
# Each language in its own name, as the lobby's language choice shows it.
LANGUAGES: dict[str, str] = {"en": "English", "fa": "فارسی", "cs": "Čeština", "hu": "Magyar"}
RIGHT_TO_LEFT = frozenset({"fa"})
_PERSIAN_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
Field = str | int | float
P = ParamSpec("P")
R = TypeVar("R")


READINGS = ("visual", "logical")  # how a right-to-left language is shown (`client.rtl`)


class Reader:
    """Whose language text is shown in: one per session (mutable, so that a change reaches
    every task of that session's app). `reading`: for a right-to-left language, how the
    player's terminal shows it ("visual": the app lays lines out; "logical": the terminal
    does), None until they are asked; kept with the language."""

    __slots__ = ("language", "reading")

    def __init__(self, language: str = ENGLISH, reading: str | None = None) -> None:
        self.language = known(language) or ENGLISH
        self.reading = reading if reading in READINGS else None


def known(language: str | None) -> str | None:
    """`language` if it is one of ours (``fa``, ``fa_IR.UTF-8``, ``cs-CZ`` …), else None."""
    if not language:
        return None
    code = language.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


_ENGLISH_READER = Reader()
_reader: ContextVar[Reader] = ContextVar("splendor_reader", default=_ENGLISH_READER)


def language_from_env(env: Mapping[str, str]) -> str | None:
    """The language a POSIX environment asks for: the first of LC_ALL, LC_MESSAGES, LANG
    that is set decides (as setlocale does); None when it is none of ours or unset."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return known(value)
    return None


def reader() -> Reader:
    """The reader of the current context (English outside any session)."""
    return _reader.get()


def current_language() -> str:
    return _reader.get().language


def use_reader(r: Reader) -> Token[Reader]:
    """Make `r` the reader of this context and the tasks it starts from now on."""
    return _reader.set(r)


def set_language(language: str) -> None:
    """Change the current reader's language (an unknown one leaves it as it was)."""
    code = known(language)
    if code is not None:
        r = _reader.get()
        if r is _ENGLISH_READER:  # never change the process-wide English reader
            use_reader(Reader(code))
        elif code != r.language:
            r.language, r.reading = code, None  # a way of showing goes with its language


@cache
def translations(language: str) -> NullTranslations:
    """The catalog of `language`, read from its .po file (English: the keys themselves).
    A message left untranslated reads in English."""
    if language == ENGLISH:
        return NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=language)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


class _Formatter(string.Formatter):
    """Fills fields; in Persian, numbers in Persian digits (prose only: move notation and
    ids come as strings and stay as they are)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, Text):
            value = value.render(self.language)
        shown = format(value, format_spec)
        if self.language == "fa" and isinstance(value, int | float) and not isinstance(value, bool):
            shown = shown.translate(_PERSIAN_DIGITS)
        return shown


def _fill(shown: str, key: str, language: str, fields: Mapping[str, object]) -> str:
    """`shown` (the translation of `key`) with its fields filled; a translation whose
    fields are broken reads as the English instead of failing."""
    if not fields:
        return shown
    try:
        return _Formatter(language).vformat(shown, (), fields)
    except (KeyError, IndexError, ValueError):
        return _Formatter(language).vformat(key, (), fields)


def _(message: str, /, **fields: object) -> str:
    """`message` in the reader's language, its ``{fields}`` filled in. An empty message
    stays empty (gettext's empty key is the catalog's header)."""
    language = current_language()
    shown = translations(language).gettext(message) if language != ENGLISH and message else message
    return _fill(shown, message, language, fields)


def ngettext(singular: str, plural: str, count: int, /, **fields: object) -> str:
    """The form of a message for `count` in the reader's language (the count is also field
    ``{n}``); Czech has three forms, Persian and Hungarian as CLDR says."""
    language = current_language()
    shown = translations(language).ngettext(singular, plural, count)
    return _fill(shown, singular if count == 1 else plural, language, {"n": count, **fields})


def pgettext(context: str, message: str, /, **fields: object) -> str:
    """`message` as `_` shows it, in a `context` (gettext's msgctxt): for the same English
    that a language says differently in two places, such as the board's 4-cell deck
    column ("none" left) and the lobby's clock cell ("none")."""
    language = current_language()
    shown = message
    if language != ENGLISH and message:
        shown = translations(language).pgettext(context, message)
    return _fill(shown, message, language, fields)


def N_(message: str, /) -> str:
    """Mark text for the catalog where it is defined; translate it with `_` where shown."""
    return message


@dataclass(frozen=True, slots=True)
class Text:
    """A message not yet translated: its English key, its fields and, for a count, its
    plural. `str()` shows it in the reader's language; it crosses to a client as key and
    fields (`shared.protocol`), and the client translates it."""

    key: str
    fields: tuple[tuple[str, Field | Text], ...] = ()
    plural: str | None = None
    count: int | None = None

    def render(self, language: str) -> str:
        fields: dict[str, object] = dict(self.fields)
        if self.plural is not None and self.count is not None:
            shown = translations(language).ngettext(self.key, self.plural, self.count)
            fields.setdefault("n", self.count)
        else:
            translated = language != ENGLISH and self.key  # "" is the catalog's header
            shown = translations(language).gettext(self.key) if translated else self.key
        key = self.key if self.count is None or self.count == 1 else self.plural or self.key
        return _fill(shown, key, language, fields)

    def english(self) -> str:
        return self.render(ENGLISH)

    def __str__(self) -> str:
        return self.render(current_language())


def _field(value: object) -> Field | Text:
    if isinstance(value, Text | str | bool):
        return value if not isinstance(value, bool) else str(value)
    if isinstance(value, int | float):
        return value
    return str(value)  # a move, a name...: its text, as the English shows it


def L_(message: str, /, **fields: object) -> Text:
    """`message` as a `Text`: translated where it is shown, not where it is made."""
    return Text(message, tuple((k, _field(v)) for k, v in fields.items()))


def Ln_(singular: str, plural: str, count: int, /, **fields: object) -> Text:
    """`ngettext` as a `Text`."""
    return Text(singular, tuple((k, _field(v)) for k, v in fields.items()), plural, count)


def shown(text: str | Text) -> str:
    """A message in the reader's language, whether it came marked as `Text` or as a str."""
    return str(text)


def per_language_cache(maxsize: int) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """`functools.lru_cache` keyed on the reader's language too: for the drawing caches
    that every session shares (a card drawn once for all who see it), whose lines hold
    translated words."""

    def wrap(f: Callable[P, R]) -> Callable[P, R]:
        @lru_cache(maxsize=maxsize)
        def cached(language: str, *args: Any, **kwargs: Any) -> R:
            return f(*args, **kwargs)

        @wraps(f)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            return cached(_reader.get().language, *args, **kwargs)  # type: ignore[arg-type]

        return call

    return wrap
