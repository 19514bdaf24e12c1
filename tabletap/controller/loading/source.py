"""Reading YAML files with located errors (the parsing itself is controller.loading.yamldoc).

Reading is bounded too: at most 1 MiB, UTF-8 only, and a non-UTF-8 file or an unprintable file
name is a sentence naming the file, never a UnicodeDecodeError.
"""

from __future__ import annotations

from pathlib import Path

from tabletap.controller.loading.bounded import MAX_BYTES, LimitError, decode_utf8
from tabletap.controller.loading.yamldoc import Loc, SourceError, YamlDoc, load_text, validate

__all__ = ["Loc", "SourceError", "YamlDoc", "load_file", "load_text", "read_text", "validate"]


def shown(path: str | Path) -> str:
    """A path as it can be printed, whatever bytes its name holds."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def read_text(path: str | Path, max_bytes: int = MAX_BYTES) -> str:
    """A text file's content within the size limit, UTF-8 only; SourceError otherwise (a
    folder, a missing file, a device that never ends, a name with undecodable bytes)."""
    p = Path(path)
    name = shown(p)
    try:
        with open(p, "rb") as fh:
            raw = fh.read(max_bytes + 1)
        return decode_utf8(raw, max_bytes)
    except (OSError, ValueError) as exc:  # ValueError: an embedded NUL, an undecodable name
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if isinstance(exc, LimitError):
            raise SourceError(name, exc.line, None, reason, exc.column) from None
        raise SourceError(name, None, None, f"cannot read it ({reason})") from None


def load_file(path: str | Path) -> YamlDoc:
    return load_text(read_text(path), shown(path))
