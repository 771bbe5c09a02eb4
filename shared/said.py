"""A `shared.i18n.Text` on the wire: its English key, fields, plural and count, so that a
client shows a host's message in its own reader's language (issue 34; added to protocol 3
with defaults). The English text travels beside it for a client that translates nothing."""

from __future__ import annotations

import json
from typing import Any

from .i18n import Field, Text
from .reading import ProtocolError, Reader, as_map, shown

MAX_KEY = 2000  # characters in a message's key or plural
MAX_FIELD = 400  # characters in one field's value
MAX_FIELDS = 12


def wire(t: Text) -> dict[str, Any]:
    """`t` as a map of plain values (a field that is a `Text` is a map too, two deep at most)."""
    out: dict[str, Any] = {"k": t.key}
    if t.fields:
        out["f"] = {k: wire(v) if isinstance(v, Text) else v for k, v in t.fields}
    if t.plural is not None and t.count is not None:
        out["p"], out["n"] = t.plural, t.count
    return out


def read(x: object, what: str, depth: int = 0) -> Text:
    """A `Text` from its wire map, every string made safe to show (`shared.text`)."""
    r = Reader(as_map(x, what), what)
    key = shown(r.text("k", MAX_KEY), MAX_KEY)
    raw = r.get("f", {})
    if not isinstance(raw, dict) or len(raw) > MAX_FIELDS:
        raise r.bad("f", f"a map of {MAX_FIELDS} fields at most")
    fields: list[tuple[str, Field | Text]] = []
    for name, value in raw.items():
        if not isinstance(name, str) or not name.isidentifier() or len(name) > 40:
            raise r.bad("f", "a map whose keys are field names")
        if isinstance(value, dict) and depth < 2:
            fields.append((name, read(value, f"{what}.{name}", depth + 1)))
        elif isinstance(value, str) and len(value) <= MAX_FIELD:
            fields.append((name, shown(value, MAX_FIELD) if value else ""))
        elif type(value) in (int, float):
            fields.append((name, value))
        else:
            raise ProtocolError(f"{what}: field {name} should be text or a number")
    if r.d.get("p") is None:
        return Text(key, tuple(fields))
    plural = shown(r.text("p", MAX_KEY), MAX_KEY)
    return Text(key, tuple(fields), plural, r.integer("n", -(1 << 62), 1 << 62))


def stored(t: Text) -> str:
    """`t` as text to keep in the store (a seat's reason, `why`): its wire form in JSON,
    so that each reader sees it in their language when it is shown later."""
    return json.dumps(wire(t), ensure_ascii=False, separators=(",", ":"))


def from_stored(text: str) -> Text | str:
    """A `Text` kept by `stored`; text stored before (plain English) comes back as it is."""
    if text.startswith("{"):
        try:
            return read(json.loads(text), "a stored message")
        except (ValueError, ProtocolError):
            pass
    return text


def opt_read(r: Reader, key: str) -> Text | None:
    """The `Text` under `key` of a message, if it carries one."""
    value = r.d.get(key)
    return None if value is None else read(value, f"a `{r.kind}` message's {key}")
