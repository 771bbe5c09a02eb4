"""Each test starts with the English reader, and leaves none of its own behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared import i18n


@pytest.fixture(autouse=True)
def english_reader() -> Iterator[None]:
    token = i18n.use_reader(i18n.Reader())
    yield
    i18n._reader.reset(token)
