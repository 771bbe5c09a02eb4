"""The engine's errors: one base, a syntax layer and a legality layer (docs/contributing.md)."""


class SplendorError(ValueError):
    """Anything the engine refuses."""


class InvalidMoveError(SplendorError):
    """A text that can never be a move (`take W W W`)."""


class IllegalMoveError(SplendorError):
    """A well-formed move that is not allowed in this position; the message says why."""


class CodecError(SplendorError):
    """Bytes that are not a valid encoding of ours; the message says what is wrong."""
