"""Reading one message's fields, each checked as it is read: what `shared.protocol`'s
decoders are made of. A field that is missing or wrong is a `ProtocolError` that names
the message and the field. Text a person or a file wrote is read as a `line`: cleaned
for the screen as it enters (`shared.text.safe_text`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .codec import CodecError
from .messages import BOT_LEVELS
from .text import safe_text


class ProtocolError(CodecError):
    """Bytes that decode but are not a valid message of the expected kind."""


T = TypeVar("T")
MISSING: Any = object()


class Reader:
    """The fields of one message map, each checked as it is read."""

    def __init__(self, d: dict[str, Any], kind: str) -> None:
        self.d, self.kind = d, kind

    def bad(self, key: str, should: str) -> ProtocolError:
        return ProtocolError(f"a `{self.kind}` message: {key} should be {should}")

    def get(self, key: str, default: Any) -> Any:
        value = self.d.get(key, default)
        if value is MISSING:
            raise ProtocolError(f"a `{self.kind}` message needs {key}")
        return value

    def integer(self, key: str, lo: int, hi: int, default: Any = MISSING) -> int:
        value = self.get(key, default)
        if type(value) is not int or not lo <= value <= hi:
            raise self.bad(key, f"a whole number from {lo} to {hi}")
        return value

    def real(self, key: str, default: Any = MISSING) -> float:
        value = self.get(key, default)
        if type(value) not in (int, float) or not 0 <= value < 1e12:
            raise self.bad(key, "a number")
        return float(value)

    def ints(self, key: str, default: Any = MISSING, most: int = 1 << 16) -> tuple[int, ...]:
        value = self.get(key, default)
        if not isinstance(value, tuple) or not all(type(v) is int for v in value):
            raise self.bad(key, "a list of whole numbers")
        if len(value) > most:
            raise self.bad(key, f"a list of {most} at most")
        return value

    def opt_integer(self, key: str, lo: int, hi: int) -> int | None:
        return None if self.d.get(key) is None else self.integer(key, lo, hi)

    def flag(self, key: str, default: Any = MISSING) -> bool:
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise self.bad(key, "true or false")
        return value

    def text(self, key: str, limit: int, default: Any = MISSING) -> str:
        value = self.get(key, default)
        if not isinstance(value, str) or not 0 < len(value) <= limit:
            raise self.bad(key, f"text of 1 to {limit} characters")
        return value

    def opt_text(self, key: str, limit: int) -> str | None:
        return None if self.d.get(key) is None else self.text(key, limit)

    def line(self, key: str, limit: int, default: Any = MISSING) -> str:
        """Text of 1 to `limit` characters that is shown (a name, a notice), made safe."""
        return shown(self.text(key, limit, default), limit)

    def opt_line(self, key: str, limit: int) -> str | None:
        return None if self.d.get(key) is None else self.line(key, limit)

    def level(self, key: str, default: Any = MISSING) -> str:
        value = self.get(key, default)
        if value not in BOT_LEVELS:
            raise self.bad(key, f"a bot level: {', '.join(BOT_LEVELS)}")
        return str(value)

    def seq(
        self,
        key: str,
        item: Callable[[Any, str], T],
        default: Any = MISSING,
        most: int = 1 << 16,
    ) -> tuple[T, ...]:
        value = self.get(key, default)
        if not isinstance(value, tuple):
            raise self.bad(key, "a list")
        if len(value) > most:
            raise self.bad(key, f"a list of {most} at most")
        return tuple(item(v, f"{key}[{i}]") for i, v in enumerate(value))


def as_map(x: object, what: str) -> dict[str, Any]:
    if not isinstance(x, dict):
        raise ProtocolError(f"{what} should be a map")
    return x


def shown(text: str, limit: int) -> str:
    """`text` as a screen may show it (`shared.text.safe_text`); "?" if nothing is left."""
    return safe_text(text, limit) or "?"


def line_item(limit: int) -> Callable[[object, str], str]:
    """A list's item that is shown (a name): text of 1 to `limit` characters, made safe."""
    item = text_item(limit)
    return lambda x, what: shown(item(x, what), limit)


def text_item(limit: int) -> Callable[[object, str], str]:
    def item(x: object, what: str) -> str:
        if not isinstance(x, str) or not 0 < len(x) <= limit:
            raise ProtocolError(f"{what} should be text of 1 to {limit} characters")
        return x

    return item
